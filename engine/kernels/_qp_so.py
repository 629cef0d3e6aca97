"""The per-frame QP of static optimisation (OpenSim's objective), warm-started, in numba.

Each frame's problem is ``min 1/2 sum_i h_i x_i^2`` subject to ``A x = b`` and ``lb <= x <= ub`` (``h`` > 0,
the same at every frame; ``A``, ``b``, ``lb``, ``ub`` per frame). The previous frame's active set (which bounds
were held) is the guess: with those variables at their bounds the KKT conditions are one linear system, solved
through the Schur complement ``S = A_f diag(1/h_f) A_f^T`` of the free variables ``f``; its solution is the optimum
(the problem being convex) when every free variable lies within its box and every held bound's multiplier has the
sign that keeps it held. Otherwise the guess is corrected (free variables leaving their box are held at the bound
they pass; held ones whose multiplier has the wrong sign are freed; all at once for the first half of the
``max_steps`` steps, then only the largest violation relative to its tolerance, as all at once can cycle), before
the frame is handed back to quadprog (``engine.muscles.forces.qp``). A variable whose bounds meet (to ``1e-12`` relative) is held
at its lower bound throughout, as quadprog's fallback holds it.
"""
import math

import numba as nb
import numpy as np

from ._active_set import solve_kkt


@nb.njit(cache=True, nogil=True)
def _solve_frame(h, A, b, lb, ub, tol, max_steps, at_lb, at_ub, x):
    """One frame from the guess ``at_lb`` / ``at_ub`` (n,) bool, updated in place; the optimum into ``x`` (n,).
    False when the guess does not end at the optimum within ``max_steps`` corrections or a KKT system is singular."""
    n = h.shape[0]
    ne = b.shape[0]
    held = np.empty(n, np.bool_)
    hmax = 1.0
    for j in range(n):
        if lb[j] > ub[j] + 1e-12 * max(1.0, abs(lb[j])):
            return False                        # crossed bounds: quadprog reports the frame infeasible
        held[j] = math.isfinite(lb[j]) and ub[j] - lb[j] <= 1e-12 * max(1.0, abs(lb[j]))
        if held[j]:
            at_lb[j] = True
            at_ub[j] = False
        hmax = max(hmax, abs(h[j]))
    dual_tol = tol * hmax
    r = np.empty(ne)
    S = np.empty((ne, ne))
    grad = np.empty(n)
    w = np.empty(n)         # 1/h of the free variables, 0 for the held ones
    w_new = np.empty(n)
    xf = np.empty(n)        # the held variables' values, 0 for the free ones
    for step in range(max_steps):
        one_at_a_time = step >= max_steps // 2     # all violations at once can cycle
        for j in range(n):
            fixed = at_lb[j] or at_ub[j]
            w_new[j] = 0.0 if fixed else 1.0 / h[j]
            xf[j] = (lb[j] if at_lb[j] else ub[j]) if fixed else 0.0
        for e in range(ne):         # r = b - A xf (rows of A are contiguous)
            s = b[e]
            for j in range(n):
                s -= A[e, j] * xf[j]
            r[e] = s
        if step == 0:               # S = A diag(w) A^T, then updated by the variables switched
            for e in range(ne):
                for f in range(e, ne):
                    s = 0.0
                    for j in range(n):
                        s += A[e, j] * w_new[j] * A[f, j]
                    S[e, f] = s
                    S[f, e] = s
        else:
            for j in range(n):
                if w_new[j] != w[j]:
                    d = w_new[j] - w[j]
                    for e in range(ne):
                        a = d * A[e, j]
                        for f in range(e, ne):
                            S[e, f] += a * A[f, j]
                            S[f, e] = S[e, f]
        w[:] = w_new
        nu = solve_kkt(S, -r)
        if nu is None:
            return False
        grad[:] = 0.0               # grad = A^T nu here, then + h x
        for e in range(ne):
            for j in range(n):
                grad[j] += A[e, j] * nu[e]
        for j in range(n):
            if at_lb[j] or at_ub[j]:
                x[j] = xf[j]
            else:
                x[j] = -grad[j] / h[j]
                if not math.isfinite(x[j]):
                    return False
            grad[j] += h[j] * x[j]
        res = 0.0
        rr = 0.0
        for e in range(ne):
            s = 0.0
            for j in range(n):
                s += A[e, j] * (x[j] - xf[j])
            res += (s - r[e]) ** 2
            rr += r[e] ** 2
        if math.sqrt(res) > 1e-8 * (1.0 + math.sqrt(rr)):
            return False
        worst = 0.0                 # the largest violation, relative to its tolerance
        worst_j = -1
        for j in range(n):
            if held[j]:
                continue
            if at_lb[j]:
                v = -grad[j] / dual_tol
            elif at_ub[j]:
                v = grad[j] / dual_tol
            else:
                v = max(lb[j] - x[j], x[j] - ub[j]) / tol
            if v > 1.0:
                if v > worst:
                    worst = v
                    worst_j = j
                if not one_at_a_time:
                    _switch(j, x, lb, at_lb, at_ub)
        changed = worst_j >= 0
        if changed and one_at_a_time:
            _switch(worst_j, x, lb, at_lb, at_ub)
        if not changed:
            for j in range(n):
                x[j] = min(max(x[j], lb[j]), ub[j])
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _switch(j, x, lb, at_lb, at_ub):
    """Frees a held variable ``j``, or holds a free one at the bound it passes."""
    if at_lb[j] or at_ub[j]:
        at_lb[j] = False
        at_ub[j] = False
    elif x[j] < lb[j]:
        at_lb[j] = True
    else:
        at_ub[j] = True


@nb.njit(cache=True, nogil=True)
def warm_frames(f0, f1, h, A, b, lb, ub, tol, max_steps, at_lb, at_ub, x):
    """Frames ``f0 .. f1-1`` of ``A`` (T, ne, n), ``b`` (T, ne), ``lb``, ``ub`` (T, n), each from the previous
    frame's active set ``at_lb`` / ``at_ub`` (n,) bool, while the warm start holds; the optima into ``x`` (T, n).
    Returns the first frame it does not solve (``f1`` when all are)."""
    for fr in range(f0, f1):
        if not _solve_frame(h, A[fr], b[fr], lb[fr], ub[fr], tol, max_steps, at_lb, at_ub, x[fr]):
            return fr
    return f1
