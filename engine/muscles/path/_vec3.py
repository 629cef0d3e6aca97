"""Three-vectors as tuples ``(x, y, z)`` for the path and wrap kernels (no allocation), and the two scalar helpers
the wrap kernels share.

Plain kernels, each compiled once (all take tuples of floats, or a 3 x 3 array and a tuple); LLVM inlines them
into their callers when it links them, as it would have with numba's ``inline="always"``, which instead types
and compiles their bodies again at each of the few hundred call sites: the muscle paths' kernels compiled in
about 3 CPU-s more that way on an empty cache, and ran no faster."""
import math

import numba as nb


@nb.njit(cache=True, nogil=True)
def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@nb.njit(cache=True, nogil=True)
def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@nb.njit(cache=True, nogil=True)
def scale(s, a):
    return (s * a[0], s * a[1], s * a[2])


@nb.njit(cache=True, nogil=True)
def axpy(s, a, b):
    """``s a + b``."""
    return (s * a[0] + b[0], s * a[1] + b[1], s * a[2] + b[2])


@nb.njit(cache=True, nogil=True)
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@nb.njit(cache=True, nogil=True)
def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@nb.njit(cache=True, nogil=True)
def norm(a):
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@nb.njit(cache=True, nogil=True)
def unit(a):
    """``a / |a|``, or zero for a zero vector."""
    n = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    if n == 0.0:
        return (0.0, 0.0, 0.0)
    return (a[0] / n, a[1] / n, a[2] / n)


@nb.njit(cache=True, nogil=True)
def rotate(R, a):
    """``R a`` for a 3 x 3 array ``R``."""
    return (R[0, 0] * a[0] + R[0, 1] * a[1] + R[0, 2] * a[2],
            R[1, 0] * a[0] + R[1, 1] * a[1] + R[1, 2] * a[2],
            R[2, 0] * a[0] + R[2, 1] * a[1] + R[2, 2] * a[2])


@nb.njit(cache=True, nogil=True)
def rotate_t(R, a):
    """``R^T a`` for a 3 x 3 array ``R``."""
    return (R[0, 0] * a[0] + R[1, 0] * a[1] + R[2, 0] * a[2],
            R[0, 1] * a[0] + R[1, 1] * a[1] + R[2, 1] * a[2],
            R[0, 2] * a[0] + R[1, 2] * a[1] + R[2, 2] * a[2])


@nb.njit(cache=True, nogil=True)
def dsign(x):
    """OpenSim's DSIGN: 1 for ``x >= 0``, else -1."""
    return 1 if x >= 0.0 else -1


@nb.njit(cache=True, nogil=True)
def positive_angle(a):
    """``a`` (rad) wrapped into [0, 2 pi)."""
    return a % (2.0 * math.pi)
