"""Forward kinematics: placements of bodies, frames, markers and rod centrelines.

Call :func:`forward_kinematics` first (it fills ``data``), then read placements.
Positions are metres in the ground frame.
"""
from __future__ import annotations

import numpy as np

from ..errors import ModelError
from ..kernels import _passes, _rodgeom
from ..spatial import SE3
from ..tree import compile_tree
from . import _args


def forward_kinematics(model, data, q, v=None, a=None) -> None:
    """Placements (and body twists if ``v``, body accelerations if ``a``) of every node.

    Seed eqs. 8-13 (rods) and 15-20 (velocities). Accelerations are true ones
    (no gravity); with ``a = 0`` they hold the J-dot-psi terms.
    """
    q = _args.q(model, q)
    level = 0
    vv = aa = np.zeros(model.nv)
    if v is not None:
        vv = _args.v(model, v)
        level = 1
    if a is not None:
        if v is None:
            raise ValueError("a given without v")
        aa = _args.v(model, a, "a")
        level = 2
    k = compile_tree(model).k
    _passes.kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, vv, aa, level, False, True)
    data.q = q


def frame_id(model, name: str) -> int:
    """Index of an attached frame: a body, user frame, rod tip, marker or contact point name."""
    tr = compile_tree(model)
    for table in (tr.body_frame, tr.frame_index, tr.marker_frame, tr.contact_frame):
        if name in table:
            return table[name]
    raise ModelError(f"no body, frame, rod, marker or contact point named {name!r}", f"model '{model.name}'")


def frame_placement(model, data, name: str) -> SE3:
    """World placement of a body, frame, rod tip, marker or contact point (after forward_kinematics)."""
    R = np.empty((3, 3))
    p = np.empty(3)
    _passes.frame_placement(compile_tree(model).k.frames, data.ws, frame_id(model, name), R, p)
    return SE3(R, p)


def frame_positions(model, data, ids) -> np.ndarray:
    """World positions (K, 3) of attached frames given by index (after forward_kinematics)."""
    out = np.empty((len(ids), 3))
    R = np.empty((3, 3))
    frames = compile_tree(model).k.frames
    for i, k in enumerate(ids):
        _passes.frame_placement(frames, data.ws, int(k), R, out[i])
    return out


def body_placements(model, data) -> dict[str, SE3]:
    """World placement of every body frame (after forward_kinematics)."""
    return {b: frame_placement(model, data, b) for b in compile_tree(model).body_frame}


def marker_positions(model, data, q) -> np.ndarray:
    """Positions (K, 3) of the model's markers, in ``model.markers`` order, at ``q``."""
    forward_kinematics(model, data, q)
    marker_frame = compile_tree(model).marker_frame
    ids = [marker_frame[m.name] for m in model.markers]
    return frame_positions(model, data, ids)


def rod_frames(model, data, rod: str, s) -> tuple[np.ndarray, np.ndarray]:
    """World frames ``(R (n,3,3), p (n,3))`` along ``rod`` at arclengths ``s`` (m) after forward_kinematics.

    The first column of each ``R`` is the centreline tangent (seed eq. 11).
    """
    r = model.rod(rod)
    s = np.atleast_1d(np.asarray(s, dtype=float))
    L = r.boundaries
    outside = (s < -1e-12) | (s > L[-1] + 1e-12) | ~np.isfinite(s)
    if outside.any():
        r.segment_at(float(s[outside][0]))          # raises the error naming the rod
    k = np.clip(np.searchsorted(L, s, side="right") - 1, 0, len(r.segments) - 1)   # as Rod.segment_at, at once
    xs = np.clip(s - L[k], 0.0, np.diff(L)[k])
    segs = np.asarray(compile_tree(model).rod_segments[rod], np.int64)[k]
    R = np.empty((s.size, 3, 3))
    p = np.empty((s.size, 3))
    kt = compile_tree(model).k
    _rodgeom.rod_frames(kt.nodes, kt.segs, data.ws, data.q, segs, xs, R, p)
    return R, p
