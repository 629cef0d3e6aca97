"""What a motion-capture lab would have recorded of the simulated demo trial.

* Lab frame: Z up, X forward (the model's x), Y to the athlete's left; the model's floor is
  the lab's Z = 0 plane.
* Markers at ``MARKER_RATE``: every model marker (body and blade) where the simulation put it,
  plus independent Gaussian noise of ``MARKER_NOISE`` m per coordinate, with the short gaps of
  :data:`GAPS` (missing samples, as an occluded marker leaves).
* Two force plates (``PLATES``, AMTI-sized, side by side, FP2 a little ahead): the left foot lands on
  FP1, the blade on FP2. Each measures the floor's total force on the contact points over it and its moment,
  at ``ANALOG_RATE``, plus channel noise (``PLATE_NOISE``).
* Events: Foot Strike and Foot Off of each limb (Left: the intact foot, Right: the blade) where
  its vertical force crosses ``EVENT_THRESHOLD``.
"""
from __future__ import annotations

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import SettingsError
from ..io.c3d_write import PlateLayout
from ..trial.trial import AnalogChannel, Event, Markers, Trial

MARKER_RATE = 200.0          # Hz
ANALOG_RATE = 1000.0         # Hz (force plates and EMG)
MARKER_NOISE = 0.001         # m, standard deviation per coordinate
PLATE_NOISE = (0.5, 0.1)     # standard deviations: N per force axis, N m per moment axis
EVENT_THRESHOLD = 20.0       # N
# lab from model: x -> X, y -> Z, z -> -Y
LAB_FROM_MODEL = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
# (name, centre (m, lab), size (m along X, Y), transducer depth (m), contact group over it)
PLATES = (("FP1", (0.0, 0.205, 0.0), (0.60, 0.40), 0.041, "foot_l"),
          ("FP2", (0.19, -0.205, 0.0), (0.60, 0.40), 0.041, "blade"))
# (marker, start time s, frames missing): short occlusions, filled by the analysis's spline gap filling
GAPS = (("LASI", 0.300, 6), ("BLD06R", 0.520, 10), ("RSCK2", 0.780, 8), ("LMT5", 0.140, 5))


def to_lab(vectors) -> np.ndarray:
    """Model-frame vectors (..., 3) in the lab frame."""
    return np.asarray(vectors, float) @ LAB_FROM_MODEL.T


def marker_trajectories(model, q, rng) -> Markers:
    """Markers (lab frame, m) at the configurations ``q`` (F, nq) sampled at ``MARKER_RATE``, with noise and gaps."""
    positions = alg.marker_positions_batch(model, Data(model), q)
    lab = to_lab(positions) + rng.normal(0.0, MARKER_NOISE, positions.shape)
    names = [m.name for m in model.markers]
    for name, start, frames in GAPS:
        k0 = int(round(start * MARKER_RATE))
        lab[k0:k0 + frames, names.index(name)] = np.nan
    return Markers(tuple(names), np.arange(len(q)) / MARKER_RATE, lab, MARKER_RATE)


def plate_loads(model, q, forces, contact_names) -> list[PlateLayout]:
    """The plates of :data:`PLATES` with the floor's forces on their contact groups (q and forces at
    ``ANALOG_RATE``); force on the subject and moment about the lab origin, in the lab frame."""
    groups = {c.name: c.group for c in model.contacts}
    points = alg.frame_positions_batch(model, Data(model), q, contact_names)      # (T, K, 3) model
    out = []
    for name, centre, size, depth, group in PLATES:
        mask = np.array([groups[n] == group for n in contact_names])
        f = forces[:, mask]
        F = f.sum(axis=1)
        M = np.cross(points[:, mask], f).sum(axis=1)
        loaded = F[:, 1] > 0
        lab_points = to_lab(points[:, mask][loaded])
        half = np.array(size) / 2
        if np.any(np.abs(lab_points[..., :2] - np.array(centre[:2])) > half):
            raise SettingsError(f"the {group} contact group leaves plate {name}: move the plate", "demo recording")
        out.append(PlateLayout(name, centre, size, depth, to_lab(F), to_lab(M)))
    return out


def add_plate_noise(plates, rng) -> list[PlateLayout]:
    """Plates whose loads carry channel noise: ``PLATE_NOISE`` N per force axis and N m per moment axis."""
    out = []
    for p in plates:
        nf, nm = PLATE_NOISE
        out.append(PlateLayout(p.name, p.centre, p.size, p.depth, p.force + rng.normal(0.0, nf, p.force.shape),
                               p.moment + rng.normal(0.0, nm, p.moment.shape)))
    return out


def gait_events(time, forces, contact_names, model) -> tuple:
    """Foot Strike / Foot Off events of the left foot ('Left') and the blade ('Right')."""
    groups = {c.name: c.group for c in model.contacts}
    events = []
    for group, context in (("foot_l", "Left"), ("blade", "Right")):
        mask = np.array([groups[n] == group for n in contact_names])
        on = forces[:, mask, 1].sum(axis=1) >= EVENT_THRESHOLD
        for k in np.flatnonzero(np.diff(on.astype(int)) == 1) + 1:
            events.append(Event("Foot Strike", context, float(time[k])))
        for k in np.flatnonzero(np.diff(on.astype(int)) == -1) + 1:
            events.append(Event("Foot Off", context, float(time[k])))
        if on[0]:
            events.append(Event("Foot Strike", context, float(time[0])))
    return tuple(sorted(events, key=lambda e: (e.time, e.context)))


def lab_trial(markers: Markers, emg: dict, events, subject: dict) -> Trial:
    """The recorded trial (lab frame): markers, EMG channels ``{name: (volts, description)}`` at ``ANALOG_RATE``."""
    analogs = tuple(AnalogChannel(name, ANALOG_RATE, "V", data, 0.0, description, "emg")
                    for name, (data, description) in emg.items())
    return Trial(markers, analogs, (), events, subject=subject, metadata={"origin": "HybridLab demo simulation"})
