"""The analysis's automatic contact model: candidates generated for a model that has none when the ground
reactions must be estimated (``engine.contacts``), calibrated on a static trial's poses or on the trial's
stances on its force plates."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..contacts.automatic import Calibration, automatic_contacts
from ..trial.axes import to_model_axes
from ..trial.trial import Markers
from .ik import inverse_kinematics
from .inverse_dynamics import plate_samples
from ..progress import run

STATIC_POSES = 20      # the static trial's frames solved by IK (evenly spaced): standing still, a few suffice


def _floor(model, plates) -> float:
    """The plates' surface height along up (m), their mean; 0 (the lab's origin) without loaded plates."""
    up = model.up
    loaded = [p for p in plates if p.loaded.any()]
    return float(np.mean([p.surface_point @ up for p in loaded])) if loaded else 0.0


def static_calibration(model, static, ik_settings, axes=None) -> tuple[Calibration, list]:
    """Poses of the ``static`` trial (a Trial; lab axes ``axes`` or proposed) by IK, as a :class:`Calibration`,
    and notes."""
    if static.frame != "model":
        static = to_model_axes(static, axes)
    m = static.markers
    idx = np.unique(np.linspace(0, m.n_frames - 1, min(STATIC_POSES, m.n_frames)).round().astype(int))
    markers = Markers(m.names, m.time[idx], m.positions[idx], m.rate)
    ik = run(inverse_kinematics(model, markers, replace(ik_settings, start=None, end=None)))
    floor = _floor(model, static.plates)
    where = "the static trial's force plates' surface" if any(p.loaded.any() for p in static.plates) \
        else "the lab's origin (the static trial has no loaded plates)"
    notes = [f"static trial {static.source or ''}: {len(idx)} poses by IK (marker RMS mean "
             f"{1000 * np.nanmean(ik.rms):.1f} mm), floor at {where}"]
    return Calibration(ik.q, floor, static=True), notes


def generated_contacts(model, motion, plates, static: Calibration | None = None):
    """``(model with contacts, names of the generated candidates, notes)``, calibrated on ``static`` if given,
    else on the stances of ``motion`` over ``plates``."""
    calibration = static
    if calibration is None and plates:
        samples = [plate_samples(p, motion.time) for p in plates]
        calibration = Calibration(motion.q, _floor(model, plates),
                                  [(force, cop, loaded, p.normal) for p, (force, _, cop, loaded) in zip(plates, samples)])
    generated = automatic_contacts(model, calibration)
    return generated.model, [c.name for c in generated.contacts], generated.notes
