"""Path points in the kernels: coordinates, conditional activity, positions and moving-point terms.

A path point's attached frame (``compile_tree(model).path_point_frame``) is the point
itself, except for a moving point, whose frame sits at its parent's origin
with its parent's axes: its location ``f(q)`` is added in that frame. As in
OpenSim, a conditional point is active within its (widened) range and a moving
point evaluates its functions at its coordinates clamped to their ranges.
"""
import numba as nb
import numpy as np

from ...algorithms.compiled import eval_function
from . import _vec3 as vec3
from ._layout import CONDITIONAL, MOVING


@nb.njit(cache=True, nogil=True)
def _chain(funcs, fpool, f0, nf, x):
    """Value and derivative of the pooled function chain ``f0 .. f0+nf-1`` (innermost first) at ``x``."""
    dx = 1.0
    for i in range(f0, f0 + nf):
        fr = funcs[i]
        y, dy, _ = eval_function(fr.kind, fr.off, fr.n, fpool, x)
        dx *= dy
        x = y
    return x, dx


@nb.njit(cache=True, nogil=True)
def coordinate_value(coords, funcs, fpool, q, c):
    """Value of coordinate record ``c`` and its derivative with respect to its independent speed."""
    cr = coords[c]
    return _chain(funcs, fpool, cr.f0, cr.nf, q[cr.qi])


@nb.njit(cache=True, nogil=True)
def is_active(pt, coords, funcs, fpool, q):
    if pt.kind != CONDITIONAL:
        return True
    c, _ = coordinate_value(coords, funcs, fpool, q, pt.coord)
    return pt.lo <= c <= pt.hi


@nb.njit(cache=True, nogil=True)
def frame_origin(frames, ws, k):
    """World position of attached frame ``k``'s origin."""
    fr = frames[k]
    p = (fr.p[0], fr.p[1], fr.p[2])
    if fr.node < 0:
        return p
    wn = ws[fr.node]
    return vec3.add((wn.op[0], wn.op[1], wn.op[2]), vec3.rotate(wn.oR, p))


@nb.njit(cache=True, nogil=True)
def to_world(frames, ws, k, a):
    """A vector given in attached frame ``k``, in world axes."""
    fr = frames[k]
    b = vec3.rotate(fr.R, a)
    if fr.node < 0:
        return b
    return vec3.rotate(ws[fr.node].oR, b)


@nb.njit(cache=True, nogil=True)
def to_frame(frames, ws, k, a):
    """A world vector in the axes of attached frame ``k``."""
    fr = frames[k]
    if fr.node >= 0:
        a = vec3.rotate_t(ws[fr.node].oR, a)
    return vec3.rotate_t(fr.R, a)


@nb.njit(cache=True, nogil=True)
def point_position(pt, frames, ws, coords, funcs, fpool, q):
    """World position of a path point (its frame's origin, plus ``R f(q)`` for a moving point)."""
    x = frame_origin(frames, ws, pt.frame)
    if pt.kind != MOVING:
        return x
    loc = (_moving_component(pt, np.int64(0), coords, funcs, fpool, q),
           _moving_component(pt, np.int64(1), coords, funcs, fpool, q),
           _moving_component(pt, np.int64(2), coords, funcs, fpool, q))
    return vec3.add(x, to_world(frames, ws, pt.frame, loc))


@nb.njit(cache=True, nogil=True)
def _moving_component(pt, k, coords, funcs, fpool, q):
    c = pt.mcoord[k]
    if c < 0:
        return pt.loc[k]
    cr = coords[c]
    x, _ = coordinate_value(coords, funcs, fpool, q, c)
    x = min(max(x, cr.lo), cr.hi)
    y, _ = _chain(funcs, fpool, pt.mf0[k], pt.mnf[k], x)
    return y


@nb.njit(cache=True, nogil=True)
def moving_terms(pt, g, frames, ws, coords, funcs, fpool, q, row):
    """Add ``g . R_F df_k/dc dc/dv`` of a moving point's location functions to the Jacobian row."""
    gl = to_frame(frames, ws, pt.frame, g)    # g in the point's parent frame
    for k in range(3):
        c = pt.mcoord[k]
        if c < 0:
            continue
        cr = coords[c]
        x, dx = coordinate_value(coords, funcs, fpool, q, c)
        if x < cr.lo or x > cr.hi:
            continue      # clamped: the location does not move with the coordinate
        _, dy = _chain(funcs, fpool, pt.mf0[k], pt.mnf[k], x)
        row[cr.vi] += gl[k] * dy * dx
