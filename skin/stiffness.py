"""PD joint stiffness holding the posture (seed eq. 2, Table I): ``tau_p = kP (theta_ref - theta) - kD theta_dot``.

The seed writes ``+ kD theta_dot``; a damper opposes the motion, so the sign here is minus. With Table I's
1 N m/rad a limb is nearly limp, so an end-range spring (``limit``, N m/rad) stops each coordinate ``margin`` rad
inside its range and ``margin`` rad before its joint's lock (``gimbal_locks``): our shoulder is OpenSim's
flexion-adduction-rotation sequence, which locks (its mass matrix is singular) at 90 degrees adduction, an arm falling
off a board's edge reaches it (the seed's shoulder, Nakamura et al.'s, is a ball joint), and the adduction's range
(-120 to 90 degrees) holds the lock at -90 (a limp arm swung there inside the range and the sling's run diverged).
Before a lock the spring is a barrier, ``U = limit m^2 (ln(m / d) + d / m - 1)`` at ``d`` rad from the lock (``m`` the
margin; stiffness ``limit`` where it starts, ``limit m^2 / d^2`` nearer): a linear spring stores a finite energy, which
an arm falling off the board's edge with the body overran into the lock, where the mass matrix is singular."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import SettingsError
from engine.model.functions import IDENTITY
from engine.model.joints import GeneralJoint
from engine.tree import compile_tree

# Table I, N m/rad, matched to coordinate names by these words (first match wins)
TABLE_I = (("shoulder", 1.0), ("thoracic", 100.0), ("lumbar", 100.0), ("hip", 1.0), ("knee", 1.0), ("ankle", 1.0))
OTHER = 1.0         # N m/rad, joints Table I does not list (neck, elbow, wrist, subtalar, toes)
DAMPING = 0.1       # N m s/rad: Table I gives no kD
LIMIT = 50.0        # N m/rad, end-range stiffness
MARGIN = 0.2        # rad, where the end-range spring starts, inside the coordinate's range


@dataclass(frozen=True)
class JointStiffness:
    """Per velocity coordinate ``kp`` (nv,) and ``kd`` (nv,) (N m/rad, N m s/rad; N/m, N s/m for translations)
    pulling scalar coordinates towards ``q_ref`` (nq,); zero for the floating base and the rods (whose own
    elasticity acts)."""

    kp: np.ndarray
    kd: np.ndarray
    q_ref: np.ndarray
    qi: np.ndarray
    vi: np.ndarray
    low: np.ndarray | None = None       # (len(qi),) where the end-range springs start, rad
    high: np.ndarray | None = None
    limit: float = 0.0
    lock_low: np.ndarray | None = None  # (len(qi),) the gimbal lock below ``low`` (rad; -inf where none): a barrier
    lock_high: np.ndarray | None = None

    def _end_range(self, q) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per coordinate of ``qi`` the end-range springs' generalized force (N m), energy (J) and stiffness
        ``-d force/dq`` (N m/rad)."""
        x = q[self.qi]
        force, energy, stiffness = np.zeros_like(x), np.zeros_like(x), np.zeros_like(x)
        if self.low is None or self.limit == 0.0:
            return force, energy, stiffness
        k = self.limit
        for start, lock, sign in ((self.low, self.lock_low, 1.0), (self.high, self.lock_high, -1.0)):
            beyond = np.minimum(sign * (x - start), 0.0)           # <= 0, how far past the start
            barrier = (beyond < 0) & np.isfinite(lock)
            linear = (beyond < 0) & ~barrier
            force[linear] -= sign * k * beyond[linear]
            energy[linear] += 0.5 * k * beyond[linear] ** 2
            stiffness[linear] += k
            if barrier.any():
                m, d = sign * (start - lock)[barrier], sign * (x - lock)[barrier]
                if (d <= 0).any():
                    raise FloatingPointError("a coordinate reached its joint's gimbal lock")
                force[barrier] += sign * k * m * (m / d - 1.0)
                energy[barrier] += k * m * m * (np.log(m / d) + d / m - 1.0)
                stiffness[barrier] += k * (m / d) ** 2
        return force, energy, stiffness

    def torque(self, q, v) -> np.ndarray:
        """``tau_joint`` (nv,) at ``(q, v)``."""
        tau = np.zeros(len(self.kp))
        tau[self.vi] = (self.kp[self.vi] * (self.q_ref[self.qi] - q[self.qi]) - self.kd[self.vi] * v[self.vi]
                        + self._end_range(q)[0])
        return tau

    def gains(self, q) -> tuple[np.ndarray, np.ndarray]:
        """``-d tau_joint/dq`` and ``-d tau_joint/dv`` at ``q``: the stiffness and damping (nv,) on each coordinate
        (N m/rad, N m s/rad; the end-range springs' stiffness added where they act), for an implicit step."""
        k = np.zeros(len(self.kp))
        d = np.zeros(len(self.kp))
        k[self.vi] = self.kp[self.vi] + self._end_range(q)[2]
        d[self.vi] = self.kd[self.vi]
        return k, d

    def energy(self, q) -> float:
        """The springs' potential energy ``sum kP/2 (q - q_ref)^2`` plus the end-range springs' (J)."""
        return float(0.5 * np.sum(self.kp[self.vi] * (q[self.qi] - self.q_ref[self.qi]) ** 2)
                     + np.sum(self._end_range(q)[1]))


def table_one(model, q_ref, damping: float = DAMPING, other: float = OTHER, table=TABLE_I, limit: float = LIMIT,
              margin: float = MARGIN) -> JointStiffness:
    """Table I's stiffness for ``model``'s coordinates (by name; ``other`` for those it does not list) about the
    reference pose ``q_ref`` (the initial pose, as the seed), with damping ``damping`` on each and end-range springs
    ``limit`` from ``margin`` inside each coordinate's range, or from the reference where that is nearer the range's
    end (a knee straight at 0 with its range ending at 10 degrees: an end-range spring starting inside the reference
    would hold the joint away from its own posture, 130 N m at the sling's 0.6 rad margin), see the module notes;
    0 for none."""
    if damping < 0 or other < 0 or limit < 0 or margin < 0:
        raise SettingsError("joint stiffness and damping must be non-negative", "joint stiffness")
    rods = {c for r in model.rods for c in compile_tree(model).coordinates if c.startswith(f"{r.name}_s")}
    kp = np.zeros(model.nv)
    kd = np.zeros(model.nv)
    qi, vi, low, high, lock_low, lock_high = [], [], [], [], [], []
    locks = gimbal_locks(model)
    for name, slot in compile_tree(model).coordinates.items():
        if name in rods or slot.qi is None or slot.vi is None:
            continue
        kp[slot.vi] = next((k for word, k in table if word in name), other)
        kd[slot.vi] = damping
        qi.append(slot.qi)
        vi.append(slot.vi)
        lo, hi = slot.range if slot.range is not None else (-np.inf, np.inf)
        inner = min(margin, 0.25 * (hi - lo))
        lo, hi = min(lo + inner, q_ref[slot.qi]), max(hi - inner, q_ref[slot.qi])   # never acting at the reference
        below, above = -np.inf, np.inf
        for lock in locks.get(name, ()):
            lock += 2.0 * np.pi * np.round((q_ref[slot.qi] - lock) / (2.0 * np.pi))    # the turn nearest the pose
            if lock < q_ref[slot.qi] and lock + margin >= lo:
                lo, below = lock + margin, lock
            elif lock >= q_ref[slot.qi] and lock - margin <= hi:
                hi, above = lock - margin, lock
        low.append(lo)
        high.append(hi)
        lock_low.append(below)
        lock_high.append(above)
    return JointStiffness(kp, kd, np.asarray(q_ref, float).copy(), np.asarray(qi, np.int64), np.asarray(vi, np.int64),
                          np.asarray(low, float), np.asarray(high, float), float(limit), np.asarray(lock_low, float),
                          np.asarray(lock_high, float))


def gimbal_locks(model, tol: float = 1e-9) -> dict[str, tuple]:
    """``{coordinate: angles (rad, in (-pi, pi])}`` where a general joint's three rotations (body-fixed
    ``Rot(a0, q0) Rot(a1, q1) Rot(a2, q2)``, each driven by a coordinate, the middle one directly) move it in only two
    directions: the middle coordinate's angles at which ``a0``, ``a1`` and ``Rot(a1, q1) a2`` are coplanar (+-90
    degrees for orthogonal axes). By Rodrigues ``det[a0, a1, Rot(a1, t) a2] = A cos t + B sin t``, zero at
    ``atan2(B, A) +- pi/2``. A joint whose axes are coplanar at every angle (``a1`` along ``a0`` or ``a2``) has no
    angle to keep away from and is not listed."""
    out = {}
    for joint in model.joints:
        if not isinstance(joint, GeneralJoint):
            continue
        r0, r1, r2 = joint.rotations
        if r0.coordinate is None or r2.coordinate is None or r1.coordinate is None or r1.function != IDENTITY:
            continue
        a0, a1, a2 = (np.asarray(r.axis, float) / np.linalg.norm(r.axis) for r in joint.rotations)
        n = np.cross(a0, a1)
        A, B = n @ a2, n @ np.cross(a1, a2)
        if np.hypot(A, B) > tol:
            phi = np.arctan2(B, A)
            out[r1.coordinate] = tuple(float(np.angle(np.exp(1j * (phi + s)))) for s in (np.pi / 2, -np.pi / 2))
    return out
