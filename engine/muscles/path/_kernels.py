"""Numba kernels: muscle-tendon lengths and length Jacobians over the frames of a trial.

Per frame, after the engine's kinematics pass, each muscle's path is built
as OpenSim builds it (``GeometryPath::computePath``): its active points
(conditional points within their range, moving points at ``f(q)``), then its
wrap objects applied in order (``applyWrapObjects``, ``_wrapping``), each
inserting two tangent points fixed on the wrap's body. The length ``l`` is the
sum of the straight spans plus the paths on the wrap surfaces.

The length Jacobian ``J_l`` (the seed's eq. 36; moment arms are ``-J_l``) is
OpenSim's moment arm, the generalized force of a unit tension: it pulls each
span's ends towards each other, so the force ``g = e_in - e_out`` (unit
vectors ``e`` of the straight spans) acts at each path point and tangent point
on the body that carries it, and ``J_l`` is ``J^T g`` summed over the path
(world wrenches accumulated per node and swept to the root, as in RNEA's
backward pass), plus, at moving points, ``g . R_F df/dc dc/dv`` for their
location functions (zero where OpenSim clamps the coordinate to its range).
Spans between two fixed points of one node pull on nothing (OpenSim skips them).

Where the paths over the surfaces are locally shortest (every path without
wraps, and all paths under the ``EXACT`` wrapping semantics), ``dl`` depends
only on the span directions, so ``J_l = dl/dv`` exactly. Under ``OPENSIM``
semantics OpenSim's approximations (``_wrapping``) make its moment arms
differ from ``-dl/dq`` by a fraction of a millimetre to a few millimetres.

The path kernels pass integers to the kernels they call as ``np.int64`` values, also as the first value of an
int variable (``n = np.int64(0)``): numba types a literal ``0`` or ``-1``, and a variable first set to one, as
that literal, and compiles the kernel called once more for it (tests/muscles/test_kernel_specialisations.py).
"""
import numba as nb
import numpy as np

from ...algorithms.compiled import kinematics
from . import _vec3 as vec3
from ._layout import COINCIDENT_POINTS, ENTRY, MOVING, WRAP_STATE
from ._points import is_active, moving_terms, point_position
from ._wrapping import apply_wraps, measured, path_length


def work_arrays(paths, n_nodes):
    """Per-thread workspace of :func:`evaluate_frames` for compiled ``paths``: the path entries, the
    wrap states of ``_wrapping.apply_wraps`` and the per-node wrenches."""
    m = paths.muscles
    k = int((m["np"] + 2 * m["nw"]).max()) if m.size else 1
    nw = int(m["nw"].max()) if m.size else 1
    return np.zeros(max(k, 1), ENTRY), np.zeros(max(nw, 1), WRAP_STATE), np.zeros((max(n_nodes, 1), 6))


@nb.njit(cache=True, nogil=True)
def _sweep(nodes, ws, wrench, top, row):
    """``row += J^T F`` for world wrenches ``wrench[n]`` (about the world origin) on nodes ``0 .. top``;
    clears ``wrench`` on the way (each node's wrench is passed on to its parent)."""
    for n in range(top, -1, -1):
        w = wrench[n]
        if w[0] == 0.0 and w[1] == 0.0 and w[2] == 0.0 and w[3] == 0.0 and w[4] == 0.0 and w[5] == 0.0:
            continue
        nd = nodes[n]
        wn = ws[n]
        o = wn.op
        f = (w[3], w[4], w[5])
        m = vec3.sub((w[0], w[1], w[2]), vec3.cross((o[0], o[1], o[2]), f))
        ml = vec3.rotate_t(wn.oR, m)
        fl = vec3.rotate_t(wn.oR, f)
        S = wn.S
        for j in range(nd.ncol):
            row[nd.colv[j]] += (S[0, j] * ml[0] + S[1, j] * ml[1] + S[2, j] * ml[2]
                                + S[3, j] * fl[0] + S[4, j] * fl[1] + S[5, j] * fl[2])
        par = nd.parent
        if par >= 0:
            for i in range(6):
                wrench[par, i] += w[i]
        for i in range(6):
            w[i] = 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def _moving(e, pts):
    return e.point >= 0 and pts[e.point].kind == MOVING


@nb.njit(cache=True, nogil=True)
def muscle_path(mu, pts, wraps, pwraps, coords, funcs, fpool, nodes, frames, ws, q, semantics, path, state, wrench,
                row):
    """Length (m) of one muscle at the configuration of ``ws`` under wrapping ``semantics``; writes ``J_l``
    into ``row`` (nv,).

    Returns ``(length, status bits, number of entries of the current path in path)``.
    """
    n = np.int64(0)
    for i in range(mu.np):
        pt = pts[mu.p0 + i]
        if not is_active(pt, coords, funcs, fpool, q):
            continue
        x = point_position(pt, frames, ws, coords, funcs, fpool, q)
        e = path[n]
        e.x[0] = x[0]
        e.x[1] = x[1]
        e.x[2] = x[2]
        e.node = frames[pt.frame].node
        e.point = mu.p0 + i
        e.pwrap = -1
        e.side = -1
        n += 1
    status = 0
    if mu.nw > 0:
        n, status = apply_wraps(mu, pts, wraps, pwraps, coords, funcs, fpool, frames, ws, q, path, n, state,
                                semantics)
    length = path_length(path, n, state, semantics)
    for i in range(n):
        for k in range(3):
            path[i].g[k] = 0.0
    for i in range(n - 1):
        a = path[i]
        b = path[i + 1]
        if a.pwrap >= 0 and a.pwrap == b.pwrap:
            continue
        if a.node == b.node and not _moving(a, pts) and not _moving(b, pts):
            continue
        d = vec3.sub(measured(b, state, semantics), measured(a, state, semantics))
        r = vec3.norm(d)
        if r < 1e-12:
            status |= COINCIDENT_POINTS
            continue
        for k in range(3):
            a.g[k] -= d[k] / r
            b.g[k] += d[k] / r
    top = np.int64(-1)
    for i in range(n):
        e = path[i]
        g = (e.g[0], e.g[1], e.g[2])
        if _moving(e, pts):
            moving_terms(pts[e.point], g, frames, ws, coords, funcs, fpool, q, row)
        if e.node < 0:
            continue      # on ground
        m = vec3.cross((e.x[0], e.x[1], e.x[2]), g)
        w = wrench[e.node]
        w[0] += m[0]
        w[1] += m[1]
        w[2] += m[2]
        w[3] += g[0]
        w[4] += g[1]
        w[5] += g[2]
        top = max(top, e.node)
    _sweep(nodes, ws, wrench, top, row)
    return length, status, n


@nb.njit(cache=True, nogil=True)
def evaluate_frames(t, ws, scr, paths, semantics, Q, V, lengths, speeds, J, status, path, state, wrench):
    """For every frame ``f``: ``lengths[f]`` (m), ``J[f]`` (m x nv, module notes), ``speeds[f] = J[f] V[f]``
    (m/s; zero if ``V`` has no rows) and the status bits of each muscle."""
    empty = np.zeros(0)
    with_speed = V.shape[0] == Q.shape[0]
    coords, pts, wraps, pwraps, muscles, funcs, fpool = paths
    for f in range(Q.shape[0]):
        q = Q[f]
        kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for m in range(muscles.shape[0]):
            row = J[f, m]
            for i in range(row.shape[0]):
                row[i] = 0.0
            lengths[f, m], status[f, m], _ = muscle_path(muscles[m], pts, wraps, pwraps, coords, funcs, fpool,
                                                         t.nodes, t.frames, ws, q, semantics, path, state, wrench,
                                                         row)
            s = 0.0
            if with_speed:
                v = V[f]
                for i in range(row.shape[0]):
                    s += row[i] * v[i]
            speeds[f, m] = s


@nb.njit(cache=True, nogil=True)
def current_path(t, ws, scr, paths, semantics, q, m, path, state, wrench, row):
    """Build muscle ``m``'s path at ``q`` into ``path`` (and ``J_l`` into ``row``); returns its entry count."""
    empty = np.zeros(0)
    coords, pts, wraps, pwraps, muscles, funcs, fpool = paths
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, empty, empty,
               np.int64(0), np.bool_(False), np.bool_(True))
    for i in range(row.shape[0]):
        row[i] = 0.0
    _, _, n = muscle_path(muscles[m], pts, wraps, pwraps, coords, funcs, fpool, t.nodes, t.frames, ws, q, semantics,
                          path, state, wrench, row)
    return n
