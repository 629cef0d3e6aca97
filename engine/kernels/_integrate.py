"""Configuration-space operations on the Lie groups of the joints.

``integrate`` moves ``q`` by a velocity ``v`` over ``dt``: scalar coordinates
add ``v dt``; spherical joints right-multiply by ``exp(omega dt)``; free joints
by the SE(3) exponential of the body twist (never through Euler angles).
"""
import math

import numba as nb
import numpy as np

from ._joints import FREE, SPHERICAL
from ._so3 import quat_exp_right, quat_to_rot, so3_coefficients


@nb.njit(cache=True, nogil=True)
def integrate(nodes, v2q, q, v, dt, out):
    """``out = q (+) v dt`` (``out`` may be ``q``)."""
    for i in range(q.shape[0]):
        out[i] = q[i]
    for vi in range(v2q.shape[0]):
        qi = v2q[vi]
        if qi >= 0:
            out[qi] = q[qi] + v[vi] * dt
    R = np.empty((3, 3))
    for n in range(nodes.shape[0]):
        nd = nodes[n]
        if nd.jtype == SPHERICAL:
            i0 = nd.qidx
            v0 = nd.colv[0]
            quat_exp_right(out, i0, v[v0] * dt, v[v0 + 1] * dt, v[v0 + 2] * dt)
        elif nd.jtype == FREE:
            i0 = nd.qidx
            v0 = nd.colv[0]
            wx = v[v0] * dt
            wy = v[v0 + 1] * dt
            wz = v[v0 + 2] * dt
            ux = v[v0 + 3] * dt
            uy = v[v0 + 4] * dt
            uz = v[v0 + 5] * dt
            # body-frame displacement of the SE(3) exponential: J_l(w) u
            _, b, c, _, _, _, _ = so3_coefficients(wx * wx + wy * wy + wz * wz)
            cx = wy * uz - wz * uy
            cy = wz * ux - wx * uz
            cz = wx * uy - wy * ux
            dx = ux + b * cx + c * (wy * cz - wz * cy)
            dy = uy + b * cy + c * (wz * cx - wx * cz)
            dz = uz + b * cz + c * (wx * cy - wy * cx)
            quat_to_rot(q[i0 + 3], q[i0 + 4], q[i0 + 5], q[i0 + 6], R)
            out[i0] = q[i0] + R[0, 0] * dx + R[0, 1] * dy + R[0, 2] * dz
            out[i0 + 1] = q[i0 + 1] + R[1, 0] * dx + R[1, 1] * dy + R[1, 2] * dz
            out[i0 + 2] = q[i0 + 2] + R[2, 0] * dx + R[2, 1] * dy + R[2, 2] * dz
            quat_exp_right(out, i0 + 3, wx, wy, wz)


@nb.njit(cache=True, nogil=True)
def normalize(quat_q, q):
    """Renormalise the quaternions in ``q`` in place (``quat_q``: their first q indices)."""
    for k in range(quat_q.shape[0]):
        i = quat_q[k]
        n = 1.0 / math.sqrt(q[i] ** 2 + q[i + 1] ** 2 + q[i + 2] ** 2 + q[i + 3] ** 2)
        for j in range(4):
            q[i + j] *= n
