"""What the actuators must do along a motion of the platform: lengths, speeds, forces and power, with the
workspace and conditioning margins and the frames where a limit is hit.

Every frame is computed; a frame outside the workspace, near a singularity or over the actuators' rated force
is marked in ``flags`` (bits of ``hip_mechanism.maps`` plus ``FORCE_LIMIT``) rather than dropped. Where the
full Jacobian is singular the forces are undefined: they are written as 0 and the frame is marked
``SINGULAR``, so that no file holds a NaN.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .dynamics import required_forces
from .jacobians import actuator_jacobian
from .kinematics import state
from .maps import SINGULAR, flag_text, path_measures
from .parameters import GRAVITY, MechanismParameters

FORCE_LIMIT = 32
SINGULAR_DEXTERITY = 1e-3     # 1/kappa below this: the frame is marked near-singular


@dataclasses.dataclass(frozen=True)
class Demands:
    """Per frame (T,): ``time`` (s), ``q``, ``qd``, ``qdd`` (T, 2) (rad...), ``lengths``, ``speeds`` (T, 2)
    (m, m/s), ``forces`` (T, 2) (N, positive pushing), ``power`` (T, 2) (W, force x speed), ``dexterity``
    (1/kappa), ``stroke_margin`` (m), ``joint_margin`` (rad), ``flags`` (int bits), ``load`` (T, 2) the
    generalized load applied (N m), and ``notes``."""

    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    lengths: np.ndarray
    speeds: np.ndarray
    forces: np.ndarray
    power: np.ndarray
    dexterity: np.ndarray
    stroke_margin: np.ndarray
    joint_margin: np.ndarray
    flags: np.ndarray
    load: np.ndarray
    notes: list

    def limit_text(self, frame: int) -> str:
        """The limits frame ``frame`` hits, in words ('' if none)."""
        text = flag_text(self.flags[frame])
        if self.flags[frame] & FORCE_LIMIT:
            text = "; ".join(t for t in (text, "actuator force over its rating") if t)
        return text


def actuator_demands(params: MechanismParameters, time, q, qd, qdd, wrench=None, generalized=None,
                     gravity=GRAVITY, notes=()) -> Demands:
    """Demands along (q, qd, qdd) (T, 2) under the external wrench ``wrench`` ((6,) or (T, 6): [f; n] in N and
    N m at the platform's centre of mass, base axes) and a generalized load ``generalized`` (T, 2) (N m about
    alpha and beta, applied to the platform, e.g. the hip's torques)."""
    time = np.asarray(time, dtype=float)
    q, qd, qdd = (np.asarray(x, dtype=float).reshape(-1, 2) for x in (q, qd, qdd))
    n = len(time)
    W = np.zeros((n, 6)) if wrench is None else np.broadcast_to(np.asarray(wrench, dtype=float), (n, 6))
    Qg = np.zeros((n, 2)) if generalized is None else np.asarray(generalized, dtype=float).reshape(n, 2)
    measures = path_measures(params, q)
    flags = measures["flags"].copy()
    flags[measures["dexterity"] < SINGULAR_DEXTERITY] |= SINGULAR
    lengths, speeds, forces = np.zeros((n, 2)), np.zeros((n, 2)), np.zeros((n, 2))
    for t in range(n):
        st = state(params, q[t], qd[t], qdd[t])
        lengths[t], speeds[t] = st.lengths[1:, 0], st.lengths[1:, 1]
        Jq = actuator_jacobian(params, q[t])
        need = required_forces(params, q[t], qd[t], qdd[t], W[t], gravity) - Qg[t]
        if abs(np.linalg.det(Jq)) > 1e-12:
            forces[t] = np.linalg.solve(Jq.T, need)
        if not np.all(np.isfinite(forces[t])):
            forces[t] = 0.0
            flags[t] |= SINGULAR
    flags[np.max(np.abs(forces), axis=1) > params.actuator_force_limit] |= FORCE_LIMIT
    notes = list(notes)
    marked = int(np.count_nonzero(flags))
    if marked:
        notes.append(f"{marked} of {n} frames hit a limit (marked in the 'limit' column): "
                     + ", ".join(sorted({flag_text(f) or "actuator force over its rating" for f in flags if f})))
    return Demands(time, q, qd, qdd, lengths, speeds, forces, forces * speeds, measures["dexterity"],
                   measures["stroke_margin"], measures["joint_margin"], flags, Qg, notes)
