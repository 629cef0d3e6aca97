"""Inverse and forward kinematics of the 2-UPR/URR mechanism (seed section 3, eqs. 2-6) and its motion.

Inverse kinematics: the platform's pose (R, p) of eqs. 2 and 5 and the limb lengths of eq. 6 from the
platform's angles q = (alpha, beta) (rad). Forward kinematics: the angles from the actuators' lengths (l2, l3)
by Newton's method on eq. 6, started from a given pose; along a motion each frame starts from the previous
one, so the branch is followed continuously. SI units.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from engine.errors import DataError

from . import _geometry, _jacobians
from .parameters import MechanismParameters


@dataclasses.dataclass(frozen=True)
class MechanismState:
    """The mechanism's kinematics at (q, qd, qdd), base axes, m and rad.

    ``R`` (3, 3) and ``p`` (3,) the platform's pose (eqs. 2, 5); ``omega``, ``v_o``, ``domega``, ``a_o`` its
    angular velocity, the velocity of o and their rates; ``P`` (6, 2) the velocity map ``[omega; v_o] = P qd``.
    Per limb (rows 0, 1, 2 = limbs 1, 2, 3): ``B`` the joint points Bi, ``vB``, ``aB`` their velocity and
    acceleration (eqs. 22, 26); ``s``, ``ds``, ``dds`` the unit vectors from Ai to Bi and their rates;
    ``lengths`` (3, 3) ``(l, dl, ddl)`` (eqs. 6, 24, 27); ``universal`` (3, 6) the universal joints' angles
    ``(chi, eta)`` and their first and second rates.
    """

    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    R: np.ndarray
    p: np.ndarray
    omega: np.ndarray
    v_o: np.ndarray
    domega: np.ndarray
    a_o: np.ndarray
    P: np.ndarray
    B: np.ndarray
    vB: np.ndarray
    aB: np.ndarray
    s: np.ndarray
    ds: np.ndarray
    dds: np.ndarray
    lengths: np.ndarray
    universal: np.ndarray


def state(params: MechanismParameters, q, qd=(0.0, 0.0), qdd=(0.0, 0.0)) -> MechanismState:
    """Everything the kinematics gives at (q, qd, qdd) (rad, rad/s, rad/s^2)."""
    q, qd, qdd = (np.asarray(x, dtype=float).reshape(2) for x in (q, qd, qdd))
    g = params.geometry
    R, P = np.empty((3, 3)), np.empty((6, 2))
    p, w, v, dw, a = (np.empty(3) for _ in range(5))
    _geometry.platform_motion(g, q, qd, qdd, R, p, w, v, dw, a, P)
    B, vB, aB, s, ds, dds, L = (np.empty((3, 3)) for _ in range(7))
    U = np.empty((3, 6))
    _geometry.limb_motion(g, q, qd, qdd, B, vB, aB, s, ds, dds, L, U)
    return MechanismState(q, qd, qdd, R, p, w, v, dw, a, P, B, vB, aB, s, ds, dds, L, U)


def platform_pose(params: MechanismParameters, q) -> tuple[np.ndarray, np.ndarray]:
    """(R, p): the platform's orientation (eq. 2) and the position of its origin o (eq. 5), base axes, m."""
    st = state(params, q)
    return st.R, st.p


def limb_lengths(params: MechanismParameters, q) -> np.ndarray:
    """(l1, l2, l3) (m) at q (eq. 6); l1 is the passive limb's fixed length."""
    return state(params, q).lengths[:, 0].copy()


def actuator_lengths(params: MechanismParameters, Q) -> np.ndarray:
    """(l2, l3) (m) for poses Q (..., 2) (rad): shape (..., 2)."""
    Q = np.asarray(Q, dtype=float)
    flat = Q.reshape(-1, 2)
    out = np.array([limb_lengths(params, q)[1:] for q in flat])
    return out.reshape(Q.shape)


def _actuator_jacobian(params, q):
    J, P, Jq = np.empty((6, 6)), np.empty((6, 2)), np.empty((2, 2))
    _jacobians.full_jacobian(params.geometry, np.asarray(q, dtype=float), J, P)
    _jacobians.actuator_jacobian(J, P, Jq)
    return Jq


def solve_pose(params: MechanismParameters, lengths, q_start, tol=1e-13, max_iter=50):
    """Newton's method on eq. 6: the pose q nearest (by continuation) to ``q_start`` whose actuated limbs have
    ``lengths`` (l2, l3) (m). Returns (q, converged)."""
    target = np.asarray(lengths, dtype=float).reshape(2)
    q = np.asarray(q_start, dtype=float).reshape(2).copy()
    for _ in range(max_iter):
        residual = limb_lengths(params, q)[1:] - target
        if np.max(np.abs(residual)) < tol:
            return q, True
        Jq = _actuator_jacobian(params, q)
        if abs(np.linalg.det(Jq)) < 1e-14:
            return q, False
        step = np.linalg.solve(Jq, residual)
        scale = min(1.0, 0.2 / max(np.max(np.abs(step)), 1e-300))   # at most ~11 degrees a step
        q -= scale * step
    residual = limb_lengths(params, q)[1:] - target
    return q, bool(np.max(np.abs(residual)) < tol * 10)


def forward_kinematics(params: MechanismParameters, lengths, q_start=(0.0, 0.0)) -> np.ndarray:
    """The angles (alpha, beta) (rad) at which the actuated limbs have ``lengths`` (l2, l3) (m), on the branch
    reached from ``q_start`` by Newton's method.

    Raises
    ------
    DataError
        If no pose near ``q_start`` has these lengths (the loops cannot close with them).
    """
    q, ok = solve_pose(params, lengths, q_start)
    if not ok:
        l2, l3 = np.asarray(lengths, dtype=float).reshape(2) * 1e3
        raise DataError(f"no pose of the mechanism has actuator lengths l2 = {l2:.3f} mm, l3 = {l3:.3f} mm "
                        "near the starting pose (the loops cannot close)", "actuator lengths")
    return q


def forward_kinematics_path(params: MechanismParameters, lengths, q_start=(0.0, 0.0)):
    """Poses (T, 2) along a motion given the actuators' lengths (T, 2) (m), each frame started from the
    previous frame's pose (the branch followed continuously). Returns (Q, converged (T,) bool); a frame that
    does not converge keeps the previous pose as the next start and is marked False."""
    lengths = np.asarray(lengths, dtype=float).reshape(-1, 2)
    Q = np.empty_like(lengths)
    ok = np.zeros(len(lengths), dtype=bool)
    start = np.asarray(q_start, dtype=float).reshape(2)
    for t, target in enumerate(lengths):
        Q[t], ok[t] = solve_pose(params, target, start)
        if ok[t]:
            start = Q[t]
    return Q, ok
