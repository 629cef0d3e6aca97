"""Numba kernels of the mass-spring sheet (seed eqs. 4-5; Liu et al. 2013's local step) (private)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def global_rhs(x, edges, rest, k, base, members0, idx0, anchor0, members1, idx1, anchor1, k_contact, free, rhs_fixed,
               rhs, out):
    """One local step and the global step's right-hand side (Liu et al.), fused: for each spring ``e = (a, b)`` the
    vector ``d_e`` of length ``r_e`` along ``x_a - x_b`` closest to it, gathered as ``k A^T d`` (N) and added to
    ``base`` (n, 3) (the inertia and external forces) into ``rhs`` (n, 3); then each contact spring's target (kind 0:
    the vertices ``members0`` with ``idx0``, ``anchor0``; kind 1 likewise; see ``contact_target``) as
    ``k_contact t``; and ``rhs`` of the ``free`` vertices less ``rhs_fixed`` (the held vertices' coupling) into
    ``out`` (f, 3), the right-hand side of the factored solve. Sums in the order of a CSR product with ``k A^T``
    (each vertex's springs by rising index)."""
    for i in range(rhs.shape[0]):
        rhs[i, 0] = 0.0
        rhs[i, 1] = 0.0
        rhs[i, 2] = 0.0
    for e in range(edges.shape[0]):
        a, b = edges[e, 0], edges[e, 1]
        u0, u1, u2 = x[a, 0] - x[b, 0], x[a, 1] - x[b, 1], x[a, 2] - x[b, 2]
        s = np.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
        c = rest[e] / s if s > 0.0 else 0.0
        f0, f1, f2 = k * (c * u0), k * (c * u1), k * (c * u2)
        rhs[a, 0] += f0
        rhs[a, 1] += f1
        rhs[a, 2] += f2
        rhs[b, 0] -= f0
        rhs[b, 1] -= f1
        rhs[b, 2] -= f2
    for i in range(rhs.shape[0]):
        rhs[i, 0] = base[i, 0] + rhs[i, 0]
        rhs[i, 1] = base[i, 1] + rhs[i, 1]
        rhs[i, 2] = base[i, 2] + rhs[i, 2]
    _add_contact_targets(x, members0, idx0, anchor0, k_contact, rhs)
    _add_contact_targets(x, members1, idx1, anchor1, k_contact, rhs)
    for j in range(free.shape[0]):
        i = free[j]
        out[j, 0] = rhs[i, 0] - rhs_fixed[j, 0]
        out[j, 1] = rhs[i, 1] - rhs_fixed[j, 1]
        out[j, 2] = rhs[i, 2] - rhs_fixed[j, 2]


@njit(cache=True, nogil=True, inline="always")
def _add_contact_targets(x, members, idx, anchor, k_contact, rhs):
    """The local step of the sheet's contact springs (``skin.sheet``), added to ``rhs`` as ``k_contact t[k]``: for
    each vertex ``k`` of ``members`` (its contact springs' vertices) the point ``t[k]`` of the half-space outside the
    skin at its contact (``idx[k] >= 0``: the plane through ``anchor[k, :3]`` with outward unit normal
    ``anchor[k, 3:]``) closest to ``x[k]``; ``x[k]`` itself when outside or without a contact (m)."""
    for k in members:
        t0, t1, t2 = x[k, 0], x[k, 1], x[k, 2]
        if idx[k] >= 0:
            n0, n1, n2 = anchor[k, 3], anchor[k, 4], anchor[k, 5]
            d = n0 * (anchor[k, 0] - x[k, 0]) + n1 * (anchor[k, 1] - x[k, 1]) + n2 * (anchor[k, 2] - x[k, 2])
            if d > 0.0:
                t0 += d * n0
                t1 += d * n1
                t2 += d * n2
        rhs[k, 0] += k_contact * t0
        rhs[k, 1] += k_contact * t1
        rhs[k, 2] += k_contact * t2


@njit(cache=True, nogil=True)
def put_free(new, free, x):
    """``x[free] = new`` (m); returns the largest coordinate change (m; NaN if ``new`` holds one)."""
    moved = 0.0
    for j in range(free.shape[0]):
        i = free[j]
        for c in range(3):
            change = abs(new[j, c] - x[i, c])
            if change > moved or change != change:      # a NaN stays
                moved = change
            x[i, c] = new[j, c]
    return moved


@njit(cache=True, nogil=True)
def spring_energy(x, edges, rest, k):
    """Eq. 5's elastic energy ``sum_e k/2 (|x_k - x_l| - r_e)^2`` (J)."""
    E = 0.0
    for e in range(edges.shape[0]):
        a, b = edges[e, 0], edges[e, 1]
        s = np.sqrt((x[a, 0] - x[b, 0]) ** 2 + (x[a, 1] - x[b, 1]) ** 2 + (x[a, 2] - x[b, 2]) ** 2)
        E += 0.5 * k * (s - rest[e]) ** 2
    return E


@njit(cache=True, nogil=True)
def contact_energy(x, idx, anchor, k):
    """The contact springs' energy ``sum_k k/2 max(0, n_k . (a_k - x_k))^2`` (J) over the vertices with a contact."""
    E = 0.0
    for v in range(x.shape[0]):
        if idx[v] < 0:
            continue
        d = anchor[v, 3] * (anchor[v, 0] - x[v, 0]) + anchor[v, 4] * (anchor[v, 1] - x[v, 1]) \
            + anchor[v, 5] * (anchor[v, 2] - x[v, 2])
        if d > 0.0:
            E += 0.5 * k * d * d
    return E
