"""The reference motion of the demo: running in place, stances alternating between the intact foot and the blade.

Running in place puts one limb at a time on its force plate, so every stance is single support and the
plates see each limb alone, as in the seed's running trials (the ground reaction of one limb then
follows from the motion; in double support only the sum does). Each step is a stance on one limb
followed by a flight; the left foot's stance starts at 0, the blade's a step later. Joint angles follow
periodic cubic splines through keyframes (degrees, fractions of the stride, OpenSim's sign conventions:
hip flexion and ankle dorsiflexion positive, knee flexion negative). The centre of mass follows the
spring-mass model: in the stance the vertical ground reaction is a half sine whose impulse balances
gravity over the step, in flight the centre of mass is ballistic. Sideways it sways over the limb in
stance: the ground reaction points from the contact at the centre of mass (no roll moment),
``z'' = (z - p) (y'' + g) / h``, in flight ``z'' = 0``; the sway is the periodic orbit of these
equations that is antisymmetric over a step, found by shooting.
"""
from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp
from scipy.interpolate import CubicSpline
from scipy.optimize import brentq

G = 9.80665
STEP = 0.36            # s, from one touch-down to the next (the other limb's)
STANCE = 0.24          # s
WIDTH = 0.075          # m: each limb's centre of pressure from the midline (left foot -z, blade +z)
HEIGHT = 1.0           # m: height of the centre of mass above the contacts at mid-stance
# (stride fraction from the limb's own touch-down, degrees): stance 0-1/3, swing to 1; the blade's limb
# runs half a stride behind the left foot's. The touch-down poses put each limb's lowest point on the floor
# at the same height of the centre of mass; in the stance the controller lets the hip and knee follow the body.
KEYFRAMES = {
    "hip_flexion_l": ((0.0, 19.0), (0.167, 30.0), (0.333, 20.0), (0.65, 45.0), (0.9, 30.0)),
    "knee_angle_l": ((0.0, -47.0), (0.167, -68.0), (0.333, -45.0), (0.6, -100.0), (0.9, -70.0)),
    "ankle_angle_l": ((0.0, -8.0), (0.167, 6.0), (0.333, -15.0), (0.65, 0.0), (0.9, -5.0)),
    "hip_flexion_r": ((0.0, 15.0), (0.167, 30.0), (0.333, 13.0), (0.65, 45.0), (0.9, 28.0)),
    "knee_angle_r": ((0.0, -36.0), (0.167, -60.0), (0.333, -32.0), (0.6, -95.0), (0.9, -55.0)),
}
CONSTANT = {"hip_adduction_l": 0.0, "hip_adduction_r": 0.0, "elbow_flexion_l": 80.0, "elbow_flexion_r": 80.0,
            "shoulder_adduction_l": -8.0, "shoulder_adduction_r": -8.0, "shoulder_flexion_l": 10.0,
            "shoulder_flexion_r": 10.0, "lumbar_extension": -4.0}


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


def _vertical(tau: float) -> tuple[float, float, float]:
    """Height (m, from touch-down), vertical speed and acceleration ``tau`` s after a touch-down."""
    T, tc = STEP, STANCE
    c = (T / tc) * (np.pi / 2)
    w = np.pi / tc
    vy0 = -G * (T - tc) / 2
    if tau < tc:
        return (vy0 * tau + G * ((c / w) * (tau - np.sin(w * tau) / w) - tau ** 2 / 2),
                vy0 + G * ((c / w) * (1.0 - np.cos(w * tau)) - tau), G * (c * np.sin(w * tau) - 1.0))
    s = tau - tc
    y_to = vy0 * tc + G * ((c / w) * tc - tc ** 2 / 2)
    return y_to - vy0 * s - G * s ** 2 / 2, -vy0 - G * s, -G


_MID_STANCE_Y = _vertical(STANCE / 2)[0]      # m, the centre of mass's height at mid-stance from touch-down


def _sway(z, tau: float, p: float) -> float:
    """Sideways acceleration (m/s^2) ``tau`` s after the touch-down of the limb at ``p`` (m)."""
    if tau >= STANCE:
        return 0.0
    y, _, ay = _vertical(tau)
    return (z - p) * (ay + G) / (HEIGHT + y - _MID_STANCE_Y)


def _sway_step(z0: float, vz0: float):
    """The sway over the left foot's step from mid-stance to the blade's touch-down: a dense solution of
    ``(z, z')``."""
    return solve_ivp(lambda t, s: [s[1], _sway(s[0], t, -WIDTH)], (STANCE / 2, STEP), [z0, vz0],
                     dense_output=True, rtol=1e-10, atol=1e-12, max_step=0.005)


class RunningInPlace:
    """Running in place: steps of :data:`STEP` s alternating between the intact foot and the blade."""

    period = 2 * STEP

    def __init__(self):
        self._angles = {n: _PeriodicAngle(k, self.period) for n, k in KEYFRAMES.items()}
        # the periodic sway: still at mid-stance, back on the midline at mid-flight
        mid_flight = (STANCE + STEP) / 2
        z_mid = brentq(lambda z: _sway_step(z, 0.0).sol(mid_flight)[0], -WIDTH + 1e-4, 0.0)
        self._sway = _sway_step(z_mid, 0.0)
        self._mean_y = float(np.mean([_vertical(t)[0] for t in np.linspace(0.0, STEP, 2001)[:-1]]))

    def stance(self, t: float) -> tuple:
        """The contact groups in their planned stance at ``t`` (one limb, or none in flight)."""
        tau = t % self.period
        if tau < STANCE:
            return ("foot_l",)
        if STEP <= tau < STEP + STANCE:
            return ("blade",)
        return ()

    def joints(self, t: float, coordinates) -> np.ndarray:
        """(3, n): reference angle (rad), rate and acceleration of each named coordinate at ``t``
        (zero for the coordinates the reference does not move)."""
        out = np.zeros((3, len(coordinates)))
        for i, name in enumerate(coordinates):
            if name in self._angles:
                out[:, i] = self._angles[name](t - (STEP if name.endswith("_r") else 0.0))
            elif name in CONSTANT:
                out[0, i] = np.radians(CONSTANT[name])
        return out

    def com(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centre-of-mass offset from its mean (m, model axes: x forward, y up, z right), its rate and
        acceleration at ``t``."""
        tau = t % STEP
        y, vy, ay = _vertical(tau)
        # the sway over the step, from the left foot's (mirrored over the blade's)
        sign = 1.0 if (t % self.period) < STEP else -1.0
        # before mid-stance: the mirror image in time of the stance's second half (still at mid-stance)
        z, vz = self._sway.sol(tau) if tau >= STANCE / 2 else self._sway.sol(STANCE - tau) * np.array([1.0, -1.0])
        az = _sway(z, tau, -WIDTH)
        return (np.array([0.0, y - self._mean_y, sign * z]), np.array([0.0, vy, sign * vz]),
                np.array([0.0, ay, sign * az]))

    def vertical_force(self, t: float) -> float:
        """The reference's total vertical ground reaction (N per kg of body mass)."""
        return float(self.com(t)[2][1] + G) if self.stance(t) else 0.0
