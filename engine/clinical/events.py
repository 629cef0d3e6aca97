"""Gait events from the kinematics, combined with the plates' and the trial's (C3D) events.

A contact group (a foot's or the blade's candidates, ``model.contacts``) is on the ground where one of its
candidates is within ``HEIGHT`` of the floor and moves slower than ``SPEED`` relative to the floor (the floor's
height and horizontal velocity estimated as the QP does: the mean of the groups' lowest heights, the median
horizontal velocity of the candidates near it, so a treadmill's belt counts as floor:
``engine.clinical.foot_points.contact_kinematics``). Foot Strike / Foot Off are the starts and ends of those
stances. Works without plates, for walking, running and a blade. A model without contact candidates (an OpenSim
model) has its feet followed by their heel, forefoot and toe tip points instead (:func:`foot_phases`: markers or
body origins by their usual names), each point's height above its own lowest over the trial, its speed relative to
the floor velocity of ``engine.clinical.foot_points`` (the one the spatial parameters fall back on).
Positions are the forward kinematics of the analysed coordinates ``motion.q``; velocities their time derivative (m/s).
On gait2354 walk1 (a treadmill walk at 60 Hz) the foot points' strikes and offs are within one frame of the plates'.
"""
from __future__ import annotations

import numpy as np

from ..algorithms.batch import frame_positions_batch
from ..analysis.gait_phases import MIN_STANCE, Phases, events_from_phases, keep_long, side_of, stance_phases
from ..data import Data
from ..trial.intervals import intervals_where
from .foot_names import FOREFOOT, HEEL, HINDFOOT, TIP, TOE, foot_point
from .foot_points import contact_kinematics, foot_points

HEIGHT = 0.02     # m above the floor
SPEED = 1.0       # m/s relative to the floor (the QP's default for an active candidate)


def kinematic_phases(result, height: float = HEIGHT, speed: float = SPEED,
                     min_duration: float = MIN_STANCE) -> Phases:
    """Stance intervals per contact group from the kinematics (module notes); source 'kinematics'."""
    model, time = result.model, result.motion.time
    k = contact_kinematics(result)
    H = k.X @ model.up - k.floor
    S = np.linalg.norm(np.gradient(k.X, time, axis=0) - k.floor_velocity, axis=2)
    groups = [c.group for c in model.contacts]
    return _phases(time, H, S, {g: [i for i, h in enumerate(groups) if h == g] for g in sorted(set(groups))},
                   height, speed, min_duration)


def _phases(time, H, S, members: dict, height, speed, min_duration) -> Phases:
    """Stances where one of a name's ``members`` {name: [column]} is below ``height`` (``H`` (T, P) m) and slower
    than ``speed`` (``S`` (T, P) m/s relative to the floor); source 'kinematics'."""
    span = (float(time[0]), float(time[-1]))
    intervals = {name: intervals_where(time, ((H[:, k] < height) & (S[:, k] < speed)).any(axis=1))
                 for name, k in members.items() if k}
    kept, dropped = keep_long(intervals, span, min_duration)
    return Phases("kinematics", kept, span, dropped, min_duration)


def foot_phase_points(model) -> dict:
    """``{side: [(kind, point, description)]}``: the heel, forefoot and toe tip points :func:`foot_phases` follows
    (``engine.clinical.foot_names``: the heel marker, else the hindfoot body's origin; the forefoot body's origin (the
    toes' joint), else a forefoot marker; the toe tip marker, the last to leave the floor); a point not found is
    left out."""
    return {side: [(kind, *p) for kind, p in (("heel", foot_point(model, side, HEEL, HINDFOOT)),
                                              ("forefoot", foot_point(model, side, TOE, FOREFOOT, body_first=True)),
                                              ("toe tip", foot_point(model, side, TIP, ()))) if p[0] is not None]
            for side in ("Left", "Right")}


def foot_phases(result, height: float = HEIGHT, speed: float = SPEED, min_duration: float = MIN_STANCE) -> Phases:
    """Stance intervals per side of a model without contact candidates, from its heel, forefoot and toe tip points
    (:func:`foot_phase_points`), each point's height taken above its own lowest over the trial (a marker stands off
    the floor), their speed relative to the floor of ``engine.clinical.foot_points`` (without stances: its estimate
    near the floor); source 'kinematics'. A side without any of them has no interval."""
    model, time = result.model, result.motion.time
    points = {side: [n for _, n, _ in found] for side, found in foot_phase_points(model).items()}
    names = [n for side in points for n in points[side]]
    if not names:
        return Phases("kinematics", {}, (float(time[0]), float(time[-1])), {}, min_duration)
    X = frame_positions_batch(model, Data(model), result.motion.q, names)
    H = X @ model.up
    H = H - H.min(axis=0)                     # each point above its own lowest: a marker stands off the floor
    S = np.linalg.norm(np.gradient(X, time, axis=0) - foot_points(result, {}).floor_velocity, axis=2)
    return _phases(time, H, S, {side: [names.index(n) for n in members] for side, members in points.items()},
                   height, speed, min_duration)


def gait_events(result, source: str = "auto"):
    """``(events, notes)``: Foot Strike / Foot Off per side. ``source``: 'trial' (the C3D's events), 'plates',
    'kinematics', or 'auto': the trial's events when it has some, else the plates' where they measured a side's
    stances, else the kinematics'; the notes say which was used for each side. A plate's side is that of the body
    the inverse dynamics applied it to (an ExternalLoads file's ``calcn_r``: ``IDResult.bodies``), else its name's
    ('right', 'FP_left')."""
    trial_events = [e for e in result.trial.events if e.label in ("Foot Strike", "Foot Off")]
    if source == "trial" or (source == "auto" and trial_events):
        return sorted(trial_events, key=lambda e: e.time), ["gait events: the trial's own (C3D) events"]
    kin = events_from_phases(kinematic_phases(result) if result.model.contacts else foot_phases(result))
    plates = []
    if result.trial.plates and source in ("auto", "plates"):
        bodies = result.classic.bodies if result.classic is not None else {}
        sided = [(bodies.get(name) or name, iv) for name, iv in stance_phases(result, "measured").intervals.items()]
        named = {f"{side_of(what).lower()} {k}": iv for k, (what, iv) in enumerate(sided)
                 if side_of(what) in ("Left", "Right")}
        plates = events_from_phases(Phases("measured", named, (float(result.motion.time[0]),
                                                                float(result.motion.time[-1]))))
    if source == "plates":
        return plates, ["gait events: the force plates' (20 N threshold)"]
    if source == "kinematics":
        return kin, [f"gait events: {_kinematics_note(result.model, ('Left', 'Right'))}"]
    events, notes = [], []
    for side in ("Left", "Right"):
        from_plates = [e for e in plates if e.context == side]
        chosen = from_plates or [e for e in kin if e.context == side]
        events += chosen
        notes.append(f"gait events, {side.lower()} side: " + ("the force plates' (20 N threshold)" if from_plates
                     else f"no plate applied to this side: {_kinematics_note(result.model, (side,))}"))
    return sorted(events, key=lambda e: e.time), notes


def _kinematics_note(model, sides) -> str:
    """What the kinematic events of ``sides`` were found from: the contact candidates, or each side's foot points
    (:func:`foot_phase_points`) and the floor assumed under them."""
    if model.contacts:
        return (f"from the kinematics (contact candidates within {100 * HEIGHT:.0f} cm of the floor and slower than "
                f"{SPEED:g} m/s relative to it)")
    points = foot_phase_points(model)
    found = "; ".join(f"{side.lower()}: " + (", ".join(f"{kind} {what}" for kind, _, what in points[side])
                                             or "no foot point found (engine.clinical.foot_names), so no event")
                      for side in sides)
    return (f"from the kinematics of the foot points ({found}), each within {100 * HEIGHT:.0f} cm of its own lowest "
            f"over the trial, taken as its floor (it stands that high off the floor when the foot is flat), and slower "
            f"than {SPEED:g} m/s relative to the floor's velocity (engine.clinical.foot_points)")
