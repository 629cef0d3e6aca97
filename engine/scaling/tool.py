"""The whole subject scaling, as OpenSim's ScaleTool runs it: generic model + marker set, scale factors from
the static trial, scaled model, marker placement; then the files it writes.

``run_scale`` is what ``hybrid scale`` and the application call; ``write_scale_outputs`` writes the
scaled model (.osim in the generic model's schema when the generic model is an .osim, and our YAML), the
scale factors applied, the static pose and the residual tables.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, SettingsError
from ..io.open import open_model
from ..io.open_trial import open_trial
from ..io.osim.marker_set import read_marker_set, with_marker_set
from ..trial.axes import LENGTH_UNITS
from ..analysis.ik import IKSettings
from .apply import ScaledModel, scale_model
from .measurements import ScaleFactors, compute_scale_factors
from .placement import Placement, averaged_frame, moving_markers, place_markers
from .setup import ScaleSetup


@dataclass(frozen=True)
class ScaleResult:
    """``model`` the final model (scaled, markers placed); ``scaled`` before placement; ``factors`` the
    measurements (None when the scaler is off); ``placement`` None when marker placement is off."""

    model: object
    generic_file: Path
    scaled: ScaledModel
    factors: ScaleFactors | None
    placement: Placement | None
    notes: tuple


def placement_settings(model, setup: ScaleSetup) -> IKSettings:
    """IK settings of the MarkerPlacer's tasks; coordinate values used as written (OpenSim's MarkerPlacer
    passes them to the solver unconverted), ``default_value`` meaning the coordinate's default."""
    placer = setup.placer
    names = {m.name for m in model.markers}
    weights = {t.name: (t.weight if t.apply else 0.0) for t in placer.marker_tasks if t.name in names}
    tasks = {}
    for t in placer.coordinate_tasks:
        if not t.apply:
            continue
        if t.value_type == "from_file":
            raise DataError("coordinate values from a file are not supported for marker placement; use "
                            "default_value or manual_value", element=f"<IKCoordinateTask name={t.name!r}>",
                            file=setup.source)
        tasks[t.name] = (t.weight, None if t.value_type == "default_value" else t.value)
    return IKSettings(marker_weights=weights, coordinate_tasks=tasks)


def run_scale(setup: ScaleSetup, generic=None, static=None, mass: float | None = None) -> ScaleResult:
    """Scale the setup's generic model (or ``generic``) to the subject of its static trial (or ``static``),
    with its mass (or ``mass``, kg)."""
    generic_file = Path(generic) if generic else setup.input_file("model_file")
    model = open_model(generic_file)
    notes = list(setup.notes)
    if setup.marker_set_file is not None:
        model = with_marker_set(model, read_marker_set(setup.input_file("marker_set_file"), model))
    if mass is None:
        mass = setup.mass
    elif not mass > 0:
        raise SettingsError(f"the subject's mass must be positive (kg), got {mass}", "--mass")
    trials = {}

    def trial_of(path):      # the scaler and the placer usually read the same static trial
        if path not in trials:
            trials[path] = open_trial(path)
        return trials[path]

    def markers_of(path):
        return trial_of(path).markers

    scaler, factors = setup.scaler, None
    if scaler.apply:
        static_file = Path(static) if static else setup.input_file("scaler.static_file")
        factors = compute_scale_factors(model, markers_of(static_file), scaler, static_file, setup.source)
        notes += factors.notes
        scaled = scale_model(model, factors.factors, mass, scaler.preserve_mass_distribution, name=setup.name)
    else:
        notes.append("the setup's ModelScaler is off: the model is not scaled")
        scaled = scale_model(model, {}, None, name=setup.name)
    notes += scaled.notes
    placement = None
    if setup.placer is not None and setup.placer.apply:
        static_file = Path(static) if static else setup.input_file("placer.static_file")
        frame = averaged_frame(markers_of(static_file), setup.placer.time_range, static_file)
        if setup.placer.max_marker_movement > 0:     # in the static trial's own units, as OpenSim reads it
            unit = trial_of(static_file).metadata.get("header", {}).get("Units", "mm")
            limit = setup.placer.max_marker_movement * (LENGTH_UNITS.get(unit.strip().lower()) or 1e-3)
            moving = moving_markers(markers_of(static_file), setup.placer.time_range, limit)
            if moving:
                notes.append(f"markers moving more than max_marker_movement ({setup.placer.max_marker_movement:g}"
                             f" {unit}) over the frames averaged: {', '.join(moving)}")
        placement = place_markers(scaled.model, frame, placement_settings(scaled.model, setup), static_file)
        notes += placement.notes
    final = placement.model if placement is not None else scaled.model
    return ScaleResult(final, generic_file, scaled, factors, placement, tuple(notes))


def output_paths(result: ScaleResult, setup: ScaleSetup, out=None) -> dict:
    """Where each output goes: the setup's names (relative to its folder), or beside ``out`` when given."""
    placer = setup.placer
    model_file = Path(out) if out else ((placer.output_model_file if placer else None)
                                        or setup.scaler.output_model_file)
    if model_file is None:
        raise SettingsError("the setup names no output model file; give one with --out", "--out")
    folder = model_file.parent

    def named(path, default):
        name = Path(path).name if path else default
        return folder / name if out or not path else Path(path)

    stem = model_file.stem
    scaled_only = named(setup.scaler.output_model_file, None) if setup.scaler.output_model_file else None
    return {"model": model_file,
            "scaled_only": scaled_only if result.placement is not None and scaled_only != model_file else None,
            "scale_set": named(setup.scaler.output_scale_file, f"{stem}_scale_set.xml"),
            "static_pose": named(placer.output_motion_file if placer else None, f"{stem}_static_pose.mot")
            if result.placement is not None else None,
            "pairs": folder / f"{stem}_pair_residuals.csv",
            "markers": folder / f"{stem}_marker_residuals.csv"}


def write_scale_outputs(result: ScaleResult, setup: ScaleSetup, out=None) -> list:
    """Write the scaled model and its reports; returns the paths written."""
    from ..io.model_file import save_model
    from ..io.osim.scaled_document import write_scaled_osim
    from .report import write_residuals, write_scale_set, write_static_pose
    paths = output_paths(result, setup, out)
    written = []
    osim = result.generic_file.suffix.lower() == ".osim"

    def model_files(path, model, yaml_too=True):
        path = Path(path)
        if path.suffix.lower() == ".osim":
            if not osim:
                raise SettingsError("an .osim is written only from an .osim generic model; write .yaml", "--out")
            write_scaled_osim(result.generic_file, path, result.scaled, model)
            if not yaml_too:
                return [path]
            path, written = path.with_suffix(".yaml"), [path]
        else:
            written = []
        save_model(model, path)
        return written + [path]

    written += model_files(paths["model"], result.model)
    if paths["scaled_only"] is not None:     # as OpenSim's ModelScaler writes it, before placement
        written += model_files(paths["scaled_only"], result.scaled.model, yaml_too=False)
    write_scale_set(paths["scale_set"], result.scaled.factors)
    written.append(paths["scale_set"])
    if paths["static_pose"] is not None:
        write_static_pose(paths["static_pose"], result.model, result.placement.time, result.placement.q)
        written.append(paths["static_pose"])
    written += write_residuals(paths["pairs"], paths["markers"], result.factors, result.placement)
    return written
