"""``MuscleGeometry.polylines``: the drawing of every muscle path is consistent with the path.

Checked independently of the sampling code: the vertices include the current path's points in order
(origin first, insertion last), the samples between two tangent points lie on the wrap surface
(its implicit equation in the wrap object's frame), the pieces are no longer than the step, and a
finely sampled polyline is as long as the muscle (1e-6 relative; a polyline under an arc falls short
by about (step * curvature)^2 / 24). And cheap enough to redraw every frame while scrubbing: one call of the
compiled kernel per frame for all the muscles (benchmarks/bench_polylines.py prints the time per frame).
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.data import Data
from engine.io.osim import read_osim
from engine.model.muscles import WrapCylinder, WrapEllipsoid, WrapSphere
from engine.muscles.path import geometry as path_geometry
from engine.muscles.path.geometry import MuscleGeometry
from engine.tree import compile_tree

from .path_models import random_poses, wrap_model

FINE = 2e-5     # m


@pytest.fixture(scope="module")
def wrapping():
    model = wrap_model()
    return model, random_poses(model, np.random.default_rng(5), 40)


def _on_surface_error(model, q, wrap_name, points) -> float:
    """Largest distance-like error of ``points`` (ground, m) from the surface of wrap object ``wrap_name``."""
    from engine import algorithms as alg
    data = Data(model)
    alg.forward_kinematics(model, data, q)
    wo = next(w for w in model.wrap_objects if w.name == wrap_name)
    X = alg.frame_placement(model, data, wo.body) @ wo.placement
    local = (points - X.p) @ X.R
    if isinstance(wo, WrapCylinder):
        return np.abs(np.hypot(local[:, 0], local[:, 1]) - wo.radius).max()
    if isinstance(wo, WrapSphere):
        return np.abs(np.linalg.norm(local, axis=1) - wo.radius).max()
    assert isinstance(wo, WrapEllipsoid)
    level = np.sqrt(((local / np.asarray(wo.dimensions)) ** 2).sum(axis=1))
    return np.abs(level - 1.0).max() * min(wo.dimensions)


@pytest.mark.parametrize("wrapping_name", ["exact", "opensim"])
def test_vertices_follow_the_current_path_and_wrap_samples_lie_on_the_surfaces(wrapping, wrapping_name):
    model, Q = wrapping
    geometry = MuscleGeometry(model, wrapping=wrapping_name)
    step = 0.003
    sampled = 0
    for q in Q[:15]:
        lines = geometry.polylines(q, step)
        assert len(lines) == len(geometry.muscle_names)
        for name, line in zip(geometry.muscle_names, lines):
            path = geometry.current_path(q, name)
            rows = [int(np.flatnonzero((line == p.position).all(axis=1))[0]) for p in path]
            assert rows[0] == 0 and rows[-1] == len(line) - 1 and rows == sorted(rows), name
            for a, b, ra, rb in zip(path, path[1:], rows, rows[1:]):
                if a.wrap is not None and a.wrap == b.wrap and a.side == 1:
                    inner = line[ra + 1:rb]
                    sampled += len(inner)
                    assert _on_surface_error(model, q, a.wrap, line[ra:rb + 1]) < 1e-9, (name, a.wrap)
                    assert np.linalg.norm(np.diff(line[ra:rb + 1], axis=0), axis=1).max() <= step * (1 + 1e-9)
                else:
                    assert rb == ra + 1, name       # a straight span has no samples
    assert sampled > 100


def test_finely_sampled_polylines_are_as_long_as_the_muscles(wrapping):
    """Exact wrapping, every muscle; OpenSim wrapping for the muscles with one wrap object (with several,
    OpenSim measures some spans to earlier tangent points, see _wrapping)."""
    model, Q = wrapping
    for wrapping_name in ("exact", "opensim"):
        geometry = MuscleGeometry(model, wrapping=wrapping_name)
        lengths = geometry.compute(Q).lengths
        checked = [k for k, m in enumerate(model.muscles) if wrapping_name == "exact" or len(m.path.wraps) < 2]
        for q, length in zip(Q, lengths):
            lines = geometry.polylines(q, FINE)
            drawn = np.array([np.linalg.norm(np.diff(line, axis=0), axis=1).sum() for line in lines])
            np.testing.assert_allclose(drawn[checked], length[checked], rtol=1e-6, err_msg=wrapping_name)


def test_bad_arguments(wrapping):
    model, Q = wrapping
    geometry = MuscleGeometry(model)
    with pytest.raises(ValueError, match=r"q: expected \(nq,\)"):
        geometry.polylines(Q[:2])
    with pytest.raises(ValueError, match="step: expected a positive length"):
        geometry.polylines(Q[0], 0.0)


def test_gait2354_draws_every_muscle_in_one_kernel_call_per_frame(test_data, monkeypatch):
    """No wraps: the polylines are the muscles' active path points; all 54 from one call of the compiled sampler
    per frame while scrubbing (the first frame may call it twice, to size the output it then keeps)."""
    model = read_osim(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    ref = dict(np.load(test_data / "opensim" / "gait2354" / "reference" / "model_reference.npz"))
    Q = np.tile(neutral(model), (len(ref["q"]), 1))
    Q[:, [compile_tree(model).coordinates[str(n)].qi for n in ref["coordinate_names"]]] = ref["q"]
    geometry = MuscleGeometry(model)
    calls = []
    sample = path_geometry.sample_paths
    monkeypatch.setattr(path_geometry, "sample_paths", lambda *args: calls.append(1) or sample(*args))
    lines = [geometry.polylines(q) for q in Q]
    assert len(Q) <= len(calls) <= len(Q) + 1      # the patch intercepts: at least one call a frame
    for q, frame in zip(Q, lines):
        for name, line in zip(geometry.muscle_names, frame):
            np.testing.assert_array_equal(line, np.array([p.position for p in geometry.current_path(q, name)]))
