"""Dynamics of the 2-UPR/URR mechanism by the principle of virtual work (seed section 6, eqs. 37-40).

Generalized coordinates q = (alpha, beta). For every body (the platform, limb 1's two rods, each actuated limb's
cylinder and piston) the applied and inertia wrench (eqs. 37-38: ``m g - m a_c`` and ``-I domega - omega x I
omega``, base axes, about its centre of mass) does virtual work through the body's Jacobians; with the
actuators' forces ``tau = (tau2, tau3)`` (N, positive pushing Bi away from Ai) working through
``Jq = d(l2, l3)/dq`` and the external wrench ``Fe = [f; n]`` (N, N m, base axes, at the platform's centre of
mass) the sum vanishes on every feasible virtual motion (eq. 39):

    Jq^T tau + P_c^T Fe + sum_b J_b^T F_b = 0     ->     Jq^T tau = M(q) qdd + h(q, qd) - P_c^T Fe

The seed writes eq. 39 with the 6-dimensional twist; restricted to the 2-dimensional feasible motions
(through the velocity map P) it is the pair of equations solved here. Each limb link turns with its
universal joint (angular velocity dchi e_y + deta Ry(chi) e_x, which the seed's eq. 24 approximates by its part
normal to the limb), and its inertia is given in the limb frame Ry(chi) Rx(eta).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from engine.errors import DataError

from . import _geometry
from .jacobians import _skew, actuator_jacobian, link_jacobians
from .kinematics import state
from .parameters import GRAVITY, MechanismParameters


@dataclasses.dataclass(frozen=True)
class BodyMotion:
    """One body's motion at (q, qd, qdd): mass, inertia about its centre of mass (base axes), centre of mass
    ``r`` with velocity and acceleration, angular velocity and acceleration, and the Jacobians ``Jv``, ``Jw``
    (3x2) of its centre's velocity and angular velocity with respect to qd."""

    name: str
    mass: float
    inertia: np.ndarray
    r: np.ndarray
    v: np.ndarray
    a: np.ndarray
    omega: np.ndarray
    domega: np.ndarray
    Jv: np.ndarray
    Jw: np.ndarray


def body_motions(params: MechanismParameters, q, qd=(0.0, 0.0), qdd=(0.0, 0.0)) -> list[BodyMotion]:
    """The platform's and the six limb links' motions (seed eqs. 21-34)."""
    st = state(params, q, qd, qdd)
    c = st.R @ np.asarray(params.platform_com)
    Jw = st.P[:3]
    C, W = _skew(c), _skew(st.omega)
    Jv = st.P[3:] - C @ Jw
    bodies = [BodyMotion("platform", params.m_platform, st.R @ np.asarray(params.I_platform) @ st.R.T, st.p + c,
                         st.v_o + W @ c, st.a_o - C @ st.domega + W @ (W @ c), st.omega, st.domega, Jv, Jw)]
    links = link_jacobians(params, q, st)
    A = np.empty((3, 3))
    _geometry.base_points(params.geometry, A)
    Ri = np.empty((3, 3))
    for name, limb, end, e, mass, inertia in params.links():
        U = st.universal[limb]
        w, dw = np.empty(3), np.empty(3)
        _geometry.limb_angular_motion(U, w, dw)
        _geometry.limb_frame(U[0], U[1], Ri)
        if end == 0:
            r, v, a = A[limb] + e * st.s[limb], e * st.ds[limb], e * st.dds[limb]
        else:
            r, v, a = st.B[limb] - e * st.s[limb], st.vB[limb] - e * st.ds[limb], st.aB[limb] - e * st.dds[limb]
        G = links[name] @ st.P
        bodies.append(BodyMotion(name, mass, Ri @ inertia @ Ri.T, r, v, a, w, dw, G[3:], G[:3]))
    return bodies


def _wrench(wrench):
    if wrench is None:
        return np.zeros(6)
    wrench = np.asarray(wrench, dtype=float).reshape(6)
    if not np.all(np.isfinite(wrench)):
        raise DataError("the external wrench must be six finite numbers [f; n]", "Fe")
    return wrench


def required_forces(params: MechanismParameters, q, qd, qdd, wrench=None, gravity=GRAVITY) -> np.ndarray:
    """M(q) qdd + h(q, qd) - P_c^T Fe (2,): the generalized force (N m per rad) the actuators must supply."""
    Fe = _wrench(wrench)
    out = np.zeros(2)
    gravity = np.asarray(gravity, dtype=float)
    for b in body_motions(params, q, qd, qdd):
        out += b.Jv.T @ (b.mass * (b.a - gravity))
        out += b.Jw.T @ (b.inertia @ b.domega + _skew(b.omega) @ (b.inertia @ b.omega))
        if b.name == "platform":
            out -= b.Jv.T @ Fe[:3] + b.Jw.T @ Fe[3:]
    return out


def inverse_dynamics(params: MechanismParameters, q, qd, qdd, wrench=None, gravity=GRAVITY) -> np.ndarray:
    """Actuator forces (tau2, tau3) (N) for the motion (q, qd, qdd) under the external wrench ``Fe`` (eq. 40)."""
    return np.linalg.solve(actuator_jacobian(params, q).T, required_forces(params, q, qd, qdd, wrench, gravity))


def mass_matrix(params: MechanismParameters, q) -> np.ndarray:
    """M(q) (2x2, kg m^2): the mechanism's inertia in (alpha, beta)."""
    zero = np.zeros(3)
    return np.column_stack([required_forces(params, q, (0.0, 0.0), e, None, zero) for e in np.eye(2)])


def forward_dynamics(params: MechanismParameters, q, qd, tau, wrench=None, gravity=GRAVITY) -> np.ndarray:
    """qdd (rad/s^2) under actuator forces ``tau`` (N) and the external wrench: M qdd = Jq^T tau - h + P_c^T Fe."""
    rhs = actuator_jacobian(params, q).T @ np.asarray(tau, dtype=float) - required_forces(
        params, q, qd, (0.0, 0.0), wrench, gravity)
    return np.linalg.solve(mass_matrix(params, q), rhs)


def energies(params: MechanismParameters, q, qd, gravity=GRAVITY) -> tuple[float, float]:
    """(kinetic, potential) energy (J), the potential's zero at the base origin's height."""
    kinetic = potential = 0.0
    gravity = np.asarray(gravity, dtype=float)
    for b in body_motions(params, q, qd):
        kinetic += 0.5 * b.mass * b.v @ b.v + 0.5 * b.omega @ b.inertia @ b.omega
        potential -= b.mass * gravity @ b.r
    return kinetic, potential


def external_power(params: MechanismParameters, q, qd, wrench) -> float:
    """Power (W) of the external wrench at the platform's centre of mass."""
    platform = body_motions(params, q, qd)[0]
    Fe = _wrench(wrench)
    return float(Fe[:3] @ platform.v + Fe[3:] @ platform.omega)


@dataclasses.dataclass(frozen=True)
class Simulation:
    """A forward-dynamics run: ``time`` (T,), ``q``, ``qd`` (T, 2), the work (J) done since the start by the
    actuators and by the external wrench (T,), and scipy's ``success`` and ``message``."""

    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    actuator_work: np.ndarray
    external_work: np.ndarray
    success: bool
    message: str


def simulate(params: MechanismParameters, q0, qd0, time, actuator_forces, wrench=None, gravity=GRAVITY,
             rtol=1e-10, atol=1e-12) -> Simulation:
    """Integrate the forward dynamics from (q0, qd0) over ``time`` (s) with scipy's DOP853 (an embedded
    Runge-Kutta 8(5,3); the engine's integrators step its own model's joint groups, not this mechanism).

    ``actuator_forces(t, q, qd)`` gives (tau2, tau3) (N); ``wrench`` is None, a (6,) array or a callable
    ``wrench(t, q, qd)``. The actuators' and the wrench's work are integrated alongside, for the energy balance.
    """
    time = np.asarray(time, dtype=float)
    fe = wrench if callable(wrench) else (lambda t, q, qd: wrench)

    def rhs(t, y):
        q, qd = y[:2], y[2:4]
        tau = np.asarray(actuator_forces(t, q, qd), dtype=float)
        Fe = fe(t, q, qd)
        qdd = forward_dynamics(params, q, qd, tau, Fe, gravity)
        dl = actuator_jacobian(params, q) @ qd
        return np.concatenate([qd, qdd, [tau @ dl, external_power(params, q, qd, Fe) if Fe is not None else 0.0]])

    y0 = np.concatenate([np.asarray(q0, dtype=float), np.asarray(qd0, dtype=float), [0.0, 0.0]])
    from scipy.integrate import solve_ivp     # imported when used: the application imports this package at launch
    sol = solve_ivp(rhs, (time[0], time[-1]), y0, method="DOP853", t_eval=time, rtol=rtol, atol=atol)
    y = sol.y.T
    if len(y) != len(time):
        y = np.vstack([y, np.full((len(time) - len(y), 6), y[-1] if len(y) else y0)])
    return Simulation(time, y[:, :2], y[:, 2:4], y[:, 4], y[:, 5], bool(sol.success), str(sol.message))
