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
