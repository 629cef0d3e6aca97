"""The length Jacobian ``J_l = dl/dv`` (moment arms ``-J_l``) is the derivative of the lengths.

``J_l`` is computed analytically from the span directions (no differences in the library); here
central differences of this code's own lengths check it, with respect to every velocity
coordinate, rod strains included, on a model with a point on a PCS rod, a conditional and a
moving point (driven by a coupled coordinate), and every wrap surface type and method, at random
poses (away from switch points with probability one), and on arm26, whose triceps long head wraps
over two touching surfaces.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.io.osim import read_osim
from engine.model.muscles import GeometryPath
from engine.muscles.path.geometry import MuscleGeometry
from engine.tree import compile_tree

from .path_models import random_poses, wrap_model

STEP = 1e-6
TOLERANCE = 1e-6   # m per unit coordinate; the differences themselves are good to about 1e-9


def central_differences(geometry, Q) -> np.ndarray:
    """(poses, muscles, nq) dl/dq of the model's own lengths (nq == nv for these models)."""
    out = np.empty((Q.shape[0], len(geometry.muscle_names), Q.shape[1]))
    for j in range(Q.shape[1]):
        plus, minus = Q.copy(), Q.copy()
        plus[:, j] += STEP
        minus[:, j] -= STEP
        out[:, :, j] = (geometry.compute(plus).lengths - geometry.compute(minus).lengths) / (2 * STEP)
    return out


@pytest.fixture(scope="module")
def wrapping():
    model = wrap_model()
    assert model.nq == model.nv
    Q = random_poses(model, np.random.default_rng(20261122), 120)
    geometry = MuscleGeometry(model)
    return model, geometry, Q, geometry.compute(Q)


def test_moment_arms_are_minus_the_derivative_of_the_lengths(wrapping):
    model, geometry, Q, result = wrapping
    assert not result.status.any(), result.problems()
    error = np.abs(central_differences(geometry, Q) - result.J_l)
    worst = error.max(axis=(0, 2))
    assert worst.max() <= TOLERANCE, dict(zip(geometry.muscle_names, worst))


def test_every_surface_is_wrapped_over_at_many_poses(wrapping):
    model, geometry, Q, result = wrapping
    straight = model.replace(muscles=[type(m)(**{**m.__dict__, "path": GeometryPath(m.path.points)})
                                      for m in model.muscles])
    wrapped = np.abs(result.lengths - MuscleGeometry(straight).compute(Q).lengths) > 1e-9
    for k, name in enumerate(geometry.muscle_names):
        if model.muscles[k].path.wraps:
            assert wrapped[:, k].mean() >= 0.1, f"{name} wraps at {wrapped[:, k].mean():.0%} of the poses"
    both = [len({p.wrap for p in geometry.current_path(q, "over_two_wraps")} - {None}) == 2 for q in Q]
    assert sum(both) >= 5


def test_rod_strains_move_the_point_on_the_rod(wrapping):
    model, geometry, Q, result = wrapping
    strains = [compile_tree(model).coordinates[n].vi for n in model.rod("strip").coordinate_names()]
    rod_muscle = geometry.muscle_names.index("to_the_rod")
    assert np.abs(result.J_l[:, rod_muscle][:, strains]).min(axis=0).max() > 1e-4
    others = [k for k, m in enumerate(model.muscles) if not any(p.parent in ("strip", "tip") for p in m.path.points)]
    assert not result.J_l[:, others][:, :, strains].any()


def test_speeds_are_the_jacobian_times_the_velocities(wrapping):
    model, geometry, Q, result = wrapping
    V = np.random.default_rng(3).normal(size=(Q.shape[0], model.nv))
    lengths, speeds, J = geometry.evaluate(Q, V)
    np.testing.assert_array_equal(lengths, result.lengths)
    np.testing.assert_array_equal(J, result.J_l)
    np.testing.assert_allclose(speeds, np.einsum("tmv,tv->tm", J, V), rtol=1e-13, atol=1e-15)
    assert not geometry.evaluate(Q)[1].any()


def test_threads_give_the_same_results(wrapping):
    model, geometry, Q, result = wrapping
    single = MuscleGeometry(model, threads=1).compute(Q)
    many = MuscleGeometry(model, threads=3).compute(np.tile(Q, (2, 1)))
    np.testing.assert_array_equal(single.J_l, result.J_l)
    np.testing.assert_array_equal(many.lengths, np.tile(result.lengths, (2, 1)))


def test_arm26_moment_arms_with_touching_wraps(test_data):
    model = read_osim(test_data / "opensim" / "arm26" / "arm26.osim")
    Q = dict(np.load(test_data / "opensim" / "arm26" / "reference" / "model_reference.npz"))["q"]
    geometry = MuscleGeometry(model)
    error = np.abs(central_differences(geometry, Q) - geometry.compute(Q).J_l)
    assert error.max() <= TOLERANCE, error.max(axis=(0, 2))


def test_quaternion_joints_lengthening_speed_is_the_time_derivative_of_the_length():
    """With a free and a spherical joint, v is not dq/dt: l_dot = J_l v must equal the rate of change of
    the length along q (+) v t (the engine's integrate), for random v."""
    from engine import algorithms as alg
    from engine.model.muscles import Muscle, PathPoint
    from tests.engine.hybrid_models import hybrid_chain

    base = hybrid_chain(floating=True)
    path = GeometryPath((PathPoint("o", "base", (0.05, -0.05, 0.03)), PathPoint("v", "link", (0.02, -0.1, 0.0)),
                         PathPoint("r", "blade", (0.0, 0.01, 0.0), s=0.2), PathPoint("i", "foot", (0.05, 0.0, 0.0))))
    model = base.replace(muscles=[Muscle("strap", path, "rigid", 100.0, 0.1, 0.2)])
    rng = np.random.default_rng(11)
    geometry = MuscleGeometry(model)
    h = 1e-6
    for _ in range(10):
        q = alg.integrate(model, neutral(model), rng.normal(scale=0.4, size=model.nv))
        v = rng.normal(size=model.nv)
        _, speed, _ = geometry.evaluate(q[None], v[None])
        ahead = geometry.compute(alg.integrate(model, q, v, h)[None]).lengths[0, 0]
        behind = geometry.compute(alg.integrate(model, q, v, -h)[None]).lengths[0, 0]
        assert abs(speed[0, 0] - (ahead - behind) / (2 * h)) < 1e-6


def _pool_threads(before=()):
    import threading
    return {t for t in threading.enumerate() if t.name.startswith("muscle-paths") and t not in before}


def test_close_ends_the_pools_threads_and_a_later_call_starts_a_new_pool(wrapping):
    model, _, Q, result = wrapping
    before = _pool_threads()
    with MuscleGeometry(model, threads=3) as geometry:
        first = geometry.compute(np.tile(Q, (2, 1)))
        assert len(_pool_threads(before)) == 2                  # the calling thread does one share
    assert not _pool_threads(before)                            # ended on leaving the block, not at some later GC
    again = geometry.compute(np.tile(Q, (2, 1)))
    geometry.close()
    geometry.close()                                            # closing twice is harmless
    assert not _pool_threads(before)
    np.testing.assert_array_equal(again.J_l, first.J_l)
    np.testing.assert_array_equal(first.lengths, np.tile(result.lengths, (2, 1)))
