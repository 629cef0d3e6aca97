"""The flesh volumes' distances and their smooth union by numba kernels (``skin._kernels_surface``): the same numbers
as the numpy expressions they replaced (kept here as the reference), so the skin, its weights and the socket's map on
it are those of before."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.display.shapes import Capsule, Ellipsoid
from skin import surface, weights
from skin.scenes import skinned_bodies
from skin.skinning import Skin
from skin.socket import Socket
from skin.surface import world_distances
from skin.volumes import TaperedCapsule, body_volumes


def _reference_distance(shape, x):
    """The signed distance as numpy computed it before the kernels (skin.volumes at 5cf54a3)."""
    if isinstance(shape, Capsule):
        a, b = np.asarray(shape.start, float), np.asarray(shape.end, float)
        ab = b - a
        s = np.clip((x - a) @ ab / (ab @ ab), 0.0, 1.0)
        return np.linalg.norm(x - a - s[:, None] * ab, axis=1) - shape.radius
    if isinstance(shape, TaperedCapsule):
        h, sin_a, cos_a = shape._profile()
        axis = (np.asarray(shape.end, float) - shape.start) / h
        rel = x - shape.start
        t = rel @ axis
        rho = np.linalg.norm(rel - t[:, None] * axis, axis=1)
        along = t * cos_a - rho * sin_a
        return np.where(along < 0.0, np.hypot(t, rho) - shape.radius,
                        np.where(along > h * cos_a, np.hypot(t - h, rho) - shape.end_radius,
                                 t * sin_a + rho * cos_a - shape.radius))
    local = (x - shape.centre) @ shape.axes
    k0 = np.linalg.norm(local / shape.radii, axis=1)
    k1 = np.linalg.norm(local / shape.radii ** 2, axis=1)
    return np.where(k1 > 0, k0 * (k0 - 1.0) / np.maximum(k1, 1e-300), -shape.radii.min())


def _reference_distances(volumes, R, p, x):
    out = np.empty((len(x), len(volumes)))
    for j, shape in enumerate(volumes.values()):
        out[:, j] = _reference_distance(shape, (x - p[j]) @ R[j])
    return out


def _reference_field(volumes):
    """``union_field`` as numpy computed it: every grid point's distances, then the smooth minimum."""
    def union_field(kind, params, R, p, origin, spacing, blend, out):
        axes = [origin[i] + spacing * np.arange(out.shape[i]) for i in range(3)]
        X = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        d = _reference_distances(volumes, R, p, X)
        low = d.min(axis=-1)
        out[...] = (low - blend * np.log(np.exp(-(d - low[:, None]) / blend).sum(axis=-1))).reshape(out.shape)
    return union_field


def test_kernel_distances_are_the_numpy_ones(rng):
    axes, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    volumes = {"a": Capsule("a", np.array([0.01, 0.0, 0.02]), np.array([0.0, -0.3, 0.01]), 0.05),
               "b": TaperedCapsule("b", np.array([0.0, 0.02, 0.0]), np.array([0.02, -0.12, 0.01]), 0.05, 0.03),
               "c": Ellipsoid("c", np.array([0.02, 0.1, -0.01]), axes, np.array([0.12, 0.07, 0.04]))}
    R = np.stack([np.linalg.qr(rng.standard_normal((3, 3)))[0] for _ in volumes])
    p = rng.uniform(-0.1, 0.1, (3, 3))
    x = rng.uniform(-0.4, 0.4, (5000, 3))
    np.testing.assert_allclose(world_distances(volumes, R, p, x), _reference_distances(volumes, R, p, x),
                               rtol=0, atol=1e-15)


def test_the_socket_on_the_kernels_skin_is_the_one_numpy_gave(athlete, monkeypatch):
    """The athlete's skin at the socket's 12 mm: the same triangles, vertices and weights (to round-off) as from the
    numpy field, hence the same stump and the same pressure under a stance-like load."""
    bodies = skinned_bodies(athlete)
    skin = Skin.generate(athlete, bodies=bodies)
    with monkeypatch.context() as m:
        m.setattr(surface._ks, "union_field", _reference_field(body_volumes(athlete, None, bodies)))
        m.setattr(weights, "world_distances", _reference_distances)
        reference = Skin.generate(athlete, bodies=bodies)
    np.testing.assert_array_equal(skin.mesh.triangles, reference.mesh.triangles)
    np.testing.assert_allclose(skin.mesh.vertices, reference.mesh.vertices, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(skin.bone, reference.bone)
    np.testing.assert_allclose(skin.weight, reference.weight, rtol=0, atol=1e-12)
    socket, before = (Socket.from_stump(athlete, s, "tibia_r") for s in (skin, reference))
    np.testing.assert_array_equal(socket.vertices, before.vertices)
    load = np.array([20.0, 5.0, 60.0, 150.0, 900.0, -40.0])     # [N m; N], limb axes: pushed up its axis (+y)
    q = neutral(athlete)
    now, then = socket.pressure(athlete, q, load), before.pressure(athlete, q, load)
    assert then.peak > 20e3
    assert now.peak == pytest.approx(then.peak, rel=1e-6)
    assert now.mean == pytest.approx(then.mean, rel=1e-6)
    np.testing.assert_allclose(now.pressure, then.pressure, rtol=0, atol=1e-6 * then.peak)


def test_a_socket_is_moulded_once_per_model_content():
    """``socket_map.socket_for`` keeps its socket by the model's content: the same model read again shares it; a model
    whose stump differs (its mass) or another liner gets its own, equal to a fresh one."""
    from engine.demo import demo_results
    from skin.socket_map import socket_for
    model = demo_results()[0].model
    first = socket_for(model, "socket_weld", "tibia_r", spacing=0.03)
    again = socket_for(demo_results()[0].model, "socket_weld", "tibia_r", spacing=0.03)
    assert again is first
    assert socket_for(model, "socket_weld", "tibia_r", spacing=0.03, thickness=0.004).thickness == 0.004
    tibia = model.body("tibia_r")
    lighter = model.replace(bodies=[b if b is not tibia else replace(b, mass=0.9 * b.mass) for b in model.bodies])
    other = socket_for(lighter, "socket_weld", "tibia_r", spacing=0.03)
    fresh = Socket.from_stump(lighter, Skin.generate(lighter, spacing=0.03, bodies=skinned_bodies(lighter)), "tibia_r")
    assert other is not first
    np.testing.assert_array_equal(other.wall, fresh.wall)
    assert not np.array_equal(other.skin.mesh.vertices, first.skin.mesh.vertices)
