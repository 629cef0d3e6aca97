"""Sequences of small convex QPs with box bounds, warm-started from the previous solution's active set.

Two kinds of problem, one per objective of :mod:`engine.muscles.forces.static_optimization`:

    minimise 1/2 sum h_i x_i^2   subject to   A x = b,  lb <= x <= ub      (:func:`solve_equality_frames`)
    minimise 1/2 x^T H x + g^T x   subject to   lb <= x <= ub               (:class:`WarmStartedQP`)

with ``h > 0`` / ``H`` positive definite. quadprog has no warm start, so
the previous frame's active set (which bounds were held) is used instead: the
problem with those bounds fixed is solved directly (its KKT
system), and the active set is corrected by primal-dual active-set steps
(free variables that leave their box are fixed at the bound passed; fixed ones
whose multiplier has the wrong sign are freed) until the KKT conditions hold,
which for a convex QP proves optimality. If that does not happen within
``max_steps`` steps, or the KKT system is singular, the frame is solved from
scratch by quadprog (:func:`cold_solve`, through ``engine.qp.solve_qp``), with the variables whose bounds meet held there (quadprog
reports such boxes infeasible). Each solve reports which route it took. The first kind runs its warm starts
over consecutive frames in numba (``engine.kernels._qp_so``).
"""
from __future__ import annotations

import numpy as np

from ...kernels import _qp_so
from ...qp import solve_qp

OPTIMAL_WARM = "optimal (warm start)"
OPTIMAL_QUADPROG = "optimal (quadprog)"
INFEASIBLE = "infeasible"
NO_DATA = "not solved (NaN in its inputs)"

FRAMES_AT_ONCE = 1000   # frames whose constraint matrices are built at once (a long trial's would be large)


def solve_equality_frames(h, n_frames, problems, tol: float = 1e-9, max_steps: int = 8):
    """Solve ``min 1/2 sum h_i x_i^2`` subject to ``A x = b``, ``lb <= x <= ub`` at every frame; returns
    ``(x (T, n), statuses)`` with ``x`` NaN where infeasible or where an input holds NaN.

    ``h`` (n,) > 0 is the same at every frame; ``problems(t0, t1)`` gives frames ``t0 .. t1-1`` as
    ``(A (k, ne, n), b (k, ne), lb (k, n), ub (k, n))``. Frames are solved in numba from the previous frame's
    active set (the first frame, and the first after one not solved, from none held) while the KKT conditions certify the result (``engine.kernels._qp_so``, the tolerances of
    :class:`WarmStartedQP`, with one correction per step in the second half of the steps), by quadprog otherwise.
    """
    h = np.ascontiguousarray(h, float)
    n = len(h)
    x = np.full((n_frames, n), np.nan)
    status = [NO_DATA] * n_frames
    at_lb, at_ub = np.zeros(n, bool), np.zeros(n, bool)     # the guess: the previous frame's, at first none held
    for c0 in range(0, n_frames, FRAMES_AT_ONCE):
        A, b, lb, ub = (np.ascontiguousarray(a, float) for a in problems(c0, min(n_frames, c0 + FRAMES_AT_ONCE)))
        k = len(A)
        valid = (np.isfinite(A).all(axis=(1, 2)) & np.isfinite(b).all(axis=1)
                 & ~np.isnan(lb).any(axis=1) & ~np.isnan(ub).any(axis=1))
        xc = x[c0:c0 + k]
        i = 0
        while i < k:
            if not valid[i]:
                at_lb[:] = at_ub[:] = False
                i += 1
                continue
            end = i + int(np.argmin(valid[i:])) if not valid[i:].all() else k
            stop = _qp_so.warm_frames(i, end, h, A, b, lb, ub, tol, max_steps, at_lb, at_ub, xc)
            status[c0 + i:c0 + stop] = [OPTIMAL_WARM] * (stop - i)
            i = stop
            if i == end:
                continue
            xi = cold_solve(np.diag(h), np.zeros(n), lb[i], ub[i], A[i], b[i])
            if xi is None:
                xc[i] = np.nan          # the warm start may have left its last try there
                status[c0 + i] = INFEASIBLE
                at_lb[:] = at_ub[:] = False
            else:
                xc[i] = xi
                status[c0 + i] = OPTIMAL_QUADPROG
                scale = tol * np.maximum(1.0, np.abs(lb[i]) + np.abs(ub[i]))
                at_lb[:] = (xi - lb[i] <= scale) & np.isfinite(lb[i])
                at_ub[:] = (ub[i] - xi <= scale) & np.isfinite(ub[i]) & ~at_lb
            i += 1
    return x, status


class WarmStartedQP:
    """Solves a series of QPs of the same size, reusing the last active set.

    Parameters
    ----------
    tol : tolerance of the KKT check: on the bounds in the units of ``x``, on the multiplier
        signs relative to the largest diagonal entry of ``H``.
    max_steps : active-set corrections tried before falling back to quadprog.
    """

    def __init__(self, tol: float = 1e-9, max_steps: int = 8):
        self.tol = tol
        self.max_steps = max_steps
        self._at_lb = None
        self._at_ub = None

    def reset(self) -> None:
        """Forget the previous active set (the next solve starts from quadprog)."""
        self._at_lb = self._at_ub = None

    def solve(self, H, g, lb, ub):
        """Solve one problem; returns ``(x, status)`` with ``x`` NaN when infeasible or when an input
        holds NaN (e.g. a frame whose inverse dynamics or geometry is missing)."""
        n = len(g)
        if not (np.all(np.isfinite(H)) and np.all(np.isfinite(g))) or np.isnan(lb).any() or np.isnan(ub).any():
            self.reset()
            return np.full(n, np.nan), NO_DATA
        if self._at_lb is not None and len(self._at_lb) == n:
            x = self._active_set(H, g, lb, ub)
            if x is not None:
                return x, OPTIMAL_WARM
        x = cold_solve(H, g, lb, ub, None, None)
        if x is None:
            self.reset()
            return np.full(n, np.nan), INFEASIBLE
        scale = self.tol * np.maximum(1.0, np.abs(lb) + np.abs(ub))
        self._at_lb = (x - lb <= scale) & np.isfinite(lb)
        self._at_ub = (ub - x <= scale) & np.isfinite(ub) & ~self._at_lb
        return x, OPTIMAL_QUADPROG

    def _active_set(self, H, g, lb, ub):
        at_lb, at_ub = self._at_lb.copy(), self._at_ub.copy()
        dual_tol = self.tol * max(1.0, float(np.abs(np.diag(H)).max()))
        for _ in range(self.max_steps):
            x = self._kkt(H, g, lb, ub, at_lb, at_ub)
            if x is None:
                return None
            grad = H @ x + g
            free = ~(at_lb | at_ub)
            below = free & (x < lb - self.tol)
            above = free & (x > ub + self.tol)
            release_lb = at_lb & (grad < -dual_tol)
            release_ub = at_ub & (grad > dual_tol)
            if not (below.any() or above.any() or release_lb.any() or release_ub.any()):
                self._at_lb, self._at_ub = at_lb, at_ub
                return np.clip(x, lb, ub)
            at_lb = (at_lb & ~release_lb) | below
            at_ub = (at_ub & ~release_ub) | above
        return None

    @staticmethod
    def _kkt(H, g, lb, ub, at_lb, at_ub):
        """Minimiser with the variables in ``at_lb`` / ``at_ub`` held at their bounds; None if the reduced system
        is singular."""
        x = np.zeros(len(g))
        x[at_lb], x[at_ub] = lb[at_lb], ub[at_ub]
        free = ~(at_lb | at_ub)
        fixed = ~free
        try:
            x[free] = np.linalg.solve(H[np.ix_(free, free)], -(g[free] + H[np.ix_(free, fixed)] @ x[fixed]))
        except np.linalg.LinAlgError:
            return None
        return x if np.all(np.isfinite(x)) else None


def cold_solve(H, g, lb, ub, A, b):
    """The problem solved from scratch, or None if infeasible. Variables whose bounds meet (a muscle
    that can produce no active force, to round-off) are held there and left out: quadprog fails on such
    boxes."""
    bounded = np.isfinite(lb) & np.isfinite(ub)
    gap = np.where(bounded, ub - lb, np.inf)
    tol = 1e-12 * np.maximum(1.0, np.abs(np.where(bounded, lb, 0.0)))
    if np.any(gap < -tol):
        return None
    held = gap <= tol
    if held.all():
        x = lb.copy()
        return x if A is None or np.allclose(A @ x, b) else None
    x = np.where(held, lb, 0.0)
    free = ~held
    gf = g[free] + H[np.ix_(free, held)] @ x[held]
    Af, bf = (None, None) if A is None else (A[:, free], b - A[:, held] @ x[held])
    xf, _ = solve_qp(H[np.ix_(free, free)], gf, A=Af, b=bf, lb=lb[free], ub=ub[free])
    if xf is None:
        return None
    x[free] = xf
    return x
