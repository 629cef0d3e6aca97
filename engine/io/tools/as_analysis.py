"""OpenSim tool setups opened as one HybridLab analysis (the application's File > Open OpenSim setup): the model, the
trial and the settings the setups name, run by :func:`engine.analysis.pipeline.analysis_steps` as any analysis.

- InverseKinematicsTool (required: an analysis starts from markers): ``model_file``, ``marker_file`` (the trial),
  marker weights, coordinate tasks and time range (``engine.io.setup_xml``).
- InverseDynamicsTool: its ExternalLoads (the trial's plates, on the bodies it names) and its coordinates' low-pass.
  Its ``coordinates_file`` is not read: the analysis's coordinates are its IK's; body forces at joints it asks for
  are not written (`hybrid run` writes them); both said in the notes.
- AnalyzeTool with StaticOptimization: the muscle step with OpenSim's objective, the force-set files' actuators,
  the activation exponent and muscle physiology (``analyze_setup``); its filter and loads as the ID's.
- An ExternalLoads document given alone: the trial's plates.
- ScaleTool: the subject scaled first (``engine.io.scale_files.scale_steps``); its scaled model is the analysis's
  when the IK setup's ``model_file`` is the file the ScaleTool writes (it is used from memory, not read).

As OpenSim's tools: the files are in the model's frame (lab axes 'Y-up, X-forward', no rotation), the IK has no
robust loss, gap filling or rigidity check, and only the plates' loads are applied. Whatever the setups ask that
HybridLab does not do is refused by the readers naming the element; two setups that disagree (models, external
loads, filters) are refused naming both.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from ...analysis.pipeline import AnalysisSettings, analysis_steps
from ...errors import SettingsError
from ...progress import Progress
from .._xml import parse_xml
from ..open import open_model
from ..open_trial import open_trial
from ..setup_xml import ik_settings_from_setup, read_ik_setup
from .analyze_setup import read_analyze_setup
from .documents import NOT_GIVEN, tool_element
from .id_setup import read_id_setup

OPENSIM_AXES = "Y-up, X-forward"
"""OpenSim's files are in the model's frame: the lab axes that leave them unrotated."""


@dataclass(frozen=True)
class SetupPlan:
    """What setups ask for as one analysis: the files (absolute), the settings (without the model's IK weights,
    which need the model: :func:`open_setup_analysis`), the scale setup (or None) and the notes."""

    ik_setup: object
    model_file: Path
    marker_file: Path
    external_loads: Path | None
    settings: AnalysisSettings
    scale_setup: Path | None = None
    actuator_files: tuple = ()
    notes: tuple = field(default=())
    sources: tuple = field(default=())


def document_kind(path) -> str | None:
    """The tag of what an OpenSim document holds (``InverseKinematicsTool``, ``ExternalLoads``...), None if empty."""
    root = parse_xml(Path(path))
    first = root if root.tag != "OpenSimDocument" else next(iter(root), None)
    return None if first is None else first.tag


def _is_external_loads(path: Path) -> bool:
    return document_kind(path) == "ExternalLoads"


def _same(kind: str, values: dict):
    """The one value several setups give for ``kind`` (``{source: value}``, None values ignored); SettingsError
    naming both setups when they differ."""
    given = {source: value for source, value in values.items() if value is not None}
    distinct = {Path(v).resolve() if isinstance(v, Path) else v for v in given.values()}
    if len(distinct) > 1:
        raise SettingsError(f"the setups give different {kind}: " + "; ".join(f"{Path(s).name}: {v}"
                                                                              for s, v in given.items()),
                            element=kind, file=", ".join(str(s) for s in given))
    return next(iter(given.values()), None)


def plan_setups(paths) -> SetupPlan:
    """Read OpenSim setup files as one analysis (see the module notes); SettingsError naming the element for what
    is refused, for a missing InverseKinematicsTool setup, or for setups that disagree."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise SettingsError("no setup files given", element="setups")
    by_tool: dict = {}
    loads_alone = []
    for path in paths:
        if _is_external_loads(path):
            loads_alone.append(path)
            continue
        tool, _ = tool_element(path)            # refuses CMC, RRA, forward... naming the element
        if tool.tag in by_tool:
            raise SettingsError(f"two {tool.tag} setups given ({by_tool[tool.tag].name} and {path.name}); one "
                                "analysis takes one of each", element=f"<{tool.tag}>", file=path)
        by_tool[tool.tag] = path
    if "InverseKinematicsTool" not in by_tool:
        raise SettingsError("an analysis starts from the markers: open the InverseKinematicsTool setup with these "
                            "(its marker_file is the trial), or run them as they are with `hybrid run`",
                            element="<InverseKinematicsTool>", file=", ".join(str(p) for p in paths))
    notes = []
    ik_path = by_tool["InverseKinematicsTool"]
    ik = read_ik_setup(ik_path)
    folder = ik_path.absolute().parent
    for tag, name in (("model_file", ik.model_file), ("marker_file", ik.marker_file)):
        if name.strip().lower() in NOT_GIVEN:
            raise SettingsError("is missing or empty (HybridLab needs it)", element=f"<InverseKinematicsTool>/<{tag}>",
                                file=ik_path)
    model_file = folder / ik.model_file
    id_setup = read_id_setup(by_tool["InverseDynamicsTool"]) if "InverseDynamicsTool" in by_tool else None
    so_setup = read_analyze_setup(by_tool["AnalyzeTool"]) if "AnalyzeTool" in by_tool else None
    dynamic = [s for s in (id_setup, so_setup) if s is not None]
    _same("models", {ik_path: model_file, **{s.source: s.inputs.model_file for s in dynamic}})
    loads = _same("external loads", {**{s.source: s.inputs.external_loads_file for s in dynamic},
                                     **{str(p): p.absolute() for p in loads_alone}})
    cutoffs = {s.source: s.inputs.cutoff for s in dynamic}
    settings = AnalysisSettings(axes=OPENSIM_AXES, max_gap=0.0, estimate_unmeasured=False, rigidity_check=False)
    if dynamic:
        if len(set(cutoffs.values())) > 1:     # a filter against none differs too (_same ignores None)
            raise SettingsError("the setups low-pass the coordinates differently: " + "; ".join(
                f"{Path(s).name}: {f'{c:g} Hz' if c else 'no filter'}" for s, c in cutoffs.items()),
                element="coordinate filters (Hz)", file=", ".join(str(s) for s in cutoffs))
        settings.cutoff = next(iter(cutoffs.values()))
        notes.append("coordinates low-passed " + (f"at {settings.cutoff:g} Hz" if settings.cutoff else "not at all")
                     + f" as {Path(dynamic[0].source).name} asks")
    else:
        notes.append(f"no InverseDynamicsTool or AnalyzeTool setup: the coordinates are low-passed at HybridLab's "
                     f"default {settings.cutoff:g} Hz")
    for s in dynamic:
        notes.append(f"{Path(s.source).name}: <coordinates_file> {s.inputs.coordinates_file.name} not read: the "
                     f"analysis's coordinates are its IK's, from {ik.marker_file}")
        if s is id_setup and id_setup.body_force_joints:
            notes.append(f"{Path(s.source).name}: <joints_to_report_body_forces> not written: the analysis writes no "
                         "body forces at joints (`hybrid run` on the setup does)")
        notes += list(s.notes)
        if s.inputs.time_range is not None and ik.time_range is not None and \
                tuple(s.inputs.time_range) != tuple(ik.time_range):
            notes.append(f"{Path(s.source).name}: time range {s.inputs.time_range[0]:g}-{s.inputs.time_range[1]:g} s; "
                         f"the analysis runs over the IK setup's {ik.time_range[0]:g}-{ik.time_range[1]:g} s")
    actuators = ()
    if so_setup is not None:
        from ...muscles.pipeline import MusclePipelineSettings
        from ...muscles.forces.reserves import read_actuator_files
        from ...muscles.forces.static_optimization import MuscleForceSettings
        actuators = tuple(so_setup.force_set_files)
        reserves = read_actuator_files(actuators) if actuators else None
        if reserves is not None and reserves.skipped:
            notes.append(f"disabled actuators not used: {', '.join(reserves.skipped)}")
        settings.muscles = True
        settings.muscle_settings = MusclePipelineSettings(forces=MuscleForceSettings(
            objective="opensim", muscle_physiology=so_setup.muscle_physiology,
            activation_exponent=so_setup.activation_exponent, reserves=reserves))
    notes.append("as OpenSim's tools: the files in the model's frame (lab axes 'Y-up, X-forward'), IK without "
                 "robust loss, gap filling or rigidity check, the plates' loads only")
    scale = by_tool.get("ScaleTool")
    if scale is not None:
        from ..osim.scale_setup import read_scale_setup
        setup = read_scale_setup(scale)
        outputs = {Path(f).resolve() for f in (setup.scaler.output_model_file,
                                                getattr(setup.placer, "output_model_file", None)) if f is not None}
        if model_file.resolve() not in outputs:
            raise SettingsError(f"names {ik.model_file}, not the model the ScaleTool setup {scale.name} writes "
                                f"({', '.join(p.name for p in sorted(outputs)) or 'none'})",
                                element="<InverseKinematicsTool>/<model_file>", file=ik_path)
        notes.append(f"the model is {scale.name}'s scaled model (used from memory; {model_file.name} is not read)")
    return SetupPlan(ik, model_file, folder / ik.marker_file, loads, settings, scale, actuators, tuple(notes),
                     tuple(str(p) for p in paths))


def setup_analysis_steps(plan: SetupPlan):
    """The plan run as a step generator: the ScaleTool's scaling (if any), the model and trial read, then
    :func:`analysis_steps`; returns ``(model, trial, settings, result)``."""
    if plan.scale_setup is not None:
        from ..scale_files import scale_steps
        steps = scale_steps(plan.scale_setup)
        try:
            while True:
                yield next(steps)
        except StopIteration as done:
            scaled, _ = done.value
        model = scaled.result.model
    else:
        yield Progress("reading", 0.0, f"the model {plan.model_file.name} and the trial {plan.marker_file.name}")
        model = open_model(plan.model_file)
    model, trial, settings = open_setup_analysis(plan, model)
    result = yield from analysis_steps(model, trial, settings)
    return model, trial, settings, result


def open_setup_analysis(plan: SetupPlan, model=None):
    """``(model, trial, settings)`` of ``plan``: the model (read unless given), the trial with the external loads,
    the IK setup's weights, tasks and range on the model, the plates on the bodies the ExternalLoads names."""
    if model is None:
        model = open_model(plan.model_file)
    trial = open_trial(plan.marker_file, external_loads=plan.external_loads)
    ik = ik_settings_from_setup(model, plan.ik_setup)
    ik = dataclasses.replace(ik, robust_loss=None, notes=tuple(ik.notes) + tuple(plan.notes))
    settings = dataclasses.replace(plan.settings, ik=ik)
    if plan.external_loads is not None:
        from ..external_loads import load_external_loads
        settings.plate_bodies = {load.name: load.body for load in load_external_loads(plan.external_loads).loads}
    return model, trial, settings
