"""Moving on the configuration manifold, and time integration of the dynamics."""
from __future__ import annotations

import numpy as np

from ..kernels import _integrate, _simulate
from ..kernels._joints import FREE, SPHERICAL
from ..spatial import matrix_to_quat, quat_to_matrix
from ..tree import compile_tree
from . import _args


def neutral(model) -> np.ndarray:
    """The configuration with every coordinate at its default, identity quaternions and rods at their rest
    strains (a new array, ``(model.nq,)``)."""
    return compile_tree(model).q_neutral.copy()


def integrate(model, q, v, dt: float = 1.0) -> np.ndarray:
    """``q (+) v dt``: scalar coordinates add ``v dt``; quaternions and the floating base move
    on SO(3) and SE(3) by the exponential of the body velocity."""
    q = _args.q(model, q)
    v = _args.v(model, v)
    out = np.empty_like(q)
    _integrate.integrate(compile_tree(model).k.nodes, compile_tree(model).k.v2q, q, v, float(dt), out)
    return out


def difference(model, q0, q1) -> np.ndarray:
    """The velocity ``v`` with ``integrate(q0, v, 1) == q1`` (the group logarithm of ``q0^-1 q1``)."""
    q0 = _args.q(model, q0)
    q1 = _args.q(model, q1)
    k = compile_tree(model).k
    v = np.zeros(model.nv)
    for vi, qi in enumerate(k.v2q):
        if qi >= 0:
            v[vi] = q1[qi] - q0[qi]
    nodes = k.nodes
    for n in np.flatnonzero((nodes["jtype"] == SPHERICAL) | (nodes["jtype"] == FREE)):
        i0, v0 = nodes["qidx"][n], nodes["colv"][n, 0]
        if nodes["jtype"][n] == SPHERICAL:
            R0, R1 = quat_to_matrix(q0[i0:i0 + 4]), quat_to_matrix(q1[i0:i0 + 4])
            v[v0:v0 + 3] = _log_so3(R0.T @ R1)
        else:
            R0, R1 = quat_to_matrix(q0[i0 + 3:i0 + 7]), quat_to_matrix(q1[i0 + 3:i0 + 7])
            w = _log_so3(R0.T @ R1)
            d = R0.T @ (q1[i0:i0 + 3] - q0[i0:i0 + 3])
            v[v0:v0 + 3] = w
            v[v0 + 3:v0 + 6] = np.linalg.solve(_left_jacobian(w), d)
    return v


def _log_so3(R) -> np.ndarray:
    quat = matrix_to_quat(R)
    s = np.linalg.norm(quat[:3])
    if s < 1e-12:
        return 2.0 * quat[:3]
    angle = 2.0 * np.arctan2(s, quat[3])
    return angle * quat[:3] / s


def _left_jacobian(w) -> np.ndarray:
    t = np.linalg.norm(w)
    W = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
    if t < 1e-8:
        return np.eye(3) + 0.5 * W + W @ W / 6.0
    return np.eye(3) + (1 - np.cos(t)) / t ** 2 * W + (t - np.sin(t)) / t ** 3 * W @ W


def normalize(model, q) -> np.ndarray:
    """Copy of ``q`` with unit quaternions."""
    out = np.array(q, dtype=float)
    _integrate.normalize(compile_tree(model).k.quat_q, out)
    return out


def simulate(model, data, q0, v0, duration: float, dt: float, tau=None, passive=True):
    """Integrate the unforced (or constant-``tau``) dynamics with RKMK4.

    Returns ``(t, Q, V)``: times (n+1,), configurations (n+1, nq), velocities (n+1, nv).
    """
    q0 = _args.q(model, q0)
    v0 = _args.v(model, v0)
    tau = np.zeros(model.nv) if tau is None else _args.v(model, tau, "tau")
    n = int(round(duration / dt))
    Q = np.empty((n + 1, model.nq))
    V = np.empty((n + 1, model.nv))
    _simulate.simulate(compile_tree(model).k, data.ws, data.scr, q0, v0, tau, bool(passive), float(dt), n, Q, V)
    return np.arange(n + 1) * dt, Q, V


__all__ = ["integrate", "difference", "normalize", "simulate"]
