"""Scalar functions of one coordinate and their first two derivatives.

A function is stored in a flat pool: ``kind`` code, an offset and a count into
a float array. Joint axes and coordinate couplers evaluate *chains* of such
functions (``f_k(...f_1(q))``) with the chain rule.

Kinds
-----
0 constant      params: [c]
1 linear        params: [slope, intercept]
2 polynomial    params: n coefficients, highest order first (numpy.polyval order)
3 piecewise cubic on n knots: params x[n], a[n], b[n], c[n], d[n] with
  y = a_k + b_k dx + c_k dx^2 + d_k dx^3 on [x_k, x_k+1); outside the knots the
  value is extended linearly with the end slope (OpenSim's SimmSpline,
  NaturalCubicSpline and PiecewiseLinearFunction all do this).
"""
import numba as nb
import numpy as np

CONSTANT = 0
LINEAR = 1
POLYNOMIAL = 2
PIECEWISE_CUBIC = 3


@nb.njit(cache=True, nogil=True, inline="always")
def eval_function(kind, off, n, pool, x):
    """Return ``(f(x), f'(x), f''(x))`` for one pooled function."""
    if kind == CONSTANT:
        return pool[off], 0.0, 0.0
    if kind == LINEAR:
        return pool[off] * x + pool[off + 1], pool[off], 0.0
    if kind == POLYNOMIAL:
        y = 0.0
        dy = 0.0
        ddy = 0.0
        for i in range(n):
            ddy = ddy * x + 2.0 * dy
            dy = dy * x + y
            y = y * x + pool[off + i]
        return y, dy, ddy
    # piecewise cubic
    xs = off
    a = off + n
    b = off + 2 * n
    c = off + 3 * n
    d = off + 4 * n
    if x <= pool[xs]:
        dx = x - pool[xs]
        return pool[a] + pool[b] * dx, pool[b], 0.0
    last = n - 1
    if x >= pool[xs + last]:
        dx = x - pool[xs + last]
        return pool[a + last] + pool[b + last] * dx, pool[b + last], 0.0
    lo = 0
    hi = last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if x < pool[xs + mid]:
            hi = mid
        else:
            lo = mid
    dx = x - pool[xs + lo]
    bk = pool[b + lo]
    ck = pool[c + lo]
    dk = pool[d + lo]
    y = pool[a + lo] + dx * (bk + dx * (ck + dx * dk))
    dy = bk + dx * (2.0 * ck + 3.0 * dx * dk)
    ddy = 2.0 * ck + 6.0 * dx * dk
    return y, dy, ddy


@nb.njit(cache=True, nogil=True, inline="always")
def eval_chain(chain, nchain, funcs, pool, x):
    """Evaluate ``f_k(...f_1(x))`` for the function ids ``chain[:nchain]`` (innermost first).

    ``funcs`` are FUNCTION records (``kernels._layout``). Returns value, first and
    second derivative with respect to ``x``. An empty chain is the identity.
    """
    y = x
    dy = 1.0
    ddy = 0.0
    for i in range(nchain):
        fr = funcs[chain[i]]
        g, dg, ddg = eval_function(fr.kind, fr.off, fr.n, pool, y)
        ddy = ddg * dy * dy + dg * ddy
        dy = dg * dy
        y = g
    return y, dy, ddy


def pool_of(elements):
    """FUNCTION records and the float pool for a list of ``(kind, params)`` elementary functions."""
    from ._layout import FUNCTION
    funcs = np.zeros(len(elements), FUNCTION)
    off = 0
    for i, (kind, params) in enumerate(elements):
        funcs[i] = (kind, off, params.size // 5 if kind == PIECEWISE_CUBIC else params.size)
        off += params.size
    pool = np.concatenate([p for _, p in elements]) if elements else np.zeros(0)
    return funcs, pool.astype(np.float64)
