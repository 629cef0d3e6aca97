"""The mechanism's Jacobians (seed sections 4 and 6.3), base axes, m and rad.

* :func:`velocity_map` P(q) (6x2): the platform's twist ``[omega; v_o] = P qd``; :func:`acceleration_bias`
  dP/dt qd, so that ``[domega; a_o] = P qdd + dP/dt qd`` (the acceleration map).
* :func:`constraint_jacobian` Jc (4x6), :func:`kinematic_jacobian` Jk (2x6, eq. 12), :func:`full_jacobian`
  J = [Jc; Jk] (6x6, eq. 15). A row is a wrench ``[moment about o; force]``; ``J @ twist`` gives the
  constraint rows' zero and the actuators' rates (dl2, dl3) for a feasible twist.
* :func:`actuator_jacobian` Jq = Jk P = d(l2, l3)/d(alpha, beta) (the seed's Jp of eq. 35 on feasible twists).
* :func:`link_jacobians` (eq. 36): each limb link's twist ``[omega_link; v_com]`` from the platform's twist.

About Jc: the seed's eqs. 10 and 14 take the constraint screws from the limbs' joint axes, drawn in its
figures 6 and 7, which its text does not give. With the platform's motion of eq. 5, a URR limb laid out as the
text describes can only transmit its axial force through A1 (its second constraint force is not reciprocal to
the motion), so Jc is built from the motion itself: limb 1's axial force (eq. 14's first row), the couple
blocking the spin about Rx(alpha) e_z, and two lateral forces, together spanning the wrenches reciprocal to
every feasible twist (``_jacobians.full_jacobian``). Jk is the seed's eq. 12.
"""
from __future__ import annotations

import math

import numpy as np

from . import _jacobians
from .kinematics import state
from .parameters import MechanismParameters

ROW_NAMES = _jacobians.ROW_NAMES


def _full(params, q):
    J, P = np.empty((6, 6)), np.empty((6, 2))
    _jacobians.full_jacobian(params.geometry, np.asarray(q, dtype=float).reshape(2), J, P)
    return J, P


def velocity_map(params: MechanismParameters, q) -> np.ndarray:
    """P (6x2): ``[omega; v_o] = P qd`` (rad/s, m/s per rad/s)."""
    return state(params, q).P


def acceleration_bias(params: MechanismParameters, q, qd) -> np.ndarray:
    """dP/dt qd (6,): the platform's ``[domega; a_o]`` at zero qdd."""
    st = state(params, q, qd)
    return np.concatenate([st.domega, st.a_o])


def full_jacobian(params: MechanismParameters, q) -> np.ndarray:
    """J = [Jc; Jk] (6x6, seed eq. 15); rows named by ``ROW_NAMES``."""
    return _full(params, q)[0]


def constraint_jacobian(params: MechanismParameters, q) -> np.ndarray:
    """Jc (4x6): wrenches the limbs can apply on the platform without doing work on any feasible motion."""
    return _full(params, q)[0][:4]


def kinematic_jacobian(params: MechanismParameters, q) -> np.ndarray:
    """Jk (2x6, seed eq. 12): ``(dl2, dl3) = Jk [omega; v_o]``."""
    return _full(params, q)[0][4:]


def actuator_jacobian(params: MechanismParameters, q) -> np.ndarray:
    """Jq = d(l2, l3)/d(alpha, beta) (2x2, m/rad)."""
    J, P = _full(params, q)
    return J[4:] @ P


def _skew(x):
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


_EYE3 = np.eye(3)
_EY = np.array([0.0, 1.0, 0.0])


def link_jacobians(params: MechanismParameters, q, st=None) -> dict[str, np.ndarray]:
    """Each limb link's twist ``[omega_link; v_com]`` (base axes) from the platform's twist ``[omega; v_o]``:
    ``{link name: (6, 6)}`` (seed eq. 36). A limb moves with its joint point Bi: dBi = v_o + omega x r_i,
    ds_i = (I - s_i s_i^T) dBi / l_i, its universal joint's rates follow from ds_i and its angular velocity is
    dchi e_y + deta Ry(chi) e_x; a link's centre of mass moves with e ds_i (from Ai) or dBi - e ds_i (from Bi).
    Compose with :func:`velocity_map` for the maps from qd. ``st``: the state at ``q`` if already computed."""
    st = state(params, q) if st is None else st
    out = {}
    for name, limb, end, e, _, _ in params.links():
        s, length = st.s[limb], st.lengths[limb, 0]
        r = st.B[limb] - st.p
        V = np.hstack([-_skew(r), _EYE3])                           # dBi = V t
        S = (_EYE3 - s[:, None] * s[None, :]) / length @ V          # ds = S t
        chi, eta = st.universal[limb, 0], st.universal[limb, 1]
        rho2 = s[0] ** 2 + s[2] ** 2
        c_chi = np.array([s[2], 0.0, -s[0]]) / rho2                  # dchi = c_chi . ds
        c_eta = np.array([0.0, -1.0 / math.cos(eta), 0.0])           # deta = c_eta . ds
        w_axis = np.array([math.cos(chi), 0.0, -math.sin(chi)])     # Ry(chi) e_x
        Omega = (_EY[:, None] * c_chi[None, :] + w_axis[:, None] * c_eta[None, :]) @ S
        Vc = e * S if end == 0 else V - e * S
        out[name] = np.concatenate([Omega, Vc])
    return out
