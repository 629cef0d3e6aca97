"""Numba kernels of the flesh volumes' signed distances and their smooth union (private; ``skin.volumes`` packs the
shapes, ``skin.surface`` samples the skin's field with them).

A volume ``j`` is ``kind[j]`` with parameters ``params[j]`` (body frame, m):

- ``CAPSULE``: start (0:3), end (3:6), radius (6);
- ``TAPERED``: start (0:3), unit axis (3:6), axis length h (6), the cone's sin a (7) and cos a (8), proximal
  radius (9), distal radius (10) (``skin.volumes.TaperedCapsule``);
- ``ELLIPSOID``: centre (0:3), axes (3:12, the 3x3 rotation row by row, semi-axes along its columns), radii (12:15).

The body is at world rotation ``R[j]`` (3, 3) and origin ``p[j]`` (3,): a world point ``x`` is ``R[j]^T (x - p[j])``
in its frame.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

CAPSULE, TAPERED, ELLIPSOID = 0, 1, 2
PARAMS = 15


@njit(cache=True, nogil=True)
def _distance(kind, q, x0, x1, x2):
    """Signed distance (m, negative inside) from body-frame point ``(x0, x1, x2)`` to one volume (``kind``, ``q``):
    exact for the capsules, first-order for the ellipsoid (exact on the surface and along the axes)."""
    if kind == CAPSULE:
        b0, b1, b2 = q[3] - q[0], q[4] - q[1], q[5] - q[2]
        r0, r1, r2 = x0 - q[0], x1 - q[1], x2 - q[2]
        s = (r0 * b0 + r1 * b1 + r2 * b2) / (b0 * b0 + b1 * b1 + b2 * b2)
        s = min(max(s, 0.0), 1.0)
        d0, d1, d2 = r0 - s * b0, r1 - s * b1, r2 - s * b2
        return math.sqrt(d0 * d0 + d1 * d1 + d2 * d2) - q[6]
    if kind == TAPERED:
        # in the plane through the axis: t along it from the proximal centre, rho from it; the cone's side has
        # outward normal (sin a, cos a), and its tangent points lie at 0 and h cos a along (cos a, -sin a)
        r0, r1, r2 = x0 - q[0], x1 - q[1], x2 - q[2]
        t = r0 * q[3] + r1 * q[4] + r2 * q[5]
        d0, d1, d2 = r0 - t * q[3], r1 - t * q[4], r2 - t * q[5]
        rho = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        h, sin_a, cos_a = q[6], q[7], q[8]
        along = t * cos_a - rho * sin_a
        if along < 0.0:
            return math.hypot(t, rho) - q[9]
        if along > h * cos_a:
            return math.hypot(t - h, rho) - q[10]
        return t * sin_a + rho * cos_a - q[9]
    r0, r1, r2 = x0 - q[0], x1 - q[1], x2 - q[2]
    k0 = 0.0
    k1 = 0.0
    for c in range(3):
        u = (r0 * q[3 + c] + r1 * q[6 + c] + r2 * q[9 + c]) / q[12 + c]
        k0 += u * u
        u /= q[12 + c]
        k1 += u * u
    k0 = math.sqrt(k0)
    k1 = math.sqrt(k1)
    if k1 > 0.0:
        return k0 * (k0 - 1.0) / max(k1, 1e-300)
    return -min(q[12], min(q[13], q[14]))


@njit(cache=True, nogil=True, inline="always")
def _world_distance(kind, params, R, p, j, x0, x1, x2):
    """Signed distance (m) from world point ``(x0, x1, x2)`` to volume ``j`` at its body's placement."""
    y0, y1, y2 = x0 - p[j, 0], x1 - p[j, 1], x2 - p[j, 2]
    return _distance(kind[j], params[j],
                     y0 * R[j, 0, 0] + y1 * R[j, 1, 0] + y2 * R[j, 2, 0],
                     y0 * R[j, 0, 1] + y1 * R[j, 1, 1] + y2 * R[j, 2, 1],
                     y0 * R[j, 0, 2] + y1 * R[j, 1, 2] + y2 * R[j, 2, 2])


@njit(cache=True, nogil=True)
def distances(kind, params, R, p, x, out):
    """Signed distances (m) from world points ``x`` (k, 3) to each volume into ``out`` (k, m)."""
    for i in range(x.shape[0]):
        for j in range(kind.shape[0]):
            out[i, j] = _world_distance(kind, params, R, p, j, x[i, 0], x[i, 1], x[i, 2])


@njit(cache=True, nogil=True)
def union_field(kind, params, R, p, origin, spacing, blend, out):
    """The volumes' smooth union ``-b log sum_j exp(-d_j / b)`` (m, ``b`` = ``blend``) sampled on the grid
    ``origin + spacing * (i, j, k)`` into ``out`` (nx, ny, nz)."""
    m = kind.shape[0]
    d = np.empty(m)
    for a in range(out.shape[0]):
        x0 = origin[0] + spacing * a
        for b in range(out.shape[1]):
            x1 = origin[1] + spacing * b
            for c in range(out.shape[2]):
                x2 = origin[2] + spacing * c
                low = math.inf
                for j in range(m):
                    d[j] = _world_distance(kind, params, R, p, j, x0, x1, x2)
                    low = min(low, d[j])
                s = 0.0
                for j in range(m):
                    s += math.exp(-(d[j] - low) / blend)
                out[a, b, c] = low - blend * math.log(s)
