"""Rotation kernels: Rodrigues, quaternions, and the SO(3) series coefficients.

For an angle vector ``phi`` with ``s = |phi|^2`` (``theta = |phi|``):

- ``R(phi)   = I + a(s) [phi x] + b(s) [phi x]^2``      (exponential map)
- ``J_l(phi) = I + b(s) [phi x] + c(s) [phi x]^2``      (left Jacobian)
- ``J_r(phi) = I - b(s) [phi x] + c(s) [phi x]^2``      (right Jacobian)

with ``a = sin(t)/t``, ``b = (1 - cos t)/t^2``, ``c = (t - sin t)/t^3``. The PCS
kernels also need ``db/ds``, ``dc/ds`` and their second derivatives. Near zero
these are evaluated from their power series in ``s`` (exact to rounding for
``s < 4``), elsewhere from the closed forms.
"""
import math

import numba as nb

_SERIES_LIMIT = 4.0
_NTERMS = 16


@nb.njit(cache=True, nogil=True, inline="always")
def _series(s, m):
    """Sum over k of (-s)^k/(2k+m)!, and its first and second derivative in s."""
    # term_k = (-1)^k s^k / (2k+m)!
    f = 0.0
    df = 0.0
    ddf = 0.0
    fact = 1.0
    for i in range(2, m + 1):
        fact *= i
    coef = 1.0 / fact  # (-1)^k/(2k+m)! for k = 0
    sk = 1.0           # s^k
    skm1 = 0.0         # s^(k-1)
    skm2 = 0.0         # s^(k-2)
    for k in range(_NTERMS):
        f += coef * sk
        df += k * coef * skm1
        ddf += k * (k - 1) * coef * skm2
        skm2 = skm1
        skm1 = sk
        sk *= s
        coef = -coef / ((2 * k + m + 1) * (2 * k + m + 2))
    return f, df, ddf


@nb.njit(cache=True, nogil=True)
def so3_coefficients(s):
    """Return ``(a, b, c, b', c', b'', c'')`` at ``s = theta^2`` (primes: d/ds)."""
    if s < _SERIES_LIMIT:
        a = _series(s, 1)[0]
        b, b1, b2 = _series(s, 2)
        c, c1, c2 = _series(s, 3)
        return a, b, c, b1, c1, b2, c2
    t = math.sqrt(s)
    st = math.sin(t)
    ct = math.cos(t)
    a = st / t
    b = (1.0 - ct) / s
    c = (t - st) / (s * t)
    b1 = (t * st - 2.0 + 2.0 * ct) / (2.0 * s * s)
    c1 = (3.0 * st - 2.0 * t - t * ct) / (2.0 * s * s * t)
    b2 = (s * ct - 5.0 * t * st + 8.0 - 8.0 * ct) / (4.0 * s * s * s)
    c2 = (s * st + 7.0 * t * ct + 8.0 * t - 15.0 * st) / (4.0 * s * s * s * t)
    return a, b, c, b1, c1, b2, c2


@nb.njit(cache=True, nogil=True, inline="always")
def rodrigues(ux, uy, uz, angle, R):
    """Write into ``R`` the rotation of ``angle`` about the unit axis ``u``."""
    st = math.sin(angle)
    vt = 1.0 - math.cos(angle)
    R[0, 0] = 1.0 - vt * (uy * uy + uz * uz)
    R[1, 1] = 1.0 - vt * (ux * ux + uz * uz)
    R[2, 2] = 1.0 - vt * (ux * ux + uy * uy)
    R[0, 1] = vt * ux * uy - st * uz
    R[1, 0] = vt * ux * uy + st * uz
    R[0, 2] = vt * ux * uz + st * uy
    R[2, 0] = vt * ux * uz - st * uy
    R[1, 2] = vt * uy * uz - st * ux
    R[2, 1] = vt * uy * uz + st * ux


@nb.njit(cache=True, nogil=True, inline="always")
def quat_to_rot(x, y, z, w, R):
    """Write into ``R`` the rotation of the quaternion ``(x, y, z, w)`` (normalised here)."""
    n = 1.0 / math.sqrt(x * x + y * y + z * z + w * w)
    x *= n
    y *= n
    z *= n
    w *= n
    R[0, 0] = 1.0 - 2.0 * (y * y + z * z)
    R[0, 1] = 2.0 * (x * y - z * w)
    R[0, 2] = 2.0 * (x * z + y * w)
    R[1, 0] = 2.0 * (x * y + z * w)
    R[1, 1] = 1.0 - 2.0 * (x * x + z * z)
    R[1, 2] = 2.0 * (y * z - x * w)
    R[2, 0] = 2.0 * (x * z - y * w)
    R[2, 1] = 2.0 * (y * z + x * w)
    R[2, 2] = 1.0 - 2.0 * (x * x + y * y)


@nb.njit(cache=True, nogil=True)
def quat_exp_right(q, off, wx, wy, wz):
    """In place ``quat <- quat * exp(w/2)``: rotate by the body-frame rotation vector ``w``."""
    s = wx * wx + wy * wy + wz * wz
    t = math.sqrt(s)
    if t < 1e-8:
        cw = 1.0 - s / 8.0
        sw = 0.5 - s / 48.0
    else:
        cw = math.cos(0.5 * t)
        sw = math.sin(0.5 * t) / t
    dx = sw * wx
    dy = sw * wy
    dz = sw * wz
    x = q[off]
    y = q[off + 1]
    z = q[off + 2]
    w = q[off + 3]
    nx = w * dx + x * cw + y * dz - z * dy
    ny = w * dy - x * dz + y * cw + z * dx
    nz = w * dz + x * dy - y * dx + z * cw
    nw = w * cw - x * dx - y * dy - z * dz
    n = 1.0 / math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw)
    q[off] = nx * n
    q[off + 1] = ny * n
    q[off + 2] = nz * n
    q[off + 3] = nw * n
