"""The whole subject scaling, as OpenSim's ScaleTool runs it on objects already read: the generic model with
its marker set, scale factors from the static trial, the scaled model, marker placement.

``run_scale`` is the computation; ``engine.io.scale_files.scale_from_files`` reads a setup's files and calls
it (``hybrid scale`` and the application use that), ``write_scale_outputs`` there writes what it made.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis.ik import IKSettings
from ..errors import DataError
from ..trial.body_measures import check_mass
from ..trial.axes import LENGTH_UNITS
from .apply import ScaledModel, scale_model
from .measurements import ScaleFactors, compute_scale_factors
from .placement import Placement, averaged_frame, moving_markers, place_markers
from .setup import ScaleSetup


@dataclass(frozen=True)
class ScaleResult:
    """``model`` the final model (scaled, markers placed); ``scaled`` before placement; ``factors`` the
    measurements (None when the scaler is off); ``placement`` None when marker placement is off."""

    model: object
    scaled: ScaledModel
    factors: ScaleFactors | None
    placement: Placement | None
    notes: tuple


def placement_settings(model, setup: ScaleSetup, seen=None) -> IKSettings:
    """IK settings of the MarkerPlacer's tasks, with OpenSim's objective.

    Coordinate values are used as written (OpenSim's MarkerPlacer passes them to the solver unconverted),
    ``default_value`` meaning the coordinate's default. OpenSim's solver (Simbody's Assembler) minimises
    ``1/2 sum(w_i r_i^2) / sum(w_i) + sum(w_c (q_c - value)^2)`` (its Markers goal is a weighted mean), so the
    coordinate tasks' weights are multiplied here by ``2 sum(w_i)`` over the markers used (those of the model
    in ``seen``, the static frame's markers, with a positive weight; markers the tasks do not name weigh 1).
    """
    placer = setup.placer
    names = {m.name for m in model.markers}
    weights = {t.name: (t.weight if t.apply else 0.0) for t in placer.marker_tasks if t.name in names}
    used = names if seen is None else names & set(seen)
    total = sum(weights.get(n, 1.0) for n in used)
    tasks = {}
    for t in placer.coordinate_tasks:
        if not t.apply:
            continue
        if t.value_type == "from_file":
            raise DataError("coordinate values from a file are not supported for marker placement; use "
                            "default_value or manual_value", element=f"<IKCoordinateTask name={t.name!r}>",
                            file=setup.source)
        tasks[t.name] = (2.0 * total * t.weight, None if t.value_type == "default_value" else t.value)
    return IKSettings(marker_weights=weights, coordinate_tasks=tasks)


def _movement_note(setup: ScaleSetup, trial) -> list:
    """OpenSim's max_marker_movement warning (the limit in the static trial's own units, as OpenSim reads it)."""
    limit = setup.placer.max_marker_movement
    if limit <= 0:
        return []
    unit = trial.metadata.get("header", {}).get("Units", "mm")
    moving = moving_markers(trial.markers, setup.placer.time_range,
                            limit * (LENGTH_UNITS.get(unit.strip().lower()) or 1e-3))
    return [f"markers moving more than max_marker_movement ({limit:g} {unit}) over the frames averaged: "
            f"{', '.join(moving)}"] if moving else []


def run_scale(model, setup: ScaleSetup, static=None, placement_static=None, mass: float | None = None) -> ScaleResult:
    """Scale ``model`` (the generic model, its marker set added) to the subject of the static trial.

    ``static`` is the scaler's static :class:`~engine.trial.trial.Trial`, ``placement_static`` the
    placer's (default: the same); ``mass`` (kg) overrides the setup's.
    """
    notes = list(setup.notes)
    if mass is None:
        mass = setup.mass
    else:
        mass = check_mass(mass, "mass")
    scaler, factors = setup.scaler, None
    if scaler.apply:
        factors = compute_scale_factors(model, None if static is None else static.markers, scaler,
                                        None if static is None else static.source, setup.source)
        notes += factors.notes
        scaled = scale_model(model, factors.factors, mass, scaler.preserve_mass_distribution, name=setup.name)
    else:
        notes.append("the setup's ModelScaler is off: the model is not scaled")
        scaled = scale_model(model, {}, None, name=setup.name)
    notes += scaled.notes
    placement = None
    if setup.placer is not None and setup.placer.apply:
        trial = placement_static or static
        if trial is None:
            raise DataError("marker placement needs a static trial", element="<MarkerPlacer>/<marker_file>",
                            file=setup.source)
        frame = averaged_frame(trial.markers, setup.placer.time_range, trial.source)
        notes += _movement_note(setup, trial)
        seen = [n for n, p in zip(frame.names, frame.positions[0]) if not np.isnan(p[0])]
        placement = place_markers(scaled.model, frame, placement_settings(scaled.model, setup, seen), trial.source)
        notes += placement.notes
    final = placement.model if placement is not None else scaled.model
    return ScaleResult(final, scaled, factors, placement, tuple(notes))
