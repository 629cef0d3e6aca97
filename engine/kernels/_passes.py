"""Recursive passes over the compiled tree: kinematics, RNEA, CRBA, rod forces.

Notation (Featherstone, the seed's eqs. 15-30): node ``n`` has placement
``oMn = (oR[n], op[n])`` in the world and ``pMn = (pR[n], pp[n])`` in its
parent; twists ``[omega; v]`` and wrenches ``[moment; force]`` are expressed in
the node frame at the node origin. ``S[n]`` (6 x ncol) and ``c[n]`` come from
``_joints.joint_motion``. Columns of nodes that share coordinates (the slices
of a rod segment) accumulate into the same entries of ``tau`` and ``M``.
"""
import numba as nb
import numpy as np

from ._joints import joint_motion

# Work arrays per model (see engine.data.Data): a namedtuple with fields
# pR, pp, oR, op, S, c, vel, acc, f, cm, ch, cI, JR, Jp, F, Fp


@nb.njit(cache=True, nogil=True, inline="always")
def _motion_to_child(R, p, wx, wy, wz, vx, vy, vz):
    """Twist of the parent transported to a child frame placed at ``(R, p)`` in the parent."""
    ux = vx + wy * p[2] - wz * p[1]
    uy = vy + wz * p[0] - wx * p[2]
    uz = vz + wx * p[1] - wy * p[0]
    return (R[0, 0] * wx + R[1, 0] * wy + R[2, 0] * wz,
            R[0, 1] * wx + R[1, 1] * wy + R[2, 1] * wz,
            R[0, 2] * wx + R[1, 2] * wy + R[2, 2] * wz,
            R[0, 0] * ux + R[1, 0] * uy + R[2, 0] * uz,
            R[0, 1] * ux + R[1, 1] * uy + R[2, 1] * uz,
            R[0, 2] * ux + R[1, 2] * uy + R[2, 2] * uz)


@nb.njit(cache=True, nogil=True, inline="always")
def _force_to_parent(R, p, nx, ny, nz, fx, fy, fz):
    """Wrench of a child frame placed at ``(R, p)`` expressed in the parent frame."""
    gx = R[0, 0] * fx + R[0, 1] * fy + R[0, 2] * fz
    gy = R[1, 0] * fx + R[1, 1] * fy + R[1, 2] * fz
    gz = R[2, 0] * fx + R[2, 1] * fy + R[2, 2] * fz
    mx = R[0, 0] * nx + R[0, 1] * ny + R[0, 2] * nz + p[1] * gz - p[2] * gy
    my = R[1, 0] * nx + R[1, 1] * ny + R[1, 2] * nz + p[2] * gx - p[0] * gz
    mz = R[2, 0] * nx + R[2, 1] * ny + R[2, 2] * nz + p[0] * gy - p[1] * gx
    return mx, my, mz, gx, gy, gz


@nb.njit(cache=True, nogil=True)
def kinematics(t, w, q, v, a, level, gravity):
    """Forward pass. ``level`` 0: placements and S; 1: + velocities; 2: + accelerations and c.

    With ``gravity`` the base acceleration is ``-g`` (gravity as a fictitious
    upward acceleration, as in RNEA); otherwise accelerations are true ones.
    """
    N = t.parent.shape[0]
    JR = w.JR
    Jp = w.Jp
    for n in range(N):
        joint_motion(t, n, q, v, JR, Jp, w.S[n], w.c[n], level >= 2)
        XR = t.Xp_R[n]
        Xp = t.Xp_p[n]
        pR = w.pR[n]
        pp = w.pp[n]
        for i in range(3):
            for j in range(3):
                pR[i, j] = XR[i, 0] * JR[0, j] + XR[i, 1] * JR[1, j] + XR[i, 2] * JR[2, j]
            pp[i] = Xp[i] + XR[i, 0] * Jp[0] + XR[i, 1] * Jp[1] + XR[i, 2] * Jp[2]
        par = t.parent[n]
        oR = w.oR[n]
        op = w.op[n]
        if par < 0:
            for i in range(3):
                op[i] = pp[i]
                for j in range(3):
                    oR[i, j] = pR[i, j]
        else:
            PR = w.oR[par]
            Pp = w.op[par]
            for i in range(3):
                op[i] = Pp[i] + PR[i, 0] * pp[0] + PR[i, 1] * pp[1] + PR[i, 2] * pp[2]
                for j in range(3):
                    oR[i, j] = PR[i, 0] * pR[0, j] + PR[i, 1] * pR[1, j] + PR[i, 2] * pR[2, j]
        if level < 1:
            continue
        # joint twist S v
        S = w.S[n]
        sv = w.Fp[0]
        for i in range(6):
            sv[i] = 0.0
        for j in range(t.ncol[n]):
            u = v[t.colv[n, j]]
            for i in range(6):
                sv[i] += S[i, j] * u
        vel = w.vel[n]
        if par < 0:
            for i in range(6):
                vel[i] = sv[i]
        else:
            pv = w.vel[par]
            r = _motion_to_child(pR, pp, pv[0], pv[1], pv[2], pv[3], pv[4], pv[5])
            for i in range(6):
                vel[i] = r[i] + sv[i]
        if level < 2:
            continue
        acc = w.acc[n]
        if par < 0:
            if gravity:
                r = _motion_to_child(pR, pp, 0.0, 0.0, 0.0, -t.gravity[0], -t.gravity[1], -t.gravity[2])
            else:
                r = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        else:
            pa = w.acc[par]
            r = _motion_to_child(pR, pp, pa[0], pa[1], pa[2], pa[3], pa[4], pa[5])
        cc = w.c[n]
        for i in range(6):
            acc[i] = r[i] + cc[i]
        for j in range(t.ncol[n]):
            u = a[t.colv[n, j]]
            for i in range(6):
                acc[i] += S[i, j] * u
        # + vel x (S v)
        acc[0] += vel[1] * sv[2] - vel[2] * sv[1]
        acc[1] += vel[2] * sv[0] - vel[0] * sv[2]
        acc[2] += vel[0] * sv[1] - vel[1] * sv[0]
        acc[3] += vel[1] * sv[5] - vel[2] * sv[4] + vel[4] * sv[2] - vel[5] * sv[1]
        acc[4] += vel[2] * sv[3] - vel[0] * sv[5] + vel[5] * sv[0] - vel[3] * sv[2]
        acc[5] += vel[0] * sv[4] - vel[1] * sv[3] + vel[3] * sv[1] - vel[4] * sv[0]


@nb.njit(cache=True, nogil=True, inline="always")
def _inertia_times(m, h, Io, wx, wy, wz, vx, vy, vz):
    """Spatial inertia (mass m, first moment h, rotational inertia Io about the origin) times a twist."""
    nx = Io[0, 0] * wx + Io[0, 1] * wy + Io[0, 2] * wz + h[1] * vz - h[2] * vy
    ny = Io[1, 0] * wx + Io[1, 1] * wy + Io[1, 2] * wz + h[2] * vx - h[0] * vz
    nz = Io[2, 0] * wx + Io[2, 1] * wy + Io[2, 2] * wz + h[0] * vy - h[1] * vx
    fx = m * vx - (h[1] * wz - h[2] * wy)
    fy = m * vy - (h[2] * wx - h[0] * wz)
    fz = m * vz - (h[0] * wy - h[1] * wx)
    return nx, ny, nz, fx, fy, fz


@nb.njit(cache=True, nogil=True)
def rnea_backward(t, w, fext, tau):
    """Backward pass of RNEA after ``kinematics(level=2)``.

    ``fext[n]`` is an external wrench on node ``n`` in the world frame about the
    world origin (``[moment; force]``), or an empty array. Writes ``tau`` (nv,).
    """
    N = t.parent.shape[0]
    for i in range(tau.shape[0]):
        tau[i] = 0.0
    has_ext = fext.shape[0] == N
    for n in range(N):
        f = w.f[n]
        if t.mass[n] > 0.0:
            vel = w.vel[n]
            acc = w.acc[n]
            h = t.mcom[n]
            Io = t.Io[n]
            m = t.mass[n]
            r = _inertia_times(m, h, Io, acc[0], acc[1], acc[2], acc[3], acc[4], acc[5])
            g = _inertia_times(m, h, Io, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])
            # vel x* g
            f[0] = r[0] + vel[1] * g[2] - vel[2] * g[1] + vel[4] * g[5] - vel[5] * g[4]
            f[1] = r[1] + vel[2] * g[0] - vel[0] * g[2] + vel[5] * g[3] - vel[3] * g[5]
            f[2] = r[2] + vel[0] * g[1] - vel[1] * g[0] + vel[3] * g[4] - vel[4] * g[3]
            f[3] = r[3] + vel[1] * g[5] - vel[2] * g[4]
            f[4] = r[4] + vel[2] * g[3] - vel[0] * g[5]
            f[5] = r[5] + vel[0] * g[4] - vel[1] * g[3]
        else:
            for i in range(6):
                f[i] = 0.0
        if has_ext:
            e = fext[n]
            if e[0] != 0.0 or e[1] != 0.0 or e[2] != 0.0 or e[3] != 0.0 or e[4] != 0.0 or e[5] != 0.0:
                # world wrench about the world origin -> node frame about the node origin
                R = w.oR[n]
                p = w.op[n]
                mx = e[0] - (p[1] * e[5] - p[2] * e[4])
                my = e[1] - (p[2] * e[3] - p[0] * e[5])
                mz = e[2] - (p[0] * e[4] - p[1] * e[3])
                for i in range(3):
                    f[i] -= R[0, i] * mx + R[1, i] * my + R[2, i] * mz
                    f[3 + i] -= R[0, i] * e[3] + R[1, i] * e[4] + R[2, i] * e[5]
    for n in range(N - 1, -1, -1):
        if not t.dyn[n] and not has_ext:
            continue
        f = w.f[n]
        S = w.S[n]
        for j in range(t.ncol[n]):
            s = 0.0
            for i in range(6):
                s += S[i, j] * f[i]
            tau[t.colv[n, j]] += s
        par = t.parent[n]
        if par >= 0:
            r = _force_to_parent(w.pR[n], w.pp[n], f[0], f[1], f[2], f[3], f[4], f[5])
            fp = w.f[par]
            for i in range(6):
                fp[i] += r[i]


@nb.njit(cache=True, nogil=True)
def crba(t, w, M):
    """Composite-rigid-body algorithm after ``kinematics(level=0)``: fills ``M`` (nv x nv).

    ``M`` is the seed's inertia matrix (eqs. 29-30, 49), symmetric positive definite.
    """
    N = t.parent.shape[0]
    nv = M.shape[0]
    for i in range(nv):
        for j in range(nv):
            M[i, j] = 0.0
    for n in range(N):
        w.cm[n] = t.mass[n]
        for i in range(3):
            w.ch[n, i] = t.mcom[n, i]
            for j in range(3):
                w.cI[n, i, j] = t.Io[n, i, j]
    F = w.F
    for n in range(N - 1, -1, -1):
        if not t.dyn[n]:
            continue
        m = w.cm[n]
        h = w.ch[n]
        Io = w.cI[n]
        S = w.S[n]
        nc = t.ncol[n]
        for j in range(nc):
            r = _inertia_times(m, h, Io, S[0, j], S[1, j], S[2, j], S[3, j], S[4, j], S[5, j])
            for i in range(6):
                F[i, j] = r[i]
        # diagonal block
        for j in range(nc):
            vj = t.colv[n, j]
            for k in range(nc):
                s = 0.0
                for i in range(6):
                    s += S[i, k] * F[i, j]
                M[t.colv[n, k], vj] += s
        # off-diagonal blocks with every ancestor
        a = n
        while t.parent[a] >= 0:
            R = w.pR[a]
            p = w.pp[a]
            for j in range(nc):
                r = _force_to_parent(R, p, F[0, j], F[1, j], F[2, j], F[3, j], F[4, j], F[5, j])
                for i in range(6):
                    F[i, j] = r[i]
            a = t.parent[a]
            Sa = w.S[a]
            for j in range(nc):
                vj = t.colv[n, j]
                for k in range(t.ncol[a]):
                    s = 0.0
                    for i in range(6):
                        s += Sa[i, k] * F[i, j]
                    vk = t.colv[a, k]
                    M[vk, vj] += s
                    M[vj, vk] += s
        # add this composite inertia to the parent's
        par = t.parent[n]
        if par >= 0:
            _add_inertia_to_parent(w.pR[n], w.pp[n], m, h, Io, w, par)


@nb.njit(cache=True, nogil=True)
def _add_inertia_to_parent(R, p, m, h, Io, w, par):
    """Composite inertia: add (m, h, Io) given in a child frame placed at (R, p) to node ``par``."""
    g0 = R[0, 0] * h[0] + R[0, 1] * h[1] + R[0, 2] * h[2]
    g1 = R[1, 0] * h[0] + R[1, 1] * h[1] + R[1, 2] * h[2]
    g2 = R[2, 0] * h[0] + R[2, 1] * h[1] + R[2, 2] * h[2]
    g = (g0, g1, g2)
    gp = g0 * p[0] + g1 * p[1] + g2 * p[2]
    pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2]
    tmp = w.JR
    for i in range(3):
        for j in range(3):
            tmp[i, j] = Io[i, 0] * R[j, 0] + Io[i, 1] * R[j, 1] + Io[i, 2] * R[j, 2]   # Io R^T
    cI = w.cI[par]
    for i in range(3):
        for j in range(3):
            rot = R[i, 0] * tmp[0, j] + R[i, 1] * tmp[1, j] + R[i, 2] * tmp[2, j]
            extra = -(p[i] * g[j] + g[i] * p[j]) - m * p[i] * p[j]
            if i == j:
                extra += 2.0 * gp + m * pp
            cI[i, j] += rot + extra
    w.cm[par] += m
    for i in range(3):
        w.ch[par, i] += g[i] + m * p[i]


@nb.njit(cache=True, nogil=True)
def rod_forces(t, q, v, tau):
    """Add the rods' passive generalized forces ``K (q_rest - q) - D v`` (seed eq. 26) to ``tau``."""
    for s in range(t.seg_rest.shape[0]):
        for m in range(6):
            qi = t.seg_q[s, m]
            if qi < 0:
                continue
            vi = t.seg_v[s, m]
            tau[vi] += -t.seg_k[s, m] * (q[qi] - t.seg_rest[s, m]) - t.seg_d[s, m] * v[vi]


@nb.njit(cache=True, nogil=True)
def frame_placement(t, w, k, R, p):
    """World placement of attached frame ``k`` after ``kinematics``: into ``R`` (3x3), ``p`` (3,)."""
    n = t.frame_node[k]
    fR = t.frame_R[k]
    fp = t.frame_p[k]
    if n < 0:
        for i in range(3):
            p[i] = fp[i]
            for j in range(3):
                R[i, j] = fR[i, j]
        return
    oR = w.oR[n]
    op = w.op[n]
    for i in range(3):
        p[i] = op[i] + oR[i, 0] * fp[0] + oR[i, 1] * fp[1] + oR[i, 2] * fp[2]
        for j in range(3):
            R[i, j] = oR[i, 0] * fR[0, j] + oR[i, 1] * fR[1, j] + oR[i, 2] * fR[2, j]


@nb.njit(cache=True, nogil=True)
def point_jacobian(t, w, node, x, J):
    """Add into ``J`` (3 x nv) the world-frame Jacobian of the world point ``x`` moving with ``node``.

    Columns come from ``node`` and its ancestors: ``v_point = sum (v_w + omega_w x x)``,
    with the columns of S expressed in the world frame.
    """
    a = node
    while a >= 0:
        S = w.S[a]
        R = w.oR[a]
        o = w.op[a]
        rx = x[0] - o[0]
        ry = x[1] - o[1]
        rz = x[2] - o[2]
        for j in range(t.ncol[a]):
            ox = R[0, 0] * S[0, j] + R[0, 1] * S[1, j] + R[0, 2] * S[2, j]
            oy = R[1, 0] * S[0, j] + R[1, 1] * S[1, j] + R[1, 2] * S[2, j]
            oz = R[2, 0] * S[0, j] + R[2, 1] * S[1, j] + R[2, 2] * S[2, j]
            vx = R[0, 0] * S[3, j] + R[0, 1] * S[4, j] + R[0, 2] * S[5, j]
            vy = R[1, 0] * S[3, j] + R[1, 1] * S[4, j] + R[1, 2] * S[5, j]
            vz = R[2, 0] * S[3, j] + R[2, 1] * S[4, j] + R[2, 2] * S[5, j]
            col = t.colv[a, j]
            J[0, col] += vx + oy * rz - oz * ry
            J[1, col] += vy + oz * rx - ox * rz
            J[2, col] += vz + ox * ry - oy * rx
        a = t.parent[a]


@nb.njit(cache=True, nogil=True)
def frame_jacobian(t, w, k, J):
    """Write the 6 x nv Jacobian of attached frame ``k`` in the world-aligned frame at its origin.

    Rows ``[omega; v_origin]`` in world axes (Pinocchio's LOCAL_WORLD_ALIGNED, reordered).
    """
    for i in range(6):
        for j in range(J.shape[1]):
            J[i, j] = 0.0
    n = t.frame_node[k]
    if n < 0:
        return
    R = w.JR
    x = w.Jp
    frame_placement(t, w, k, R, x)
    a = n
    while a >= 0:
        S = w.S[a]
        oR = w.oR[a]
        o = w.op[a]
        rx = x[0] - o[0]
        ry = x[1] - o[1]
        rz = x[2] - o[2]
        for j in range(t.ncol[a]):
            ox = oR[0, 0] * S[0, j] + oR[0, 1] * S[1, j] + oR[0, 2] * S[2, j]
            oy = oR[1, 0] * S[0, j] + oR[1, 1] * S[1, j] + oR[1, 2] * S[2, j]
            oz = oR[2, 0] * S[0, j] + oR[2, 1] * S[1, j] + oR[2, 2] * S[2, j]
            vx = oR[0, 0] * S[3, j] + oR[0, 1] * S[4, j] + oR[0, 2] * S[5, j]
            vy = oR[1, 0] * S[3, j] + oR[1, 1] * S[4, j] + oR[1, 2] * S[5, j]
            vz = oR[2, 0] * S[3, j] + oR[2, 1] * S[4, j] + oR[2, 2] * S[5, j]
            col = t.colv[a, j]
            J[0, col] += ox
            J[1, col] += oy
            J[2, col] += oz
            J[3, col] += vx + oy * rz - oz * ry
            J[4, col] += vy + oz * rx - ox * rz
            J[5, col] += vz + ox * ry - oy * rx
        a = t.parent[a]


@nb.njit(cache=True, nogil=True)
def frame_classical_acceleration(t, w, k, out):
    """Classical acceleration (world axes) of frame ``k``'s origin after ``kinematics(level=2)``.

    With ``a = 0`` and gravity off this is the point's J-dot-psi term.
    Returns ``[alpha; a_origin]`` in world axes.
    """
    n = t.frame_node[k]
    fp = t.frame_p[k]
    vel = w.vel[n]
    acc = w.acc[n]
    # point velocity and spatial acceleration at the frame origin, node axes
    wx, wy, wz = vel[0], vel[1], vel[2]
    vx = vel[3] + wy * fp[2] - wz * fp[1]
    vy = vel[4] + wz * fp[0] - wx * fp[2]
    vz = vel[5] + wx * fp[1] - wy * fp[0]
    ax = acc[3] + acc[1] * fp[2] - acc[2] * fp[1] + wy * vz - wz * vy
    ay = acc[4] + acc[2] * fp[0] - acc[0] * fp[2] + wz * vx - wx * vz
    az = acc[5] + acc[0] * fp[1] - acc[1] * fp[0] + wx * vy - wy * vx
    R = w.oR[n]
    for i in range(3):
        out[i] = R[i, 0] * acc[0] + R[i, 1] * acc[1] + R[i, 2] * acc[2]
        out[3 + i] = R[i, 0] * ax + R[i, 1] * ay + R[i, 2] * az


def work_arrays(n_nodes: int):
    """Allocate the work arrays the passes use (see ``engine.data.Data``)."""
    N = max(n_nodes, 1)
    return dict(pR=np.zeros((N, 3, 3)), pp=np.zeros((N, 3)), oR=np.zeros((N, 3, 3)), op=np.zeros((N, 3)),
                S=np.zeros((N, 6, 6)), c=np.zeros((N, 6)), vel=np.zeros((N, 6)), acc=np.zeros((N, 6)),
                f=np.zeros((N, 6)), cm=np.zeros(N), ch=np.zeros((N, 3)), cI=np.zeros((N, 3, 3)),
                JR=np.zeros((3, 3)), Jp=np.zeros(3), F=np.zeros((6, 6)), Fp=np.zeros((2, 6)))
