"""Numba kernels of skin-device contact (seed eqs. 6-7) with a uniform-grid broad phase (private).

The skin's vertices are binned in a uniform grid of cell ``h`` (a counting sort); each device vertex finds the
skin vertices within ``h`` in the 27 cells around it, so the cost is linear in the vertex counts instead of their
product: its Verlet list (``candidate_lists``, with ``h`` the reach plus a margin; ``skin.broad_phase``), among which
a contact pass looks for its closest one ``idx(k)``. A sheet finds the rigid device under it the same way. Friction
is Coulomb's cone regularised as eq. 7: ``F_c = mu f_n``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels_mesh import vertex_normals
from ._kernels_skin import _offset, vertex_velocity

MAX_SPREAD = 10.0        # m: a skin spread wider has come apart (a person is under 3 m)
MAX_CELLS = 50_000_000   # grid cells (400 MB of indices): far more than a body at a millimetre cell


@njit(cache=True, nogil=True)
def build_grid(x, h, lo, dims, start, order, near, xs):
    """Bin points ``x`` (n, 3) into cells of size ``h`` from corner ``lo`` (3,) with ``dims`` (3,) cells:
    ``order`` (n,) lists the points cell by cell and ``xs`` (n, 3) their coordinates in that order (a query reads
    them in a row), ``start`` (cells + 1,) where each cell's run begins, ``near`` (cells,) whether a cell or one of its
    26 neighbours holds a point (queries elsewhere end at once)."""
    n = x.shape[0]
    ncell = dims[0] * dims[1] * dims[2]
    cell = np.empty(n, np.int64)
    for c in range(ncell + 1):
        start[c] = 0
    for i in range(n):
        ix = min(max(int((x[i, 0] - lo[0]) / h), 0), dims[0] - 1)
        iy = min(max(int((x[i, 1] - lo[1]) / h), 0), dims[1] - 1)
        iz = min(max(int((x[i, 2] - lo[2]) / h), 0), dims[2] - 1)
        cell[i] = (ix * dims[1] + iy) * dims[2] + iz
        start[cell[i] + 1] += 1
    for c in range(ncell):
        start[c + 1] += start[c]
    fill = start[:ncell].copy()
    for i in range(n):
        s = fill[cell[i]]
        order[s] = i
        xs[s, 0] = x[i, 0]
        xs[s, 1] = x[i, 1]
        xs[s, 2] = x[i, 2]
        fill[cell[i]] += 1
    near[:] = False
    for ix in range(dims[0]):
        for iy in range(dims[1]):
            for iz in range(dims[2]):
                c = (ix * dims[1] + iy) * dims[2] + iz
                if start[c + 1] == start[c]:
                    continue
                for jx in range(max(ix - 1, 0), min(ix + 2, dims[0])):
                    for jy in range(max(iy - 1, 0), min(iy + 2, dims[1])):
                        for jz in range(max(iz - 1, 0), min(iz + 2, dims[2])):
                            near[(jx * dims[1] + jy) * dims[2] + jz] = True


@njit(cache=True, nogil=True, inline="always")
def near_nothing(h, lo, dims, near, p0, p1, p2):
    """Whether no grid point can lie within ``h`` of ``(p0, p1, p2)`` (outside the grid, or a cell with no point
    in or around it)."""
    fx = (p0 - lo[0]) / h
    fy = (p1 - lo[1]) / h
    fz = (p2 - lo[2]) / h
    if fx < -1.0 or fy < -1.0 or fz < -1.0 or fx > dims[0] + 1.0 or fy > dims[1] + 1.0 or fz > dims[2] + 1.0:
        return True
    cx, cy, cz = int(np.floor(fx)), int(np.floor(fy)), int(np.floor(fz))
    return 0 <= cx < dims[0] and 0 <= cy < dims[1] and 0 <= cz < dims[2] and not near[(cx * dims[1] + cy) * dims[2] + cz]


@njit(cache=True, nogil=True)
def grid_layout(x, h):
    """The grid of cell ``h`` over points ``x`` (n, 3): ``(lo (3,), dims (3,), start, order, near, xs)`` (see
    ``build_grid``). The points are finite: ``min`` and ``max`` pass over NaN, and the one caller of
    ``candidate_lists``, ``broad_phase.VerletLists.update``, refuses a point that is not finite naming it (the skin's
    vertex, a device's, a bed's). Raises FloatingPointError (a body, a sheet or a device come apart: a diverged
    simulation) if the points, the skin's or a bed's vertices, spread over more than ``MAX_SPREAD`` or over more than
    ``MAX_CELLS`` cells."""
    lo = np.empty(3)
    hi = np.empty(3)
    for c in range(3):
        lo[c] = np.inf
        hi[c] = -np.inf
    for i in range(x.shape[0]):
        for c in range(3):
            lo[c] = min(lo[c], x[i, c])
            hi[c] = max(hi[c], x[i, c])
    dims = np.empty(3, np.int64)
    for c in range(3):
        if not hi[c] - lo[c] <= MAX_SPREAD:
            raise FloatingPointError("the contact's points (the skin's or a bed's vertices) spread over more than 10 m")
        lo[c] -= 1e-9
        dims[c] = max(int(np.ceil((hi[c] - lo[c]) / h)), 1)
    if dims[0] * dims[1] * dims[2] > MAX_CELLS:
        raise FloatingPointError("the contact's points (the skin's or a bed's vertices) spread over more grid cells "
                                 "than a body fills")
    start = np.empty(dims[0] * dims[1] * dims[2] + 1, np.int64)
    order = np.empty(x.shape[0], np.int64)
    near = np.empty(start.shape[0] - 1, np.bool_)
    xs = np.empty((x.shape[0], 3))
    build_grid(x, h, lo, dims, start, order, near, xs)
    return lo, dims, start, order, near, xs


@njit(cache=True, nogil=True)
def skin_velocity(xdot, sk, i):
    """The velocity (eq. 8) of skin vertex ``i`` into ``xdot[i]``, unless done since ``sk[0]`` was cleared. ``sk =
    (done (n,) bool, triangles, R, w, pdot, bone, weight, local)``: the skin's triangles, and the bones' placements and
    velocities with the skinning weights (see ``_kernels_skin``)."""
    done, _, R, w, pdot, bone, weight, local = sk
    if done[i]:
        return
    done[i] = True
    vertex_velocity(R, w, pdot, bone, weight, local, i, xdot)


@njit(cache=True, nogil=True, inline="always")
def _nearest(x, h, near, candidates, k, p0, p1, p2):
    """The point of ``x`` closest to ``(p0, p1, p2)`` within ``h`` among point ``k``'s candidates
    ``candidates[near[k]:near[k + 1]]`` (see ``candidate_lists``; -1 if none)."""
    i = -1
    best = h * h
    for s in range(near[k], near[k + 1]):
        j = candidates[s]
        d = (x[j, 0] - p0) ** 2 + (x[j, 1] - p1) ** 2 + (x[j, 2] - p2) ** 2
        if d < best:
            best = d
            i = j
    return i


@njit(cache=True, nogil=True, inline="always")
def _facing(x, normals, xdot, sk, h, near, candidates, k, p0, p1, p2, pn0, pn1, pn2):
    """``idx(k)`` for device vertex ``k`` at ``p`` with outward normal ``pn``: the closest skin vertex within ``h``
    whose normal (``normals``) faces the device's (-1 if none), among its candidates
    ``candidates[near[k]:near[k + 1]]`` (see ``candidate_lists``). The skin's velocities ``xdot`` are computed for
    the vertices found, when first found (``sk``, see ``skin_velocity``)."""
    i = _nearest(x, h, near, candidates, k, p0, p1, p2)
    if i < 0 or normals[i, 0] * pn0 + normals[i, 1] * pn1 + normals[i, 2] * pn2 >= 0.0:
        return -1
    skin_velocity(xdot, sk, i)
    return i


@njit(cache=True, nogil=True, inline="always")
def _push(x, normals, xdot, i, p0, p1, p2, u0, u1, u2, soft, k_contact, mu, eps, f_skin, f_normal, k_skin, g):
    """Eqs. 6-7 between skin vertex ``i`` and a device vertex at ``p`` moving at ``u``: adds the skin's force to
    ``f_skin``, its normal magnitude to ``f_normal``, and ``k_contact`` and ``k_contact n . u`` to ``k_skin[i]`` (the
    vertex's normal stiffness, N/m, and the rate its force grows at as the device moves, N/s, for an implicit step of
    the body), writes the force into ``g`` (3,); returns the normal force
    ``f_n`` (N), or -1 when the device vertex is not under the skin. ``soft``: the device vertex's ``dt / m`` (s/kg;
    0 for a rigid device): its viscous friction ``c`` acts as backward Euler gives it on that mass,
    ``c / (1 + c dt / m)``, so that a light sheet vertex is not thrown back and forth by a damping its explicit
    coupling cannot resolve."""
    n0, n1, n2 = normals[i, 0], normals[i, 1], normals[i, 2]
    d = n0 * (x[i, 0] - p0) + n1 * (x[i, 1] - p1) + n2 * (x[i, 2] - p2)
    if d <= 0.0:
        return -1.0
    fn = k_contact * d
    V0 = xdot[i, 0] - u0
    V1 = xdot[i, 1] - u1
    V2 = xdot[i, 2] - u2
    c = mu * fn / max(np.sqrt(V0 * V0 + V1 * V1 + V2 * V2), eps)
    c /= 1.0 + c * soft
    g[0] = -fn * n0 - c * V0
    g[1] = -fn * n1 - c * V1
    g[2] = -fn * n2 - c * V2
    f_skin[i, 0] += g[0]
    f_skin[i, 1] += g[1]
    f_skin[i, 2] += g[2]
    f_normal[i] += fn
    k_skin[i, 0] += k_contact
    k_skin[i, 1] += k_contact * (n0 * u0 + n1 * u1 + n2 * u2)
    return fn


@njit(cache=True, nogil=True)
def contact_forces(x, normals, xdot, sk, h, near, candidates, p, pn, pdot, soft, k_contact, mu, eps, f_skin, f_normal,
                   k_skin, f_device, idx, anchor):
    """Penalty contact (eq. 6) and regularised Coulomb friction (eq. 7) of a sheet's vertices ``p`` (N, 3) moving
    at ``pdot`` on the skin ``x`` (n, 3) with outward unit ``normals`` moving at ``xdot``.

    For each device vertex ``k``: ``idx(k)`` the closest skin vertex within ``h`` facing it (among its candidates
    ``candidates[near[k]:near[k + 1]]``, see ``candidate_lists``; skin normal against
    the device's normal ``pn[k]``: a device vertex that went through a thin part, a hand, finds the far side's
    vertices closer, which must not pull the skin in), ``d_k = n . (x_idx - p_k)``; if ``d_k > 0`` (the device
    vertex is under the skin) the skin vertex is pushed back by ``f_n = k_contact d_k`` along ``-n`` (eq. 6's
    magnitude; it pushes the skin away from the device) and the friction ``-mu f_n V / max(|V|, eps)`` of the
    relative velocity ``V = x_dot_idx - p_dot_k`` (eq. 7 with Coulomb's ``F_c = mu f_n``; its normal part damps the
    penetration like Hunt and Crossley's damping, proportional to the depth); ``soft`` (N,) each device vertex's
    ``dt / m`` (see ``_push``). Adds the skin's forces to ``f_skin`` (n, 3) N, the normal forces' magnitudes to
    ``f_normal`` (n,) N and their stiffnesses and rates to ``k_skin`` (n, 2) (see ``_push``). The sheet's side of the normal force is implicit in its own step (``skin.sheet``), so
    ``f_device`` (N, 3) gets only the friction on the device's vertices, and ``idx`` (N,) each vertex's ``idx(k)``
    (-1: none) with ``anchor`` (N, 6) the skin vertex's position and unit normal (m, world frame) for that step.
    Returns the number of device vertices in contact.
    """
    count = 0
    g = np.empty(3)
    for k in range(p.shape[0]):
        f_device[k, 0] = 0.0
        f_device[k, 1] = 0.0
        f_device[k, 2] = 0.0
        i = _facing(x, normals, xdot, sk, h, near, candidates, k, p[k, 0], p[k, 1], p[k, 2], pn[k, 0], pn[k, 1],
                    pn[k, 2])
        idx[k] = i
        if i < 0:
            continue
        for c in range(3):
            anchor[k, c] = x[i, c]
            anchor[k, 3 + c] = normals[i, c]
        fn = _push(x, normals, xdot, i, p[k, 0], p[k, 1], p[k, 2], pdot[k, 0], pdot[k, 1], pdot[k, 2], soft[k],
                   k_contact, mu, eps, f_skin, f_normal, k_skin, g)
        if fn >= 0.0:
            count += 1
            f_device[k, 0] = -g[0] - fn * normals[i, 0]
            f_device[k, 1] = -g[1] - fn * normals[i, 1]
            f_device[k, 2] = -g[2] - fn * normals[i, 2]
    return count


@njit(cache=True, nogil=True)
def rigid_contact(x, normals, xdot, sk, h, near, candidates, rest, rest_n, R, p, w, pdot, k_contact, mu, eps, f_skin,
                  f_normal, k_skin, force):
    """``contact_forces`` for a rigid device whose vertices ``rest`` (N, 3) and outward normals ``rest_n`` are
    placed at ``R rest + p`` and move at ``w x y + pdot`` (world, m, rad/s, m/s), without forming the placed
    arrays. Adds the device's total force on the skin to ``force`` (3,) N; returns the contacts."""
    count = 0
    g = np.empty(3)
    for k in range(rest.shape[0]):
        if near[k] == near[k + 1]:
            continue
        y0, y1, y2 = _placed(R, p, rest, k)
        m0, m1, m2 = rest_n[k, 0], rest_n[k, 1], rest_n[k, 2]
        i = _facing(x, normals, xdot, sk, h, near, candidates, k, y0, y1, y2,
                    R[0, 0] * m0 + R[0, 1] * m1 + R[0, 2] * m2, R[1, 0] * m0 + R[1, 1] * m1 + R[1, 2] * m2,
                    R[2, 0] * m0 + R[2, 1] * m1 + R[2, 2] * m2)
        if i >= 0 and _push(x, normals, xdot, i, y0, y1, y2, w[1] * y2 - w[2] * y1 + pdot[0],
                            w[2] * y0 - w[0] * y2 + pdot[1], w[0] * y1 - w[1] * y0 + pdot[2], 0.0, k_contact, mu, eps,
                            f_skin, f_normal, k_skin, g) >= 0.0:
            count += 1
            force[0] += g[0]
            force[1] += g[1]
            force[2] += g[2]
    return count


@njit(cache=True, nogil=True)
def contact_pass(x, normals, xdot, sk, h, near, candidates, rest, rest_n, bounds, R, p, w, pdot, sheet_p, sheet_n,
                 sheet_v, sheet_soft, k_contact, mu, eps, f_skin, f_normal, k_skin, f_sheet, sheet_idx, sheet_anchor,
                 forces, f_rigid):
    """One pass of every device against the skin ``x``: its unit outward ``normals`` (``_kernels_mesh.vertex_normals``;
    ``sk`` the skin's description for them and its velocities, see ``skin_velocity``), then the device vertices, each
    against its candidate skin vertices (``near``, ``candidates``: ``candidate_lists`` of ``device_points``' rows,
    within ``h`` of the skin vertex found): the rigid devices
    (``rest``/``rest_n`` their stacked vertices and normals, device ``d`` owning rows ``bounds[d]:bounds[d + 1]``,
    placed by ``R[d]``, ``p[d]`` and moving at ``w[d]``, ``pdot[d]``) and the sheets' vertices ``sheet_p`` (normals
    ``sheet_n``, velocities ``sheet_v``, ``dt / m`` ``sheet_soft``). ``f_skin``, ``f_normal``, ``k_skin`` are zeroed and filled; ``f_sheet`` gets the skin's
    friction on the sheets' vertices and ``sheet_idx``, ``sheet_anchor`` their contacts (see ``contact_forces``), ``forces`` (D, 3) each rigid device's total force on the skin, ``f_rigid``
    (n,) N the rigid devices' share of ``f_normal`` (the rest is the sheets'). Returns the number of device vertices in
    contact."""
    f_skin[:] = 0.0
    f_normal[:] = 0.0
    k_skin[:] = 0.0
    sk[0][:] = False
    vertex_normals(x, sk[1], normals)
    count = 0
    for d in range(bounds.shape[0] - 1):
        forces[d] = 0.0
        a, b = bounds[d], bounds[d + 1]
        count += rigid_contact(x, normals, xdot, sk, h, near[a:b + 1], candidates, rest[a:b], rest_n[a:b], R[d], p[d],
                               w[d], pdot[d], k_contact, mu, eps, f_skin, f_normal, k_skin, forces[d])
    f_rigid[:] = f_normal
    count += contact_forces(x, normals, xdot, sk, h, near[bounds[-1]:], candidates, sheet_p, sheet_n, sheet_v,
                            sheet_soft, k_contact, mu, eps, f_skin, f_normal, k_skin, f_sheet, sheet_idx, sheet_anchor)
    return count


@njit(cache=True, nogil=True, inline="always")
def _placed(R, p, rest, k):
    """``R rest[k] + p`` (m)."""
    r0, r1, r2 = rest[k, 0], rest[k, 1], rest[k, 2]
    return (R[0, 0] * r0 + R[0, 1] * r1 + R[0, 2] * r2 + p[0],
            R[1, 0] * r0 + R[1, 1] * r1 + R[1, 2] * r2 + p[1],
            R[2, 0] * r0 + R[2, 1] * r1 + R[2, 2] * r2 + p[2])


@njit(cache=True, nogil=True)
def device_points(rest, bounds, R, p, sheet_p, out):
    """Every device vertex where it is (m, world frame) into ``out`` (M, 3): the rigid devices' rows (``rest``
    placed by ``R[d]``, ``p[d]`` over ``bounds[d]:bounds[d + 1]``, see ``contact_pass``), then the sheets'
    ``sheet_p``."""
    for d in range(bounds.shape[0] - 1):
        for k in range(bounds[d], bounds[d + 1]):
            out[k, 0], out[k, 1], out[k, 2] = _placed(R[d], p[d], rest, k)
    m = bounds[-1]
    for k in range(sheet_p.shape[0]):
        for c in range(3):
            out[m + k, c] = sheet_p[k, c]


@njit(cache=True, nogil=True)
def largest_moves(x, x0, y, y0):
    """The largest distance a point of ``x`` moved from ``x0`` plus the largest one of ``y`` from ``y0`` (m; NaN
    if any coordinate is)."""
    total = 0.0
    for a, a0 in ((x, x0), (y, y0)):
        most = 0.0
        for i in range(a.shape[0]):
            d = (a[i, 0] - a0[i, 0]) ** 2 + (a[i, 1] - a0[i, 1]) ** 2 + (a[i, 2] - a0[i, 2]) ** 2
            if d > most or d != d:
                most = d
        total += np.sqrt(most)
    return total


@njit(cache=True, nogil=True)
def candidate_lists(x, y, r):
    """Verlet lists: for each point ``y[k]`` (M, 3) the points of ``x`` (n, 3) closer than ``r`` (m), as
    ``candidates[near[k]:near[k + 1]]`` (indices into ``x``, in the order of the grid of cell ``r`` over ``x``).
    Returns ``(near (M + 1,), candidates)``; the points finite. Raises FloatingPointError as ``grid_layout`` does."""
    lo, dims, start, order, cells_near, xs = grid_layout(x, r)
    m = y.shape[0]
    near = np.zeros(m + 1, np.int64)
    candidates = np.empty(0, np.int64)
    for fill in (False, True):
        if fill:
            for k in range(m):
                near[k + 1] += near[k]
            candidates = np.empty(near[m], np.int64)
        for k in range(m):
            p0, p1, p2 = y[k, 0], y[k, 1], y[k, 2]
            if near_nothing(r, lo, dims, cells_near, p0, p1, p2):
                continue
            cx = int(np.floor((p0 - lo[0]) / r))
            cy = int(np.floor((p1 - lo[1]) / r))
            cz = int(np.floor((p2 - lo[2]) / r))
            z0, z1 = max(cz - 1, 0), min(cz + 2, dims[2])
            at = near[k]
            for ix in range(max(cx - 1, 0), min(cx + 2, dims[0])):
                for iy in range(max(cy - 1, 0), min(cy + 2, dims[1])):
                    row = (ix * dims[1] + iy) * dims[2]
                    for s in range(start[row + z0], start[row + z1]):
                        if (xs[s, 0] - p0) ** 2 + (xs[s, 1] - p1) ** 2 + (xs[s, 2] - p2) ** 2 < r * r:
                            if fill:
                                candidates[at] = order[s]
                                at += 1
                            else:
                                near[k + 1] += 1
    return near, candidates


@njit(cache=True, nogil=True)
def normal_rows(R, bone, weight, local, JB, normals, k_skin, vi, rows, rates):
    """For each skin vertex ``i`` with a contact stiffness (``k_skin[i, 0] > 0``, in order) the row
    ``sqrt(k_skin[i, 0]) n_i^T J_i`` of its outward normal through eq. 11's Jacobian restricted to the velocity
    coordinates ``vi`` (``JB`` (m, 6, nv) the bones' ``[omega; x_dot]`` Jacobians, world axes), into ``rows``
    (at least the contacts' count, len(vi)), and ``k_skin[i, 1] / sqrt(k_skin[i, 0])`` into ``rates``; so that
    ``rows^T rows = J^T (sum_i k_i n_i n_i^T) J`` is the contacts' stiffness seen by the body (N/m through the
    coordinates) and ``rows^T rates = J^T sum_i k_i n_i (n_i . u_i)`` the rate their forces grow at as the devices
    move at ``u``. Returns the number of rows written."""
    m = 0
    for i in range(bone.shape[0]):
        if k_skin[i, 0] <= 0.0:
            continue
        n0, n1, n2 = normals[i, 0], normals[i, 1], normals[i, 2]
        s = np.sqrt(k_skin[i, 0])
        rates[m] = k_skin[i, 1] / s
        for c in range(vi.shape[0]):
            rows[m, c] = 0.0
        for k in range(bone.shape[1]):
            a = weight[i, k]
            if a == 0.0:
                continue
            j = bone[i, k]
            o0, o1, o2 = _offset(R, j, local, i, k)
            c0, c1, c2 = o1 * n2 - o2 * n1, o2 * n0 - o0 * n2, o0 * n1 - o1 * n0     # n . (w x o) = w . (o x n)
            for c in range(vi.shape[0]):
                d = vi[c]
                rows[m, c] += s * a * (n0 * JB[j, 3, d] + n1 * JB[j, 4, d] + n2 * JB[j, 5, d]
                                       + c0 * JB[j, 0, d] + c1 * JB[j, 1, d] + c2 * JB[j, 2, d])
        m += 1
    return m


@njit(cache=True, nogil=True)
def support_planes(p, X, N, h, near, candidates, idx, anchor):
    """For each sheet vertex ``p[k]`` the closest rigid-device vertex of ``X`` (M, 3) within ``h`` (among its candidates
    ``candidates[near[k]:near[k + 1]]``, see ``candidate_lists``) into ``idx[k]`` (-1: none) and its position and
    outward unit normal ``N`` into ``anchor[k]`` (m, world frame): the plane the sheet must stay outside of
    (``skin.sheet``)."""
    for k in range(p.shape[0]):
        i = _nearest(X, h, near, candidates, k, p[k, 0], p[k, 1], p[k, 2])
        idx[k] = i
        if i >= 0:
            for c in range(3):
                anchor[k, c] = X[i, c]
                anchor[k, 3 + c] = N[i, c]
