"""The muscle step of ``hybrid analyze --muscles``: forces over the analysed motion, EMG when the trial has it.

:func:`muscle_steps` is a generator step (it yields
:class:`~engine.progress.Progress` and returns :class:`MuscleOutputs`) called by
:mod:`engine.analysis.pipeline` with the filtered motion and the inverse-dynamics
generalized forces. EMG: the trial's EMG channels whose names are muscles of the model
(or those mapped in ``emg_muscles``) are processed (:mod:`engine.muscles.emg.processing`), turned
into activations (eqs. 41-43) and reference forces (eq. 40), and compared with the
optimised forces per phase (Table 3). Phases: the given ones, else the single-support
phases found in the trial's Foot Strike / Foot Off events, else the whole motion (said
in the notes).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..progress import Progress
from ..errors import SettingsError
from .emg.activation import muscle_activity
from .emg.processing import EMGProcessing, emg_from_trial, process_emg
from .path.geometry import MuscleGeometry
from .forces.results import MuscleForceResult
from .forces.static_optimization import MuscleForceSettings, estimate_muscle_forces


@dataclass
class MusclePipelineSettings:
    """forces : :class:`MuscleForceSettings` (defaults: seed objective, W2 = 0, no reserves).
    emg : :class:`EMGProcessing` (defaults: 20-450 Hz, 6 Hz envelope, trial-maximum normalisation).
    emg_muscles : ``{EMG channel: muscle}``; default: the trial's EMG channels named as muscles.
    phases : ``{name: (start, end)}`` s for the comparison; default from the trial's events.
    wrapping : muscle-path wrapping, ``"exact"`` (default, J_l = dl/dq) or ``"opensim"`` (OpenSim's lengths and
        moment arms, see :mod:`engine.muscles.path.geometry`)."""

    forces: MuscleForceSettings = field(default_factory=MuscleForceSettings)
    emg: EMGProcessing = field(default_factory=EMGProcessing)
    emg_muscles: dict | None = None
    phases: dict | None = None
    wrapping: str = "exact"


@dataclass
class MuscleOutputs:
    """The muscle step's result (what was decided along the way is in ``result.notes``)."""

    result: MuscleForceResult


def single_support_phases(events, start: float, end: float) -> dict:
    """``{'right single support k': (t0, t1), 'left ...': ...}`` from Foot Off / Foot Strike events:
    right single support runs from a left Foot Off to the next left Foot Strike, and vice versa."""
    phases = {}
    for stance, swing in (("Right", "Left"), ("Left", "Right")):
        offs = sorted(e.time for e in events if e.label == "Foot Off" and e.context == swing)
        strikes = sorted(e.time for e in events if e.label == "Foot Strike" and e.context == swing)
        k = 0
        for t_off in offs:
            t_on = next((t for t in strikes if t > t_off), None)
            if t_on is not None and start <= t_off and t_on <= end:
                k += 1
                phases[f"{stance.lower()} single support {k}"] = (t_off, t_on)
    return phases


def emg_mapping(model, trial, settings: MusclePipelineSettings | None) -> dict:
    """``{EMG channel: muscle}`` the muscle estimation compares: ``settings.emg_muscles``, else the trial's EMG
    channels named as muscles of ``model``."""
    if settings is not None and settings.emg_muscles is not None:
        return dict(settings.emg_muscles)
    names = {m.name for m in model.muscles}
    return {c.name: c.name for c in trial.emg if c.name in names}


def muscle_steps(model, motion, tau, trial, settings: MusclePipelineSettings | None = None):
    """Generator step: muscle forces for ``motion`` (time, q, v) and ``tau`` (T, nv); returns MuscleOutputs."""
    s = settings or MusclePipelineSettings()
    if not isinstance(s, MusclePipelineSettings):
        raise SettingsError("muscle_settings must be a MusclePipelineSettings")
    notes = []
    yield Progress("muscle forces", 0.0, "muscle paths")
    geometry = MuscleGeometry(model, wrapping=s.wrapping)
    activity = phases = None
    emg_channels = [c.name for c in trial.emg]
    mapping = emg_mapping(model, trial, s)
    if emg_channels and not mapping:
        notes.append(f"EMG channels {', '.join(emg_channels)} are not named as muscles of the model: no EMG "
                     "comparison (map them with emg_muscles)")
    if mapping:
        yield Progress("muscle forces", 0.1, "EMG")
        processed = process_emg(emg_from_trial(trial, list(mapping)), s.emg)
        activity = muscle_activity(processed, model.muscles, mapping)
        notes += list(activity.description)
        t = np.asarray(motion.time, float)
        phases = s.phases if s.phases is not None else single_support_phases(trial.events, t[0], t[-1])
        if not phases:
            phases = {"whole motion": (float(t[0]), float(t[-1]))}
            notes.append("no single-support phases in the trial's events: EMG compared over the whole motion")
    yield Progress("muscle forces", 0.2, f"{len(motion.time)} frames")
    with geometry:                     # its thread pool ends with the step
        result = estimate_muscle_forces(model, motion.q, motion.v, tau, s.forces, time=motion.time, emg=activity,
                                        phases=phases, geometry=geometry)
    yield Progress("muscle forces", 1.0, f"{int(result.success.sum())} of {result.n_frames} frames solved")
    return MuscleOutputs(replace(result, notes=tuple(notes) + result.notes))
