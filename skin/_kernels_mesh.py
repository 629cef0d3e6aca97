"""Numba kernels of triangle meshes: vertex normals and vertex areas (private)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _triangle_normal(x, tris, t):
    """Twice the area times the unit normal of triangle ``t``: ``(x_b - x_a) x (x_c - x_a)``."""
    a, b, c = tris[t, 0], tris[t, 1], tris[t, 2]
    e1x, e1y, e1z = x[b, 0] - x[a, 0], x[b, 1] - x[a, 1], x[b, 2] - x[a, 2]
    e2x, e2y, e2z = x[c, 0] - x[a, 0], x[c, 1] - x[a, 1], x[c, 2] - x[a, 2]
    return e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x


@njit(cache=True, nogil=True)
def vertex_normals(x, tris, normals):
    """Unit area-weighted vertex normals (n, 3) of the surface with vertices ``x`` (n, 3) and triangles ``tris``
    (t, 3), counter-clockwise seen from outside (each vertex's triangles summed by rising index)."""
    n = x.shape[0]
    for i in range(n):
        for c in range(3):
            normals[i, c] = 0.0
    for t in range(tris.shape[0]):
        nx, ny, nz = _triangle_normal(x, tris, t)
        for v in (tris[t, 0], tris[t, 1], tris[t, 2]):
            normals[v, 0] += nx
            normals[v, 1] += ny
            normals[v, 2] += nz
    for i in range(n):
        s = np.sqrt(normals[i, 0] ** 2 + normals[i, 1] ** 2 + normals[i, 2] ** 2)
        if s > 0.0:
            for c in range(3):
                normals[i, c] /= s


@njit(cache=True, nogil=True)
def vertex_normals_areas(x, tris, normals, areas):
    """``vertex_normals`` and ``vertex_areas``."""
    vertex_normals(x, tris, normals)
    vertex_areas(x, tris, areas)


@njit(cache=True, nogil=True)
def vertex_areas(x, tris, areas):
    """Vertex areas (n,) m^2 of the surface with vertices ``x`` (n, 3) and triangles ``tris`` (t, 3): a third of the
    adjacent triangles' areas."""
    for i in range(x.shape[0]):
        areas[i] = 0.0
    for t in range(tris.shape[0]):
        nx, ny, nz = _triangle_normal(x, tris, t)
        third = np.sqrt(nx * nx + ny * ny + nz * nz) / 6.0
        for v in (tris[t, 0], tris[t, 1], tris[t, 2]):
            areas[v] += third
