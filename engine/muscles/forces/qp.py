"""Sequences of small convex QPs with box bounds, warm-started from the previous solution's active set.

Two kinds of problem, one per objective of :mod:`engine.muscles.forces.static_optimization`:

    minimise 1/2 sum h_i x_i^2   subject to   A x = b,  lb <= x <= ub      (:func:`solve_activation_frames`)
    minimise 1/2 x^T H x + g^T x   subject to   lb <= x <= ub               (:class:`WarmStartedQP`,
                                                                             :func:`solve_tracking_frames`)

with ``h > 0`` / ``H`` positive definite. quadprog has no warm start, so
the previous frame's active set (which bounds were held) is used instead: the
problem with those bounds fixed is solved directly (its KKT
system), and the active set is corrected by primal-dual active-set steps
(free variables that leave their box are fixed at the bound passed; fixed ones
whose multiplier has the wrong sign are freed) until the KKT conditions hold,
which for a convex QP proves optimality. If that does not happen within
``max_steps`` steps, or the KKT system is singular, the frame is solved from
scratch by quadprog (:func:`cold_solve`, through ``engine.qp.solve_qp``), with the variables whose bounds meet held there (quadprog
reports such boxes infeasible). Each solve reports which route it took. Both kinds run their warm starts over
consecutive frames in numba (``engine.kernels._qp_so``), the second building each frame's problem there too.
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


def solve_activation_frames(h, J_l, active, passive, R, opt, rows, tau, lb, ub, tol: float = 1e-9,
                            max_steps: int = 8):
    """OpenSim's objective at every frame (``engine.muscles.forces.static_optimization``): ``min 1/2 sum h_i x_i^2``
    subject to ``A x = b``, ``lb <= x <= ub``, with ``x = (activations, reserve controls)``,
    ``A = (-J_l[:, rows]^T diag(active), R[rows] diag(opt))`` and ``b = tau[rows] (+ J_l[:, rows]^T passive)``;
    returns ``(x (T, n), statuses)`` with ``x`` NaN where infeasible or where an input holds NaN.

    ``h`` (n,) > 0, ``lb``, ``ub`` (n,) are the same at every frame; ``J_l`` (T, m, nv), ``active`` (T, m) N,
    ``passive`` (T, m) N or None (left out), ``R`` (T, nv, r), ``opt`` (r,), ``rows`` (nv,) bool the speeds matched,
    ``tau`` (T, nv). Frames are built and solved in numba from the previous frame's active set (the first frame, and
    the first after one not solved, from none held) while the KKT conditions certify the result
    (``engine.kernels._qp_so.activation_frames``, the tolerances of :class:`WarmStartedQP`, with one correction per
    step in the second half of the steps), by quadprog otherwise.
    """
    h, lb, ub, opt = (np.ascontiguousarray(a, float) for a in (h, lb, ub, opt))
    T, m, nv = J_l.shape
    n = len(h)
    x = np.full((T, n), np.nan)
    status = [OPTIMAL_WARM] * T
    at_lb, at_ub = np.zeros(n, bool), np.zeros(n, bool)     # the guess: the previous frame's, at first none held
    rows = np.flatnonzero(rows)
    A, b = np.empty((len(rows), n)), np.empty(len(rows))
    for c0 in range(0, T, FRAMES_AT_ONCE):      # (R, active may be broadcast over the frames: copied by chunks)
        k = min(T, c0 + FRAMES_AT_ONCE) - c0
        J_c, active_c, R_c, tau_c = (np.ascontiguousarray(a[c0:c0 + k], float) for a in (J_l, active, R, tau))
        passive_c = np.zeros((k, 0)) if passive is None else np.ascontiguousarray(passive[c0:c0 + k], float)
        i = 0
        while i < k:
            i = _qp_so.activation_frames(i, k, h, J_c, active_c, passive_c, R_c, opt, rows, tau_c, lb, ub, tol,
                                         max_steps, at_lb, at_ub, x[c0:c0 + k], A, b)
            if i == k:
                break
            xi = None
            if np.isfinite(A).all() and np.isfinite(b).all() and not (np.isnan(lb).any() or np.isnan(ub).any()):
                xi = cold_solve(np.diag(h), np.zeros(n), lb, ub, A, b)
                status[c0 + i] = INFEASIBLE if xi is None else OPTIMAL_QUADPROG
            else:
                status[c0 + i] = NO_DATA
            if xi is None:
                x[c0 + i] = np.nan          # the warm start may have left its last try there
                at_lb[:] = at_ub[:] = False
            else:
                x[c0 + i] = xi
                _held_bounds(xi, lb, ub, tol, at_lb, at_ub)
            i += 1
    return x, status


def solve_tracking_frames(J_l, R, opt, F0, w1, w2, ref, tau, regularization, reserve_weight, lb, ub,
                          tol: float = 1e-9, max_steps: int = 8):
    """The seed objective's QP at every frame (``engine.muscles.forces.static_optimization``): returns
    ``(x (T, m + r), statuses)``, ``x = (f / F0, reserve controls)``, NaN where infeasible or an input holds NaN.

    ``J_l`` (T, m, nv) length Jacobians, ``R`` (T, nv, r) generalized force per unit reserve force, ``opt`` (r,)
    reserves' optimal forces, ``F0`` (m,) N, ``w1`` (nv,) tracking weights (0 where not matched), ``w2`` (m,),
    ``ref`` (T, m) N reference forces (NaN where none), ``tau`` (T, nv), ``lb``, ``ub`` (T, m + r). Each frame's
    ``H`` and ``g`` are built and solved from the previous frame's active set in numba
    (``engine.kernels._qp_so.tracking_frames``); a frame that kernel does not certify goes to a
    :class:`WarmStartedQP` without a guess (quadprog; NaN inputs reported), so the outcome is that of
    :class:`WarmStartedQP` called frame after frame.
    """
    T, m, nv = J_l.shape
    n = m + R.shape[2]
    x = np.full((T, n), np.nan)
    status = [OPTIMAL_WARM] * T
    qp = WarmStartedQP(tol, max_steps)
    Bt, WBt, H, g = np.empty((n, nv)), np.empty((n, nv)), np.empty((n, n)), np.empty(n)
    none_held = np.zeros(n, bool)
    opt, F0, w1, w2 = (np.ascontiguousarray(a, float) for a in (opt, F0, w1, w2))
    for c0 in range(0, T, FRAMES_AT_ONCE):      # (R may be one matrix broadcast over the frames: copied by chunks)
        k = min(T, c0 + FRAMES_AT_ONCE) - c0
        J_c, R_c, ref_c, tau_c, lb_c, ub_c = (np.ascontiguousarray(a[c0:c0 + k], float)
                                              for a in (J_l, R, ref, tau, lb, ub))
        i = 0
        while i < k:
            held = qp.active_set
            at_lb, at_ub = (none_held, none_held) if held is None else held
            i = _qp_so.tracking_frames(i, k, J_c, R_c, opt, F0, w1, w2, ref_c, tau_c, float(regularization),
                                       float(reserve_weight), lb_c, ub_c, tol, max_steps, held is not None, at_lb,
                                       at_ub, x[c0:c0 + k], Bt, WBt, H, g)
            if i == k:
                break
            qp.reset()      # the frame's warm start failed (or there was none): quadprog solves it
            x[c0 + i], status[c0 + i] = qp.solve(H, g, lb_c[i], ub_c[i])
            i += 1
    return x, status


def _held_bounds(x, lb, ub, tol, at_lb, at_ub):
    """The bounds a quadprog solution ``x`` holds (to ``tol`` relative to the box's size), into ``at_lb`` /
    ``at_ub``: the next frame's guess."""
    scale = tol * np.maximum(1.0, np.abs(lb) + np.abs(ub))
    at_lb[:] = (x - lb <= scale) & np.isfinite(lb)
    at_ub[:] = (ub - x <= scale) & np.isfinite(ub) & ~at_lb


class WarmStartedQP:
    """Solves a series of QPs of the same size, reusing the last active set.

    Parameters
    ----------
    tol : tolerance of the KKT check: on the bounds in the units of ``x``, on the multiplier
        signs relative to the largest diagonal entry of ``H``.
    max_steps : active-set corrections tried before falling back to quadprog.

    ``active_set``: ``(at_lb, at_ub)`` (n,) bool, the bounds the last solution holds (None before the first solution
    and after :meth:`reset`); a warm start updates the arrays in place.
    """

    def __init__(self, tol: float = 1e-9, max_steps: int = 8):
        self.tol = tol
        self.max_steps = max_steps
        self.active_set = None

    def reset(self) -> None:
        """Forget the previous active set (the next solve starts from quadprog)."""
        self.active_set = None

    def solve(self, H, g, lb, ub):
        """Solve one problem; returns ``(x, status)`` with ``x`` NaN when infeasible or when an input
        holds NaN (e.g. a frame whose inverse dynamics or geometry is missing). The warm start is
        ``engine.kernels._qp_so.box_warm_frame``."""
        n = len(g)
        if not (np.all(np.isfinite(H)) and np.all(np.isfinite(g))) or np.isnan(lb).any() or np.isnan(ub).any():
            self.reset()
            return np.full(n, np.nan), NO_DATA
        H, g, lb, ub = (np.ascontiguousarray(a, float) for a in (H, g, lb, ub))
        if self.active_set is not None and len(self.active_set[0]) == n:
            x = np.empty(n)
            if _qp_so.box_warm_frame(H, g, lb, ub, self.tol, self.max_steps, *self.active_set, x):
                return x, OPTIMAL_WARM
        x = cold_solve(H, g, lb, ub, None, None)
        if x is None:
            self.reset()
            return np.full(n, np.nan), INFEASIBLE
        self.active_set = (np.empty(n, bool), np.empty(n, bool))
        _held_bounds(x, lb, ub, self.tol, *self.active_set)
        return x, OPTIMAL_QUADPROG


class CostNotPositiveDefinite(ValueError):
    """The QP's cost matrix is not positive definite (quadprog cannot solve it): a setting, not a frame's
    infeasibility. ``variables``: the indices of the variables on which the cost is flat (or curves down): those
    of the eigenvector of the cost's smallest eigenvalue, the largest first."""

    def __init__(self, variables, smallest_eigenvalue: float, reason: str):
        self.variables = tuple(int(j) for j in variables)
        self.smallest_eigenvalue = float(smallest_eigenvalue)
        super().__init__(f"the cost matrix is not positive definite (smallest eigenvalue {smallest_eigenvalue:.3g}, "
                         f"variables {list(self.variables)}): {reason}")


def cold_solve(H, g, lb, ub, A, b):
    """The problem solved from scratch, or None if infeasible. Variables whose bounds meet (a muscle
    that can produce no active force, to round-off) are held there and left out: quadprog fails on such
    boxes.

    Raises
    ------
    CostNotPositiveDefinite
        If ``H`` over the variables not held is not positive definite.
    """
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
    Hf = H[np.ix_(free, free)]
    xf, reason = solve_qp(Hf, gf, A=Af, b=bf, lb=lb[free], ub=ub[free])
    if xf is None:
        if "positive definite" in reason:
            values, vectors = np.linalg.eigh(Hf)
            weight = np.abs(vectors[:, 0])
            order = np.argsort(-weight, kind="stable")
            raise CostNotPositiveDefinite(np.flatnonzero(free)[order[weight[order] > 0.1]], values[0], reason)
        return None
    x[free] = xf
    return x
