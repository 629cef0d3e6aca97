"""Inverse kinematics from markers (seed eq. 32): per-frame Levenberg-Marquardt in numba.

For each frame, minimise
``1/2 sum_k w_k |p_k - p_k(q)|^2 + 1/2 sum_c,e (q_c* - q_c) W_ce (q_e* - q_e)``
over the free velocity coordinates, starting from the previous frame's
solution. Steps are taken on the joints' groups (``q (+) delta``), the ranges of
clamped coordinates (``lo``/``hi``; the others' are infinite, as in OpenSim's IK) are kept by an active set
(a coordinate at a bound that the gradient pushes outward is held for the step), locked coordinates are never
moved, and missing markers (NaN) are left out of that frame. The damping follows
Nielsen's update of the Levenberg-Marquardt parameter.
"""
import math

import numba as nb
import numpy as np

from ..algorithms.compiled import frame_placement, integrate, kinematics

LAM0 = 1e-6

@nb.njit(cache=True, nogil=True)
def world_columns(nodes, ws, out):
    """Each node's motion columns in world axes, after ``kinematics``: ``out[n, j]`` = ``[omega; v0]`` of
    column ``j`` of node ``n``, with ``v0`` the velocity of the point at the world origin, so that a point
    ``x`` moving with the node has the Jacobian column ``v0 + omega x x`` (one pass for all markers)."""
    for n in range(nodes.shape[0]):
        wa = ws[n]
        S = wa.S
        oR = wa.oR
        o = wa.op
        for j in range(nodes[n].ncol):
            ox = oR[0, 0] * S[0, j] + oR[0, 1] * S[1, j] + oR[0, 2] * S[2, j]
            oy = oR[1, 0] * S[0, j] + oR[1, 1] * S[1, j] + oR[1, 2] * S[2, j]
            oz = oR[2, 0] * S[0, j] + oR[2, 1] * S[1, j] + oR[2, 2] * S[2, j]
            vx = oR[0, 0] * S[3, j] + oR[0, 1] * S[4, j] + oR[0, 2] * S[5, j]
            vy = oR[1, 0] * S[3, j] + oR[1, 1] * S[4, j] + oR[1, 2] * S[5, j]
            vz = oR[2, 0] * S[3, j] + oR[2, 1] * S[4, j] + oR[2, 2] * S[5, j]
            out[n, j, 0] = ox
            out[n, j, 1] = oy
            out[n, j, 2] = oz
            out[n, j, 3] = vx - (oy * o[2] - oz * o[1])
            out[n, j, 4] = vy - (oz * o[0] - ox * o[2])
            out[n, j, 5] = vz - (ox * o[1] - oy * o[0])


@nb.njit(cache=True, nogil=True)
def _normal_equations(t, ws, scr, q, mframes, targets, weights, c_q, c_v, c_target, c_w, H, g, wcols, moments):
    """Cost, ``H = J^T W J`` and ``g = J^T W r`` at ``q`` (r = target - model), one kinematics pass; the
    coordinate tasks ``c_q``/``c_v`` (C,) weigh their residuals by the symmetric matrix ``c_w`` (C, C).

    All markers in one pass, without forming their Jacobians: column ``i`` moves a marker at ``x`` by
    ``u_i(x) = v_i + omega_i x x`` (``world_columns``), so the markers below a node enter ``H`` and ``g`` only
    through their weighted moments ``W = sum w``, ``X = sum w x``, ``P = sum w x x^T``, ``Rs = sum w r``,
    ``Mr = sum w x x r``, gathered from the leaves to the root (``moments`` (nodes, 16)):
    ``H_ij = W v_i.v_j + v_i.(omega_j x X) + v_j.(omega_i x X) + (omega_i.omega_j) tr P - omega_i^T P omega_j``
    and ``g_i = v_i.Rs + omega_i.Mr``, for column ``i`` of a node and ``j`` of it or of an ancestor.
    """
    empty = np.zeros(0)
    nodes = t.nodes
    kinematics(nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty,
               np.int64(0), np.bool_(False), np.bool_(True))
    world_columns(nodes, ws, wcols)
    nv = H.shape[0]
    for i in range(nv):
        g[i] = 0.0
        for j in range(nv):
            H[i, j] = 0.0
    moments[:, :] = 0.0
    cost = 0.0
    for k in range(mframes.shape[0]):
        w = weights[k]
        if math.isnan(targets[k, 0]) or w == 0.0:
            continue
        fr = t.frames[mframes[k]]
        n = fr.node
        fp = fr.p
        if n < 0:
            x0, x1, x2 = fp[0], fp[1], fp[2]
        else:               # the marker's position only (frame_placement's without its rotation)
            oR = ws[n].oR
            op = ws[n].op
            x0 = op[0] + oR[0, 0] * fp[0] + oR[0, 1] * fp[1] + oR[0, 2] * fp[2]
            x1 = op[1] + oR[1, 0] * fp[0] + oR[1, 1] * fp[1] + oR[1, 2] * fp[2]
            x2 = op[2] + oR[2, 0] * fp[0] + oR[2, 1] * fp[1] + oR[2, 2] * fp[2]
        r0 = targets[k, 0] - x0
        r1 = targets[k, 1] - x1
        r2 = targets[k, 2] - x2
        cost += w * (r0 * r0 + r1 * r1 + r2 * r2)
        if n < 0:
            continue
        m = moments[n]
        m[0] += w
        m[1] += w * x0
        m[2] += w * x1
        m[3] += w * x2
        m[4] += w * x0 * x0
        m[5] += w * x1 * x1
        m[6] += w * x2 * x2
        m[7] += w * x0 * x1
        m[8] += w * x0 * x2
        m[9] += w * x1 * x2
        m[10] += w * r0
        m[11] += w * r1
        m[12] += w * r2
        m[13] += w * (x1 * r2 - x2 * r1)
        m[14] += w * (x2 * r0 - x0 * r2)
        m[15] += w * (x0 * r1 - x1 * r0)
    for n in range(nodes.shape[0] - 1, 0, -1):
        p = nodes[n].parent
        if p >= 0:
            for c in range(16):
                moments[p, c] += moments[n, c]
    for a in range(nodes.shape[0]):
        m = moments[a]
        W = m[0]
        if W == 0.0:
            continue
        X0, X1, X2 = m[1], m[2], m[3]
        P00, P11, P22, P01, P02, P12 = m[4], m[5], m[6], m[7], m[8], m[9]
        trP = P00 + P11 + P22
        na = nodes[a]
        for i in range(na.ncol):
            ui = wcols[a, i]
            o0, o1, o2, v0, v1, v2 = ui[0], ui[1], ui[2], ui[3], ui[4], ui[5]
            ci = na.colv[i]
            g[ci] += v0 * m[10] + v1 * m[11] + v2 * m[12] + o0 * m[13] + o1 * m[14] + o2 * m[15]
            # omega_i x X and P omega_i, shared by every partner column j
            c0 = o1 * X2 - o2 * X1
            c1 = o2 * X0 - o0 * X2
            c2 = o0 * X1 - o1 * X0
            p0 = P00 * o0 + P01 * o1 + P02 * o2
            p1 = P01 * o0 + P11 * o1 + P12 * o2
            p2 = P02 * o0 + P12 * o1 + P22 * o2
            b = a
            while b >= 0:
                nb_ = nodes[b]
                for j in range(nb_.ncol):
                    if b == a and j < i:
                        continue
                    uj = wcols[b, j]
                    e0, e1, e2, s0, s1, s2 = uj[0], uj[1], uj[2], uj[3], uj[4], uj[5]
                    h = (W * (v0 * s0 + v1 * s1 + v2 * s2)
                         + v0 * (e1 * X2 - e2 * X1) + v1 * (e2 * X0 - e0 * X2) + v2 * (e0 * X1 - e1 * X0)
                         + s0 * c0 + s1 * c1 + s2 * c2
                         + (o0 * e0 + o1 * e1 + o2 * e2) * trP - (p0 * e0 + p1 * e1 + p2 * e2))
                    cj = nb_.colv[j]
                    H[ci, cj] += h
                    if b != a or j != i:
                        H[cj, ci] += h
                b = nb_.parent
    for c in range(c_q.shape[0]):
        r = c_target[c] - q[c_q[c]]
        for e in range(c_q.shape[0]):
            w = c_w[c, e]
            if w != 0.0:
                re = c_target[e] - q[c_q[e]]
                cost += r * w * re
                g[c_v[c]] += w * re
                H[c_v[c], c_v[e]] += w
    return 0.5 * cost


@nb.njit(cache=True, nogil=True)
def _clamp(v2q, lo, hi, q):
    for vi in range(v2q.shape[0]):
        qi = v2q[vi]
        if qi >= 0:
            if q[qi] < lo[qi]:
                q[qi] = lo[qi]
            elif q[qi] > hi[qi]:
                q[qi] = hi[qi]


@nb.njit(cache=True, nogil=True)
def _cholesky_solve(A, m, b, d):
    """Solve ``A[:m, :m] d = b`` for a symmetric positive definite block given by its lower triangle,
    factorising it in place. Returns False when the block is not positive definite."""
    for j in range(m):
        s = A[j, j]
        for k in range(j):
            s -= A[j, k] * A[j, k]
        if not s > 0.0:
            return False
        s = math.sqrt(s)
        A[j, j] = s
        for i in range(j + 1, m):
            v = A[i, j]
            for k in range(j):
                v -= A[i, k] * A[j, k]
            A[i, j] = v / s
    for i in range(m):
        v = b[i]
        for k in range(i):
            v -= A[i, k] * d[k]
        d[i] = v / A[i, i]
    for i in range(m - 1, -1, -1):
        v = d[i]
        for k in range(i + 1, m):
            v -= A[k, i] * d[k]
        d[i] = v / A[i, i]
    return True


@nb.njit(cache=True, nogil=True)
def _diagonal(H, out):
    for i in range(out.shape[0]):
        out[i] = H[i, i]


@nb.njit(cache=True, nogil=True)
def _solve_frame(t, ws, scr, mframes, tg, wf, c_q, c_v, ct, c_w, free, lo, hi, q, tol, max_iter, info, H, g, H2,
                 g2, wcols, moments, idx, A, b, d, delta, q_try):
    """Levenberg-Marquardt on one frame from ``q`` (updated in place). Returns (iterations, status, cost) and
    writes ``info`` (nv,): the diagonal of ``H = J^T W J`` (tasks included) at the last iterate evaluated (the
    returned ``q`` but for a last step below ``tol``), zeros for a frame without markers
    (``engine.analysis.ik_unobserved``). The arguments after ``info`` are work arrays."""
    nv = free.shape[0]
    n_present = 0
    for k in range(tg.shape[0]):
        if not math.isnan(tg[k, 0]) and wf[k] > 0.0:
            n_present += 1
    if n_present == 0:
        info[:] = 0.0
        return 0, -1, math.nan
    cost = _normal_equations(t, ws, scr, q, mframes, tg, wf, c_q, c_v, ct, c_w, H, g, wcols, moments)
    lam = -1.0
    nu = 2.0
    it = 0
    while it < max_iter:
        it += 1
        # active set: free coordinates not pushed out of their range
        m = np.int64(0)
        gmax = 0.0
        for i in range(nv):
            if not free[i]:
                continue
            qi = t.v2q[i]
            if qi >= 0:
                if q[qi] <= lo[qi] and g[i] < 0.0:
                    continue
                if q[qi] >= hi[qi] and g[i] > 0.0:
                    continue
            idx[m] = i
            m += 1
            if abs(g[i]) > gmax:
                gmax = abs(g[i])
        if m == 0 or gmax < 1e-14:
            _diagonal(H, info)
            return it, 1, cost
        if lam < 0.0:
            dmax = 0.0
            for a in range(m):
                dmax = max(dmax, H[idx[a], idx[a]])
            lam = LAM0 * max(dmax, 1e-12)
        for a in range(m):
            b[a] = g[idx[a]]
            for c in range(a + 1):
                A[a, c] = H[idx[a], idx[c]]
            A[a, a] += lam * (1.0 + H[idx[a], idx[a]])
        step = 0.0
        pred = 0.0
        new_cost = math.inf
        if _cholesky_solve(A, m, b, d):
            for i in range(nv):
                delta[i] = 0.0
            for a in range(m):
                delta[idx[a]] = d[a]
                step = max(step, abs(d[a]))
                pred += d[a] * (b[a] + lam * (1.0 + H[idx[a], idx[a]]) * d[a])
            pred *= 0.5
            integrate(t.nodes, t.v2q, q, delta, 1.0, q_try)
            _clamp(t.v2q, lo, hi, q_try)
            if step < tol:
                # converged: the step is taken without a kinematics pass at its end, the cost there being the
                # Gauss-Newton model's (its error is of the order of the step squared times the gradient's change)
                q[:] = q_try
                _diagonal(H, info)
                return it, 1, cost - pred
            new_cost = _normal_equations(t, ws, scr, q_try, mframes, tg, wf, c_q, c_v, ct, c_w, H2, g2, wcols,
                                         moments)
        if new_cost < cost:
            rho = (cost - new_cost) / max(pred, 1e-300)
            q[:] = q_try
            old = cost
            cost = new_cost
            H, H2 = H2, H
            g, g2 = g2, g
            lam *= max(1.0 / 3.0, 1.0 - (2.0 * rho - 1.0) ** 3)
            nu = 2.0
            if step < tol or old - cost <= 1e-15 * old:
                _diagonal(H, info)
                return it, 1, cost
        else:
            lam *= nu
            nu *= 2.0
            if step < tol and new_cost < math.inf:
                _diagonal(H, info)
                return it, 1, cost
    _diagonal(H, info)
    return it, 0, cost


@nb.njit(cache=True, nogil=True)
def _extrapolate(v2q, lo, hi, q0, q1, out):
    """``out``'s scalar coordinates carried on at the speed of ``q0`` -> ``q1`` (the next frame's start, one frame
    later), within their ranges; quaternions keep ``out``'s (the previous solution's) values."""
    for vi in range(v2q.shape[0]):
        qi = v2q[vi]
        if qi >= 0:
            out[qi] = min(max(2.0 * q1[qi] - q0[qi], lo[qi]), hi[qi])


@nb.njit(cache=True, nogil=True)
def solve_frames(t, ws, scr, mframes, targets, weights, c_q, c_v, c_targets, c_w, free, lo, hi, q_start,
                 tol, max_iter, warm, Q, iters, status, cost_out, info):
    """Solve IK for every frame of ``targets`` (F, K, 3).

    ``weights`` (F, K): each frame's marker weights (a robust loss re-weights markers per frame).
    ``q_start`` (F, nq): with ``warm`` only its first row is used and each later frame starts from the
    previous frame's solution; without, frame ``f`` starts from row ``f`` (independent starts).
    ``free`` (nv,) selects optimised velocity coordinates; ``lo``/``hi`` (nq,) bound scalar
    coordinates. Writes ``Q`` (F, nq), iteration counts, ``status`` (1 converged, 0 not,
    -1 no marker in the frame), the final cost per frame (after a last step below ``tol``, which is taken without
    a kinematics pass, the Gauss-Newton model's cost) and ``info`` (F, nv), the diagonal of ``J^T W J`` at each
    solution (before that last step).
    """
    nv = free.shape[0]
    H = np.empty((nv, nv))
    g = np.empty(nv)
    H2 = np.empty((nv, nv))
    g2 = np.empty(nv)
    wcols = np.empty((t.nodes.shape[0], 6, 6))
    moments = np.empty((t.nodes.shape[0], 16))
    idx = np.empty(nv, np.int64)
    A = np.empty((nv, nv))
    b = np.empty(nv)
    d = np.empty(nv)
    delta = np.zeros(nv)
    q = q_start[0].copy()
    q_try = np.empty_like(q)
    for f in range(targets.shape[0]):
        if not warm:
            q[:] = q_start[f]
        elif f >= 2 and status[f - 1] == 1 and status[f - 2] == 1:
            _extrapolate(t.v2q, lo, hi, Q[f - 2], Q[f - 1], q)
        it, st, c = _solve_frame(t, ws, scr, mframes, targets[f], weights[f], c_q, c_v, c_targets[f], c_w, free, lo,
                                 hi, q, tol, max_iter, info[f], H, g, H2, g2, wcols, moments, idx, A, b, d, delta,
                                 q_try)
        Q[f] = q
        iters[f] = it
        status[f] = st
        cost_out[f] = c


@nb.njit(cache=True, nogil=True)
def marker_errors(t, ws, scr, Q, mframes, targets, out):
    """Distances (m) between measured and model markers per frame; NaN where missing."""
    empty = np.zeros(0)
    R = np.empty((3, 3))
    x = np.empty(3)
    for f in range(Q.shape[0]):
        kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for k in range(mframes.shape[0]):
            if math.isnan(targets[f, k, 0]):
                out[f, k] = math.nan
                continue
            frame_placement(t.frames, ws, mframes[k], R, x)
            out[f, k] = math.sqrt((targets[f, k, 0] - x[0]) ** 2 + (targets[f, k, 1] - x[1]) ** 2
                                  + (targets[f, k, 2] - x[2]) ** 2)
