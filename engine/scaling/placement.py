"""Marker placement on a scaled model (OpenSim's MarkerPlacer).

The static trial's frames in the time range are averaged (OpenSim's ``MarkerData::averageFrames``: each
marker over the frames where it is seen), the pose is solved by inverse kinematics on that one averaged
frame with the setup's marker weights and coordinate tasks (seed eq. 32; ``engine.analysis.ik``), and every
non-fixed marker is moved onto its measured position, expressed in its parent frame at that pose (on a rod,
in the cross-section frame at its arclength ``s``). Model markers the static trial does not have are
removed, as OpenSim does; both are said in the notes.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import algorithms as alg
from ..analysis.ik import IKSettings, solve_ik
from ..data import Data
from ..errors import DataError
from ..trial.trial import Markers
from .measurements import frame_range


@dataclass(frozen=True)
class MarkerResidual:
    """One model marker at the static pose: its IK weight, the distance (m) between the model marker and
    the measured one before placement, and how far (m) placement moved it (0 for fixed markers)."""

    name: str
    weight: float
    error: float
    moved: float
    fixed: bool


@dataclass(frozen=True)
class Placement:
    """The model with its markers placed, the static pose ``q`` at ``time`` and a row per marker."""

    model: object
    q: np.ndarray
    time: float
    residuals: tuple
    notes: tuple


def averaged_frame(markers: Markers, time_range, trial_file=None) -> Markers:
    """One frame: each marker's mean over the frames of ``time_range`` where it is seen (NaN if never)."""
    frames = frame_range(markers.time, *time_range) if time_range else np.arange(markers.n_frames)
    window = markers.positions[frames]
    seen = ~np.isnan(window[:, :, 0])
    if not seen.any():
        if time_range:
            raise DataError(f"no marker is seen between {time_range[0]} and {time_range[1]} s",
                            element="<time_range>", file=trial_file)
        raise DataError("no marker is seen in the trial", element="markers", file=trial_file)
    with np.errstate(invalid="ignore"):
        mean = np.nansum(np.where(seen[:, :, None], window, 0.0), axis=0) / seen.sum(axis=0)[:, None]
    mean[~seen.any(axis=0)] = np.nan
    return Markers(markers.names, markers.time[frames[:1]], mean[None], markers.rate)


def moving_markers(markers: Markers, time_range, limit: float) -> list[str]:
    """Markers whose coordinates span more than ``limit`` (m) over the frames averaged (OpenSim's
    ``max_marker_movement`` warning), as 'name (span mm)'."""
    frames = frame_range(markers.time, *time_range) if time_range else np.arange(markers.n_frames)
    window = markers.positions[frames]
    seen = np.isfinite(window).all(axis=2)[:, :, None]
    span = (np.where(seen, window, -np.inf).max(axis=0) - np.where(seen, window, np.inf).min(axis=0)).max(axis=1)
    return [f"{n} ({s * 1e3:.1f} mm)" for n, s, any_seen in zip(markers.names, span, seen.any(axis=0)[:, 0])
            if any_seen and s > limit]


def place_markers(model, static: Markers, settings: IKSettings, trial_file=None) -> Placement:
    """Solve the static pose of ``model`` on the averaged frame ``static`` and move its non-fixed markers.

    ``settings`` holds the marker weights and coordinate tasks (its time range is not used: ``static`` is
    one frame).
    """
    notes = []
    present = {n for n, p in zip(static.names, static.positions[0]) if not np.isnan(p[0])}
    missing = [m.name for m in model.markers if m.name not in static.names]
    if missing:
        notes.append(f"markers not in the static trial removed from the model (as OpenSim does): "
                     f"{', '.join(missing)}")
        model = model.replace(markers=tuple(m for m in model.markers if m.name in static.names))
    unseen = [m.name for m in model.markers if m.name in static.names and m.name not in present]
    if unseen:
        notes.append(f"markers never seen in the static trial's time range, not moved: {', '.join(unseen)}")
    settings = replace(settings, start=None, end=None,
                       marker_weights={k: v for k, v in settings.marker_weights.items()
                                       if k in {m.name for m in model.markers}})
    ik = solve_ik(model, static, settings)
    if ik.status[0] != 1:
        notes.append("the static pose's inverse kinematics did not converge; markers placed at its last iterate")
    q = ik.q[0]
    data = Data(model)
    alg.forward_kinematics(model, data, q)
    error = dict(zip(ik.marker_names, ik.errors[0]))
    weight = dict(zip(ik.marker_names, ik.weights))
    rods = {r.name for r in model.rods}
    markers, rows = [], []
    for m in model.markers:
        new = m
        if not m.fixed and m.name in present:
            target = static.positions[0, static.index(m.name)]
            if m.parent in rods:
                R, p = alg.rod_frames(model, data, m.parent, [m.s])
                offset = R[0].T @ (target - p[0])
            else:
                frame = alg.frame_placement(model, data, m.parent)
                offset = frame.R.T @ (target - frame.p)
            new = replace(m, offset=offset)
        markers.append(new)
        rows.append(MarkerResidual(m.name, float(weight.get(m.name, 0.0)), float(error.get(m.name, np.nan)),
                                   float(np.linalg.norm(new.offset - m.offset)), m.fixed))
    return Placement(model.replace(markers=tuple(markers)), q, float(static.time[0]), tuple(rows), tuple(notes))
