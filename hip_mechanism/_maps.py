"""Numba kernel of the performance maps over a grid of (alpha, beta) (seed section 5)."""
from __future__ import annotations

import numpy as np
from numba import njit

from ._geometry import limb_motion, rotation
from ._jacobians import full_jacobian

# reasons a pose is outside the workspace (bit flags)
ALPHA_LIMIT, BETA_LIMIT, STROKE_SHORT, STROKE_LONG, SINGULAR = 1, 2, 4, 8, 16


@njit(cache=True, nogil=True)
def pose_measures(g, limits, k, length_scale, com, force_limit, q, out):
    """At pose q: out = [l2, l3, flags, dexterity 1/kappa, K's smallest and largest eigenvalues (SI), the
    translational stiffness's smallest and largest eigenvalues (N/m), bearing capacity (N),
    stroke margin (m), joint-limit margin (rad)]."""
    J, P = np.empty((6, 6)), np.empty((6, 2))
    full_jacobian(g, q, J, P)
    zero = np.zeros(2)
    B, vB, aB = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    s, ds, dds = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    L, U = np.empty((3, 3)), np.empty((3, 6))
    limb_motion(g, q, zero, zero, B, vB, aB, s, ds, dds, L, U)
    l2, l3 = L[1, 0], L[2, 0]
    flags = 0
    if q[0] < limits[0] or q[0] > limits[1]:
        flags |= ALPHA_LIMIT
    if q[1] < limits[2] or q[1] > limits[3]:
        flags |= BETA_LIMIT
    if min(l2, l3) < limits[4]:
        flags |= STROKE_SHORT
    if max(l2, l3) > limits[5]:
        flags |= STROKE_LONG
    stroke_margin = min(l2 - limits[4], limits[5] - l2, l3 - limits[4], limits[5] - l3)
    joint_margin = min(q[0] - limits[0], limits[1] - q[0], q[1] - limits[2], limits[3] - q[1])
    # dexterity: J with its moment columns divided by the characteristic length (acting on [L omega; v])
    Jh = J.copy()
    for r in range(6):
        for c in range(3):
            Jh[r, c] /= length_scale
    sv = np.linalg.svd(Jh)[1]
    dexterity = sv[5] / sv[0]
    sj = np.linalg.svd(J)[1]
    k_min, k_max = k * sj[5] ** 2, k * sj[0] ** 2
    translational_min = translational_max = 0.0
    capacity = 0.0
    if dexterity < 1e-9:
        flags |= SINGULAR
    else:
        K = k * (J.T @ J)
        C = np.linalg.inv(K)
        Kt = np.linalg.inv(C[3:, 3:])
        ev = np.linalg.eigvalsh(0.5 * (Kt + Kt.T))
        translational_min, translational_max = ev[0], ev[2]
        # bearing capacity: vertical load (-Z) at the platform's centre of mass; J^T lambda = -[c x f; f]
        R = np.empty((3, 3))
        rotation(q[0], q[1], R)
        c = R @ com
        F = np.array([-c[1], c[0], 0.0, 0.0, 0.0, -1.0])      # (c x (0, 0, -1), (0, 0, -1)) for a unit load
        lam = np.linalg.solve(J.T, -F)
        per_newton = max(abs(lam[4]), abs(lam[5]))
        capacity = force_limit / per_newton if per_newton > 0 else np.inf
    out[0], out[1], out[2], out[3] = l2, l3, flags, dexterity
    out[4], out[5], out[6], out[7] = k_min, k_max, translational_min, translational_max
    out[8], out[9], out[10] = capacity, stroke_margin, joint_margin


@njit(cache=True, nogil=True)
def grid_measures(g, limits, k, length_scale, com, force_limit, alphas, betas, out):
    """pose_measures over the grid: out (len(alphas), len(betas), 11)."""
    q = np.empty(2)
    for i in range(alphas.shape[0]):
        for j in range(betas.shape[0]):
            q[0], q[1] = alphas[i], betas[j]
            pose_measures(g, limits, k, length_scale, com, force_limit, q, out[i, j])


@njit(cache=True, nogil=True)
def path_measures(g, limits, k, length_scale, com, force_limit, Q, out):
    """pose_measures along a path Q (T, 2): out (T, 11)."""
    for t in range(Q.shape[0]):
        pose_measures(g, limits, k, length_scale, com, force_limit, Q[t], out[t])
