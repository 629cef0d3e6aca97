"""Numba kernels of the mass-spring sheet (seed eqs. 4-5; Liu et al. 2013's local step) (private)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def spring_directions(x, edges, rest, d):
    """The local step: for each spring ``e = (k, l)`` the vector ``d_e`` of length ``r_e`` along ``x_k - x_l``
    that minimises ``|x_k - x_l - d_e|`` (``d`` (e, 3), m)."""
    for e in range(edges.shape[0]):
        a, b = edges[e, 0], edges[e, 1]
        u0, u1, u2 = x[a, 0] - x[b, 0], x[a, 1] - x[b, 1], x[a, 2] - x[b, 2]
        s = np.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
        c = rest[e] / s if s > 0.0 else 0.0
        d[e, 0] = c * u0
        d[e, 1] = c * u1
        d[e, 2] = c * u2


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
def contact_targets(x, members, idx, anchor, t):
    """The local step of the sheet's contact springs (``skin.sheet``): for each vertex ``k`` of ``members`` (its
    contact springs' vertices) the point ``t[k]`` of the half-space outside the skin at its contact (``idx[k] >= 0``:
    the plane through ``anchor[k, :3]`` with outward unit normal ``anchor[k, 3:]``) closest to ``x[k]``; ``x[k]``
    itself when outside or without a contact (m)."""
    for k in members:
        t[k, 0] = x[k, 0]
        t[k, 1] = x[k, 1]
        t[k, 2] = x[k, 2]
        if idx[k] < 0:
            continue
        n0, n1, n2 = anchor[k, 3], anchor[k, 4], anchor[k, 5]
        d = n0 * (anchor[k, 0] - x[k, 0]) + n1 * (anchor[k, 1] - x[k, 1]) + n2 * (anchor[k, 2] - x[k, 2])
        if d > 0.0:
            t[k, 0] += d * n0
            t[k, 1] += d * n1
            t[k, 2] += d * n2


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
