"""Numba kernels of the mechanism's Jacobians (seed section 4) at a pose q = (alpha, beta).

Rows are wrenches ``[moment about o; force]`` acting on twists ``[omega; v_o]`` (base axes, m), so that a row
times a twist is the wrench's power (the reciprocal product of screw theory).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._geometry import _cross, limb_motion, platform_motion

ROW_NAMES = ("limb 1 axial force", "blocked spin couple", "lateral force 1", "lateral force 2",
             "actuator 2", "actuator 3")


@njit(cache=True, nogil=True)
def full_jacobian(g, q, J, P):
    """The 6x6 full Jacobian (seed eq. 15) into J: rows 0-3 the constraint Jacobian Jc (4x6), rows 4-5 the
    kinematic Jacobian Jk (eq. 12); and the platform's velocity map P (6x2) into P.

    Jc's rows span the wrenches reciprocal to every feasible twist P qd: limb 1's axial force along s1 through
    B1 (eq. 14's first row), the couple about n = Rx(alpha) e_z (the spin a 2-DoF rotation blocks), and two
    forces along e1 = e_y x s1/|e_y x s1| and e2 = s1 x e1 with the moments m = -(f . p_alpha) e_x -
    (f . p_beta) u that make them reciprocal (u = Rx(alpha) e_y). Jk's rows are the actuated limbs' forces along
    s_i through B_i: [(r_i x s_i)^T, s_i^T] with r_i = Bi - o.
    """
    zero = np.zeros(2)
    R = np.empty((3, 3))
    p, w, v, dw, a = np.empty(3), np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    platform_motion(g, q, zero, zero, R, p, w, v, dw, a, P)
    B, vB, aB = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    s, ds, dds = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    L, U = np.empty((3, 3)), np.empty((3, 6))
    limb_motion(g, q, zero, zero, B, vB, aB, s, ds, dds, L, U)
    J[:] = 0.0
    r, m = np.empty(3), np.empty(3)
    for row, limb in ((0, 0), (4, 1), (5, 2)):
        for k in range(3):
            r[k] = B[limb, k] - p[k]
        _cross(r, s[limb], m)
        for k in range(3):
            J[row, k] = m[k]
            J[row, 3 + k] = s[limb, k]
    J[1, 1] = -math.sin(q[0])
    J[1, 2] = math.cos(q[0])
    ey = np.array([0.0, 1.0, 0.0])
    e1, e2 = np.empty(3), np.empty(3)
    _cross(ey, s[0], e1)
    e1 /= math.sqrt(e1[0] ** 2 + e1[1] ** 2 + e1[2] ** 2)
    _cross(s[0], e1, e2)
    for row, f in ((2, e1), (3, e2)):
        fa = f[0] * P[3, 0] + f[1] * P[4, 0] + f[2] * P[5, 0]
        fb = f[0] * P[3, 1] + f[1] * P[4, 1] + f[2] * P[5, 1]
        for k in range(3):
            J[row, k] = -fa * P[k, 0] - fb * P[k, 1]
            J[row, 3 + k] = f[k]


@njit(cache=True, nogil=True)
def actuator_jacobian(J, P, Jq):
    """d(l2, l3)/d(alpha, beta) = Jk P (2x2) into Jq."""
    for i in range(2):
        for k in range(2):
            acc = 0.0
            for c in range(6):
                acc += J[4 + i, c] * P[c, k]
            Jq[i, k] = acc
