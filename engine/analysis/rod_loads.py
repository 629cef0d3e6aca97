"""Bending of a PCS rod per segment, for colouring the blade: strain change and bending moment.

A PCS segment has one constant strain (seed eqs. 5-6), so both quantities are constant per
segment:

* bending strain: ``|(kappa_y, kappa_z) - rest|`` (1/m), the change of the two bending
  curvatures from the rest shape (modes that are not coordinates stay at rest);
* bending moment: ``|(tau_ky, tau_kz)| / L_i`` (N m), from the rod's generalized forces
  ``tau`` of an inverse dynamics. The generalized force conjugate to a curvature of a
  segment of length ``L_i`` is ``L_i`` times the bending moment (the stiffness is
  ``K_i = L_i EI``, seed eq. 26), so dividing by ``L_i`` gives the segment's moment.
"""
from __future__ import annotations

import numpy as np
from ..tree import compile_tree

BENDING_MODES = ("ky", "kz")


def _segment_modes(model, rod: str):
    """Per segment: its length, rest curvatures (ky, kz) and the (q index, v index) of each bending mode."""
    r = model.rod(rod)
    slots = compile_tree(model).coordinates
    out = []
    for i, seg in enumerate(r.segments):
        modes = {}
        for mode in BENDING_MODES:
            if mode in seg.free_modes:
                slot = slots[f"{rod}_s{i + 1}_{mode}"]
                modes[mode] = (slot.qi, slot.vi)
        rest = {"ky": seg.rest_strain[1], "kz": seg.rest_strain[2]}
        out.append((seg.length, rest, modes))
    return out


def bending_strain(model, rod: str, Q) -> np.ndarray:
    """(T, segments) change of bending curvature from rest, 1/m, at configurations ``Q`` (T, nq)."""
    Q = np.atleast_2d(np.asarray(Q, float))
    if Q.shape[1] != model.nq:
        raise ValueError(f"Q: expected (frames, nq) = (frames, {model.nq}), got {Q.shape}")
    segments = _segment_modes(model, rod)
    out = np.zeros((Q.shape[0], len(segments)))
    for i, (_, rest, modes) in enumerate(segments):
        squares = [(Q[:, qi] - rest[mode]) ** 2 for mode, (qi, _) in modes.items()]
        if squares:
            out[:, i] = np.sqrt(np.sum(squares, axis=0))
    return out


def bending_moment(model, rod: str, tau) -> np.ndarray:
    """(T, segments) bending moment magnitude, N m, from generalized forces ``tau`` (T, nv)."""
    tau = np.atleast_2d(np.asarray(tau, float))
    if tau.shape[1] != model.nv:
        raise ValueError(f"tau: expected (frames, nv) = (frames, {model.nv}), got {tau.shape}")
    segments = _segment_modes(model, rod)
    out = np.zeros((tau.shape[0], len(segments)))
    for i, (length, _, modes) in enumerate(segments):
        squares = [tau[:, vi] ** 2 for _, vi in modes.values()]
        if squares:
            out[:, i] = np.sqrt(np.sum(squares, axis=0)) / length
    return out
