"""Whether the muscles alone, within their bounds, can produce the generalized forces of a frame: the frames
where the reserve actuators are needed, not merely used (a sum-of-squares objective always spreads some load onto
them).

Per frame, a feasibility linear programme (scipy's HiGHS): find tensions ``f_lo <= f <= f_hi`` with
``-J_l^T f = tau`` on the coordinates some muscle crosses (a nonzero column of ``J_l`` at some frame) and that are
matched. Coordinates no muscle crosses (the floating base, on which muscles, being internal forces, produce
nothing; joints without muscles) are left out and named by :func:`uncrossed_coordinates`.

Most frames of a walk are unbalanced, and for the same reason as their neighbours, so before the LP a frame is
tested against candidate Farkas certificates: the caller's guess for the frame (the reserves' generalized forces
of a solution with reserves: what the muscles could not produce) and the latest guesses that certified a frame.
A vector ``y`` with ``y . b > max over the box of y . A f = sum_j max(f_lo,j c_j, f_hi,j c_j)``, ``c = A^T y``,
proves that no ``f`` in the box meets ``A f = b``; by more than ``1e-6 (1 + |b|)`` of distance
(``(y . b - max) / |y|`` bounds ``min |A f - b|`` from below) it proves it beyond the LP's own tolerance. A frame no
candidate settles gets more: the residual a few projected-gradient steps from the caller's tensions reach, then the
residual at the box's nearest balance (bounded-variable least squares, scipy's ``lsq_linear`` algorithm), then the LP
decides, as it decided every frame before. Likewise a frame is proved balanced, without the LP, by a balancing set
found near the caller's tensions. These shortcuts run frame after frame in numba (``engine.kernels._balance``), which
hands back to Python only the frames they leave to the LP. The shortcuts save time; each is a proof, checked exactly,
so the answer is the LP's.
"""
from __future__ import annotations

import numpy as np

from ...kernels import _balance

CROSSING = 1e-9
"""|dl/dv| (m per rad or m) above which a muscle crosses a coordinate."""

FRAMES_AT_ONCE = 1000    # frames whose |J_l| crossed() holds at once
CERTIFICATES = 8         # the latest Farkas certificates tried on each frame
PROJECTED_STEPS = 8      # projected-gradient steps from the caller's tensions before the bounded least squares


def crossed(J_l) -> np.ndarray:
    """(nv,) bool: the generalized speeds some muscle's length depends on at some frame of ``J_l`` (T, m, nv)."""
    J_l = np.asarray(J_l, float)
    out = np.zeros(J_l.shape[2], bool)
    for t in range(0, len(J_l), FRAMES_AT_ONCE):     # a long trial's |J_l| would double its memory
        out |= (np.abs(J_l[t:t + FRAMES_AT_ONCE]) > CROSSING).any(axis=(0, 1))     # NaN: not crossing
    return out


def muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, rows, guesses=None, forces=None) -> np.ndarray:
    """(T,) bool: frames where no muscle tensions within ``[f_lo, f_hi]`` (T, m; N) produce ``tau`` (T, nv) on the
    speeds ``rows`` (nv bool; typically matched and :func:`crossed`). A frame with NaN inputs counts as unbalanced.

    ``guesses`` (T, nv): a candidate Farkas certificate per frame, tried first (the reserves' generalized forces of
    a solution with reserves are one: what the muscles could not produce); it only saves time, never decides.
    ``forces`` (T, m): tensions within the bounds (those of that solution) from which a balancing set is sought
    before the LP, and the projected-gradient steps start; likewise. The shortcuts run over the frames in numba
    (``engine.kernels._balance``), which hands back each frame they do not settle to the LP."""
    from scipy.optimize import linprog     # imported when used: the application imports this module at launch
    J_l, tau, f_lo, f_hi = (np.ascontiguousarray(a, float) for a in (J_l, tau, f_lo, f_hi))
    rows = np.flatnonzero(np.asarray(rows, bool))
    T, m, nv = J_l.shape
    guesses = np.zeros((0, nv)) if guesses is None else np.ascontiguousarray(guesses, float)
    forces = np.zeros((0, m)) if forces is None else np.ascontiguousarray(forces, float)
    out = np.zeros(T, bool)
    A, b = np.empty((len(rows), m)), np.empty(len(rows))
    latest, state = np.zeros((CERTIFICATES, len(rows))), np.zeros(2, np.int64)    # the certificates' ring
    t = 0
    while True:
        t = _balance.balance_frames(t, T, J_l, tau, f_lo, f_hi, rows, guesses, forces, PROJECTED_STEPS, latest, state,
                                    out, A, b)
        if t == T:
            return out
        solution = linprog(np.zeros(m), A_eq=A, b_eq=b, bounds=np.column_stack([f_lo[t], f_hi[t]]), method="highs")
        out[t] = solution.status != 0
        t += 1
