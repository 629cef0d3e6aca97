"""Generated body shapes: the inertia-equivalent ellipsoid reproduces the inertia; bones join joint centres."""
import numpy as np

from engine import algorithms as alg
from engine.data import Data
from engine.display.shapes import Capsule, Ellipsoid, body_shapes, inertia_ellipsoid, joint_centres
from engine.model import Body
from engine.spatial import body_fixed_xyz
from tests.muscles.path_models import wrap_model


def test_ellipsoid_has_the_bodys_inertia():
    a, b, c, m = 0.2, 0.05, 0.08, 3.0
    R = body_fixed_xyz([0.3, -0.4, 1.1])
    inertia = R @ (m / 5 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])) @ R.T
    e = inertia_ellipsoid(Body("b", m, (0.01, 0.02, 0.03), inertia))
    assert np.allclose(e.centre, [0.01, 0.02, 0.03])
    assert np.isclose(np.linalg.det(e.axes), 1.0)
    rebuilt = e.axes @ (m / 5 * np.diag([e.radii[1] ** 2 + e.radii[2] ** 2, e.radii[0] ** 2 + e.radii[2] ** 2,
                                           e.radii[0] ** 2 + e.radii[1] ** 2])) @ e.axes.T
    assert np.allclose(rebuilt, inertia, rtol=1e-12, atol=1e-15)
    assert np.allclose(np.sort(e.radii), [b, c, a])
    assert inertia_ellipsoid(Body("g", 0.0, massless=True)) is None


def test_bones_run_between_joint_centres_and_leaves_are_ellipsoids():
    model = wrap_model()
    data = Data(model)
    alg.forward_kinematics(model, data, alg.neutral(model))
    proximal, distal = joint_centres(model, "lower", alg.body_placements(model, data))
    assert np.allclose(proximal, 0.0) and np.allclose(distal, [[0.0, -0.25, 0.0]])    # the strip's mount
    shapes = body_shapes(model)
    (upper,) = shapes["upper"]
    assert isinstance(upper, Capsule) and np.allclose(upper.end, [0.0, -0.3, 0.0]) and upper.radius > 0.008
    assert isinstance(shapes["tip"][0], Ellipsoid)
    (lower,) = shapes["lower"]
    assert isinstance(lower, Capsule) and np.allclose(lower.end, [0.0, -0.25, 0.0])
