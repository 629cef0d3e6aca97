"""The shortcuts of the balance check (``engine.muscles.forces.balance``) over consecutive frames, in numba.

Per frame, with ``A = -J_l[:, rows]^T`` (k, m) and ``b = tau[rows]`` (k,): the caller's guess and the latest
Farkas certificates are tried (a vector ``y`` proves the frame unbalanced when ``y . b`` exceeds the most the box
``f_lo <= f <= f_hi`` reaches, ``sum_j max(f_lo,j c_j, f_hi,j c_j)`` with ``c = A^T y``, by more than
``1e-6 (1 + |b|) |y|``); a balancing set is sought near the caller's tensions (their least change, weighted by each
one's room to its nearer bound, that makes ``A f = b``, accepted only within the bounds and to ``1e-9 (1 + |b|)``);
then the residual after a few projected-gradient steps from those tensions, and the residual at the box's nearest
balance (bounded-variable least squares, as scipy's ``lsq_linear`` finds it) are tried as certificates: ``y = b - A f``
with ``f`` minimising ``|A f - b|`` over the box proves it (``y . A g <= y . A f = y . b - |y|^2`` for every ``g`` in
the box) once ``|y|`` exceeds the margin. The first frame none of them settles is handed back to the caller's LP.
"""
import math

import numba as nb
import numpy as np

from ._active_set import solve_kkt


@nb.njit(cache=True, nogil=True)
def _norm(v):
    s = 0.0
    for i in range(v.shape[0]):
        s += v[i] * v[i]
    return math.sqrt(s)


@nb.njit(cache=True, nogil=True)
def _mul(A, x):
    """``A x`` (loops: numba's matrix products compile a BLAS call per layout, for a few dozen numbers)."""
    k, m = A.shape
    out = np.zeros(k)
    for e in range(k):
        for j in range(m):
            out[e] += A[e, j] * x[j]
    return out


@nb.njit(cache=True, nogil=True)
def _mul_t(A, y):
    """``A^T y``."""
    k, m = A.shape
    out = np.zeros(m)
    for e in range(k):
        for j in range(m):
            out[j] += A[e, j] * y[e]
    return out


@nb.njit(cache=True, nogil=True)
def certifies(y, A, b, f_lo, f_hi):
    """Whether ``y`` (k,) proves, with the margin above, that no ``f_lo <= f <= f_hi`` (m,) meets ``A f = b``."""
    k, m = A.shape
    yb = 0.0
    for e in range(k):
        yb += y[e] * b[e]
    reach = 0.0
    for j in range(m):
        c = 0.0
        for e in range(k):
            c += A[e, j] * y[e]
        reach += max(f_lo[j] * c, f_hi[j] * c)
    return yb - reach > 1e-6 * (1.0 + _norm(b)) * _norm(y)


@nb.njit(cache=True, nogil=True)
def _balancing(f0, A, b, f_lo, f_hi):
    """Whether tensions ``f0`` within the bounds, moved by the weighted least change that makes ``A f = b``, stay
    within the bounds (a balancing set: the frame is balanced)."""
    k, m = A.shape
    for j in range(m):
        if not math.isfinite(f0[j]) or f0[j] < f_lo[j] or f0[j] > f_hi[j]:
            return False
    w = np.empty(m)
    for j in range(m):
        w[j] = min(f0[j] - f_lo[j], f_hi[j] - f0[j]) ** 2
    d = b - _mul(A, f0)
    G = np.zeros((k, k))        # A diag(w) A^T
    for e in range(k):
        for f in range(k):
            for j in range(m):
                G[e, f] += A[e, j] * w[j] * A[f, j]
    z = solve_kkt(G, d)
    if z is None:
        return False
    f = f0 + w * _mul_t(A, z[:])
    for j in range(m):
        if not (f[j] >= f_lo[j] and f[j] <= f_hi[j]):
            return False
    return _norm(_mul(A, f) - b) <= 1e-9 * (1.0 + _norm(b))


@nb.njit(cache=True, nogil=True)
def projected_residual(f0, A, b, f_lo, f_hi, steps):
    """``b - A f`` after ``steps`` projected-gradient steps of ``min |A f - b|`` over the box from ``f0``."""
    f = np.minimum(np.maximum(f0, f_lo), f_hi)
    step = 1.0 / max(np.linalg.norm(A, 2) ** 2, 1e-300)
    for _ in range(steps):
        f = np.minimum(np.maximum(f - step * _mul_t(A, _mul(A, f) - b), f_lo), f_hi)
    return b - _mul(A, f)


@nb.njit(cache=True, nogil=True)
def remember(y, Y, state):
    """Adds the certificate ``y`` to the ring ``Y`` (c, k) of the latest ones (``state``: count held, next row)."""
    Y[state[1]] = y
    state[1] = (state[1] + 1) % Y.shape[0]
    state[0] = min(state[0] + 1, Y.shape[0])


@nb.njit(cache=True, nogil=True)
def frame_problem(J, tau, rows, A, b):
    """``A = -J[:, rows]^T`` (k, m) and ``b = tau[rows]`` of one frame; False when either holds a non-finite value."""
    ok = True
    for e in range(rows.shape[0]):
        v = rows[e]
        b[e] = tau[v]
        ok &= math.isfinite(b[e])
        for j in range(J.shape[0]):
            A[e, j] = -J[j, v]
            ok &= math.isfinite(A[e, j])
    return ok


@nb.njit(cache=True, nogil=True)
def _kkt_violation(g, on_bound):
    worst = -np.inf
    for j in range(g.shape[0]):
        worst = max(worst, abs(g[j]) if on_bound[j] == 0 else g[j] * on_bound[j])
    return worst


@nb.njit(cache=True, nogil=True)
def _free_least_squares(A, b, x, on_bound, free):
    """The least-squares solution ``z`` over the columns ``free`` with the other variables at ``x``."""
    k, n = A.shape
    if free.shape[0] == 0:
        return np.empty(0)
    rest = b.copy()
    for j in range(n):
        if on_bound[j] != 0:
            for e in range(k):
                rest[e] -= A[e, j] * x[j]
    A_free = np.empty((k, free.shape[0]))
    for a in range(free.shape[0]):
        A_free[:, a] = A[:, free[a]]
    return np.linalg.lstsq(A_free, rest, rcond=np.finfo(np.float64).eps * max(k, free.shape[0]))[0]


@nb.njit(cache=True, nogil=True)
def bounded_least_squares(A, b, lb, ub, tol):
    """``argmin |A x - b|`` over ``lb <= x <= ub``: scipy's ``lsq_linear(method="bvls")`` (Stark and Parker's
    bounded-variable least squares, with scipy's initialisation from the unbounded solution and its stopping rules:
    KKT violation below ``tol``, or a relative cost decrease below it, or ``n`` iterations) in numba."""
    k, n = A.shape
    x = np.linalg.lstsq(A, b, rcond=-1.0)[0]
    inside = True
    for j in range(n):
        inside &= x[j] >= lb[j] and x[j] <= ub[j]
    if inside:
        return x
    on_bound = np.zeros(n)
    for j in range(n):
        if x[j] <= lb[j]:
            x[j] = lb[j]
            on_bound[j] = -1.0
        elif x[j] >= ub[j]:
            x[j] = ub[j]
            on_bound[j] = 1.0
    iteration = 0
    while True:         # scipy's initialisation: the free variables' solution, violators held, until feasible
        free = np.flatnonzero(on_bound == 0)
        if free.shape[0] == 0:
            break
        iteration += 1
        z = _free_least_squares(A, b, x, on_bound, free)
        violated = False
        for a in range(free.shape[0]):
            j = free[a]
            if z[a] < lb[j]:
                x[j] = lb[j]
                on_bound[j] = -1.0
                violated = True
            elif z[a] > ub[j]:
                x[j] = ub[j]
                on_bound[j] = 1.0
                violated = True
            else:
                x[j] = z[a]
        if not violated:
            break
    r = _mul(A, x) - b
    cost = 0.5 * _norm(r) ** 2
    g = _mul_t(A, r)
    optimality = _kkt_violation(g, on_bound)
    for _ in range(iteration, n + iteration):
        if optimality < tol:
            break
        on_bound[np.argmax(g * on_bound)] = 0.0
        while True:
            free = np.flatnonzero(on_bound == 0)
            z = _free_least_squares(A, b, x, on_bound, free)
            best, best_a, best_side = np.inf, -1, 0.0     # the first bound met on the way to z
            for a in range(free.shape[0]):
                j = free[a]
                if z[a] < lb[j]:
                    alpha = (lb[j] - x[j]) / (z[a] - x[j])
                    side = -1.0
                elif z[a] > ub[j]:
                    alpha = (ub[j] - x[j]) / (z[a] - x[j])
                    side = 1.0
                else:
                    continue
                if alpha < best:
                    best, best_a, best_side = alpha, a, side
            if best_a < 0:
                for a in range(free.shape[0]):
                    x[free[a]] = z[a]
                break
            for a in range(free.shape[0]):
                j = free[a]
                x[j] = x[j] * (1 - best) + best * z[a]
            on_bound[free[best_a]] = best_side
        r = _mul(A, x) - b
        cost_new = 0.5 * _norm(r) ** 2
        stalled = cost - cost_new < tol * cost
        cost = cost_new
        g = _mul_t(A, r)
        optimality = _kkt_violation(g, on_bound)
        if stalled:
            break
    return x


@nb.njit(cache=True, nogil=True)
def balance_frames(t0, t1, J, tau, f_lo, f_hi, rows, guesses, forces, steps, Y, state, out, A, b):
    """Frames ``t0 .. t1-1`` (``J`` (T, m, nv), ``tau`` (T, nv), ``f_lo``, ``f_hi`` (T, m), ``rows`` (k,) the speeds
    checked, ``guesses`` (T, nv) or (0, nv), ``forces`` (T, m) or (0, m)): ``out[t]`` True where a certificate proves
    the frame unbalanced (or an input holds NaN), False where a balancing set proves it balanced. Returns the first
    frame these do not settle (the LP's) (``t1`` when all are), its ``A`` and ``b`` left in ``A`` and ``b``."""
    k = rows.shape[0]
    y = np.empty(k)
    for t in range(t0, t1):
        valid = frame_problem(J[t], tau[t], rows, A, b)
        for j in range(f_lo.shape[1]):
            valid &= math.isfinite(f_lo[t, j]) and math.isfinite(f_hi[t, j])
        if not valid:
            out[t] = True
            continue
        if k == 0:
            out[t] = False
            continue
        if guesses.shape[0]:
            ok = True
            for e in range(k):
                y[e] = guesses[t, rows[e]]
                ok &= math.isfinite(y[e])
            if ok and certifies(y, A, b, f_lo[t], f_hi[t]):
                remember(y, Y, state)
                out[t] = True
                continue
        settled = False
        for c in range(state[0]):
            if certifies(Y[c], A, b, f_lo[t], f_hi[t]):
                settled = True
                break
        if settled:
            out[t] = True
            continue
        if forces.shape[0]:
            if _balancing(forces[t], A, b, f_lo[t], f_hi[t]):
                out[t] = False
                continue
            start = forces[t]
            finite = True
            for j in range(start.shape[0]):
                finite &= math.isfinite(start[j])
            if finite:
                r = projected_residual(start, A, b, f_lo[t], f_hi[t], steps)
                if certifies(r, A, b, f_lo[t], f_hi[t]):
                    remember(r, Y, state)
                    out[t] = True
                    continue
        r = b - _mul(A, bounded_least_squares(A, b, f_lo[t], f_hi[t], 1e-12))
        if certifies(r, A, b, f_lo[t], f_hi[t]):
            remember(r, Y, state)
            out[t] = True
            continue
        return t
    return t1
