"""An independent formulation of the mechanism's dynamics for the tests: Lagrange's equations in
q = (alpha, beta), from the seed's eqs. 2, 3, 5 and 6 written out anew with sympy.

Every body's centre of mass r(q) and orientation R(q) is a closed-form expression; sympy differentiates these
(first and second partials) exactly: the platform's and the joint points Bi in (alpha, beta), a limb's unit
vector, length and universal-joint frame in its vector d = Bi - Ai, joined by the chain rule. The kinetic energy is T = 1/2 qd^T M(q) qd with
M = sum m Jr^T Jr + Jw^T I Jw (Jw the body-axis angular velocity Jacobian, vee(R^T dR/dq_k)), and Lagrange's
equations M qdd + dM/dt qd - 1/2 qd^T dM/dq qd + dV/dq = Jq^T tau + Q_ext are solved for the actuator forces.
Nothing here calls the package's kinematics or dynamics.
"""
from __future__ import annotations

import functools

import numpy as np
import sympy as sp

G = 9.807


def _derivatives(expr, variables):
    """A lambdified function of ``variables`` giving (expr, its first partials, its second partials)."""
    first = [expr.diff(x) for x in variables]
    second = [[f.diff(x) for x in variables] for f in first]
    return sp.lambdify(variables, [expr, first, second], "numpy", cse=True)


def _chain(value, first, second, inner, inner_first, inner_second):
    """(f, df/dq_k, d2f/dq_k dq_j) of f(g(q)) from f's partials in g and g's partials in q (exact)."""
    f = np.asarray(value, float)
    f1 = [np.asarray(x, float) for x in first]
    f2 = [[np.asarray(x, float) for x in row] for row in second]
    g1, g2 = np.asarray(inner_first, float), np.asarray(inner_second, float)   # (m, 2), (m, 2, 2)
    m = len(f1)
    dq = [sum(f1[i] * g1[i, k] for i in range(m)) for k in range(2)]
    ddq = [[sum(f2[i][n] * g1[i, k] * g1[n, j] for i in range(m) for n in range(m))
            + sum(f1[i] * g2[i, k, j] for i in range(m)) for j in range(2)] for k in range(2)]
    return f, dq, ddq


@functools.lru_cache(maxsize=None)
def build(params):
    """A function ``tau(q, qd, qdd, Fe) -> (tau2, tau3)`` and ``energy(q, qd) -> (T, V)`` for ``params``."""
    a, b = sp.symbols("a b", real=True)
    l1, a1, a2, a3, b1, b2, b3 = (float(x) for x in params.geometry)
    ca, sa, cb, sb = sp.cos(a), sp.sin(a), sp.cos(b), sp.sin(b)
    R = sp.Matrix([[cb, 0, sb], [sa * sb, ca, -cb * sa], [-ca * sb, sa, ca * cb]])          # eq. 2
    p = sp.Matrix([l1 * ca * sb + a1 - b1 * cb, l1 * sa - b1 * sa * sb, l1 * ca * cb + b1 * ca * sb])   # eq. 5
    A = [np.array([a1, 0, 0]), np.array([0, a2, 0]), np.array([0, -a3, 0])]
    B = [p + R * sp.Matrix([b1, 0, 0]), p + R * sp.Matrix([0, b2, 0]), p + R * sp.Matrix([0, -b3, 0])]  # eq. 3
    q = [a, b]
    platform = [_derivatives(R, q), _derivatives(p + R * sp.Matrix(params.platform_com), q)]
    joints = [_derivatives(Bi, q) for Bi in B]
    # a limb as a function of its vector d = Bi - Ai: unit vector s (eq. 6's length in the norm) and its
    # universal joint's frame s = Ry(chi) Rx(eta) e_z: sin(eta) = -s_y, cos(eta) = |(s_x, s_z)|
    d = sp.symbols("d1 d2 d3", real=True)
    length = sp.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
    s = sp.Matrix(d) / length
    ce = sp.sqrt(s[0] ** 2 + s[2] ** 2)
    se, cc, sc = -s[1], s[2] / ce, s[0] / ce
    limb_frame = _derivatives(sp.Matrix([[cc, sc * se, sc * ce], [0, ce, -se], [-sc, cc * se, cc * ce]]), d)
    unit = _derivatives(s, d)
    f_length = _derivatives(length, d)

    def _vector_partials(f):
        value, first, second = f
        return (np.asarray(value, float).ravel(), np.column_stack([np.asarray(x, float).ravel() for x in first]),
                np.array([[np.asarray(x, float).ravel() for x in row] for row in second]).transpose(2, 0, 1))

    def poses(qv):
        """Per body: (r, Jr (3, 2), Hr [dJr/dq_j], R, [dR/dq_k], [[d2R/dq_k dq_j]]) at qv, and Jq (2, 2)."""
        out = []
        Rv, Rk, Rkj = (lambda f: (np.asarray(f[0], float), [np.asarray(x, float) for x in f[1]],
                                  [[np.asarray(x, float) for x in row] for row in f[2]]))(platform[0](*qv))
        r, Jr, H = _vector_partials(platform[1](*qv))
        out.append((r, Jr, [H[:, :, j] for j in range(2)], Rv, Rk, Rkj))
        Jq = np.zeros((2, 2))
        for _, limb, end, e, _, _ in params.links():
            Bv, JB, HB = _vector_partials(joints[limb](*qv))
            dv = Bv - A[limb]
            Ri, Ri1, Ri2 = _chain(*limb_frame(*dv), dv, JB, HB)
            sv, s1, s2 = _chain(*unit(*dv), dv, JB, HB)
            sign, base = (1.0, A[limb]) if end == 0 else (-1.0, Bv)
            r = base + sign * e * sv.ravel()
            Jr = (0.0 if end == 0 else JB) + sign * e * np.column_stack([x.ravel() for x in s1])
            Hr = [(0.0 if end == 0 else HB[:, :, j]) + sign * e * np.column_stack([s2[k][j].ravel() for k in range(2)])
                  for j in range(2)]
            out.append((r, Jr, Hr, Ri, Ri1, Ri2))
            if limb > 0 and end == 0:
                _, l_first, _ = _chain(*f_length(*dv), dv, JB, HB)
                Jq[limb - 1] = l_first
        return out, Jq

    bodies = [(params.m_platform, np.array(params.I_platform))] + [(m, np.array(i)) for *_, m, i in params.links()]
    masses = [body[0] for body in bodies]
    inertias = [body[1] for body in bodies]

    def _vee(W):
        return np.array([W[2, 1], W[0, 2], W[1, 0]])

    def _terms(qv):
        """Per body: mass matrix M_b, its partials dM_b/dq_j, position r, Jacobian Jr, orientation R, and
        the platform's omega Jacobian (base axes)."""
        out = []
        body_poses, Jq = poses(qv)
        for mass, inertia, (r, Jr, Hr, Rm, Rk, Rkj) in zip(masses, inertias, body_poses):
            Jwb = np.column_stack([_vee(Rm.T @ Rk[k]) for k in range(2)])          # body-axis omega Jacobian
            dJwb = [np.column_stack([_vee(Rk[j].T @ Rk[k] + Rm.T @ Rkj[k][j]) for k in range(2)]) for j in range(2)]
            M = mass * Jr.T @ Jr + Jwb.T @ inertia @ Jwb
            dM = [mass * (Hr[j].T @ Jr + Jr.T @ Hr[j]) + dJwb[j].T @ inertia @ Jwb + Jwb.T @ inertia @ dJwb[j]
                  for j in range(2)]
            Jw = Rm @ Jwb
            out.append((mass, M, dM, r, Jr, Jw))
        return out, Jq

    def tau(qv, qdv, qddv, Fe=np.zeros(6)):
        qdv, qddv, Fe = np.asarray(qdv, float), np.asarray(qddv, float), np.asarray(Fe, float)
        lhs = np.zeros(2)
        terms, Jq = _terms(qv)
        for n, (mass, M, dM, r, Jr, Jw) in enumerate(terms):
            Mdot = dM[0] * qdv[0] + dM[1] * qdv[1]
            lhs += M @ qddv + Mdot @ qdv - 0.5 * np.array([qdv @ dM[j] @ qdv for j in range(2)])
            lhs += mass * G * Jr[2]                       # dV/dq, V = m g z
            if n == 0:
                lhs -= Jr.T @ Fe[:3] + Jw.T @ Fe[3:]
        return np.linalg.solve(Jq.T, lhs)

    def energy(qv, qdv):
        qdv = np.asarray(qdv, float)
        T = V = 0.0
        for mass, M, dM, r, Jr, Jw in _terms(qv)[0]:
            T += 0.5 * qdv @ M @ qdv
            V += mass * G * r[2]
        return T, V

    return tau, energy
