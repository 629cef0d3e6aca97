"""Inverse kinematics from markers (seed eq. 32): per-frame Levenberg-Marquardt in numba.

For each frame, minimise
``1/2 sum_k w_k |p_k - p_k(q)|^2 + 1/2 sum_c w_c (q_c* - q_c)^2``
over the free velocity coordinates, starting from the previous frame's
solution. Steps are taken on the joints' groups (``q (+) delta``), coordinate
ranges are kept by an active set (a coordinate at a bound that the gradient
pushes outward is held for the step), locked coordinates are never moved,
and missing markers (NaN) are left out of that frame. The damping follows
Nielsen's update of the Levenberg-Marquardt parameter.
"""
import math

import numba as nb
import numpy as np

from ._integrate import integrate
from ._passes import frame_placement, kinematics

MAX_COLS = 64   # columns a single marker's Jacobian may touch (ancestor coordinates)


@nb.njit(cache=True, nogil=True)
def point_jacobian_columns(nodes, frames, ws, k, x, cols, Jc, pos):
    """Compact world Jacobian of the point ``x`` moving with frame ``k``'s node.

    Writes the touched v indices into ``cols`` and the 3 x ncols block into ``Jc``;
    ``pos`` (nv,) must be -1 on entry and is restored. Returns ncols.
    """
    nc = 0
    a = frames[k].node
    while a >= 0:
        na = nodes[a]
        wa = ws[a]
        S = wa.S
        oR = wa.oR
        o = wa.op
        rx = x[0] - o[0]
        ry = x[1] - o[1]
        rz = x[2] - o[2]
        for j in range(na.ncol):
            ox = oR[0, 0] * S[0, j] + oR[0, 1] * S[1, j] + oR[0, 2] * S[2, j]
            oy = oR[1, 0] * S[0, j] + oR[1, 1] * S[1, j] + oR[1, 2] * S[2, j]
            oz = oR[2, 0] * S[0, j] + oR[2, 1] * S[1, j] + oR[2, 2] * S[2, j]
            vx = oR[0, 0] * S[3, j] + oR[0, 1] * S[4, j] + oR[0, 2] * S[5, j]
            vy = oR[1, 0] * S[3, j] + oR[1, 1] * S[4, j] + oR[1, 2] * S[5, j]
            vz = oR[2, 0] * S[3, j] + oR[2, 1] * S[4, j] + oR[2, 2] * S[5, j]
            col = na.colv[j]
            c = pos[col]
            if c < 0:
                c = nc
                pos[col] = nc
                cols[nc] = col
                Jc[0, c] = 0.0
                Jc[1, c] = 0.0
                Jc[2, c] = 0.0
                nc += 1
            Jc[0, c] += vx + oy * rz - oz * ry
            Jc[1, c] += vy + oz * rx - ox * rz
            Jc[2, c] += vz + ox * ry - oy * rx
        a = na.parent
    for i in range(nc):
        pos[cols[i]] = -1
    return nc


@nb.njit(cache=True, nogil=True)
def _cost(t, ws, scr, q, mframes, targets, weights, c_q, c_target, c_w):
    """Objective value at ``q`` (after placing the tree)."""
    empty = np.zeros(0)
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty, 0, False)
    R = np.empty((3, 3))
    x = np.empty(3)
    cost = 0.0
    for k in range(mframes.shape[0]):
        if math.isnan(targets[k, 0]) or weights[k] == 0.0:
            continue
        frame_placement(t.frames, ws, mframes[k], R, x)
        cost += weights[k] * ((targets[k, 0] - x[0]) ** 2 + (targets[k, 1] - x[1]) ** 2
                              + (targets[k, 2] - x[2]) ** 2)
    for c in range(c_q.shape[0]):
        cost += c_w[c] * (c_target[c] - q[c_q[c]]) ** 2
    return 0.5 * cost


@nb.njit(cache=True, nogil=True)
def _normal_equations(t, ws, scr, q, mframes, targets, weights, c_q, c_v, c_target, c_w, H, g, cols, Jc, pos):
    """Cost, ``H = J^T W J`` and ``g = J^T W r`` at ``q`` (r = target - model)."""
    empty = np.zeros(0)
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty, 0, False)
    nv = H.shape[0]
    for i in range(nv):
        g[i] = 0.0
        for j in range(nv):
            H[i, j] = 0.0
    R = np.empty((3, 3))
    x = np.empty(3)
    cost = 0.0
    for k in range(mframes.shape[0]):
        w = weights[k]
        if math.isnan(targets[k, 0]) or w == 0.0:
            continue
        frame_placement(t.frames, ws, mframes[k], R, x)
        r0 = targets[k, 0] - x[0]
        r1 = targets[k, 1] - x[1]
        r2 = targets[k, 2] - x[2]
        cost += w * (r0 * r0 + r1 * r1 + r2 * r2)
        nc = point_jacobian_columns(t.nodes, t.frames, ws, mframes[k], x, cols, Jc, pos)
        for a in range(nc):
            ca = cols[a]
            g[ca] += w * (Jc[0, a] * r0 + Jc[1, a] * r1 + Jc[2, a] * r2)
            for b in range(a, nc):
                h = w * (Jc[0, a] * Jc[0, b] + Jc[1, a] * Jc[1, b] + Jc[2, a] * Jc[2, b])
                cb = cols[b]
                H[ca, cb] += h
                if cb != ca:
                    H[cb, ca] += h
    for c in range(c_q.shape[0]):
        r = c_target[c] - q[c_q[c]]
        cost += c_w[c] * r * r
        g[c_v[c]] += c_w[c] * r
        H[c_v[c], c_v[c]] += c_w[c]
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
def solve_frames(t, ws, scr, mframes, targets, weights, c_q, c_v, c_targets, c_w, free, lo, hi, q_start,
                 tol, max_iter, Q, iters, status, cost_out):
    """Solve IK for every frame of ``targets`` (F, K, 3), warm-starting from the previous frame.

    ``weights`` (F, K): each frame's marker weights (the robust loss re-weights markers per frame).
    ``free`` (nv,) selects optimised velocity coordinates; ``lo``/``hi`` (nq,) bound scalar
    coordinates. Writes ``Q`` (F, nq), iteration counts, ``status`` (1 converged, 0 not,
    -1 no marker in the frame) and the final cost per frame.
    """
    nv = free.shape[0]
    H = np.empty((nv, nv))
    g = np.empty(nv)
    cols = np.empty(MAX_COLS, np.int64)
    Jc = np.empty((3, MAX_COLS))
    pos = -np.ones(nv, np.int64)
    idx = np.empty(nv, np.int64)
    delta = np.zeros(nv)
    q = q_start.copy()
    q_try = np.empty_like(q)
    for f in range(targets.shape[0]):
        tg = targets[f]
        ct = c_targets[f]
        wf = weights[f]
        n_present = 0
        for k in range(tg.shape[0]):
            if not math.isnan(tg[k, 0]) and wf[k] > 0.0:
                n_present += 1
        if n_present == 0:
            Q[f] = q
            iters[f] = 0
            status[f] = -1
            cost_out[f] = math.nan
            continue
        cost = _normal_equations(t, ws, scr, q, mframes, tg, wf, c_q, c_v, ct, c_w, H, g, cols, Jc, pos)
        lam = -1.0
        nu = 2.0
        converged = False
        it = 0
        while it < max_iter:
            it += 1
            # active set: free coordinates not pushed out of their range
            m = 0
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
                converged = True
                break
            if lam < 0.0:
                dmax = 0.0
                for a in range(m):
                    dmax = max(dmax, H[idx[a], idx[a]])
                lam = 1e-6 * max(dmax, 1e-12)
            A = np.empty((m, m))
            b = np.empty(m)
            for a in range(m):
                b[a] = g[idx[a]]
                for c in range(m):
                    A[a, c] = H[idx[a], idx[c]]
                A[a, a] += lam * (1.0 + H[idx[a], idx[a]])
            L = np.linalg.cholesky(A)
            y = np.linalg.solve(L, b)
            d = np.linalg.solve(L.T, y)
            for i in range(nv):
                delta[i] = 0.0
            step = 0.0
            pred = 0.0
            for a in range(m):
                delta[idx[a]] = d[a]
                step = max(step, abs(d[a]))
                pred += d[a] * (b[a] + lam * (1.0 + H[idx[a], idx[a]]) * d[a])
            pred *= 0.5
            integrate(t.nodes, t.v2q, q, delta, 1.0, q_try)
            _clamp(t.v2q, lo, hi, q_try)
            new_cost = _cost(t, ws, scr, q_try, mframes, tg, wf, c_q, ct, c_w)
            if new_cost < cost:
                rho = (cost - new_cost) / max(pred, 1e-300)
                q[:] = q_try
                old = cost
                cost = _normal_equations(t, ws, scr, q, mframes, tg, wf, c_q, c_v, ct, c_w, H, g, cols, Jc,
                                         pos)
                lam *= max(1.0 / 3.0, 1.0 - (2.0 * rho - 1.0) ** 3)
                nu = 2.0
                if step < tol or old - cost <= 1e-15 * old:
                    converged = True
                    break
            else:
                lam *= nu
                nu *= 2.0
                if step < tol:
                    converged = True
                    break
        Q[f] = q
        iters[f] = it
        status[f] = 1 if converged else 0
        cost_out[f] = cost


@nb.njit(cache=True, nogil=True)
def marker_errors(t, ws, scr, Q, mframes, targets, out):
    """Distances (m) between measured and model markers per frame; NaN where missing."""
    empty = np.zeros(0)
    R = np.empty((3, 3))
    x = np.empty(3)
    for f in range(Q.shape[0]):
        kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, Q[f], empty, empty, 0, False)
        for k in range(mframes.shape[0]):
            if math.isnan(targets[f, k, 0]):
                out[f, k] = math.nan
                continue
            frame_placement(t.frames, ws, mframes[k], R, x)
            out[f, k] = math.sqrt((targets[f, k, 0] - x[0]) ** 2 + (targets[f, k, 1] - x[1]) ** 2
                                  + (targets[f, k, 2] - x[2]) ** 2)
