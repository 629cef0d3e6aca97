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
candidate settles gets one more, the residual at the box's nearest balance (:func:`_nearest_residual`, bounded
least squares: three times faster than the LP), then the LP decides, as it decided every frame before. Likewise a frame is proved balanced, without
the LP, by a balancing set found near the caller's tensions (:func:`_balancing`). The shortcuts save time; each
is a proof, checked exactly, so the answer is the LP's.
"""
from __future__ import annotations

import numpy as np

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
    (:func:`_balancing`) before the LP; likewise."""
    from scipy.optimize import linprog     # imported when used: the application imports this module at launch
    J_l = np.asarray(J_l, float)
    tau = np.asarray(tau, float)
    rows = np.asarray(rows, bool)
    T, m = J_l.shape[:2]
    out = np.zeros(T, bool)
    valid = np.isfinite(tau[:, rows]).all(axis=1) & np.isfinite(f_lo).all(axis=1) & np.isfinite(f_hi).all(axis=1)
    certified = np.zeros(T, bool)
    for t0 in range(0, T, FRAMES_AT_ONCE):       # J_l[:, :, rows] of a long trial at once would double its memory
        chunk = slice(t0, t0 + FRAMES_AT_ONCE)
        J_rows = J_l[chunk][:, :, rows]
        valid[chunk] &= np.isfinite(J_rows).all(axis=(1, 2))
        if guesses is not None:
            certified[chunk] = _certify_frames(guesses[chunk][:, rows], J_rows, tau[chunk][:, rows], f_lo[chunk],
                                               f_hi[chunk])
    certificates = []
    for t in range(T):
        if not valid[t]:
            out[t] = True
            continue
        if not rows.any():
            continue
        if certified[t]:
            certificates = certificates[-(CERTIFICATES - 1):] + [guesses[t, rows]]
            out[t] = True
            continue
        A = -J_l[t][:, rows].T
        b = tau[t, rows]
        if certificates and _certifies(np.array(certificates), A, b, f_lo[t], f_hi[t]):
            out[t] = True
            continue
        if forces is not None and _balancing(forces[t], A, b, f_lo[t], f_hi[t]):
            continue
        y = _nearest_residual(A, b, f_lo[t], f_hi[t], None if forces is None else forces[t])
        if _certifies(y, A, b, f_lo[t], f_hi[t]):
            certificates = certificates[-(CERTIFICATES - 1):] + [y]
            out[t] = True
            continue
        solution = linprog(np.zeros(m), A_eq=A, b_eq=b, bounds=np.column_stack([f_lo[t], f_hi[t]]), method="highs")
        out[t] = solution.status != 0
    return out


def _certify_frames(y, J_rows, b, f_lo, f_hi) -> np.ndarray:
    """:func:`_certifies` at every frame at once: ``y`` (T, k), ``J_rows`` (T, m, k) the length Jacobians' columns
    of the rows (``A = -J_rows^T``), ``b`` (T, k); False where any input is NaN."""
    c = -np.einsum("tmk,tk->tm", J_rows, y)
    reach = np.maximum(f_lo * c, f_hi * c).sum(axis=1)
    with np.errstate(invalid="ignore"):
        return (y * b).sum(axis=1) - reach > 1e-6 * (1.0 + np.linalg.norm(b, axis=1)) * np.linalg.norm(y, axis=1)


def _certifies(y, A, b, f_lo, f_hi) -> bool:
    """Whether ``y`` (k,), or one of the rows of ``y`` (c, k), proves, with margin (module notes), that no
    ``f_lo <= f <= f_hi`` meets ``A f = b``."""
    Y = np.atleast_2d(y)
    c = A.T @ Y.T
    reach = np.maximum(f_lo[:, None] * c, f_hi[:, None] * c).sum(axis=0)
    return bool(np.any(Y @ b - reach > 1e-6 * (1.0 + np.linalg.norm(b)) * np.linalg.norm(Y, axis=1)))


def _nearest_residual(A, b, f_lo, f_hi, start=None):
    """``b - A f`` at the tensions ``f`` in the box nearest to balancing the frame (``min |A f - b|``): a Farkas
    certificate (``y . A g <= y . A f = y . b - |y|^2`` for every ``g`` in the box), which :func:`_certifies` checks
    with its margin. From the caller's tensions ``start``, a few projected-gradient steps often give a residual that
    certifies already (2 of gait2354's 3 frames); else scipy's bounded-variable least squares finds the minimum."""
    if start is not None and np.isfinite(start).all():
        f = np.clip(start, f_lo, f_hi)
        step = 1.0 / max(np.linalg.norm(A, 2) ** 2, 1e-300)
        for _ in range(PROJECTED_STEPS):
            f = np.clip(f - step * (A.T @ (A @ f - b)), f_lo, f_hi)
        if _certifies(b - A @ f, A, b, f_lo, f_hi):
            return b - A @ f
    from scipy.optimize import lsq_linear  # imported when used, as linprog
    return b - A @ lsq_linear(A, b, bounds=(f_lo, f_hi), method="bvls", tol=1e-12).x


def _balancing(f, A, b, f_lo, f_hi) -> bool:
    """Whether tensions ``f`` within the bounds, moved by the least change (weighted by each one's room to its
    nearer bound) that makes ``A f = b``, stay within the bounds: a balancing set, which proves the frame balanced."""
    if not np.isfinite(f).all() or np.any(f < f_lo) or np.any(f > f_hi):
        return False
    w = np.minimum(f - f_lo, f_hi - f) ** 2
    d = b - A @ f
    try:
        f = f + w * (A.T @ np.linalg.solve((A * w) @ A.T, d))
    except np.linalg.LinAlgError:
        return False
    return bool(np.all(f >= f_lo) and np.all(f <= f_hi)
                and np.linalg.norm(A @ f - b) <= 1e-9 * (1.0 + np.linalg.norm(b)))
