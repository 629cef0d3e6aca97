"""Virtual joint centres: Harrington's hip centre against the regression written out in a pelvis placed and
turned at random (the paper's pelvis frame built by hand here), and mid-points."""
import numpy as np
from scipy.spatial.transform import Rotation

from engine.protocols.joint_centres import harrington


def test_harrington_in_a_turned_and_moved_pelvis():
    rng = np.random.default_rng(7)
    width, depth = 0.24, 0.16                       # m: ASIS to ASIS, ASIS midpoint to PSIS midpoint
    # the pelvis in its own frame: x forward, y up, z right; origin midway between the ASIS
    rasi, lasi, mid_psis = np.array([0, 0, width / 2]), np.array([0, 0, -width / 2]), np.array([-depth, 0.0, 0])
    # Harrington et al. 2007, in millimetres
    right = np.array([-0.24 * depth * 1e3 - 9.9, -0.30 * width * 1e3 - 10.9, 0.33 * width * 1e3 + 7.3]) / 1e3
    left = right * (1, 1, -1)
    R = Rotation.random(5, random_state=rng).as_matrix()
    p = rng.normal(size=(5, 3))
    place = lambda x: np.einsum("fij,j->fi", R, x) + p       # noqa: E731
    r, l_ = harrington(place(rasi), place(lasi), place(mid_psis))
    assert np.allclose(r, place(right), atol=1e-12) and np.allclose(l_, place(left), atol=1e-12)


def test_a_missing_input_gives_a_missing_centre():
    a = np.array([[0.0, 0.0, 0.12], [np.nan, 0, 0]])
    r, _ = harrington(a, a * (1, 1, -1), np.array([[-0.15, 0, 0], [-0.15, 0, 0]]))
    assert np.isfinite(r[0]).all() and np.isnan(r[1]).all()
