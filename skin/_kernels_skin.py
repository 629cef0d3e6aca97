"""Numba kernels of linear blend skinning (seed eqs. 3, 8-12) over all skin vertices at once (private).

Each vertex ``i`` has ``K`` influences: bone ``bone[i, k]``, weight ``weight[i, k]`` (alpha_ij, summing to
1) and the vertex's rest position in that bone's frame, ``local[i, k]`` = ``R_j0^T (v_i^0 - x_j^0)``.
Bones are at world rotations ``R`` (m, 3, 3) and origins ``p`` (m, 3).
"""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _offset(R, j, local, i, k):
    """``R_j r_ik``: vertex ``i``'s rest offset in bone ``j`` (its influence ``k``), turned to world axes, m."""
    r0, r1, r2 = local[i, k, 0], local[i, k, 1], local[i, k, 2]
    return (R[j, 0, 0] * r0 + R[j, 0, 1] * r1 + R[j, 0, 2] * r2,
            R[j, 1, 0] * r0 + R[j, 1, 1] * r1 + R[j, 1, 2] * r2,
            R[j, 2, 0] * r0 + R[j, 2, 1] * r1 + R[j, 2, 2] * r2)


@njit(cache=True, nogil=True)
def deform(R, p, bone, weight, local, out):
    """Eq. 3: ``v_i = sum_k alpha_ik (R_j r_ik + p_j)`` into ``out`` (n, 3), m."""
    n, K = bone.shape
    for i in range(n):
        x0 = 0.0
        x1 = 0.0
        x2 = 0.0
        for k in range(K):
            a = weight[i, k]
            if a == 0.0:
                continue
            j = bone[i, k]
            o0, o1, o2 = _offset(R, j, local, i, k)
            x0 += a * (o0 + p[j, 0])
            x1 += a * (o1 + p[j, 1])
            x2 += a * (o2 + p[j, 2])
        out[i, 0] = x0
        out[i, 1] = x1
        out[i, 2] = x2


@njit(cache=True, nogil=True)
def vertex_velocity(R, w, pdot, bone, weight, local, i, out):
    """Eq. 8 for vertex ``i``: ``v_dot_i = sum_k alpha_ik (x_dot_j + omega_j x R_j r_ik)`` into ``out[i]``, m/s."""
    out[i, 0] = 0.0
    out[i, 1] = 0.0
    out[i, 2] = 0.0
    for k in range(bone.shape[1]):
        a = weight[i, k]
        if a == 0.0:
            continue
        j = bone[i, k]
        o0, o1, o2 = _offset(R, j, local, i, k)
        out[i, 0] += a * (pdot[j, 0] + w[j, 1] * o2 - w[j, 2] * o1)
        out[i, 1] += a * (pdot[j, 1] + w[j, 2] * o0 - w[j, 0] * o2)
        out[i, 2] += a * (pdot[j, 2] + w[j, 0] * o1 - w[j, 1] * o0)


@njit(cache=True, nogil=True)
def velocity(R, w, pdot, bone, weight, local, out):
    """Eq. 8 for every vertex into ``out`` (n, 3), m/s."""
    for i in range(bone.shape[0]):
        vertex_velocity(R, w, pdot, bone, weight, local, i, out)


@njit(cache=True, nogil=True)
def bone_wrenches(R, bone, weight, local, f, out):
    """``J_S^T f`` (eqs. 9, 12): per bone the wrench ``[moment about its origin; force]`` (world axes,
    N m, N) of the vertex forces ``f`` (n, 3) N, into ``out`` (m, 6)."""
    n, K = bone.shape
    for j in range(out.shape[0]):
        for c in range(6):
            out[j, c] = 0.0
    for i in range(n):
        f0, f1, f2 = f[i, 0], f[i, 1], f[i, 2]
        if f0 == 0.0 and f1 == 0.0 and f2 == 0.0:
            continue
        for k in range(K):
            a = weight[i, k]
            if a == 0.0:
                continue
            j = bone[i, k]
            o0, o1, o2 = _offset(R, j, local, i, k)
            out[j, 0] += a * (o1 * f2 - o2 * f1)
            out[j, 1] += a * (o2 * f0 - o0 * f2)
            out[j, 2] += a * (o0 * f1 - o1 * f0)
            out[j, 3] += a * f0
            out[j, 4] += a * f1
            out[j, 5] += a * f2


@njit(cache=True, nogil=True)
def jacobian(R, bone, weight, local, JB, out):
    """Eq. 11: ``J = J_S J_B`` for every vertex, ``out`` (n, 3, nv); ``JB`` (m, 6, nv) are the bones'
    ``[omega; x_dot]`` Jacobians (world axes, at each bone's origin)."""
    n, K = bone.shape
    nv = JB.shape[2]
    for i in range(n):
        for c in range(3):
            for d in range(nv):
                out[i, c, d] = 0.0
        for k in range(K):
            a = weight[i, k]
            if a == 0.0:
                continue
            j = bone[i, k]
            o0, o1, o2 = _offset(R, j, local, i, k)
            for d in range(nv):
                w0, w1, w2 = JB[j, 0, d], JB[j, 1, d], JB[j, 2, d]
                out[i, 0, d] += a * (JB[j, 3, d] + w1 * o2 - w2 * o1)
                out[i, 1, d] += a * (JB[j, 4, d] + w2 * o0 - w0 * o2)
                out[i, 2, d] += a * (JB[j, 5, d] + w0 * o1 - w1 * o0)


@njit(cache=True, nogil=True)
def bone_placements(oR, op, vel, nodes, fR, fp, velocities, R, p, w, pdot):
    """World placement ``R`` (m, 3, 3), ``p`` (m, 3) of bones whose frames sit at ``fR``, ``fp`` in tree
    ``nodes`` with world placements ``oR``, ``op``; if ``velocities``, their angular velocities ``w`` and origin
    velocities ``pdot`` (world axes) from the nodes' body twists ``vel`` (``[omega; v]`` at the node origin,
    node axes)."""
    for j in range(nodes.shape[0]):
        n = nodes[j]
        for a in range(3):
            s = op[n, a]
            for b in range(3):
                s += oR[n, a, b] * fp[j, b]
                acc = 0.0
                for c in range(3):
                    acc += oR[n, a, c] * fR[j, c, b]
                R[j, a, b] = acc
            p[j, a] = s
        if velocities:
            v = vel[n]
            l0 = v[3] + v[1] * fp[j, 2] - v[2] * fp[j, 1]
            l1 = v[4] + v[2] * fp[j, 0] - v[0] * fp[j, 2]
            l2 = v[5] + v[0] * fp[j, 1] - v[1] * fp[j, 0]
            for a in range(3):
                w[j, a] = oR[n, a, 0] * v[0] + oR[n, a, 1] * v[1] + oR[n, a, 2] * v[2]
                pdot[j, a] = oR[n, a, 0] * l0 + oR[n, a, 1] * l1 + oR[n, a, 2] * l2


@njit(cache=True, nogil=True)
def node_wrenches(p, nodes, bone_w, out):
    """Add each bone's wrench ``bone_w`` (m, 6) ``[moment about the bone origin p; force]`` to its tree node's
    row of ``out`` (nodes, 6) as the engine takes it: world axes, moment about the world origin."""
    for j in range(nodes.shape[0]):
        n = nodes[j]
        f0, f1, f2 = bone_w[j, 3], bone_w[j, 4], bone_w[j, 5]
        out[n, 0] += bone_w[j, 0] + p[j, 1] * f2 - p[j, 2] * f1
        out[n, 1] += bone_w[j, 1] + p[j, 2] * f0 - p[j, 0] * f2
        out[n, 2] += bone_w[j, 2] + p[j, 0] * f1 - p[j, 1] * f0
        out[n, 3] += f0
        out[n, 4] += f1
        out[n, 5] += f2

