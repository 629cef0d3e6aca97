"""The reference motion of the demo: hopping in place on both limbs, the intact foot and the blade.

Repeated two-legged hops are a standard test of running-specific prostheses (the blade works as
the spring it was designed to be) and load both force plates at once, one limb on each. Each hop
is a stance on both limbs followed by a flight. Joint angles follow periodic cubic splines
through keyframes (degrees, fractions of the hop period, OpenSim's sign conventions: hip flexion
and ankle dorsiflexion positive, knee flexion negative). The centre of mass follows the
spring-mass model: during the stance the vertical ground reaction is a half sine whose impulse
balances gravity over the hop, during flight the centre of mass is ballistic.
"""
from __future__ import annotations

import numpy as np
from scipy.interpolate import CubicSpline

G = 9.80665
STANCE = ("foot_l", "blade")

# (hop fraction, degrees); the stance lasts from 0 to 0.614 of the 0.44 s hop. The stance
# keyframes (0, 0.307, 0.614) put each limb's lowest contact point under the centre of mass and
# on the floor (the blade compressed 3 cm at mid-stance) for the centre of mass of
# :meth:`HoppingInPlace.com`, 1.04 m above the floor at touch-down; in flight the intact foot is
# lifted clear of the floor.
KEYFRAMES = {
    "hip_flexion_l": ((0.0, 19.0), (0.307, 33.0), (0.614, 23.0), (0.81, 30.0)),
    "knee_angle_l": ((0.0, -47.0), (0.307, -74.0), (0.614, -51.0), (0.81, -80.0)),
    "ankle_angle_l": ((0.0, -8.0), (0.307, 8.0), (0.614, -15.0), (0.81, 0.0)),
    "hip_flexion_r": ((0.0, 15.0), (0.307, 33.0), (0.614, 16.0), (0.81, 17.0)),
    "knee_angle_r": ((0.0, -36.0), (0.307, -65.0), (0.614, -36.0), (0.81, -40.0)),
    "shoulder_flexion_l": ((0.0, 15.0), (0.307, 0.0), (0.614, 25.0), (0.81, 25.0)),
    "shoulder_flexion_r": ((0.0, 15.0), (0.307, 0.0), (0.614, 25.0), (0.81, 25.0)),
}
CONSTANT = {"hip_adduction_l": 1.0, "hip_adduction_r": 1.0, "elbow_flexion_l": 80.0, "elbow_flexion_r": 80.0,
            "shoulder_adduction_l": -8.0, "shoulder_adduction_r": -8.0, "lumbar_extension": -4.0}


class _PeriodicAngle:
    """A periodic cubic spline (rad) through keyframes (fraction of the period, degrees)."""

    def __init__(self, keys, period: float):
        t = np.array([k[0] for k in keys] + [1.0]) * period
        y = np.radians([k[1] for k in keys] + [keys[0][1]])
        self.spline = CubicSpline(t, y, bc_type="periodic")
        self.period = period

    def __call__(self, t: float) -> np.ndarray:
        """Angle (rad), rate (rad/s) and acceleration (rad/s^2) at ``t``."""
        tau = t % self.period
        return np.array([self.spline(tau), self.spline(tau, 1), self.spline(tau, 2)])


class HoppingInPlace:
    """Hops of ``hop_time`` s with stances of ``stance_time`` s on both limbs (the stance keyframes
    are drawn for the defaults)."""

    def __init__(self, hop_time: float = 0.44, stance_time: float = 0.27):
        self.hop_time, self.stance_time = hop_time, stance_time
        self._angles = {n: _PeriodicAngle(k, hop_time) for n, k in KEYFRAMES.items()}
        self._mean_y = 0.0
        self._mean_y = float(np.mean([self.com(t)[0][1] for t in np.linspace(0.0, hop_time, 2001)[:-1]]))

    def stance(self, t: float) -> tuple:
        """The contact groups in their planned stance at ``t`` (both limbs, or none in flight)."""
        return STANCE if t % self.hop_time < self.stance_time else ()

    def joints(self, t: float, coordinates) -> np.ndarray:
        """(3, n): reference angle (rad), rate and acceleration of each named coordinate at ``t``
        (zero for the coordinates the reference does not move)."""
        out = np.zeros((3, len(coordinates)))
        for i, name in enumerate(coordinates):
            if name in self._angles:
                out[:, i] = self._angles[name](t)
            elif name in CONSTANT:
                out[0, i] = np.radians(CONSTANT[name])
        return out

    def com(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centre-of-mass offset from its mean (m, model axes: x forward, y up, z right), its rate and
        acceleration at ``t``; only the height moves."""
        T, tc = self.hop_time, self.stance_time
        tau = t % T
        c = (T / tc) * (np.pi / 2)           # peak vertical force over body weight
        w = np.pi / tc
        vy0 = -G * (T - tc) / 2              # vertical speed at touch-down
        if tau < tc:
            ay = G * (c * np.sin(w * tau) - 1.0)
            vy = vy0 + G * ((c / w) * (1.0 - np.cos(w * tau)) - tau)
            y = vy0 * tau + G * ((c / w) * (tau - np.sin(w * tau) / w) - tau ** 2 / 2)
        else:
            s = tau - tc
            y_to = vy0 * tc + G * ((c / w) * tc - tc ** 2 / 2)
            ay, vy, y = -G, -vy0 - G * s, y_to - vy0 * s - G * s ** 2 / 2
        return (np.array([0.0, y - self._mean_y, 0.0]), np.array([0.0, vy, 0.0]), np.array([0.0, ay, 0.0]))

    def vertical_force(self, t: float) -> float:
        """The reference's total vertical ground reaction (N per kg of body mass)."""
        return float(self.com(t)[2][1] + G) if self.stance(t) else 0.0
