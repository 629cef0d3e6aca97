"""The point that follows each side's foot for the spatial gait parameters (stride and step length, step width, speed).

In order of preference, per side:

* the model's contact candidates (``model.contacts``): the centroid of the side's candidates;
* a heel marker of the model (``engine.clinical.foot_names``: ``R.Heel``, ``RHEE``, ``RCAL``, ``heel_r`` ...): the
  model's marker, not the recorded one, so a gap in the recording leaves no hole;
* the origin of the side's hindfoot body: ``calcn_r`` (OpenSim), ``foot_r``, ``RFT`` (Visual3D) ...

A side with two heel markers by those names (ambiguous) falls back to its hindfoot body, and with two hindfoot bodies
as well has no point: its ``source`` names them. Positions are the forward kinematics of the analysed coordinates
``motion.q`` (T, 3) m, world. The floor's horizontal velocity (m/s; a treadmill's belt, zero overground) is, for
contact candidates, :func:`contact_kinematics`'s; for a marker or a body origin, the median
horizontal velocity of the sides' points over the middle third of each of their stances (the foot flat on the floor:
a heel still slows down after the strike and lifts before the foot off, so a median over the frames near the floor,
as for candidates, gave a belt 2-3 % slow on OpenSim's treadmill walk, and its strides 3-4 cm short); without a
stance with a Foot Off, over the frames where each point is within ``NEAR`` of its own lowest. ``FootPoints.floor``
says which, with the velocity. The kinematic gait events (``engine.clinical.events``) take this floor, without
stances (they are what the events find).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms.batch import frame_positions_batch
from ..analysis.gait_phases import side_of
from ..data import Data
from .foot_names import HEEL, HINDFOOT, foot_point

NEAR = 0.04       # m: candidates this near the floor define its velocity (the QP's default height)


@dataclass(frozen=True)
class Kinematics:
    """Candidate positions ``X`` (T, C, 3) m world, ``floor`` m along up, ``floor_velocity`` (3,) m/s."""

    X: np.ndarray
    floor: float
    floor_velocity: np.ndarray


def _horizontal_median(V, up) -> np.ndarray:
    """(3,) m/s: the median of the velocities ``V`` (n, 3) m/s less their component along ``up`` (zero for none)."""
    horizontal = V - np.outer(V @ up, up)
    return np.median(horizontal, axis=0) if len(V) else np.zeros(3)


def contact_kinematics(result) -> Kinematics:
    """Positions of every contact candidate over the analysed frames, the floor's height (the mean of the contact
    groups' lowest) and velocity (the median horizontal velocity of the candidates within ``NEAR`` of it)."""
    model, time = result.model, result.motion.time
    X = frame_positions_batch(model, Data(model), result.motion.q, [c.name for c in model.contacts])
    H = X @ model.up
    groups = sorted({c.group for c in model.contacts})
    floor = float(np.mean([H[:, [c.group == g for c in model.contacts]].min() for g in groups]))
    V = np.gradient(X, time, axis=0)
    return Kinematics(X, floor, _horizontal_median(V[H - floor < NEAR], model.up))


@dataclass(frozen=True)
class FootPoints:
    """``positions`` {side: (T, 3) m or None}; ``floor_velocity`` (3,) m/s; ``source`` {side: what the positions
    are, or why there are none}; ``floor``: the floor velocity and how it was estimated."""

    positions: dict
    floor_velocity: np.ndarray
    source: dict
    floor: str


def _floor(velocity, how) -> str:
    return f"floor (belt) velocity ({', '.join(f'{x:.3f}' for x in velocity)}) m/s world: {how}"


def foot_points(result, stances: dict) -> FootPoints:
    """Each side's foot point over the analysed frames and the floor's velocity (module notes); ``stances`` {side:
    [(Foot Strike, Foot Off or None)] s}."""
    model, time, q = result.model, result.motion.time, result.motion.q
    if model.contacts:
        k = contact_kinematics(result)
        positions, source = {}, {}
        for side in ("Left", "Right"):
            member = np.array([side_of(c.group) == side for c in model.contacts])
            groups = sorted({c.group for c in model.contacts if side_of(c.group) == side})
            positions[side] = k.X[:, member].mean(axis=1) if member.any() else None
            source[side] = (f"the centroid of the contact candidates of {', '.join(groups)}" if groups
                            else "none: no contact candidate on this side")
        return FootPoints(positions, k.floor_velocity, source,
                          _floor(k.floor_velocity, "the median horizontal velocity of the contact candidates within "
                                                   f"{100 * NEAR:.0f} cm of the floor"))
    chosen, source = {}, {}
    for side in ("Left", "Right"):
        name, source[side] = foot_point(model, side, HEEL, HINDFOOT)
        if name is not None:
            chosen[side] = name
    if not chosen:
        return FootPoints({"Left": None, "Right": None}, np.zeros(3), source, "floor velocity: none (no foot point)")
    X = frame_positions_batch(model, Data(model), q, list(chosen.values()))
    up = model.up
    V = np.gradient(X, time, axis=0)
    flat = [V[(time >= a + (b - a) / 3) & (time <= b - (b - a) / 3), list(chosen).index(side)]
            for side in chosen for a, b in stances.get(side, []) if b is not None]
    flat = np.concatenate(flat) if flat else np.zeros((0, 3))
    how = f"the median horizontal velocity of the foot points over the middle thirds of their stances ({len(flat)} frames)"
    if not len(flat):
        H = X @ up
        flat = V[H - H.min(axis=0) < NEAR]
        how = ("no stance with a Foot Off: the median horizontal velocity of the foot points within "
               f"{100 * NEAR:.0f} cm of their own lowest (a heel still slows down after the strike: a belt a few % slow)")
    velocity = _horizontal_median(flat, up)
    positions = {side: X[:, list(chosen).index(side)] if side in chosen else None for side in ("Left", "Right")}
    return FootPoints(positions, velocity, source, _floor(velocity, how))
