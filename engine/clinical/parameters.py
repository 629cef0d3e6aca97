"""Spatio-temporal parameters per gait cycle and side, with mean and SD over cycles.

From Foot Strike / Foot Off events (``engine.clinical.events``): a side's cycle runs from its Foot Strike to its
next; per cycle: stride time (s), cadence (steps/min, 120 / stride time), contact time (s, strike to that side's
Foot Off), stance and swing (% of the cycle), flight (% of the cycle with neither side on the ground), stride
length (m, the side's foot point from strike to strike, measured on the floor: a treadmill's belt motion added back;
the foot point is the side's contact centroid, else its heel marker, else its hindfoot body's origin:
``engine.clinical.foot_points``), step length (m, along the progression, from the other side's previous strike)
and step width (m, across it), speed (m/s, stride length / stride time).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis.gait_phases import gait_cycles
from .foot_points import foot_points

UNITS = {"speed": "m/s", "cadence": "steps/min", "stride time": "s", "contact time": "s", "stance": "%",
         "swing": "%", "flight": "%", "stride length": "m", "step length": "m", "step width": "m"}


@dataclass(frozen=True)
class SideParameters:
    """``values``: {parameter: (cycles,) array} of one side; ``cycles``: [(start, end)] s; ``positions``: the point
    the spatial parameters follow and the floor (belt) velocity taken out of it (``engine.clinical.foot_points``), or
    why there is none."""

    side: str
    cycles: list
    values: dict
    positions: str = ""

    def mean(self, name: str) -> float:
        v = self.values.get(name, np.array([]))
        return float(np.mean(v)) if len(v) else float("nan")

    def sd(self, name: str) -> float:
        v = self.values.get(name, np.array([]))
        return float(np.std(v, ddof=1)) if len(v) > 1 else float("nan")


def stances_of(events, side) -> list:
    """``[(Foot Strike, next Foot Off or None)]`` s of one side."""
    strikes = sorted(e.time for e in events if e.label == "Foot Strike" and e.context == side)
    offs = sorted(e.time for e in events if e.label == "Foot Off" and e.context == side)
    return [(a, next((b for b in offs if b > a), None)) for a in strikes]


def _on_ground(events, side, t):
    """Whether ``side`` is on the ground at times ``t`` (from its events; before a first event, by what follows)."""
    marks = sorted((e.time, e.label == "Foot Strike") for e in events if e.context == side)
    if not marks:
        return np.zeros(len(t), bool)
    state = np.full(len(t), not marks[0][1])
    for time, strike in marks:
        state[t >= time] = strike
    return state


def spatiotemporal(result, events, forward=(1.0, 0.0, 0.0)) -> dict:
    """``{side: SideParameters}`` for 'Left' and 'Right' (module notes; ``forward`` the model's direction of
    progression); a side without a complete cycle has no values."""
    model = result.model
    feet = foot_points(result, {side: stances_of(events, side) for side in ("Left", "Right")})
    time = result.motion.time
    forward = np.asarray(forward, float)
    up = model.up
    forward = forward - (forward @ up) * up
    forward /= np.linalg.norm(forward)
    across = np.cross(up, forward)

    def position(side, t):
        """The side's foot point on the floor at ``t`` (belt motion removed), or None."""
        if feet.positions[side] is None:
            return None
        c = feet.positions[side] - np.outer(time, feet.floor_velocity)
        return np.array([np.interp(t, time, c[:, i]) for i in range(3)])

    fine = np.linspace(time[0], time[-1], 20 * len(time))
    airborne = ~_on_ground(events, "Left", fine) & ~_on_ground(events, "Right", fine)
    out = {}
    for side in ("Left", "Right"):
        other = "Right" if side == "Left" else "Left"
        cycles = gait_cycles(events, side)
        stances = dict(stances_of(events, side))
        other_strikes = sorted(e.time for e in events if e.label == "Foot Strike" and e.context == other)
        values = {name: [] for name in UNITS}
        for a, b in cycles:
            T = b - a
            off = stances.get(a)
            values["stride time"].append(T)
            values["cadence"].append(120.0 / T)
            contact = (off - a) if off is not None and off <= b else np.nan
            values["contact time"].append(contact)
            values["stance"].append(100.0 * contact / T)
            values["swing"].append(100.0 - 100.0 * contact / T)
            inside = (fine >= a) & (fine < b)
            values["flight"].append(100.0 * airborne[inside].mean())
            pa, pb = position(side, a), position(side, b)
            stride = float(np.linalg.norm((pb - pa) - ((pb - pa) @ up) * up)) if pa is not None and pb is not None \
                else np.nan
            values["stride length"].append(stride)
            values["speed"].append(stride / T)
            before = [s for s in other_strikes if s < a]
            po = position(other, before[-1]) if before else None
            values["step length"].append(abs(float((pa - po) @ forward)) if po is not None and pa is not None
                                         else np.nan)
            values["step width"].append(abs(float((pa - po) @ across)) if po is not None and pa is not None
                                        else np.nan)
        out[side] = SideParameters(side, cycles, {n: np.asarray(v, float) for n, v in values.items()},
                                   feet.source[side] if feet.positions[side] is None
                                   else f"{feet.source[side]}; {feet.floor}")
    return out
