"""Dynamics of the hybrid-link system (seed eq. 29):

    M(q) a + nle(q, v) = tau + tau_rod(q, v) + sum_i J_i^T f_i

``nle`` is the seed's bias b (Coriolis, centrifugal and gravity terms);
``tau_rod`` the rods' passive elastic and viscous forces (eq. 26), kept as
their own term; ``f_i`` external wrenches. Units: N, N m, kg, m, s.
"""
from __future__ import annotations

import numpy as np

from ..kernels import _passes
from ..tree import compile_tree
from . import _args
from .kinematics import frame_id


def external_wrenches(model, data, loads) -> np.ndarray:
    """Per-node world wrenches (about the world origin) from ``{frame name: (6,) wrench}``.

    Each wrench is ``[moment; force]`` in world axes, the moment taken about the
    named frame's origin (N m, N). Call after forward kinematics at the same q.
    """
    k = compile_tree(model).k
    out = np.zeros((compile_tree(model).n_nodes, 6))
    R = np.empty((3, 3))
    x = np.empty(3)
    for name, wrench in loads.items():
        wr = np.asarray(wrench, dtype=float).reshape(6)
        fid = frame_id(model, name)
        node = k.frames[fid]["node"]
        if node < 0:
            continue  # a load on ground does nothing to the model
        _passes.frame_placement(k.frames, data.ws, fid, R, x)
        out[node, :3] += wr[:3] + np.cross(x, wr[3:])
        out[node, 3:] += wr[3:]
    return out


def rnea(model, data, q, v, a, loads=None) -> np.ndarray:
    """Inverse dynamics by the recursive Newton-Euler algorithm generalised to rods.

    Returns ``tau = M a + nle - sum J^T f_ext`` (nv,): what joints and the rods'
    internal forces must supply for the motion ``(q, v, a)``. Gravity is included;
    the rods' passive forces are not (see :func:`rod_forces`).
    """
    q = _args.q(model, q)
    v = _args.v(model, v)
    a = _args.v(model, a, "a")
    k = compile_tree(model).k
    _passes.kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, v, a, 2, True, True)
    data.q = q
    fext = data.no_fext if not loads else external_wrenches(model, data, loads)
    _passes.rnea_backward(k.nodes, data.ws, fext, data.tau)
    return data.tau.copy()


def nle(model, data, q, v) -> np.ndarray:
    """Nonlinear effects ``b(q, v)``: Coriolis, centrifugal and gravity terms (seed eq. 29)."""
    data.nle[:] = rnea(model, data, q, v, np.zeros(model.nv))
    return data.nle.copy()


def generalized_gravity(model, data, q) -> np.ndarray:
    """Gravity part of ``nle`` (``rnea(q, 0, 0)``)."""
    return rnea(model, data, q, np.zeros(model.nv), np.zeros(model.nv))


def crba(model, data, q) -> np.ndarray:
    """Joint-space inertia matrix ``M(q)`` (seed eqs. 29-30, 49), symmetric positive definite."""
    q = _args.q(model, q)
    k = compile_tree(model).k
    _passes.kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, q[:0], q[:0], 0, False, True)
    data.q = q
    _passes.crba(k.nodes, data.ws, data.scr, data.M)
    return data.M.copy()


def rod_forces(model, q, v) -> np.ndarray:
    """Passive generalized forces of the rods, ``K (q_rest - q) - D v`` (seed eq. 26); zero elsewhere."""
    q = _args.q(model, q)
    v = _args.v(model, v)
    out = np.zeros(model.nv)
    _passes.rod_forces(compile_tree(model).k.segs, q, v, out)
    return out


def forward_dynamics(model, data, q, v, tau, loads=None, passive=True) -> np.ndarray:
    """Accelerations ``a`` from ``M a = tau + tau_rod - nle + J^T f`` (composite method: CRBA, RNEA, Cholesky).

    ``passive`` adds the rods' elastic and viscous forces.
    """
    tau = _args.v(model, tau, "tau")
    M = crba(model, data, q)
    rhs = tau - rnea(model, data, q, v, np.zeros(model.nv), loads)
    if passive:
        rhs += rod_forces(model, q, v)
    L = np.linalg.cholesky(M)
    data.a[:] = np.linalg.solve(L.T, np.linalg.solve(L, rhs))
    return data.a.copy()


def coriolis_matrix(model, data, q, v) -> np.ndarray:
    """A Coriolis matrix ``C(q, v)`` with ``C v = nle(q, v) - nle(q, 0)``.

    Built exactly (no finite differences) by polarising the quadratic velocity
    term ``h(v) = nle(q, v) - nle(q, 0)``: ``C[:, j] = (h(v + e_j) - h(v - e_j)) / 4``.
    For models whose velocities are coordinate rates (every joint but free and
    spherical) this is the Christoffel-symbol matrix, for which ``dM/dt - 2 C``
    is skew-symmetric.
    """
    g = generalized_gravity(model, data, q)
    v = _args.v(model, v)
    nv = model.nv
    C = np.empty((nv, nv))
    zero = np.zeros(nv)
    for j in range(nv):
        e = np.zeros(nv)
        e[j] = 1.0
        hp = rnea(model, data, q, v + e, zero) - g
        hm = rnea(model, data, q, v - e, zero) - g
        C[:, j] = 0.25 * (hp - hm)
    return C
