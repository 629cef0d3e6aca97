"""Numba kernels: muscle paths as polylines for drawing (``MuscleGeometry.polylines``).

Per muscle, the points of its current path in ground (m): the active path
points and the wrap tangent points, with the path on each wrap surface
sampled between its two tangent points in pieces of at most ``step`` m of
arc: a helix on a cylinder, a great circle on a sphere, the plane section
(OpenSim's path) or the geodesic (``exact`` wrapping) on an ellipsoid. The
direction round the surface is the one the path arrives in (the incoming
span is tangent to the surface path), and the number of pieces is
``ceil(arc / step)`` with ``arc`` the surface length the path kernel used, so
a finely sampled polyline is as long as the path's spans plus arcs.

Under ``opensim`` wrapping with touching wraps, the polyline is the final
path; OpenSim's reported length measures some spans to earlier tangent
point positions (``_wrapping``) and can differ from it.
"""
import math

import numba as nb
import numpy as np

from ...algorithms.compiled import kinematics
from . import _vec3 as vec3
from ._kernels import muscle_path
from ._layout import CYLINDER, ELLIPSOID
from ._points import frame_origin, to_frame, to_world
from ._wrap_ellipsoid import _follow


@nb.njit(cache=True, nogil=True, inline="always")
def _emit(out, n, x):
    """Write ``x`` as row ``n`` of ``out`` if it fits; returns ``n + 1`` (the count needed either way)."""
    if n < out.shape[0]:
        out[n, 0] = x[0]
        out[n, 1] = x[1]
        out[n, 2] = x[2]
    return n + 1


@nb.njit(cache=True, nogil=True, inline="always")
def _emit_local(out, n, frames, ws, k, o, x):
    """Emit the point ``x`` given in attached frame ``k`` (origin ``o`` in ground) in ground."""
    return _emit(out, n, vec3.add(o, to_world(frames, ws, k, x)))


@nb.njit(cache=True, nogil=True)
def _cylinder(d, t1, t2, pieces, out, n, frames, ws, k, o):
    """Helix from ``t1`` to ``t2`` (cylinder frame) leaving ``t1`` in the sense of the incoming ``d``."""
    radius = math.hypot(t1[0], t1[1])
    sense = 1.0 if t1[0] * d[1] - t1[1] * d[0] >= 0.0 else -1.0
    phi1 = math.atan2(t1[1], t1[0])
    turn = vec3.positive_angle(sense * (math.atan2(t2[1], t2[0]) - phi1))
    for i in range(1, pieces):
        u = i / pieces
        phi = phi1 + sense * u * turn
        n = _emit_local(out, n, frames, ws, k, o,
                        (radius * math.cos(phi), radius * math.sin(phi), t1[2] + u * (t2[2] - t1[2])))
    return n


@nb.njit(cache=True, nogil=True)
def _sphere(d, t1, t2, pieces, out, n, frames, ws, k, o):
    """Great circle from ``t1`` to ``t2`` (sphere frame) leaving ``t1`` along the incoming ``d``."""
    radius = vec3.norm(t1)
    e1 = vec3.scale(1.0 / radius, t1)
    e2 = vec3.unit(vec3.axpy(-vec3.dot(d, e1), e1, d))
    turn = vec3.positive_angle(math.atan2(vec3.dot(t2, e2), vec3.dot(t2, e1)))
    for i in range(1, pieces):
        phi = turn * i / pieces
        n = _emit_local(out, n, frames, ws, k, o,
                        vec3.add(vec3.scale(radius * math.cos(phi), e1), vec3.scale(radius * math.sin(phi), e2)))
    return n


@nb.njit(cache=True, nogil=True)
def _section(d, t1, t2, a, pieces, out, n, frames, ws, k, o):
    """The ellipsoid's section by the plane through ``t1`` along ``d`` and through ``t2``, from ``t1`` to
    ``t2`` (ellipsoid frame): a circle in the scaled coordinates ``y = x / a``."""
    vs = vec3.unit(vec3.cross(d, vec3.sub(t2, t1)))
    m = (vs[0] * a[0], vs[1] * a[1], vs[2] * a[2])
    mm = vec3.norm(m)
    m = vec3.scale(1.0 / mm, m)
    centre = vec3.scale(vec3.dot(vs, t1) / mm, m)
    y1 = (t1[0] / a[0], t1[1] / a[1], t1[2] / a[2])
    y2 = (t2[0] / a[0], t2[1] / a[1], t2[2] / a[2])
    r1 = vec3.sub(y1, centre)
    radius = vec3.norm(r1)
    e1 = vec3.scale(1.0 / radius, r1)
    e2 = vec3.cross(m, e1)
    if vec3.dot(e2, (d[0] / a[0], d[1] / a[1], d[2] / a[2])) < 0.0:
        e2 = vec3.scale(-1.0, e2)
    r2 = vec3.sub(y2, centre)
    turn = vec3.positive_angle(math.atan2(vec3.dot(r2, e2), vec3.dot(r2, e1)))
    for i in range(1, pieces):
        phi = turn * i / pieces
        y = vec3.add(centre, vec3.add(vec3.scale(radius * math.cos(phi), e1), vec3.scale(radius * math.sin(phi), e2)))
        n = _emit_local(out, n, frames, ws, k, o, (a[0] * y[0], a[1] * y[1], a[2] * y[2]))
    return n


@nb.njit(cache=True, nogil=True)
def _geodesic(d, t1, arc, a, pieces, out, n, frames, ws, k, o):
    """The geodesic leaving ``t1`` along ``d`` (ellipsoid frame), followed for ``arc`` m."""
    x = t1
    h = arc / pieces
    for _ in range(1, pieces):
        x, d = _follow(x, d, h, a)
        n = _emit_local(out, n, frames, ws, k, o, x)
    return n


@nb.njit(cache=True, nogil=True)
def _surface(wr, geodesic, before, t1, t2, arc, step, out, n, frames, ws):
    """Emit the interior samples of the path on wrap ``wr`` from tangent point ``t1`` to ``t2`` (ground),
    reached from ``before``."""
    pieces = max(1, int(math.ceil(arc / step)))
    k = wr.frame
    o = frame_origin(frames, ws, k)
    l1 = to_frame(frames, ws, k, vec3.sub(t1, o))
    l2 = to_frame(frames, ws, k, vec3.sub(t2, o))
    d = vec3.unit(to_frame(frames, ws, k, vec3.sub(t1, before)))
    if wr.kind == CYLINDER:
        return _cylinder(d, l1, l2, pieces, out, n, frames, ws, k, o)
    if wr.kind == ELLIPSOID:
        a = (wr.dims[0], wr.dims[1], wr.dims[2])
        if geodesic:
            return _geodesic(d, l1, arc, a, pieces, out, n, frames, ws, k, o)
        return _section(d, l1, l2, a, pieces, out, n, frames, ws, k, o)
    return _sphere(d, l1, l2, pieces, out, n, frames, ws, k, o)


@nb.njit(cache=True, nogil=True)
def sample_paths(t, ws, scr, paths, semantics, q, step, path, state, wrench, row, out, starts):
    """Every muscle's polyline at configuration ``q`` into the rows of ``out`` (muscle ``m``'s are
    ``starts[m] .. starts[m + 1] - 1``). Returns the number of rows needed: if it exceeds
    ``out``'s, the rows past the end were not written (call again with a larger ``out``)."""
    empty = np.zeros(0)
    coords, pts, wraps, pwraps, muscles, funcs, fpool = paths
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty,
               np.int64(0), np.bool_(False), np.bool_(True))
    rows = 0
    for m in range(muscles.shape[0]):
        mu = muscles[m]
        starts[m] = rows
        row[:] = 0.0
        _, _, count = muscle_path(mu, pts, wraps, pwraps, coords, funcs, fpool, t.nodes, t.frames, ws, q, semantics,
                                  path, state, wrench, row)
        for i in range(count):
            e = path[i]
            x = (e.x[0], e.x[1], e.x[2])
            rows = _emit(out, rows, x)
            if e.pwrap >= 0 and e.side == 0:
                b = path[i - 1]
                f = path[i + 1]
                st = state[e.pwrap]
                rows = _surface(wraps[pwraps[mu.w0 + e.pwrap].wrap], st.geodesic == 1, (b.x[0], b.x[1], b.x[2]), x,
                                (f.x[0], f.x[1], f.x[2]), st.arc, step, out, rows, t.frames, ws)
    starts[muscles.shape[0]] = rows
    return rows
