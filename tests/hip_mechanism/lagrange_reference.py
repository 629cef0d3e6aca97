"""An independent formulation of the mechanism's dynamics for the tests: Lagrange's equations in
q = (alpha, beta), from the seed's eqs. 2, 3, 5 and 6 written out anew with sympy.

Every body's centre of mass r(q) and orientation R(q) is a closed-form expression; sympy differentiates these
(first and second partials) exactly. The kinetic energy is T = 1/2 qd^T M(q) qd with
M = sum m Jr^T Jr + Jw^T I Jw (Jw the body-axis angular velocity Jacobian, vee(R^T dR/dq_k)), and Lagrange's
equations M qdd + dM/dt qd - 1/2 qd^T dM/dq qd + dV/dq = Jq^T tau + Q_ext are solved for the actuator forces.
Nothing here calls the package's kinematics or dynamics.
"""
from __future__ import annotations

import functools

import numpy as np
import sympy as sp

G = 9.807


@functools.lru_cache(maxsize=None)
def build(params):
    """A function ``tau(q, qd, qdd, Fe) -> (tau2, tau3)`` and ``energy(q, qd) -> (T, V)`` for ``params``."""
    a, b = sp.symbols("a b", real=True)
    l1, a1, a2, a3, b1, b2, b3 = (float(x) for x in params.geometry)
    ca, sa, cb, sb = sp.cos(a), sp.sin(a), sp.cos(b), sp.sin(b)
    R = sp.Matrix([[cb, 0, sb], [sa * sb, ca, -cb * sa], [-ca * sb, sa, ca * cb]])          # eq. 2
    p = sp.Matrix([l1 * ca * sb + a1 - b1 * cb, l1 * sa - b1 * sa * sb, l1 * ca * cb + b1 * ca * sb])   # eq. 5
    A = [sp.Matrix([a1, 0, 0]), sp.Matrix([0, a2, 0]), sp.Matrix([0, -a3, 0])]
    B = [p + R * sp.Matrix([b1, 0, 0]), p + R * sp.Matrix([0, b2, 0]), p + R * sp.Matrix([0, -b3, 0])]  # eq. 3
    lengths = [sp.sqrt(((B[i] - A[i]).T * (B[i] - A[i]))[0]) for i in range(3)]             # eq. 6
    s = [(B[i] - A[i]) / lengths[i] for i in range(3)]
    bodies = [(params.m_platform, p + R * sp.Matrix(params.platform_com), R, np.array(params.I_platform))]
    for _, limb, end, e, mass, inertia in params.links():
        # the limb's universal joint: s = Ry(chi) Rx(eta) e_z, so sin(eta) = -s_y, cos(eta) = |(s_x, s_z)|
        ce = sp.sqrt(s[limb][0] ** 2 + s[limb][2] ** 2)
        se, cc, sc = -s[limb][1], s[limb][2] / ce, s[limb][0] / ce
        Ri = sp.Matrix([[cc, sc * se, sc * ce], [0, ce, -se], [-sc, cc * se, cc * ce]])
        r = A[limb] + e * s[limb] if end == 0 else B[limb] - e * s[limb]
        bodies.append((mass, r, Ri, np.array(inertia)))
    q = [a, b]
    poses = []
    for mass, r, Rm, inertia in bodies:
        Jr = r.jacobian(q)
        Hr = [Jr.diff(x) for x in q]
        Rk = [Rm.diff(x) for x in q]
        Rkj = [[Rk[k].diff(x) for x in q] for k in range(2)]
        poses.append(sp.lambdify((a, b), [r, Jr, Hr, Rm, Rk, Rkj], "numpy", cse=True))
    Jq = sp.Matrix([[sp.diff(lengths[i], x) for x in q] for i in (1, 2)])
    f_Jq = sp.lambdify((a, b), Jq, "numpy", cse=True)
    masses = [body[0] for body in bodies]
    inertias = [np.array(body[3], dtype=float) for body in bodies]

    def _vee(W):
        return np.array([W[2, 1], W[0, 2], W[1, 0]])

    def _terms(qv):
        """Per body: mass matrix M_b, its partials dM_b/dq_j, position r, Jacobian Jr, orientation R, and
        the platform's omega Jacobian (base axes)."""
        out = []
        for mass, inertia, pose in zip(masses, inertias, poses):
            r, Jr, Hr, Rm, Rk, Rkj = (np.array(x, dtype=float) if not isinstance(x, list) else x
                                      for x in pose(*qv))
            r, Jr, Rm = np.array(r, float).ravel(), np.array(Jr, float), np.array(Rm, float)
            Hr = [np.array(h, float) for h in Hr]
            Rk = [np.array(x, float) for x in Rk]
            Rkj = [[np.array(x, float) for x in row] for row in Rkj]
            Jwb = np.column_stack([_vee(Rm.T @ Rk[k]) for k in range(2)])          # body-axis omega Jacobian
            dJwb = [np.column_stack([_vee(Rk[j].T @ Rk[k] + Rm.T @ Rkj[k][j]) for k in range(2)]) for j in range(2)]
            M = mass * Jr.T @ Jr + Jwb.T @ inertia @ Jwb
            dM = [mass * (Hr[j].T @ Jr + Jr.T @ Hr[j]) + dJwb[j].T @ inertia @ Jwb + Jwb.T @ inertia @ dJwb[j]
                  for j in range(2)]
            Jw = Rm @ Jwb
            out.append((mass, M, dM, r, Jr, Jw))
        return out

    def tau(qv, qdv, qddv, Fe=np.zeros(6)):
        qdv, qddv, Fe = np.asarray(qdv, float), np.asarray(qddv, float), np.asarray(Fe, float)
        lhs = np.zeros(2)
        for n, (mass, M, dM, r, Jr, Jw) in enumerate(_terms(qv)):
            Mdot = dM[0] * qdv[0] + dM[1] * qdv[1]
            lhs += M @ qddv + Mdot @ qdv - 0.5 * np.array([qdv @ dM[j] @ qdv for j in range(2)])
            lhs += mass * G * Jr[2]                       # dV/dq, V = m g z
            if n == 0:
                lhs -= Jr.T @ Fe[:3] + Jw.T @ Fe[3:]
        return np.linalg.solve(np.array(f_Jq(*qv), dtype=float).T, lhs)

    def energy(qv, qdv):
        qdv = np.asarray(qdv, float)
        T = V = 0.0
        for mass, M, dM, r, Jr, Jw in _terms(qv):
            T += 0.5 * qdv @ M @ qdv
            V += mass * G * r[2]
        return T, V

    return tau, energy
