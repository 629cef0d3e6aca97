"""Joint motion of one tree node: placement X_J(q), motion subspace S(q), bias S-dot q-dot.

Every node of the compiled tree is moved relative to its parent-side joint
frame by one of these joint types. With ``v`` the generalized velocity (the
seed's psi), the node's body twist relative to that frame is ``S v`` and its
relative acceleration is ``S a + c`` with ``c = (dS/dt) v`` (the joint part of
the J-dot-psi term). Twists are ``[angular; linear]`` in the node frame.

Types
-----
WELD        no motion.
REVOLUTE    rotation ``q`` about a unit axis of the joint frame.
PRISMATIC   translation ``q`` along a unit axis.
SPHERICAL   quaternion ``(x, y, z, w)`` in q; v is the body angular velocity.
FREE        position (parent frame) and quaternion in q; v is the body twist.
GENERAL     OpenSim's SpatialTransform: ``R = Rot(a0,f0) Rot(a1,f1) Rot(a2,f2)``
            (body-fixed sequence), then a translation ``sum f_{3+i} t_i`` in the
            parent frame; each ``f_k`` is a function chain of one coordinate.
PCS         a point at arclength ``x`` inside a Piecewise Constant Strain rod
            segment: ``X_J = exp(x [xi x])`` (seed eq. 10) with the segment's 6D
            strain ``xi = (kappa, epsilon)`` whose free modes are coordinates and
            fixed modes keep their rest value. ``S`` is the seed's
            ``A^-1 T B`` of eqs. 17-19 written in closed form through the SO(3)
            Jacobians, and ``c`` its exact time derivative.

``nd`` is a NODE record, ``segs`` SEGMENT records, ``funcs``/``fpool`` the
function pool and ``sc`` a SCRATCH record (``kernels._layout``).
"""
import numba as nb

from ._functions import eval_chain
from ._so3 import quat_to_rot, rodrigues, so3_coefficients

WELD = 0
REVOLUTE = 1
PRISMATIC = 2
SPHERICAL = 3
FREE = 4
GENERAL = 5
PCS = 6


@nb.njit(cache=True, nogil=True, inline="always")
def _cross(ax, ay, az, bx, by, bz):
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@nb.njit(cache=True, nogil=True, inline="always")
def matmul3(A, B, out):
    """``out = A @ B`` for 3x3 matrices (no BLAS call for tiny products)."""
    for i in range(3):
        for j in range(3):
            out[i, j] = A[i, 0] * B[0, j] + A[i, 1] * B[1, j] + A[i, 2] * B[2, j]


@nb.njit(cache=True, nogil=True, inline="always")
def joint_motion(nd, segs, funcs, fpool, sc, q, v, R, p, S, c, with_bias):
    """Fill ``R`` (3x3), ``p`` (3,), ``S[:, :ncol]`` (6 x ncol) and, if ``with_bias``, ``c`` (6,).

    ``R, p`` place the node frame in its joint's parent-side frame. ``S`` and
    ``c`` are expressed in the node frame. ``v`` is only read if ``with_bias``.
    Only general and PCS joints receive the function pool, segments and scratch:
    handing arrays to a numba call costs reference counting, so the common
    joints get none.
    """
    jt = nd.jtype
    if jt == GENERAL:
        _general(nd, funcs, fpool, sc, q, v, R, p, S, c, with_bias)
    elif jt == PCS:
        _pcs(nd, segs, sc, q, v, R, p, S, c, with_bias)
    else:
        _simple(nd, q, R, p, S, c)


@nb.njit(cache=True, nogil=True)
def _simple(nd, q, R, p, S, c):
    """Weld, revolute, prismatic, spherical and free joints (their bias ``c`` is zero)."""
    jt = nd.jtype
    for i in range(6):
        c[i] = 0.0
    if jt == REVOLUTE:
        ux = nd.axis[0]
        uy = nd.axis[1]
        uz = nd.axis[2]
        rodrigues(ux, uy, uz, q[nd.colq[0]], R)
        p[0] = 0.0
        p[1] = 0.0
        p[2] = 0.0
        S[0, 0] = ux
        S[1, 0] = uy
        S[2, 0] = uz
        S[3, 0] = 0.0
        S[4, 0] = 0.0
        S[5, 0] = 0.0
    elif jt == PRISMATIC:
        x = q[nd.colq[0]]
        for i in range(3):
            for j in range(3):
                R[i, j] = 1.0 if i == j else 0.0
            p[i] = nd.axis[i] * x
            S[i, 0] = 0.0
            S[3 + i, 0] = nd.axis[i]
    elif jt == FREE:
        i0 = nd.qidx
        p[0] = q[i0]
        p[1] = q[i0 + 1]
        p[2] = q[i0 + 2]
        quat_to_rot(q[i0 + 3], q[i0 + 4], q[i0 + 5], q[i0 + 6], R)
        for i in range(6):
            for j in range(6):
                S[i, j] = 1.0 if i == j else 0.0
    elif jt == SPHERICAL:
        i0 = nd.qidx
        p[0] = 0.0
        p[1] = 0.0
        p[2] = 0.0
        quat_to_rot(q[i0], q[i0 + 1], q[i0 + 2], q[i0 + 3], R)
        for i in range(6):
            for j in range(3):
                S[i, j] = 1.0 if i == j else 0.0
    else:  # WELD
        for i in range(3):
            for j in range(3):
                R[i, j] = 1.0 if i == j else 0.0
            p[i] = 0.0


@nb.njit(cache=True, nogil=True)
def _general(nd, funcs, fpool, sc, q, v, R, p, S, c, with_bias):
    for i in range(6):
        c[i] = 0.0
    f = sc.f
    df = sc.df
    ddf = sc.ddf
    rate = sc.rate    # d f_k / dt
    rate2 = sc.rate2  # d2 f_k / dt2 at zero coordinate acceleration
    for k in range(6):
        rate[k] = 0.0
        rate2[k] = 0.0
        col = nd.gen_col[k]
        x = q[nd.colq[col]] if col >= 0 else 0.0
        f[k], df[k], ddf[k] = eval_chain(nd.gen_chain[k], nd.gen_nchain[k], funcs, fpool, x)
        if col < 0:
            df[k] = 0.0
            ddf[k] = 0.0
        elif with_bias:
            u = v[nd.colv[col]]
            rate[k] = df[k] * u
            rate2[k] = ddf[k] * u * u
    A = nd.gen_axis
    R1 = sc.R1
    R2 = sc.R2
    R12 = sc.R12
    rodrigues(A[0, 0], A[0, 1], A[0, 2], f[0], sc.R0)
    rodrigues(A[1, 0], A[1, 1], A[1, 2], f[1], R1)
    rodrigues(A[2, 0], A[2, 1], A[2, 2], f[2], R2)
    matmul3(R1, R2, R12)
    matmul3(sc.R0, R12, R)
    for i in range(3):
        p[i] = f[3] * A[3, i] + f[4] * A[4, i] + f[5] * A[5, i]
    # Unit screws of the six axes, in the node (child) frame.
    e = sc.e
    for i in range(3):
        e[0, i] = R12[0, i] * A[0, 0] + R12[1, i] * A[0, 1] + R12[2, i] * A[0, 2]
        e[1, i] = R2[0, i] * A[1, 0] + R2[1, i] * A[1, 1] + R2[2, i] * A[1, 2]
        e[2, i] = A[2, i]
        for k in range(3, 6):
            e[k, i] = R[0, i] * A[k, 0] + R[1, i] * A[k, 1] + R[2, i] * A[k, 2]
    for j in range(nd.ncol):
        for i in range(6):
            S[i, j] = 0.0
    for k in range(6):
        col = nd.gen_col[k]
        if col < 0:
            continue
        off = 0 if k < 3 else 3
        for i in range(3):
            S[off + i, col] += df[k] * e[k, i]
    if not with_bias:
        return
    # c = sum_k (f_k'' u^2) e_k + f_k' u (d e_k/dt)
    w2x = e[2, 0] * rate[2]
    w2y = e[2, 1] * rate[2]
    w2z = e[2, 2] * rate[2]
    w12x = w2x + e[1, 0] * rate[1]
    w12y = w2y + e[1, 1] * rate[1]
    w12z = w2z + e[1, 2] * rate[1]
    wx = w12x + e[0, 0] * rate[0]
    wy = w12y + e[0, 1] * rate[0]
    wz = w12z + e[0, 2] * rate[0]
    d0 = _cross(w12x, w12y, w12z, e[0, 0], e[0, 1], e[0, 2])
    d1 = _cross(w2x, w2y, w2z, e[1, 0], e[1, 1], e[1, 2])
    for i in range(3):
        c[i] = rate2[0] * e[0, i] + rate2[1] * e[1, i] + rate2[2] * e[2, i] - rate[0] * d0[i] - rate[1] * d1[i]
    vx = rate[3] * e[3, 0] + rate[4] * e[4, 0] + rate[5] * e[5, 0]
    vy = rate[3] * e[3, 1] + rate[4] * e[4, 1] + rate[5] * e[5, 1]
    vz = rate[3] * e[3, 2] + rate[4] * e[4, 2] + rate[5] * e[5, 2]
    dv = _cross(wx, wy, wz, vx, vy, vz)
    for i in range(3):
        c[3 + i] = rate2[3] * e[3, i] + rate2[4] * e[4, i] + rate2[5] * e[5, i] - dv[i]


@nb.njit(cache=True, nogil=True)
def segment_strain(nd, segs, q, xi):
    """The 6D strain ``xi = (kappa, epsilon)`` of the PCS segment of node ``nd`` (1/m, -)."""
    sg = segs[nd.pcs_seg]
    for m in range(6):
        col = sg.col[m]
        xi[m] = q[nd.colq[col]] if col >= 0 else sg.rest[m]


@nb.njit(cache=True, nogil=True, inline="always")
def _dJl_rho(phx, phy, phz, dx, dy, dz, rx, ry, rz, b, c, b1, c1):
    """``(d J_l / d phi [delta]) rho`` for the left Jacobian of SO(3)."""
    bd = 2.0 * b1 * (phx * dx + phy * dy + phz * dz)
    cd = 2.0 * c1 * (phx * dx + phy * dy + phz * dz)
    pr = _cross(phx, phy, phz, rx, ry, rz)
    ppr = _cross(phx, phy, phz, pr[0], pr[1], pr[2])
    dr = _cross(dx, dy, dz, rx, ry, rz)
    dpr = _cross(dx, dy, dz, pr[0], pr[1], pr[2])
    pdr = _cross(phx, phy, phz, dr[0], dr[1], dr[2])
    return (bd * pr[0] + b * dr[0] + cd * ppr[0] + c * (dpr[0] + pdr[0]),
            bd * pr[1] + b * dr[1] + cd * ppr[1] + c * (dpr[1] + pdr[1]),
            bd * pr[2] + b * dr[2] + cd * ppr[2] + c * (dpr[2] + pdr[2]))


@nb.njit(cache=True, nogil=True, inline="always")
def _rot_and_jl(phx, phy, phz, a, b, c, R, p, rx, ry, rz):
    """R = I + a[phi]+b[phi]^2 and p = J_l rho with J_l = I + b[phi] + c[phi]^2."""
    xx = phx * phx
    yy = phy * phy
    zz = phz * phz
    xy = phx * phy
    xz = phx * phz
    yz = phy * phz
    # [phi]^2 = phi phi^T - |phi|^2 I
    R[0, 0] = 1.0 - b * (yy + zz)
    R[1, 1] = 1.0 - b * (xx + zz)
    R[2, 2] = 1.0 - b * (xx + yy)
    R[0, 1] = b * xy - a * phz
    R[1, 0] = b * xy + a * phz
    R[0, 2] = b * xz + a * phy
    R[2, 0] = b * xz - a * phy
    R[1, 2] = b * yz - a * phx
    R[2, 1] = b * yz + a * phx
    pr = _cross(phx, phy, phz, rx, ry, rz)
    ppr = _cross(phx, phy, phz, pr[0], pr[1], pr[2])
    p[0] = rx + b * pr[0] + c * ppr[0]
    p[1] = ry + b * pr[1] + c * ppr[1]
    p[2] = rz + b * pr[2] + c * ppr[2]


@nb.njit(cache=True, nogil=True)
def pcs_placement(xi, x, R, p):
    """``exp(x [xi x])`` for a constant 6D strain ``xi`` (seed eq. 10), into ``R, p``."""
    phx = x * xi[0]
    phy = x * xi[1]
    phz = x * xi[2]
    a, b, c, _, _, _, _ = so3_coefficients(phx * phx + phy * phy + phz * phz)
    _rot_and_jl(phx, phy, phz, a, b, c, R, p, x * xi[3], x * xi[4], x * xi[5])


@nb.njit(cache=True, nogil=True)
def _pcs(nd, segs, sc, q, v, R, p, S, c, with_bias):
    for i in range(6):
        c[i] = 0.0
    sg = segs[nd.pcs_seg]
    x = nd.pcs_x
    xi = sc.xi[:]               # a plain view of the scratch field: segment_strain is compiled for plain arrays
    segment_strain(nd, segs, q, xi)
    phx = x * xi[0]
    phy = x * xi[1]
    phz = x * xi[2]
    rx = x * xi[3]
    ry = x * xi[4]
    rz = x * xi[5]
    ss = phx * phx + phy * phy + phz * phz
    a, b, cc, b1, c1, b2, c2 = so3_coefficients(ss)
    _rot_and_jl(phx, phy, phz, a, b, cc, R, p, rx, ry, rz)
    for m in range(6):
        col = sg.col[m]
        if col < 0:
            continue
        if m < 3:
            dx = x if m == 0 else 0.0
            dy = x if m == 1 else 0.0
            dz = x if m == 2 else 0.0
            # omega = J_r delta, J_r = I - b[phi] + c[phi]^2
            pd = _cross(phx, phy, phz, dx, dy, dz)
            ppd = _cross(phx, phy, phz, pd[0], pd[1], pd[2])
            S[0, col] = dx - b * pd[0] + cc * ppd[0]
            S[1, col] = dy - b * pd[1] + cc * ppd[1]
            S[2, col] = dz - b * pd[2] + cc * ppd[2]
            lw = _dJl_rho(phx, phy, phz, dx, dy, dz, rx, ry, rz, b, cc, b1, c1)
        else:
            S[0, col] = 0.0
            S[1, col] = 0.0
            S[2, col] = 0.0
            ex = x if m == 3 else 0.0
            ey = x if m == 4 else 0.0
            ez = x if m == 5 else 0.0
            pe = _cross(phx, phy, phz, ex, ey, ez)
            ppe = _cross(phx, phy, phz, pe[0], pe[1], pe[2])
            lw = (ex + b * pe[0] + cc * ppe[0], ey + b * pe[1] + cc * ppe[1], ez + b * pe[2] + cc * ppe[2])
        # linear part: R^T lw
        S[3, col] = R[0, 0] * lw[0] + R[1, 0] * lw[1] + R[2, 0] * lw[2]
        S[4, col] = R[0, 1] * lw[0] + R[1, 1] * lw[1] + R[2, 1] * lw[2]
        S[5, col] = R[0, 2] * lw[0] + R[1, 2] * lw[1] + R[2, 2] * lw[2]
    if not with_bias:
        return
    # Strain rates -> rates of phi and rho.
    dxi = sc.dxi
    for m in range(6):
        col = sg.col[m]
        dxi[m] = x * v[nd.colv[col]] if col >= 0 else 0.0
    dx = dxi[0]
    dy = dxi[1]
    dz = dxi[2]
    pdot = phx * dx + phy * dy + phz * dz
    sd = 2.0 * pdot            # ds/dt
    sdd = 2.0 * (dx * dx + dy * dy + dz * dz)
    bd = b1 * sd
    cd = c1 * sd
    bdd = b2 * sd * sd + b1 * sdd
    cdd = c2 * sd * sd + c1 * sdd
    # relative twist (S v)
    pd = _cross(phx, phy, phz, dx, dy, dz)
    ppd = _cross(phx, phy, phz, pd[0], pd[1], pd[2])
    wrx = dx - b * pd[0] + cc * ppd[0]
    wry = dy - b * pd[1] + cc * ppd[1]
    wrz = dz - b * pd[2] + cc * ppd[2]
    # p_dot = J_l rho_dot + dJl[phi_dot] rho
    prd = _cross(phx, phy, phz, dxi[3], dxi[4], dxi[5])
    pprd = _cross(phx, phy, phz, prd[0], prd[1], prd[2])
    g = _dJl_rho(phx, phy, phz, dx, dy, dz, rx, ry, rz, b, cc, b1, c1)
    pdx = dxi[3] + b * prd[0] + cc * pprd[0] + g[0]
    pdy = dxi[4] + b * prd[1] + cc * pprd[1] + g[1]
    pdz = dxi[5] + b * prd[2] + cc * pprd[2] + g[2]
    vrx = R[0, 0] * pdx + R[1, 0] * pdy + R[2, 0] * pdz
    vry = R[0, 1] * pdx + R[1, 1] * pdy + R[2, 1] * pdz
    vrz = R[0, 2] * pdx + R[1, 2] * pdy + R[2, 2] * pdz
    # angular: d/dt(J_r) phi_dot = -bd (phi x phid) + cd phi x (phi x phid) + c phid x (phi x phid)
    dpd = _cross(dx, dy, dz, pd[0], pd[1], pd[2])
    c[0] = -bd * pd[0] + cd * ppd[0] + cc * dpd[0]
    c[1] = -bd * pd[1] + cd * ppd[1] + cc * dpd[1]
    c[2] = -bd * pd[2] + cd * ppd[2] + cc * dpd[2]
    # p_ddot = 2 dJl[phid] rho_dot + d2Jl[phid, phid] rho
    h = _dJl_rho(phx, phy, phz, dx, dy, dz, dxi[3], dxi[4], dxi[5], b, cc, b1, c1)
    pr = _cross(phx, phy, phz, rx, ry, rz)
    ppr = _cross(phx, phy, phz, pr[0], pr[1], pr[2])
    dr = _cross(dx, dy, dz, rx, ry, rz)
    dpr = _cross(dx, dy, dz, pr[0], pr[1], pr[2])
    pdr = _cross(phx, phy, phz, dr[0], dr[1], dr[2])
    ddr = _cross(dx, dy, dz, dr[0], dr[1], dr[2])
    qx = 2.0 * h[0] + bdd * pr[0] + 2.0 * bd * dr[0] + cdd * ppr[0] + 2.0 * cd * (dpr[0] + pdr[0]) + 2.0 * cc * ddr[0]
    qy = 2.0 * h[1] + bdd * pr[1] + 2.0 * bd * dr[1] + cdd * ppr[1] + 2.0 * cd * (dpr[1] + pdr[1]) + 2.0 * cc * ddr[1]
    qz = 2.0 * h[2] + bdd * pr[2] + 2.0 * bd * dr[2] + cdd * ppr[2] + 2.0 * cd * (dpr[2] + pdr[2]) + 2.0 * cc * ddr[2]
    wv = _cross(wrx, wry, wrz, vrx, vry, vrz)
    c[3] = R[0, 0] * qx + R[1, 0] * qy + R[2, 0] * qz - wv[0]
    c[4] = R[0, 1] * qx + R[1, 1] * qy + R[2, 1] * qz - wv[1]
    c[5] = R[0, 2] * qx + R[1, 2] * qy + R[2, 2] * qz - wv[2]
