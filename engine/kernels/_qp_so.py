"""The per-frame QPs of static optimisation, built and warm-started in numba.

OpenSim's objective: each frame's problem is ``min 1/2 sum_i h_i x_i^2`` subject to ``A x = b`` and
``lb <= x <= ub`` (``h`` > 0 and the bounds the same at every frame; ``A``, ``b`` built per frame from the length
Jacobians, :func:`activation_frames`). The previous frame's active set (which bounds were held) is the guess: with those variables at their bounds the KKT conditions are one linear system, solved
through the Schur complement ``S = A_f diag(1/h_f) A_f^T`` of the free variables ``f``; its solution is the optimum
(the problem being convex) when every free variable lies within its box and every held bound's multiplier has the
sign that keeps it held. Otherwise the guess is corrected (free variables leaving their box are held at the bound
they pass; held ones whose multiplier has the wrong sign are freed; all at once for the first half of the
``max_steps`` steps, then only the largest violation relative to its tolerance, as all at once can cycle), before
the frame is handed back to quadprog (``engine.muscles.forces.qp``). A variable whose bounds meet (to ``1e-12`` relative) is held
at its lower bound throughout, as quadprog's fallback holds it.

The seed's objective (``engine.muscles.forces.static_optimization``) is a box-constrained QP
``min 1/2 x^T H x + g^T x``, ``lb <= x <= ub``, whose ``H`` and ``g`` change at every frame: :func:`tracking_frames`
builds each frame's (:func:`tracking_problem`) and solves it from the previous frame's active set
(:func:`box_warm_frame`, the primal-dual active-set steps of ``engine.muscles.forces.qp.WarmStartedQP``), handing
back the first frame it cannot certify (or whose inputs hold NaN) with that frame's ``H`` and ``g``.
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
    Ax = np.empty(ne)
    S = np.empty((ne, ne))
    At = np.ascontiguousarray(A.T)      # the loops below run over e or f innermost: independent sums, each in j order
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
        r[:] = b                    # r = b - A xf
        for j in range(n):
            for e in range(ne):
                r[e] -= At[j, e] * xf[j]
        if step == 0:               # S = A diag(w) A^T (upper triangle), then updated by the variables switched
            _schur(A, w_new, S)
        else:
            for j in range(n):
                if w_new[j] != w[j]:
                    d = w_new[j] - w[j]
                    for e in range(ne):
                        a = d * A[e, j]
                        for f in range(e, ne):
                            S[e, f] += a * At[j, f]
        for e in range(ne):
            for f in range(e + 1, ne):
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
        Ax[:] = 0.0                 # A (x - xf), to compare with r
        for j in range(n):
            for e in range(ne):
                Ax[e] += At[j, e] * (x[j] - xf[j])
        res = 0.0
        rr = 0.0
        for e in range(ne):
            res += (Ax[e] - r[e]) ** 2
            rr += r[e] ** 2
        if math.sqrt(res) > 1e-8 * (1.0 + math.sqrt(rr)):
            return False
        worst = 0.0                 # the largest violation, relative to its tolerance
        worst_j = np.int64(-1)
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
def _schur(A, w, S):
    """The upper triangle of ``S = A diag(w) A^T``, each entry summed over ``j`` in order from 0.0; four entries of a
    row at a time (independent sums, which the processor overlaps)."""
    ne, n = A.shape
    for e in range(ne):
        f = e
        while f + 4 <= ne:
            s0 = s1 = s2 = s3 = 0.0
            for j in range(n):
                a = A[e, j] * w[j]
                s0 += a * A[f, j]
                s1 += a * A[f + 1, j]
                s2 += a * A[f + 2, j]
                s3 += a * A[f + 3, j]
            S[e, f] = s0
            S[e, f + 1] = s1
            S[e, f + 2] = s2
            S[e, f + 3] = s3
            f += 4
        while f < ne:
            s0 = 0.0
            for j in range(n):
                s0 += A[e, j] * w[j] * A[f, j]
            S[e, f] = s0
            f += 1


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
def activation_problem(J, active, passive, R, opt, rows, tau, A, b):
    """One frame's equality ``A x = b`` of OpenSim's objective in the variables ``x = (activations, reserve
    controls)``: on each matched speed ``v = rows[e]``, ``A[e] = (-J[:, v] active, R[v] opt)`` and
    ``b[e] = tau[v] + J[:, v] . passive`` (``passive`` (m,) N, or (0,) when left out). ``J`` (m, nv) m per unit
    speed, ``active`` (m,) N, ``R`` (nv, r), ``opt`` (r,), ``tau`` (nv,)."""
    m = J.shape[0]
    r = R.shape[1]
    for e in range(rows.shape[0]):
        v = rows[e]
        for i in range(m):
            A[e, i] = J[i, v] * -active[i]
        for k in range(r):
            A[e, m + k] = R[v, k] * opt[k]
        s = 0.0
        for i in range(passive.shape[0]):
            s += J[i, v] * passive[i]
        b[e] = tau[v] + s


@nb.njit(cache=True, nogil=True)
def activation_frames(f0, f1, h, J, active, passive, R, opt, rows, tau, lb, ub, tol, max_steps, at_lb, at_ub, x, A,
                      b):
    """Frames ``f0 .. f1-1`` of OpenSim's objective (:func:`activation_problem` of ``J`` (T, m, nv), ``active``,
    ``passive`` (T, m) or (T, 0), ``R`` (T, nv, r), ``tau`` (T, nv); bounds ``lb``, ``ub`` (n,)), each from the
    previous frame's active set ``at_lb`` / ``at_ub`` (n,) bool (updated in place), optima into ``x`` (T, n).
    Returns the first frame it does not solve (``f1`` when all are), its ``A`` (ne, n) and ``b`` (ne,) left in
    ``A`` and ``b``: a warm start that does not end at the optimum, or NaN in its problem."""
    for fr in range(f0, f1):
        activation_problem(J[fr], active[fr], passive[fr], R[fr], opt, rows, tau[fr], A, b)
        for e in range(b.shape[0]):
            if not math.isfinite(b[e]):
                return fr
            for j in range(A.shape[1]):
                if not math.isfinite(A[e, j]):
                    return fr
        for j in range(lb.shape[0]):
            if math.isnan(lb[j]) or math.isnan(ub[j]):
                return fr
        if not _solve_frame(h, A, b, lb, ub, tol, max_steps, at_lb, at_ub, x[fr]):
            return fr
    return f1


@nb.njit(cache=True, nogil=True)
def box_warm_frame(H, g, lb, ub, tol, max_steps, at_lb, at_ub, x):
    """``min 1/2 x^T H x + g^T x``, ``lb <= x <= ub`` (``H`` (n, n) positive definite) from the guess ``at_lb`` /
    ``at_ub`` (n,) bool: with the guessed bounds held, the free variables solve ``H_ff x_f = -(g_f + H_fh x_h)``;
    free variables past a bound by more than ``tol`` are held there, held ones whose gradient ``H x + g`` has the
    sign that frees them (beyond ``tol`` times the largest of 1 and ``|H_jj|``) are freed, all at once, for at most
    ``max_steps`` steps. True with the optimum (clipped into the box) in ``x`` and its active set in ``at_lb`` /
    ``at_ub``; False (the guess left unchanged) when the steps do not end or a reduced system is singular."""
    n = g.shape[0]
    hmax = 1.0
    for j in range(n):
        hmax = max(hmax, abs(H[j, j]))
    dual_tol = tol * hmax
    lo = at_lb.copy()
    hi = at_ub.copy()
    free = np.empty(n, np.int64)
    grad = np.empty(n)
    for _ in range(max_steps):
        nf = 0
        for j in range(n):
            if hi[j]:
                x[j] = ub[j]
            elif lo[j]:
                x[j] = lb[j]
            else:
                x[j] = 0.0
                free[nf] = j
                nf += 1
        if nf > 0:
            K = np.empty((nf, nf))
            rhs = np.empty(nf)
            for a in range(nf):
                i = free[a]
                s = 0.0
                for j in range(n):
                    if lo[j] or hi[j]:
                        s += H[i, j] * x[j]
                rhs[a] = -(g[i] + s)
                for b in range(nf):
                    K[a, b] = H[i, free[b]]
            xf = solve_kkt(K, rhs)
            if xf is None:
                return False
            for a in range(nf):
                x[free[a]] = xf[a]
        for j in range(n):
            if not math.isfinite(x[j]):
                return False
        changed = False
        for i in range(n):
            s = 0.0
            for j in range(n):
                s += H[i, j] * x[j]
            grad[i] = s + g[i]
        for j in range(n):
            if lo[j] or hi[j]:
                release_lb = lo[j] and grad[j] < -dual_tol
                release_ub = hi[j] and grad[j] > dual_tol
                if release_lb or release_ub:
                    lo[j] = lo[j] and not release_lb
                    hi[j] = hi[j] and not release_ub
                    changed = True
            elif x[j] < lb[j] - tol:
                lo[j] = True
                changed = True
            elif x[j] > ub[j] + tol:
                hi[j] = True
                changed = True
        if not changed:
            for j in range(n):
                x[j] = min(max(x[j], lb[j]), ub[j])
                at_lb[j] = lo[j]
                at_ub[j] = hi[j]
            return True
    return False


@nb.njit(cache=True, nogil=True)
def tracking_problem(J, R, opt, F0, w1, w2, ref, tau, eps_rel, reserve_weight, Bt, WBt, H, g):
    """One frame's ``H`` (n, n) and ``g`` (n,) of the seed objective, ``n = m + r``, in the variables
    ``x = (f / F0, reserve controls)``: ``B = [-J^T diag(F0), R diag(opt)]`` (nv, n; its transpose into ``Bt``,
    ``B^T diag(w1)`` into ``WBt``, both (n, nv)), ``H = B^T diag(w1) B``, ``g = -B^T diag(w1) tau``, then on the
    muscles' diagonal ``w2 F0^2`` where ``ref`` (m,) is finite and ``w2`` > 0 (and ``-w2 F0 ref`` on ``g``) plus
    ``eps_rel`` times the largest of 1 and the tracking diagonal's largest entry, on the reserves'
    ``reserve_weight``. ``J`` (m, nv) m per unit speed, ``R`` (nv, r), ``opt`` (r,), ``F0`` (m,) N, ``tau`` (nv,)."""
    m, nv = J.shape
    r = R.shape[1]
    n = m + r
    for i in range(m):
        for v in range(nv):
            Bt[i, v] = -J[i, v] * F0[i]
    for k in range(r):
        for v in range(nv):
            Bt[m + k, v] = R[v, k] * opt[k]
    for i in range(n):
        s = 0.0
        for v in range(nv):
            WBt[i, v] = Bt[i, v] * w1[v]
            s += WBt[i, v] * tau[v]
        g[i] = -s
    for i in range(n):              # H = Bt WBt^T, four entries of a row at a time (as _schur)
        j = i
        while j + 4 <= n:
            s0 = s1 = s2 = s3 = 0.0
            for v in range(nv):
                a = Bt[i, v]
                s0 += a * WBt[j, v]
                s1 += a * WBt[j + 1, v]
                s2 += a * WBt[j + 2, v]
                s3 += a * WBt[j + 3, v]
            H[i, j] = H[j, i] = s0
            H[i, j + 1] = H[j + 1, i] = s1
            H[i, j + 2] = H[j + 2, i] = s2
            H[i, j + 3] = H[j + 3, i] = s3
            j += 4
        while j < n:
            s0 = 0.0
            for v in range(nv):
                s0 += Bt[i, v] * WBt[j, v]
            H[i, j] = H[j, i] = s0
            j += 1
    dmax = 1.0
    for i in range(m):
        dmax = max(dmax, H[i, i])      # (a NaN here is one in H: the caller reports the frame)
    eps = eps_rel * dmax
    for i in range(m):
        has_ref = math.isfinite(ref[i]) and w2[i] > 0
        wf = w2[i] * F0[i] * F0[i] if has_ref else 0.0
        H[i, i] += wf + eps
        if has_ref:
            g[i] -= w2[i] * F0[i] * ref[i]
    for k in range(r):
        H[m + k, m + k] += reserve_weight


@nb.njit(cache=True, nogil=True)
def tracking_frames(f0, f1, J, R, opt, F0, w1, w2, ref, tau, eps_rel, reserve_weight, lb, ub, tol, max_steps, warm,
                    at_lb, at_ub, x, Bt, WBt, H, g):
    """Frames ``f0 .. f1-1`` of the seed objective (:func:`tracking_problem` of ``J`` (T, m, nv), ``R`` (T, nv, r),
    ``ref`` (T, m), ``tau`` (T, nv); bounds ``lb``, ``ub`` (T, n)), each from the previous frame's active set
    ``at_lb`` / ``at_ub`` (updated in place; none yet unless ``warm``), optima into ``x`` (T, n). Returns the first
    frame it does not solve (``f1`` when all are), its problem left in ``H`` and ``g``: not warm, a warm start that
    fails, or NaN in its ``H``, ``g`` or bounds."""
    for fr in range(f0, f1):
        tracking_problem(J[fr], R[fr], opt, F0, w1, w2, ref[fr], tau[fr], eps_rel, reserve_weight, Bt, WBt, H, g)
        if not warm:
            return fr
        for i in range(H.shape[0]):
            if not (math.isfinite(g[i]) and not math.isnan(lb[fr, i]) and not math.isnan(ub[fr, i])):
                return fr
            for j in range(H.shape[1]):
                if not math.isfinite(H[i, j]):
                    return fr
        if not box_warm_frame(H, g, lb[fr], ub[fr], tol, max_steps, at_lb, at_ub, x[fr]):
            return fr
    return f1
