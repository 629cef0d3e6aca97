"""OpenSim's wrapping of a path (``GeometryPath::applyWrapObjects``) in the kernels.

The path is an array of ENTRY records (``_layout``): the active path
points, into which each path wrap inserts its two tangent points (fixed on
the wrap's body) after the span it wraps. Spans are tried from the first to
the last active point of the wrap's range; the first span that crosses the
surface must wrap, otherwise the one whose wrapping lengthens the path least
does. With several wraps, passes repeat (each wrap recomputed with the
others' tangent points in place) until the length changes by less than a
tolerance. The two semantics (``_layout.WRAPPING``):

- ``OPENSIM`` reproduces OpenSim 4: at most 8 passes, stopping at a change
  below 0.5 mm; an ellipsoid's planar path; a cylinder's tangent points as
  OpenSim places them, unadjusted for a muscle with one wrap object, adjusted
  by its 0.1 degree rule with several (``wrap_cylinder``). And OpenSim
  measures every span to a tangent point where it *first* measured it while
  building the path (its cached ground location is not refreshed when later
  passes move the point), while the lengths on the surfaces are the last
  pass's. With wraps that touch (arm26's TRIlong over the humeral head and
  the glenoid), that length is up to 4 mm longer than the path drawn by its
  final tangent points; it is the length OpenSim reports, and its moment arms
  use the same span directions. :func:`measured` gives that position.
- ``EXACT``: up to 50 passes to 1e-12 m, the exact shortest path over
  cylinders, geodesics over ellipsoids, spans measured to the final tangent
  points. The length is then locally shortest and ``J_l = dl/dv`` exactly.
"""
import math

import numba as nb
import numpy as np

from . import _vec3 as vec3
from ._layout import CYLINDER, ELLIPSOID, FALLBACK, INSIDE, MANDATORY, NO_WRAP, OPENSIM, POINT_INSIDE_WRAP, \
    WRAP_NOT_CONVERGED, WRAP_PLANAR, WRAPPED
from ._points import frame_origin, is_active, to_frame, to_world
from ._wrap_cylinder import wrap_cylinder
from ._wrap_ellipsoid import wrap_ellipsoid
from ._wrap_sphere import wrap_sphere

OPENSIM_PASSES = 8          # OpenSim's passes over several wrap objects
OPENSIM_TOLERANCE = 5e-4    # m: OpenSim's change of length that ends them
EXACT_PASSES = 50
EXACT_TOLERANCE = 1e-12


@nb.njit(cache=True, nogil=True)
def _remove_wrap(path, n, j):
    """Remove the tangent points of local path wrap ``j``; returns the new count."""
    for i in range(n):
        if path[i].pwrap == j:
            for k in range(i, n - 2):
                path[k] = path[k + 2]
            return n - 2
    return n


@nb.njit(cache=True, nogil=True)
def measured(e, state, semantics):
    """Where the span to path entry ``e`` is measured (world, m): its position, except that under
    ``OPENSIM`` a tangent point is measured where it was the first time (module notes); the first
    call for a path wrap's tangent points records them in ``state``."""
    if e.pwrap < 0 or semantics != OPENSIM:
        return (e.x[0], e.x[1], e.x[2])
    st = state[e.pwrap]
    if st.seen == 0:
        return (e.x[0], e.x[1], e.x[2])
    x = st.x1 if e.side == 0 else st.x2
    return (x[0], x[1], x[2])


@nb.njit(cache=True, nogil=True)
def _see(path, n, state, semantics):
    """Record, under ``OPENSIM``, the tangent points of the path wraps measured for the first time
    (a path wrap's two tangent points are consecutive entries)."""
    if semantics != OPENSIM:
        return
    for i in range(n - 1):
        e = path[i]
        if e.pwrap >= 0 and e.side == 0 and state[e.pwrap].seen == 0:
            st = state[e.pwrap]
            f = path[i + 1]
            for k in range(3):
                st.x1[k] = e.x[k]
                st.x2[k] = f.x[k]
            st.seen = 1


@nb.njit(cache=True, nogil=True)
def path_length(path, n, state, semantics):
    """Length (m) of the current path: its spans as :func:`measured` plus the paths on the surfaces."""
    length = 0.0
    for i in range(n - 1):
        a = path[i]
        b = path[i + 1]
        if a.pwrap >= 0 and a.pwrap == b.pwrap:
            length += state[a.pwrap].arc
        else:
            length += vec3.norm(vec3.sub(measured(b, state, semantics), measured(a, state, semantics)))
    return length


@nb.njit(cache=True, nogil=True)
def _wrap_span(wr, method, frames, ws, xa, xb, opensim, adjust):
    """Wrap the world span ``xa -> xb`` over wrap record ``wr`` (OpenSim's paths or the exact ones, module
    notes); tangent points returned in world."""
    o = frame_origin(frames, ws, wr.frame)
    p1 = to_frame(frames, ws, wr.frame, vec3.sub(xa, o))
    p2 = to_frame(frames, ws, wr.frame, vec3.sub(xb, o))
    if wr.kind == CYLINDER:
        code, t1, t2, arc = wrap_cylinder(p1, p2, wr.dims[0], wr.dims[1], wr.axis, wr.sign, opensim, adjust)
    elif wr.kind == ELLIPSOID:
        code, t1, t2, arc = wrap_ellipsoid(p1, p2, (wr.dims[0], wr.dims[1], wr.dims[2]), wr.axis, wr.sign, method,
                                           not opensim)
    else:
        code, t1, t2, arc = wrap_sphere(p1, p2, wr.dims[0], wr.axis, wr.sign)
    return code, vec3.add(o, to_world(frames, ws, wr.frame, t1)), vec3.add(o, to_world(frames, ws, wr.frame, t2)), arc


@nb.njit(cache=True, nogil=True)
def _span_range(mu, pw, pts, coords, funcs, fpool, q, path, n):
    """Entries of the first and last active path points of path wrap ``pw``'s range (-1, -1 if none)."""
    first = 0 if pw.start < 1 else pw.start - 1
    last_pt = mu.np - 1 if pw.end < 1 else pw.end - 1
    jf = first
    while jf <= last_pt and not is_active(pts[mu.p0 + jf], coords, funcs, fpool, q):
        jf += 1
    jr = last_pt
    while jr >= first and not is_active(pts[mu.p0 + jr], coords, funcs, fpool, q):
        jr -= 1
    if jf > last_pt or jr < first:
        return -1, -1
    start = -1
    end = -1
    for k in range(n):
        if path[k].point == mu.p0 + jf:
            start = k
        if path[k].point == mu.p0 + jr:
            end = k
    return start, end


@nb.njit(cache=True, nogil=True)
def _insert(path, n, best, j, node, t1, t2):
    """Insert path wrap ``j``'s tangent points ``t1``, ``t2`` (on ``node``) after entry ``best``."""
    for k in range(n - 1, best, -1):
        path[k + 2] = path[k]
    for s in range(2):
        e = path[best + 1 + s]
        t = t1 if s == 0 else t2
        e.x[0] = t[0]
        e.x[1] = t[1]
        e.x[2] = t[2]
        e.node = node
        e.point = -1
        e.pwrap = j
        e.side = s
    return n + 2


@nb.njit(cache=True, nogil=True)
def apply_wraps(mu, pts, wraps, pwraps, coords, funcs, fpool, frames, ws, q, path, n, state, semantics):
    """OpenSim's ``applyWrapObjects``: insert the tangent points of each path wrap into ``path``.

    ``state`` (WRAP_STATE records) holds each path wrap's surface length and, under ``OPENSIM``,
    where its tangent points were first measured. Returns the number of entries and status bits.
    """
    nw = mu.nw
    status = 0
    opensim = semantics == OPENSIM
    for j in range(nw):
        state[j].code = NO_WRAP
        state[j].order = j
        state[j].seen = 0
    passes = 1 if nw < 2 else (OPENSIM_PASSES if opensim else EXACT_PASSES)
    tolerance = OPENSIM_TOLERANCE if opensim else EXACT_TOLERANCE
    adjust = nw > 1       # OpenSim adjusts cylinder tangent points only with several wraps
    last = math.inf
    converged = nw < 2
    for kk in range(passes):
        for i in range(nw):
            j = state[i].order
            state[i].code = NO_WRAP
            pw = pwraps[mu.w0 + j]
            wr = wraps[pw.wrap]
            n = _remove_wrap(path, n, j)
            if wr.active == 0:
                continue
            start, end = _span_range(mu, pw, pts, coords, funcs, fpool, q, path, n)
            if start < 0:
                return n, status      # no active point in the range: OpenSim stops wrapping here
            best = -1
            best_change = math.inf
            bt1 = (0.0, 0.0, 0.0)
            bt2 = (0.0, 0.0, 0.0)
            barc = 0.0
            bgeo = 0
            for k in range(start, end):
                a = path[k]
                b = path[k + 1]
                if a.pwrap >= 0 and b.pwrap >= 0 and pwraps[mu.w0 + a.pwrap].wrap == pwraps[mu.w0 + b.pwrap].wrap:
                    continue      # both are tangent points of one wrap object: the path is on its surface
                xa = (a.x[0], a.x[1], a.x[2])
                xb = (b.x[0], b.x[1], b.x[2])
                code, t1, t2, arc = _wrap_span(wr, pw.method, frames, ws, xa, xb, opensim, adjust)
                geo = 1 if wr.kind == ELLIPSOID and not opensim else 0
                if code == FALLBACK:
                    status |= WRAP_PLANAR
                    code = MANDATORY
                    geo = 0
                state[i].code = code
                if code == INSIDE:
                    status |= POINT_INSIDE_WRAP
                if code == MANDATORY:
                    best, bt1, bt2, barc, bgeo = k, t1, t2, arc, geo
                    break
                if code == WRAPPED:
                    _see(path, n, state, semantics)
                    ma = measured(a, state, semantics)
                    mb = measured(b, state, semantics)
                    change = vec3.norm(vec3.sub(t1, ma)) + arc + vec3.norm(vec3.sub(mb, t2)) \
                        - vec3.norm(vec3.sub(mb, ma))
                    if change < best_change:
                        best, bt1, bt2, barc, bgeo, best_change = k, t1, t2, arc, geo, change
            if best >= 0:
                n = _insert(path, n, best, j, frames[wr.frame].node, bt1, bt2)
                state[j].arc = barc
                state[j].geodesic = bgeo
        _see(path, n, state, semantics)
        length = path_length(path, n, state, semantics)
        if abs(length - last) < tolerance:
            converged = True
            break
        last = length
        if kk == 0 and nw > 1 and state[0].code == NO_WRAP and state[1].code == INSIDE:
            state[0].order = 1
            state[1].order = 0
            n = _remove_wrap(path, n, np.int64(0))
    if not converged:
        status |= WRAP_NOT_CONVERGED
    return n, status
