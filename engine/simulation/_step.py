"""One linearly implicit Euler step of a model with ground contact (numba kernel).

With ``F(q, v) = tau - nle(q, v) + tau_rod(q, v) + sum_c J_c^T f_c(p_c, pd_c)`` the step solves

    (M - h dF/dv - h^2 dF/dq) dv = h (F + h dF/dq v),    v+ = v + dv,    q+ = q (+) h v+

where the derivatives are those of the rods' forces (``-K``, ``-D``, seed eq. 26) and of the
contact forces (``J^T df/dp J``, ``J^T df/dpd J``); all other terms are explicit. Passive joint springs
(``-k (q - q_rest) - d v`` on chosen coordinates) are treated like the rods. The stiff
rod and contact forces are thus integrated implicitly (stable at steps far above their
periods), the rest with first-order accuracy. The contact force a step applies is the contact law
linearised at the step's start (``f + df/dp J h v+ + df/dpd J dv``): it equals eqs. 6-7 to O(h)
and, unlike them, can briefly pull (a fraction of a newton as a point leaves the floor) or lie
slightly outside the friction cone. It is what the step's equations of motion use, so it is what
a simulation reports.
"""
import numba as nb
import numpy as np

from ..algorithms.compiled import (crba, frame_jacobian, frame_placement, integrate, kinematics, normalize,
                                   rnea_backward, rod_forces)
from .ground_contact import penalty_force


@nb.njit(cache=True, nogil=True)
def _implicit_spring(A, rhs, h, vi, q, v, k, d, rest):
    """Add a spring-damper on the coordinate at ``vi`` of ``v`` (value ``q``, speed ``v``; force
    ``-k (q - rest) - d v``), linearised over the step ``h``, to the step's matrix ``A`` and right-hand side
    ``rhs`` (a rod strain mode, seed eq. 26, or a joint spring)."""
    A[vi, vi] += h * d + h * h * k
    rhs[vi] += h * (-k * (q - rest) - d * v - h * k * v)


@nb.njit(cache=True, nogil=True)
def implicit_step(t, ws, scr, q, v, tau, h, contact_frames, par, springs, q_out, v_out, a_out, forces, depths, tau_rod,
                  tau_spring):
    """Advance ``(q, v)`` by ``h`` seconds under joint forces ``tau`` (``par``: the contact parameters of
    each point, one row each, see ``GroundContact.parameters``; ``springs``: rows ``(q index, v index,
    stiffness, damping, rest)`` of passive joint springs); write ``q_out``, ``v_out``, the acceleration
    ``a_out = (v_out - v) / h``, the contact forces applied over the step (N, world, K x 3), the
    penetration depths at the start (m), and the rods' and springs' forces at the end state."""
    nv = v.shape[0]
    zero = np.zeros(nv)
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, v, zero,
               np.int64(2), np.bool_(True), np.bool_(True))
    nle = np.empty(nv)
    rnea_backward(t.nodes, ws, np.zeros((0, 6)), nle)
    A = np.empty((nv, nv))
    crba(t.nodes, ws, scr, A)
    rhs = np.empty(nv)
    for i in range(nv):
        rhs[i] = h * (tau[i] - nle[i])
    segs = t.segs
    for s in range(segs.shape[0]):
        sg = segs[s]
        for m in range(6):
            qi = sg.q[m]
            if qi < 0:
                continue
            _implicit_spring(A, rhs, h, sg.v[m], q[qi], v[sg.v[m]], sg.k[m], sg.d[m], sg.rest[m])
    for r in range(springs.shape[0]):
        vi = int(springs[r, 1])
        _implicit_spring(A, rhs, h, vi, q[int(springs[r, 0])], v[vi], springs[r, 2], springs[r, 3], springs[r, 4])
    nc = contact_frames.shape[0]
    Js = np.zeros((nc, 3, nv))
    J6 = np.zeros((6, nv))
    R = np.empty((3, 3))
    p = np.empty(3)
    pd = np.empty(3)
    f = np.empty(3)
    dfdp = np.empty((3, 3))
    dfdv = np.empty((3, 3))
    Fp = np.zeros((nc, 3, 3))
    Fv = np.zeros((nc, 3, 3))
    for c in range(nc):
        fid = contact_frames[c]
        frame_placement(t.frames, ws, fid, R, p)
        frame_jacobian(t.nodes, t.frames, ws, scr, fid, J6)
        J = Js[c]
        for i in range(3):
            for j in range(nv):
                J[i, j] = J6[3 + i, j]
        for i in range(3):
            acc = 0.0
            for j in range(nv):
                acc += J[i, j] * v[j]
            pd[i] = acc
        depths[c] = penalty_force(par[c], p, pd, f, dfdp, dfdv)
        for i in range(3):
            forces[c, i] = f[i]
            for j in range(3):
                Fp[c, i, j] = dfdp[i, j]
                Fv[c, i, j] = dfdv[i, j]
        if depths[c] <= 0.0:
            continue
        # rhs += h J^T (f + h dfdp J v);  A -= J^T (h dfdv + h^2 dfdp) J
        g = np.empty(3)
        for i in range(3):
            g[i] = f[i] + h * (dfdp[i, 0] * pd[0] + dfdp[i, 1] * pd[1] + dfdp[i, 2] * pd[2])
        B = np.empty((3, 3))
        for i in range(3):
            for j in range(3):
                B[i, j] = h * dfdv[i, j] + h * h * dfdp[i, j]
        BJ = B @ J
        for a in range(nv):
            rhs[a] += h * (J[0, a] * g[0] + J[1, a] * g[1] + J[2, a] * g[2])
        A -= J.T @ BJ
    dv = np.linalg.solve(A, rhs)
    for i in range(nv):
        v_out[i] = v[i] + dv[i]
        a_out[i] = dv[i] / h
    integrate(t.nodes, t.v2q, q, v_out, h, q_out)
    normalize(t.quat_q, q_out)
    # the contact forces the step applied: f + df/dp (J h v+) + df/dpd (J dv)
    for c in range(nc):
        if depths[c] <= 0.0:
            continue
        J = Js[c]
        for i in range(3):
            extra = 0.0
            for j in range(3):
                jv = 0.0
                jd = 0.0
                for a in range(nv):
                    jv += J[j, a] * v_out[a]
                    jd += J[j, a] * dv[a]
                extra += Fp[c, i, j] * h * jv + Fv[c, i, j] * jd
            forces[c, i] += extra
    for i in range(nv):
        tau_rod[i] = 0.0
    rod_forces(segs, q_out, v_out, tau_rod)
    for i in range(nv):
        tau_spring[i] = 0.0
    for r in range(springs.shape[0]):
        qi = int(springs[r, 0])
        vi = int(springs[r, 1])
        tau_spring[vi] += -springs[r, 2] * (q_out[qi] - springs[r, 4]) - springs[r, 3] * v_out[vi]
