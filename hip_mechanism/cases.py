"""The seed's two test modes (section 7.1) as built-in cases.

* ``flexion_extension``: 3.0 m/s with a 20 kg load, the platform's motion of eq. 42 (alpha = 0, beta(t)),
  Fe = [-35, 0, 50, 60, 50, 0];
* ``abduction_adduction``: 1.5 m/s without load, eq. 43 (alpha(t), beta = 0), Fe = [-20, 0, 25, 30, 30, 0].

Fe is [f; n] at the platform's centre of mass (section 6.4.1); the seed computes in mm (g = 9807 mm/s^2), so
its moments are read as N mm (0.060 N m...). The load is part of the seed's Fe ("for the human with a load of
20 kg"), not an added mass. The trajectories are the printed piecewise fits, evaluated with each piece's
exact derivatives; as printed they do not join (eq. 42's beta jumps from 33.0 to 50.5 deg at t = 0.1 s, and
eq. 43's second piece, 35pi/18 t^2 + 31pi/9 t + 533pi/360, reaches 986 deg at t = 0.8 s): the frames outside
the workspace are marked by :func:`~hip_mechanism.demands.actuator_demands`, never altered.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .demands import Demands, actuator_demands
from .parameters import MechanismParameters

PI = math.pi


def _eq42(t):
    """beta(t) of eq. 42 and its two derivatives (rad); alpha = 0."""
    if t < 0.1:
        return 35 * PI / 18 * t * t + 59 * PI / 360, 35 * PI / 9 * t, 35 * PI / 9
    if t < 1.1:
        w, ph = 20 * PI / 11, 2 * PI / 11
        amp = 11 * PI / 60
        return (amp * math.cos(w * t - ph) + 7 * PI / 72, -amp * w * math.sin(w * t - ph),
                -amp * w * w * math.cos(w * t - ph))
    return -PI / 36 * t + 13 * PI / 72, -PI / 36, 0.0


def _eq43(t):
    """alpha(t) of eq. 43 and its two derivatives (rad); beta = 0."""
    if t < 0.8:
        w, amp = 5 * PI / 3, 11 * PI / 360
        return amp * math.cos(w * t - PI), -amp * w * math.sin(w * t - PI), -amp * w * w * math.cos(w * t - PI)
    if t < 1.0:
        return 35 * PI / 18 * t * t + 31 * PI / 9 * t + 533 * PI / 360, 35 * PI / 9 * t + 31 * PI / 9, 35 * PI / 9
    return -PI / 36 * t + PI / 120, -PI / 36, 0.0


@dataclasses.dataclass(frozen=True)
class SeedCase:
    """A built-in case: its name, the seed's statement, walking speed (m/s), Fe as the seed writes it
    ([N, N, N, N mm, N mm, N mm]) and the angle it moves (``"beta"`` or ``"alpha"``)."""

    name: str
    statement: str
    speed: float
    seed_wrench: tuple
    moves: str

    @property
    def wrench(self) -> np.ndarray:
        """Fe in SI: [f (N); n (N m)]."""
        w = np.array(self.seed_wrench, dtype=float)
        w[3:] *= 1e-3
        return w

    def motion(self, time):
        """(q, qd, qdd) (T, 2) at ``time`` (s)."""
        fit = _eq42 if self.moves == "beta" else _eq43
        column = 1 if self.moves == "beta" else 0
        q, qd, qdd = (np.zeros((len(time), 2)) for _ in range(3))
        for i, t in enumerate(time):
            q[i, column], qd[i, column], qdd[i, column] = fit(float(t))
        return q, qd, qdd


CASES = {
    "flexion_extension": SeedCase(
        "flexion_extension", "first mode: 3.0 m/s with a 20 kg load, flexion and extension (eq. 42); the two "
        "actuating forces are the same owing to the symmetric limbs (Figure 17)", 3.0,
        (-35.0, 0.0, 50.0, 60.0, 50.0, 0.0), "beta"),
    "abduction_adduction": SeedCase(
        "abduction_adduction", "second mode: 1.5 m/s without load, abduction and adduction (eq. 43); the two "
        "forces change alike in size, in opposite directions (Figure 18)", 1.5,
        (-20.0, 0.0, 25.0, 30.0, 30.0, 0.0), "alpha"),
}


def run_case(params: MechanismParameters, name: str, rate: float = 200.0) -> Demands:
    """The actuators' demands over the case's 1.2 s gait cycle sampled at ``rate`` (Hz)."""
    case = CASES[name]
    time = np.arange(0.0, 1.2, 1.0 / rate)
    q, qd, qdd = case.motion(time)
    return actuator_demands(params, time, q, qd, qdd, wrench=case.wrench,
                            notes=[f"seed case {name}: {case.statement}",
                                   "Fe's moments read as N mm (the seed computes in mm)"])
