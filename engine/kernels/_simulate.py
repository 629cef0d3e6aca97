"""Forward dynamics and a Lie-group Runge-Kutta integrator (RKMK4) in numba.

The configuration is advanced in local coordinates ``q = q_n (+) delta``: for
scalar coordinates ``delta`` is an ordinary increment, for spherical and free
joints an element of so(3) / se(3) whose rate is ``dexp^-1_{-delta}(v)``
(truncated after the second bracket, which keeps 4th order). Quaternions thus
stay unit and the floating base never goes through Euler angles.
"""
import numba as nb
import numpy as np

from ._integrate import integrate
from ._joints import FREE, SPHERICAL
from ._passes import crba, kinematics, rnea_backward, rod_forces


@nb.njit(cache=True, nogil=True)
def forward_dynamics(t, ws, scr, q, v, tau, fext, passive, M, a):
    """``a = M^-1 (tau + tau_rod - nle + J^T f)``; ``fext`` per node (world, about origin) or empty."""
    nv = v.shape[0]
    zero = np.zeros(nv)
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, q, v, zero,
               np.int64(2), np.bool_(True), np.bool_(True))
    h = np.empty(nv)
    rnea_backward(t.nodes, ws, fext, h)
    crba(t.nodes, ws, scr, M)
    rhs = tau - h
    if passive:
        rod_forces(t.segs, q, v, rhs)
    L = np.linalg.cholesky(M)
    y = np.linalg.solve(L, rhs)
    a[:] = np.linalg.solve(L.T, y)


@nb.njit(cache=True, nogil=True)
def _cross_into(a0, a1, a2, b0, b1, b2, out, o):
    out[o] = a1 * b2 - a2 * b1
    out[o + 1] = a2 * b0 - a0 * b2
    out[o + 2] = a0 * b1 - a1 * b0


@nb.njit(cache=True, nogil=True)
def dexpinv(nodes, delta, v, out):
    """Rate of the local coordinates ``delta`` for the velocity ``v``: ``v + [delta, v]/2 + [delta, [delta, v]]/12``."""
    out[:] = v
    br = np.empty(6)
    br2 = np.empty(6)
    tmp = np.empty(6)
    for n in range(nodes.shape[0]):
        jt = nodes[n].jtype
        if jt != SPHERICAL and jt != FREE:
            continue
        i = nodes[n].colv[0]
        d = delta[i:i + 3]
        x = v[i:i + 3]
        _cross_into(d[0], d[1], d[2], x[0], x[1], x[2], br, np.int64(0))
        _cross_into(d[0], d[1], d[2], br[0], br[1], br[2], br2, np.int64(0))
        if jt == FREE:
            du = delta[i + 3:i + 6]
            xu = v[i + 3:i + 6]
            # [(w1,u1),(w2,u2)] = (w1 x w2, w1 x u2 - w2 x u1)
            _cross_into(d[0], d[1], d[2], xu[0], xu[1], xu[2], br, np.int64(3))
            _cross_into(x[0], x[1], x[2], du[0], du[1], du[2], tmp, np.int64(0))
            br[3] -= tmp[0]
            br[4] -= tmp[1]
            br[5] -= tmp[2]
            _cross_into(d[0], d[1], d[2], br[3], br[4], br[5], br2, np.int64(3))
            _cross_into(br[0], br[1], br[2], du[0], du[1], du[2], tmp, np.int64(0))
            br2[3] -= tmp[0]
            br2[4] -= tmp[1]
            br2[5] -= tmp[2]
            for k in range(6):
                out[i + k] = v[i + k] + 0.5 * br[k] + br2[k] / 12.0
        else:
            for k in range(3):
                out[i + k] = v[i + k] + 0.5 * br[k] + br2[k] / 12.0


@nb.njit(cache=True, nogil=True)
def rkmk4_step(t, ws, scr, q, v, tau, fext, passive, dt, M, q_out, v_out):
    """One RKMK4 step of length ``dt`` with constant ``tau`` and ``fext``."""
    nv = v.shape[0]
    a1 = np.empty(nv)
    a2 = np.empty(nv)
    a3 = np.empty(nv)
    a4 = np.empty(nv)
    k2 = np.empty(nv)
    k3 = np.empty(nv)
    k4 = np.empty(nv)
    qs = np.empty(q.shape[0])
    vs = np.empty(nv)
    delta = np.empty(nv)
    forward_dynamics(t, ws, scr, q, v, tau, fext, passive, M, a1)
    # stage 2
    delta[:] = 0.5 * dt * v
    integrate(t.nodes, t.v2q, q, delta, 1.0, qs)
    vs[:] = v + 0.5 * dt * a1
    forward_dynamics(t, ws, scr, qs, vs, tau, fext, passive, M, a2)
    dexpinv(t.nodes, delta, vs, k2)
    # stage 3
    delta[:] = 0.5 * dt * k2
    integrate(t.nodes, t.v2q, q, delta, 1.0, qs)
    vs[:] = v + 0.5 * dt * a2
    forward_dynamics(t, ws, scr, qs, vs, tau, fext, passive, M, a3)
    dexpinv(t.nodes, delta, vs, k3)
    # stage 4
    delta[:] = dt * k3
    integrate(t.nodes, t.v2q, q, delta, 1.0, qs)
    vs[:] = v + dt * a3
    forward_dynamics(t, ws, scr, qs, vs, tau, fext, passive, M, a4)
    dexpinv(t.nodes, delta, vs, k4)
    delta[:] = dt / 6.0 * (v + 2.0 * k2 + 2.0 * k3 + k4)
    integrate(t.nodes, t.v2q, q, delta, 1.0, q_out)
    v_out[:] = v + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4)


@nb.njit(cache=True, nogil=True)
def simulate(t, ws, scr, q0, v0, tau, passive, dt, n_steps, Q, V):
    """Integrate ``n_steps`` from ``(q0, v0)`` with constant ``tau``; store every state in ``Q, V``."""
    M = np.empty((v0.shape[0], v0.shape[0]))
    fext = np.zeros((0, 6))
    Q[0] = q0
    V[0] = v0
    for i in range(n_steps):
        rkmk4_step(t, ws, scr, Q[i], V[i], tau, fext, passive, dt, M, Q[i + 1], V[i + 1])
