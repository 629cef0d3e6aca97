"""A scaling setup made from the markers found, for a static trial without an OpenSim setup.

Each body is scaled (on its three axes) by the distance between the markers nearest its joint centres: the
centres of the joint that moves it (unless that joint hangs from ground, whose centre is no anatomical
point) and of the joints it carries, in the default pose; for each centre the nearest model marker the
trial has, within ``RADIUS``, preferring markers on the body itself; of those, the two farthest apart form
the body's marker pair if at least ``MIN_LENGTH`` apart. A body with no such pair takes the factors of its nearest measured ancestor (or,
for the root, of its first measured child). Prosthesis parts (a rod's socket, the rod itself) are never
scaled. Markers are then placed with every weight 1 on the trial's frames averaged, no coordinate tasks.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..model import GROUND
from .apply import prosthesis_bodies
from .setup import BodyScale, Measurement, PlacerSetup, ScalerSetup, ScaleSetup

RADIUS = 0.15       # m: how far from a joint centre a marker may be to stand for it
MIN_LENGTH = 0.10   # m: a shorter pair measures marker placement more than segment length


def _joint_centres(model, data) -> dict:
    """``{body: [(joint name, world position of its centre), ...]}`` over the joints at each body's ends."""
    ends: dict = {b.name: [] for b in model.bodies}
    for j in model.joints:
        centre = (alg.frame_placement(model, data, j.child) @ j.child_offset).p
        parent = model.resolve(j.parent)[0]
        if parent != GROUND:
            ends[j.child].append((j.name, centre))
        if parent in ends:
            ends[parent].append((j.name, centre))
    return ends


def default_measurements(model, trial_names) -> tuple[tuple, list]:
    """The measurements described above, and notes saying which markers stand for which joint centre."""
    data = Data(model)
    alg.forward_kinematics(model, data, alg.neutral(model))
    usable = [m for m in model.markers if m.name in set(trial_names)]
    where = {m.name: alg.frame_placement(model, data, m.name).p for m in usable}
    owner = {m.name: model.resolve(m.parent)[0] for m in usable}
    fixed = prosthesis_bodies(model)
    measured, notes = {}, []
    for body, ends in _joint_centres(model, data).items():
        if body in fixed:
            continue
        stand_ins = []
        for joint, centre in ends:
            near = sorted((owner[n] != body, float(np.linalg.norm(p - centre)), n) for n, p in where.items()
                          if np.linalg.norm(p - centre) <= RADIUS)
            if near:
                stand_ins.append((joint, near[0][2]))
        pairs = [(a, b) for i, a in enumerate(stand_ins) for b in stand_ins[i + 1:]
                 if np.linalg.norm(where[a[1]] - where[b[1]]) >= MIN_LENGTH]
        if pairs:
            (ja, ma), (jb, mb) = max(pairs, key=lambda p: np.linalg.norm(where[p[0][1]] - where[p[1][1]]))
            measured[body] = Measurement(body, ((ma, mb),), (BodyScale(body, (0, 1, 2)),))
            notes.append(f"{body}: scaled by {ma} (near {ja}) to {mb} (near {jb})")
    parent_of = {j.child: model.resolve(j.parent)[0] for j in model.joints}
    followers: dict = {b: [] for b in measured}
    for b in (b.name for b in model.bodies):
        if b in measured or b in fixed:
            continue
        guide = parent_of.get(b)
        while guide is not None and guide not in measured:
            guide = parent_of.get(guide)
        if guide is None:
            guide = next((c for c, p in parent_of.items() if p == b and c in measured), None)
        if guide is None:
            notes.append(f"{b}: no marker pair found near its joints and none measured above or below it: not scaled")
            continue
        followers[guide].append(b)
        notes.append(f"{b}: no marker pair near its joints; scaled as {guide}")
    measurements = tuple(Measurement(m.name, m.pairs, m.bodies + tuple(BodyScale(f, (0, 1, 2))
                                                                        for f in followers[name]))
                         for name, m in measured.items())
    return measurements, notes


def default_setup(model, markers, generic_file, static_file) -> ScaleSetup:
    """A :class:`ScaleSetup` for ``model`` from the static trial's ``markers`` (file names for the outputs:
    ``<generic>_scaled.<ext>`` beside the static trial)."""
    generic_file, static_file = Path(generic_file), Path(static_file)
    measurements, notes = default_measurements(model, markers.names)
    out = static_file.parent / f"{generic_file.stem}_scaled{generic_file.suffix}"
    scaler = ScalerSetup(measurements=measurements, static_file=static_file, preserve_mass_distribution=True,
                         output_model_file=out)
    placer = PlacerSetup(static_file=static_file)
    notes = ["no setup: segments scaled by the markers nearest their joint centres"] + notes
    return ScaleSetup(name=model.name, model_file=generic_file, scaler=scaler, placer=placer, notes=tuple(notes))
