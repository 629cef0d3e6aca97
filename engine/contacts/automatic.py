"""An automatic contact model: candidates under every foot and on every prosthesis rod, calibrated against the
floor, written into a new model (the seed's section 3.2 and Fig. 11: six points per foot, four on the blade).

``automatic_contacts`` finds the feet (``engine.contacts.feet``), lays their soles out in the model's neutral
pose (``engine.contacts.sole``: standing with the feet flat; a static trial's poses, fitted to skin markers,
would tilt the sole with the feet's IK error, so they calibrate its height only), puts four candidates on each
rod whose tip carries nothing (a prosthesis; ``engine.contacts.rod``) and calibrates the soles' height (``engine.contacts.calibration``) from the static trial's poses or the trial's
stances on the force plates. Each step is a line of the returned notes. Groups are ``foot_r``, ``foot_l`` and
the rod's name.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..model.points import ContactPoint
from .calibration import sole_corrections, stance_frames
from .feet import find_feet, no_feet_error
from .rod import rod_candidates
from .sole import candidates, sole_of


@dataclass
class Calibration:
    """Poses to calibrate the soles' height on: ``Q`` (T, nq) with the force plates' loads at the same frames
    (``plates``: per plate ``(force (T, 3) N, centre of pressure (T, 3) m, loaded (T,) bool, normal (3,))``;
    the stances on them calibrate), or a ``static`` trial's poses (feet flat: every frame calibrates); ``floor``
    the floor's height along up (m)."""

    Q: np.ndarray
    floor: float
    plates: list = field(default_factory=list)
    static: bool = False


@dataclass
class GeneratedContacts:
    """``model`` with the generated ``contacts`` (ContactPoint list) and the ``notes`` saying how."""

    model: object
    contacts: list
    notes: list


def _tip_is_free(model, rod) -> bool:
    return not any(model.resolve(j.parent)[0] == rod.name for j in model.joints) and \
        not any(model.resolve(r.parent)[0] == rod.name for r in model.rods)


def automatic_contacts(model, calibration: Calibration | None = None) -> GeneratedContacts:
    """Contact candidates for ``model`` (module notes); raises ModelError naming what was looked for if the model
    has neither recognisable feet nor a rod with a free tip."""
    feet = find_feet(model)
    rods = [r for r in model.rods if _tip_is_free(model, r)]
    if not feet and not rods:
        raise no_feet_error(model)
    up = model.up
    data = Data(model)
    alg.forward_kinematics(model, data, alg.neutral(model))
    root = model.ordered_elements[0]
    centre = alg.frame_placement(model, data, root.child if hasattr(root, "child") else root.name).p
    notes = ["contact candidates generated automatically, laid out in the neutral pose (standing, feet flat)"]
    contacts, normals, hindfeet = [], {}, {}
    for foot in feet:
        sole = sole_of(model, data, foot, up, centre)
        notes.append(f"{sole.group}: {sole.how}")
        for name, body, offset in candidates(model, data, sole):
            contacts.append(ContactPoint(name, body, offset, group=sole.group))
            normals[name] = alg.frame_placement(model, data, body).R.T @ up
            if body == foot.hindfoot:
                hindfeet.setdefault(sole.group, []).append(name)
    for rod in rods:
        tip = alg.rod_frames(model, data, rod.name, [rod.length])[1][0]
        medial = centre - tip
        medial -= (medial @ up) * up
        points, how = rod_candidates(model, data, rod, up, medial / max(np.linalg.norm(medial), 1e-9))
        contacts += [ContactPoint(n, rod.name, off, s=s, group=rod.name) for n, s, off in points]
        notes.append(how)
    out = model.replace(contacts=list(model.contacts) + contacts)
    if feet:
        contacts, note = _calibrate(out, contacts, normals, hindfeet, calibration)
        notes.append(note)
        out = model.replace(contacts=list(model.contacts) + contacts)
    return GeneratedContacts(out, contacts, notes)


def _calibrate(model, contacts, normals, groups, calibration):
    """The candidates with the soles moved onto the floor, and the note saying how; ``groups``: each foot's
    candidates on its hindfoot (heel and metatarsal heads: the toes bend, and calibrate nothing)."""
    if calibration is None:
        return contacts, "soles not calibrated (no static trial, no force plates): their provisional depth kept"
    if calibration.static:
        frames = {g: np.arange(len(calibration.Q)) for g in groups}
        source = f"the static trial ({len(calibration.Q)} poses, feet flat: the lowest candidates on the floor)"
    else:
        frames = stance_frames(model, calibration.Q, calibration.plates, groups)
        source = "the stances on the force plates (frames over half the plate's peak load: the foot's lowest " \
                 "candidate on the floor)"
    correction = sole_corrections(model, calibration.Q, frames, groups, calibration.floor)
    said = [f"{g} {100 * d:.1f} cm ({len(frames[g])} frames)" for g, d in correction.items()]
    missing = [g for g in groups if g not in correction]
    if correction and missing:
        mean = float(np.mean(list(correction.values())))
        said += [f"{g} {100 * mean:.1f} cm (never on a plate: the others' mean)" for g in missing]
        correction.update({g: mean for g in missing})
    elif missing:
        return contacts, f"soles not calibrated: no foot stood on a force plate in {source}; provisional depth kept"
    moved = [ContactPoint(c.name, c.parent, c.offset - correction[c.group] * normals[c.name], c.s, c.group)
             if c.name in normals else c for c in contacts]
    return moved, (f"soles calibrated on {source}, floor at {calibration.floor:.4f} m along up: the heel's and metatarsal "
                   "heads' lowest candidate was above it by "
                   + ", ".join(said))
