"""Numba kernels of skin-device contact (seed eqs. 6-7) with a uniform-grid broad phase (private).

The skin's vertices are binned in a uniform grid of cell ``h`` (a counting sort); each device vertex looks
for its closest skin vertex ``idx(k)`` in the 27 cells around it, so the cost is linear in the vertex
counts instead of their product.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def build_grid(x, h, lo, dims, start, order, near):
    """Bin points ``x`` (n, 3) into cells of size ``h`` from corner ``lo`` (3,) with ``dims`` (3,) cells:
    ``order`` (n,) lists the points cell by cell, ``start`` (cells + 1,) where each cell's run begins, ``near``
    (cells,) whether a cell or one of its 26 neighbours holds a point (queries elsewhere end at once)."""
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
        order[fill[cell[i]]] = i
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


@njit(cache=True, nogil=True)
def closest(x, h, lo, dims, start, order, near, p0, p1, p2):
    """Index of the point of ``x`` closest to ``(p0, p1, p2)`` within distance ``h`` (-1 if none), from the grid."""
    fx = (p0 - lo[0]) / h
    fy = (p1 - lo[1]) / h
    fz = (p2 - lo[2]) / h
    if fx < -1.0 or fy < -1.0 or fz < -1.0 or fx > dims[0] + 1.0 or fy > dims[1] + 1.0 or fz > dims[2] + 1.0:
        return -1
    cx, cy, cz = int(np.floor(fx)), int(np.floor(fy)), int(np.floor(fz))
    if 0 <= cx < dims[0] and 0 <= cy < dims[1] and 0 <= cz < dims[2] and not near[(cx * dims[1] + cy) * dims[2] + cz]:
        return -1
    best = -1
    bestd = h * h
    for ix in range(max(cx - 1, 0), min(cx + 2, dims[0])):
        for iy in range(max(cy - 1, 0), min(cy + 2, dims[1])):
            for iz in range(max(cz - 1, 0), min(cz + 2, dims[2])):
                c = (ix * dims[1] + iy) * dims[2] + iz
                for s in range(start[c], start[c + 1]):
                    i = order[s]
                    d = (x[i, 0] - p0) ** 2 + (x[i, 1] - p1) ** 2 + (x[i, 2] - p2) ** 2
                    if d < bestd:
                        bestd = d
                        best = i
    return best


@njit(cache=True, nogil=True)
def contact_forces(x, normals, xdot, h, lo, dims, start, order, near, p, pn, pdot, k_contact, friction, eps,
                   f_skin, f_normal, f_device):
    """Penalty contact (eq. 6) and regularised Coulomb friction (eq. 7) of device vertices ``p`` (N, 3) moving
    at ``pdot`` on the skin ``x`` (n, 3) with outward unit ``normals`` moving at ``xdot``.

    For each device vertex ``k``: ``idx(k)`` the closest skin vertex within ``h`` facing it (skin normal against
    the device's normal ``pn[k]``: a device vertex that went through a thin part, a hand, finds the far side's
    vertices closer, which must not pull the skin in),
    ``d_k = n . (x_idx - p_k)``; if ``d_k > 0`` (the device vertex is under the skin) the skin vertex is pushed
    back by ``k_contact d_k`` along ``-n`` (eq. 6's magnitude; it pushes the skin away from the device) and the friction
    ``-F_c V / max(|V|, eps)`` of the relative velocity ``V = x_dot_idx - p_dot_k``. Adds the skin's forces
    to ``f_skin`` (n, 3) N, the contact (normal) forces' magnitudes to ``f_normal`` (n,) N, and writes the
    opposite forces on the device into ``f_device`` (N, 3). Returns the number of device vertices in contact.
    """
    count = 0
    for k in range(p.shape[0]):
        f_device[k, 0] = 0.0
        f_device[k, 1] = 0.0
        f_device[k, 2] = 0.0
        i = closest(x, h, lo, dims, start, order, near, p[k, 0], p[k, 1], p[k, 2])
        if i < 0:
            continue
        n0, n1, n2 = normals[i, 0], normals[i, 1], normals[i, 2]
        if n0 * pn[k, 0] + n1 * pn[k, 1] + n2 * pn[k, 2] >= 0.0:
            continue
        d = n0 * (x[i, 0] - p[k, 0]) + n1 * (x[i, 1] - p[k, 1]) + n2 * (x[i, 2] - p[k, 2])
        if d <= 0.0:
            continue
        count += 1
        fn = k_contact * d
        V0 = xdot[i, 0] - pdot[k, 0]
        V1 = xdot[i, 1] - pdot[k, 1]
        V2 = xdot[i, 2] - pdot[k, 2]
        speed = np.sqrt(V0 * V0 + V1 * V1 + V2 * V2)
        c = friction / max(speed, eps)
        g0 = -fn * n0 - c * V0
        g1 = -fn * n1 - c * V1
        g2 = -fn * n2 - c * V2
        f_skin[i, 0] += g0
        f_skin[i, 1] += g1
        f_skin[i, 2] += g2
        f_normal[i] += fn
        f_device[k, 0] = -g0
        f_device[k, 1] = -g1
        f_device[k, 2] = -g2
    return count
