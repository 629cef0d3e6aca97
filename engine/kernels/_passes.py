"""Recursive passes over the compiled tree: kinematics, RNEA, CRBA, rod forces, frames.

Notation (Featherstone, the seed's eqs. 15-30): node ``n`` has placement
``oMn = (ws[n].oR, ws[n].op)`` in the world and ``pMn = (ws[n].pR, ws[n].pp)`` in
its parent; twists ``[omega; v]`` and wrenches ``[moment; force]`` are expressed
in the node frame at the node origin. ``ws[n].S`` (6 x ncol) and ``ws[n].c`` come
from ``_joints.joint_motion``. Columns of nodes that share coordinates (the
slices of a rod segment) accumulate into the same entries of ``tau`` and ``M``.

Arguments are record arrays (``kernels._layout``): ``nodes``, ``segs``,
``frames``, ``funcs`` plus ``fpool``, the workspace ``ws`` and scratch ``scr``.
"""
import numba as nb

from ._joints import FREE, PRISMATIC, REVOLUTE, SPHERICAL, joint_motion


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
def kinematics(nodes, segs, funcs, fpool, gravity, ws, scr, q, v, a, level, use_gravity, world):
    """Forward pass. ``level`` 0: placements and S; 1: + velocities; 2: + accelerations and c.

    With ``use_gravity`` the base acceleration is ``-g`` (gravity as a fictitious
    upward acceleration, as in RNEA); otherwise accelerations are true ones.
    ``world`` False skips the world placements (CRBA and RNEA without external
    loads only need placements relative to the parent).

    Numba compiles this pass once per argument types, and a kernel calling it with constants ``0, False`` would type
    them as literals (a compilation of its own, about 2 s): kernels pass ``np.int64(0), np.bool_(False),
    np.bool_(True)``, the types of a call from Python (``engine.algorithms.forward_kinematics``), so that one
    compilation serves both. ``world`` has no default: an omitted argument is a type of its own (a third
    compilation).
    """
    sc = scr[0]
    JR = sc.JR
    Jp = sc.Jp
    sv = sc.sv
    for n in range(nodes.shape[0]):
        nd = nodes[n]
        wn = ws[n]
        S = wn.S
        joint_motion(nd, segs, funcs, fpool, sc, q, v, JR, Jp, S, wn.c, level >= 2)
        XR = nd.Xp_R
        Xp = nd.Xp_p
        pR = wn.pR
        pp = wn.pp
        for i in range(3):
            for j in range(3):
                pR[i, j] = XR[i, 0] * JR[0, j] + XR[i, 1] * JR[1, j] + XR[i, 2] * JR[2, j]
            pp[i] = Xp[i] + XR[i, 0] * Jp[0] + XR[i, 1] * Jp[1] + XR[i, 2] * Jp[2]
        par = nd.parent
        oR = wn.oR
        op = wn.op
        if not world:
            pass
        elif par < 0:
            for i in range(3):
                op[i] = pp[i]
                for j in range(3):
                    oR[i, j] = pR[i, j]
        else:
            PR = ws[par].oR
            Pp = ws[par].op
            for i in range(3):
                op[i] = Pp[i] + PR[i, 0] * pp[0] + PR[i, 1] * pp[1] + PR[i, 2] * pp[2]
                for j in range(3):
                    oR[i, j] = PR[i, 0] * pR[0, j] + PR[i, 1] * pR[1, j] + PR[i, 2] * pR[2, j]
        if level < 1:
            continue
        for i in range(6):
            sv[i] = 0.0
        for j in range(nd.ncol):
            u = v[nd.colv[j]]
            for i in range(6):
                sv[i] += S[i, j] * u
        vel = wn.vel
        if par < 0:
            for i in range(6):
                vel[i] = sv[i]
        else:
            pv = ws[par].vel
            r = _motion_to_child(pR, pp, pv[0], pv[1], pv[2], pv[3], pv[4], pv[5])
            for i in range(6):
                vel[i] = r[i] + sv[i]
        if level < 2:
            continue
        acc = wn.acc
        if par < 0:
            if use_gravity:
                r = _motion_to_child(pR, pp, 0.0, 0.0, 0.0, -gravity[0], -gravity[1], -gravity[2])
            else:
                r = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        else:
            pa = ws[par].acc
            r = _motion_to_child(pR, pp, pa[0], pa[1], pa[2], pa[3], pa[4], pa[5])
        cc = wn.c
        for i in range(6):
            acc[i] = r[i] + cc[i]
        for j in range(nd.ncol):
            u = a[nd.colv[j]]
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
def rnea_backward(nodes, ws, fext, tau):
    """Backward pass of RNEA after ``kinematics(level=2)``.

    ``fext[n]`` is an external wrench on node ``n`` in the world frame about the
    world origin (``[moment; force]``), or an empty (0, 6) array. Writes ``tau`` (nv,).
    """
    N = nodes.shape[0]
    for i in range(tau.shape[0]):
        tau[i] = 0.0
    has_ext = fext.shape[0] == N
    for n in range(N):
        nd = nodes[n]
        wn = ws[n]
        f = wn.f
        if nd.mass > 0.0:
            vel = wn.vel
            acc = wn.acc
            r = _inertia_times(nd.mass, nd.mcom, nd.Io, acc[0], acc[1], acc[2], acc[3], acc[4], acc[5])
            g = _inertia_times(nd.mass, nd.mcom, nd.Io, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])
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
                R = wn.oR
                p = wn.op
                mx = e[0] - (p[1] * e[5] - p[2] * e[4])
                my = e[1] - (p[2] * e[3] - p[0] * e[5])
                mz = e[2] - (p[0] * e[4] - p[1] * e[3])
                for i in range(3):
                    f[i] -= R[0, i] * mx + R[1, i] * my + R[2, i] * mz
                    f[3 + i] -= R[0, i] * e[3] + R[1, i] * e[4] + R[2, i] * e[5]
    for n in range(N - 1, -1, -1):
        nd = nodes[n]
        if nd.dyn == 0 and not has_ext:
            continue
        wn = ws[n]
        f = wn.f
        S = wn.S
        for j in range(nd.ncol):
            s = 0.0
            for i in range(6):
                s += S[i, j] * f[i]
            tau[nd.colv[j]] += s
        par = nd.parent
        if par >= 0:
            r = _force_to_parent(wn.pR, wn.pp, f[0], f[1], f[2], f[3], f[4], f[5])
            fp = ws[par].f
            for i in range(6):
                fp[i] += r[i]


@nb.njit(cache=True, nogil=True, inline="always")
def _s_dot(jt, S, k, F, j):
    """``S[:, k] . F[:, j]`` using the structure of S (identity columns for free and spherical joints)."""
    if jt == FREE:
        return F[k, j]
    if jt == SPHERICAL:
        return F[k, j]
    if jt == REVOLUTE:
        return S[0, k] * F[0, j] + S[1, k] * F[1, j] + S[2, k] * F[2, j]
    if jt == PRISMATIC:
        return S[3, k] * F[3, j] + S[4, k] * F[4, j] + S[5, k] * F[5, j]
    s = 0.0
    for i in range(6):
        s += S[i, k] * F[i, j]
    return s


@nb.njit(cache=True, nogil=True)
def crba(nodes, ws, scr, M):
    """Composite-rigid-body algorithm after ``kinematics(level=0)``: fills ``M`` (nv x nv).

    ``M`` is the seed's inertia matrix (eqs. 29-30, 49), symmetric positive definite.
    """
    N = nodes.shape[0]
    nv = M.shape[0]
    for i in range(nv):
        for j in range(nv):
            M[i, j] = 0.0
    for n in range(N):
        nd = nodes[n]
        wn = ws[n]
        wn.cm = nd.mass
        for i in range(3):
            wn.ch[i] = nd.mcom[i]
            for j in range(3):
                wn.cI[i, j] = nd.Io[i, j]
    F = scr[0].F
    tmp = scr[0].JR
    for n in range(N - 1, -1, -1):
        nd = nodes[n]
        if nd.dyn == 0:
            continue
        wn = ws[n]
        m = wn.cm
        h = wn.ch
        Io = wn.cI
        S = wn.S
        nc = nd.ncol
        for j in range(nc):
            r = _inertia_times(m, h, Io, S[0, j], S[1, j], S[2, j], S[3, j], S[4, j], S[5, j])
            for i in range(6):
                F[i, j] = r[i]
        # diagonal block
        jt = nd.jtype
        for j in range(nc):
            vj = nd.colv[j]
            for k in range(nc):
                M[nd.colv[k], vj] += _s_dot(jt, S, k, F, j)
        # off-diagonal blocks with every ancestor
        a = n
        while nodes[a].parent >= 0 and nc > 0:
            wa = ws[a]
            for j in range(nc):
                r = _force_to_parent(wa.pR, wa.pp, F[0, j], F[1, j], F[2, j], F[3, j], F[4, j], F[5, j])
                for i in range(6):
                    F[i, j] = r[i]
            a = nodes[a].parent
            na = nodes[a]
            Sa = ws[a].S
            ja = na.jtype
            for j in range(nc):
                vj = nd.colv[j]
                for k in range(na.ncol):
                    s = _s_dot(ja, Sa, k, F, j)
                    vk = na.colv[k]
                    M[vk, vj] += s
                    M[vj, vk] += s
        # add this composite inertia to the parent's
        par = nd.parent
        if par >= 0:
            _add_inertia_to_parent(wn.pR, wn.pp, m, h, Io, ws[par], tmp)


@nb.njit(cache=True, nogil=True, inline="always")
def _add_inertia_to_parent(R, p, m, h, Io, wp, tmp):
    """Composite inertia: add (m, h, Io) given in a child frame placed at (R, p) to the parent record ``wp``."""
    g0 = R[0, 0] * h[0] + R[0, 1] * h[1] + R[0, 2] * h[2]
    g1 = R[1, 0] * h[0] + R[1, 1] * h[1] + R[1, 2] * h[2]
    g2 = R[2, 0] * h[0] + R[2, 1] * h[1] + R[2, 2] * h[2]
    gp = g0 * p[0] + g1 * p[1] + g2 * p[2]
    pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2]
    for i in range(3):
        for j in range(3):
            tmp[i, j] = Io[i, 0] * R[j, 0] + Io[i, 1] * R[j, 1] + Io[i, 2] * R[j, 2]   # Io R^T
    cI = wp.cI
    for i in range(3):
        gi = g0 if i == 0 else (g1 if i == 1 else g2)
        for j in range(3):
            gj = g0 if j == 0 else (g1 if j == 1 else g2)
            rot = R[i, 0] * tmp[0, j] + R[i, 1] * tmp[1, j] + R[i, 2] * tmp[2, j]
            extra = -(p[i] * gj + gi * p[j]) - m * p[i] * p[j]
            if i == j:
                extra += 2.0 * gp + m * pp
            cI[i, j] += rot + extra
    wp.cm += m
    wp.ch[0] += g0 + m * p[0]
    wp.ch[1] += g1 + m * p[1]
    wp.ch[2] += g2 + m * p[2]


@nb.njit(cache=True, nogil=True)
def rod_forces(segs, q, v, tau):
    """Add the rods' passive generalized forces ``K (q_rest - q) - D v`` (seed eq. 26) to ``tau``."""
    for s in range(segs.shape[0]):
        sg = segs[s]
        for m in range(6):
            qi = sg.q[m]
            if qi < 0:
                continue
            vi = sg.v[m]
            tau[vi] += -sg.k[m] * (q[qi] - sg.rest[m]) - sg.d[m] * v[vi]


@nb.njit(cache=True, nogil=True)
def frame_placement(frames, ws, k, R, p):
    """World placement of attached frame ``k`` after ``kinematics``: into ``R`` (3x3), ``p`` (3,)."""
    fr = frames[k]
    n = fr.node
    fR = fr.R
    fp = fr.p
    if n < 0:
        for i in range(3):
            p[i] = fp[i]
            for j in range(3):
                R[i, j] = fR[i, j]
        return
    oR = ws[n].oR
    op = ws[n].op
    for i in range(3):
        p[i] = op[i] + oR[i, 0] * fp[0] + oR[i, 1] * fp[1] + oR[i, 2] * fp[2]
        for j in range(3):
            R[i, j] = oR[i, 0] * fR[0, j] + oR[i, 1] * fR[1, j] + oR[i, 2] * fR[2, j]


@nb.njit(cache=True, nogil=True)
def frame_jacobian(nodes, frames, ws, scr, k, J):
    """Write the 6 x nv Jacobian of attached frame ``k`` in the world-aligned frame at its origin.

    Rows ``[omega; v_origin]`` in world axes (Pinocchio's LOCAL_WORLD_ALIGNED, reordered).
    Columns come from the frame's node and its ancestors, with S in world axes.
    """
    for i in range(6):
        for j in range(J.shape[1]):
            J[i, j] = 0.0
    n = frames[k].node
    if n < 0:
        return
    R = scr[0].XR[:]            # plain views of the scratch fields: frame_placement is compiled for plain arrays
    x = scr[0].Xp[:]
    frame_placement(frames, ws, k, R, x)
    a = n
    while a >= 0:
        na = nodes[a]
        wa = ws[a]
        S = wa.S
        oR = wa.oR
        o = wa.op
        rx = x[0] - o[0]
        ry = x[1] - o[1]
        rz = x[2] - o[2]
        for j in range(na.ncol):
            ox = oR[0, 0] * S[0, j] + oR[0, 1] * S[1, j] + oR[0, 2] * S[2, j]
            oy = oR[1, 0] * S[0, j] + oR[1, 1] * S[1, j] + oR[1, 2] * S[2, j]
            oz = oR[2, 0] * S[0, j] + oR[2, 1] * S[1, j] + oR[2, 2] * S[2, j]
            vx = oR[0, 0] * S[3, j] + oR[0, 1] * S[4, j] + oR[0, 2] * S[5, j]
            vy = oR[1, 0] * S[3, j] + oR[1, 1] * S[4, j] + oR[1, 2] * S[5, j]
            vz = oR[2, 0] * S[3, j] + oR[2, 1] * S[4, j] + oR[2, 2] * S[5, j]
            col = na.colv[j]
            J[0, col] += ox
            J[1, col] += oy
            J[2, col] += oz
            J[3, col] += vx + oy * rz - oz * ry
            J[4, col] += vy + oz * rx - ox * rz
            J[5, col] += vz + ox * ry - oy * rx
        a = na.parent


@nb.njit(cache=True, nogil=True)
def frame_classical_acceleration(frames, ws, k, out):
    """Classical acceleration (world axes) of frame ``k``'s origin after ``kinematics(level=2)``.

    With ``a = 0`` and gravity off this is the point's J-dot-psi term.
    Returns ``[alpha; a_origin]`` in world axes.
    """
    fr = frames[k]
    fp = fr.p
    wn = ws[fr.node]
    vel = wn.vel
    acc = wn.acc
    wx, wy, wz = vel[0], vel[1], vel[2]
    vx = vel[3] + wy * fp[2] - wz * fp[1]
    vy = vel[4] + wz * fp[0] - wx * fp[2]
    vz = vel[5] + wx * fp[1] - wy * fp[0]
    ax = acc[3] + acc[1] * fp[2] - acc[2] * fp[1] + wy * vz - wz * vy
    ay = acc[4] + acc[2] * fp[0] - acc[0] * fp[2] + wz * vx - wx * vz
    az = acc[5] + acc[0] * fp[1] - acc[1] * fp[0] + wx * vy - wy * vx
    R = wn.oR
    for i in range(3):
        out[i] = R[i, 0] * acc[0] + R[i, 1] * acc[1] + R[i, 2] * acc[2]
        out[3 + i] = R[i, 0] * ax + R[i, 1] * ay + R[i, 2] * az


@nb.njit(cache=True, nogil=True)
def momentum(nodes, ws, out):
    """Total spatial momentum ``[angular about the world origin; linear]`` in world axes after level-1 kinematics."""
    for i in range(6):
        out[i] = 0.0
    for n in range(nodes.shape[0]):
        nd = nodes[n]
        if nd.mass == 0.0:
            continue
        wn = ws[n]
        vel = wn.vel
        r = _inertia_times(nd.mass, nd.mcom, nd.Io, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])
        R = wn.oR
        p = wn.op
        Lx = R[0, 0] * r[0] + R[0, 1] * r[1] + R[0, 2] * r[2]
        Ly = R[1, 0] * r[0] + R[1, 1] * r[1] + R[1, 2] * r[2]
        Lz = R[2, 0] * r[0] + R[2, 1] * r[1] + R[2, 2] * r[2]
        Px = R[0, 0] * r[3] + R[0, 1] * r[4] + R[0, 2] * r[5]
        Py = R[1, 0] * r[3] + R[1, 1] * r[4] + R[1, 2] * r[5]
        Pz = R[2, 0] * r[3] + R[2, 1] * r[4] + R[2, 2] * r[5]
        out[0] += Lx + p[1] * Pz - p[2] * Py
        out[1] += Ly + p[2] * Px - p[0] * Pz
        out[2] += Lz + p[0] * Py - p[1] * Px
        out[3] += Px
        out[4] += Py
        out[5] += Pz
