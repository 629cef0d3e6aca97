"""Centre of pressure and free moment against closed forms; threshold; loaded intervals; what lies over a plate."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.trial.forceplate import ForcePlate, centre_of_pressure


def random_rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def test_cop_and_free_moment_recover_the_applied_load(rng):
    """A force F applied at a point p of a tilted plane with a free torque T n has moment
    p x F + T n about the origin; the COP must be p and the free moment T n."""
    n_samples = 50
    R = random_rotation(rng)
    normal = R[:, 1]
    surface = rng.normal(size=3)
    tangent = R[:, [0, 2]]
    p = surface + rng.uniform(-0.3, 0.3, size=(n_samples, 2)) @ tangent.T
    F = rng.normal(scale=50, size=(n_samples, 3)) + rng.uniform(100, 900, size=(n_samples, 1)) * normal
    T = rng.normal(scale=5, size=n_samples)
    M = np.cross(p, F) + T[:, None] * normal
    cop, free = centre_of_pressure(F, M, surface, normal, threshold=20.0)
    np.testing.assert_allclose(cop, p, atol=1e-12)
    np.testing.assert_allclose(free, T[:, None] * normal, atol=1e-11)


def test_below_threshold_cop_is_nan_not_wild():
    normal = np.array([0.0, 0.0, 1.0])
    F = np.array([[0.0, 0.0, 19.999], [0.0, 0.0, 20.0], [5.0, 0.0, -300.0], [0.0, 0.0, 0.0]])
    M = np.array([[3.0, 1.0, 0.0]] * 4)
    cop, free = centre_of_pressure(F, M, np.zeros(3), normal, threshold=20.0)
    assert np.isnan(cop[[0, 2, 3]]).all() and np.isnan(free[[0, 2, 3]]).all()
    # at exactly the threshold: x = -My/Fz, y = Mx/Fz (the plate-frame formula)
    np.testing.assert_allclose(cop[1], [-1.0 / 20.0, 3.0 / 20.0, 0.0])


def test_loaded_intervals_and_time_base():
    fz = np.r_[np.zeros(10), np.full(5, 500.0), np.zeros(3), np.full(2, 30.0)]
    F = np.column_stack([np.zeros_like(fz), np.zeros_like(fz), fz])
    plate = ForcePlate.from_loads(F, np.zeros_like(F), normal=[0, 0, 1], surface_point=[0, 0, 0], threshold=20.0,
                                  name="FP1", number=1, type=2, rate=100.0, t0=1.0)
    np.testing.assert_allclose(plate.time[[0, -1]], [1.0, 1.19])
    np.testing.assert_allclose(plate.loaded_intervals(), [(1.10, 1.14), (1.18, 1.19)])
    np.testing.assert_array_equal(plate.loaded, fz >= 20.0)


def test_transformed_plate_equals_plate_of_rotated_loads(rng):
    R = random_rotation(rng)
    F = rng.normal(size=(20, 3)) + [0, 0, 400]
    M = rng.normal(size=(20, 3)) * 10
    kwargs = dict(threshold=20.0, name="FP1", number=1, type=2, rate=100.0, t0=0.0)
    corners = np.array([[0.2, 0.3, 0], [-0.2, 0.3, 0], [-0.2, -0.3, 0], [0.2, -0.3, 0]])
    a = ForcePlate.from_loads(F, M, normal=[0, 0, 1], surface_point=[0, 0, 0], corners=corners, **kwargs)
    b = ForcePlate.from_loads(F @ R.T, M @ R.T, normal=R[:, 2], surface_point=[0, 0, 0], **kwargs)
    rotated = a.transformed(R)
    np.testing.assert_allclose(rotated.cop, b.cop, atol=1e-12)
    np.testing.assert_allclose(rotated.free_moment, b.free_moment, atol=1e-12)
    np.testing.assert_allclose(rotated.corners, corners @ R.T)
    np.testing.assert_allclose(rotated.normal_force, a.normal_force)


@pytest.mark.parametrize("order", [slice(None), slice(None, None, -1)])
def test_covers_the_points_over_its_corners_whatever_their_order_and_height(order):
    """A 0.6 x 0.4 m plate turned 30 degrees about a tilted normal: a point lies over it when its coordinates along
    the plate's two edges, measured from a corner, fall within the edges' lengths (a closed form)."""
    normal = np.array([0.0, np.sin(0.1), np.cos(0.1)])
    u = np.cross(normal, [1.0, 0.0, 0.0])
    u /= np.linalg.norm(u)
    w = np.cross(normal, u)
    edge1 = 0.6 * (np.cos(0.5) * u + np.sin(0.5) * w)
    edge2 = 0.4 * (-np.sin(0.5) * u + np.cos(0.5) * w)
    a = np.array([0.3, -0.2, 0.05])
    corners = np.array([a, a + edge1, a + edge1 + edge2, a + edge2])[order]
    zeros = np.zeros((1, 3))
    plate = ForcePlate(name="FP", number=1, type=2, rate=1000.0, t0=0.0, force=zeros, moment=zeros, cop=zeros,
                       free_moment=zeros, normal=normal, surface_point=corners.mean(axis=0), corners=corners)
    rng = np.random.default_rng(3)
    s, t = rng.uniform(-0.5, 1.5, (2, 400))
    height = rng.uniform(-0.1, 0.3, 400)
    points = a + np.outer(s, edge1) + np.outer(t, edge2) + np.outer(height, normal)
    expected = (s >= 0) & (s <= 1) & (t >= 0) & (t <= 1)
    assert 50 < expected.sum() < 350
    assert np.array_equal(plate.covers(points), expected)
    assert plate.covers(points.reshape(20, 20, 3)).shape == (20, 20)
    assert replace(plate, corners=None).covers(points) is None


def test_corners_that_span_no_area_are_refused():
    zeros = np.zeros((1, 3))
    line = np.array([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.0, 0.0], [0.2, 0.0, 0.0]])
    with pytest.raises(ValueError, match="span no area"):
        ForcePlate(name="FP", number=1, type=2, rate=1000.0, t0=0.0, force=zeros, moment=zeros, cop=zeros,
                   free_moment=zeros, normal=[0.0, 0.0, 1.0], surface_point=np.zeros(3), corners=line)
