"""OpenSim tool setups run as OpenSim runs them, writing the files each setup names in OpenSim's formats.

- ScaleTool: :mod:`engine.scaling` through :mod:`engine.io.scale_files` (the outputs the setup names).
- InverseKinematicsTool: the markers fitted with the setup's weights and coordinate tasks over its time range
  (:func:`engine.analysis.ik.solve_ik`; no gap filling or outlier removal, which OpenSim's tool does not do);
  ``output_motion_file`` (degrees) and, unless ``report_errors`` is false,
  ``<results_directory>/<name>_ik_marker_errors.sto``.
- InverseDynamicsTool: the coordinates file filtered and differentiated, the external loads applied to their bodies,
  the plates' loads only (as OpenSim); ``<results_directory>/<output_gen_force_file>``, columns
  ``<coordinate>_moment`` / ``_force`` in OpenSim's order; for ``joints_to_report_body_forces``,
  ``<output_body_forces_file>`` (:mod:`engine.analysis.equivalent_body_forces`).
- AnalyzeTool with StaticOptimization: the same inverse dynamics, then OpenSim's objective (sum of squared
  activations, generalized forces matched) with the model's muscles and the force-set files' actuators;
  ``<results_directory>/<name>_<analysis>_activation.sto`` and ``_force.sto`` (muscles, then actuators).

Paths are relative to each setup's folder. What a setup asks that HybridLab does not do is refused naming the element
(:mod:`.documents`, the readers) or said in the run's notes.
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...analysis.equivalent_body_forces import equivalent_body_forces
from ...analysis.ik import solve_ik
from ...analysis.ik_bounds import range_notes
from ...analysis.inverse_dynamics import classic_inverse_dynamics
from ...errors import SettingsError
from ...model.import_notes import import_notes
from ...muscles.forces.reserves import read_actuator_files
from ...muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces
from ..external_loads import ground_reaction_plates
from ..analysis_outputs import body_force_table, coordinate_table, generalized_force_table, marker_error_table
from ..muscle_files import write_activations, write_muscle_forces
from ..open import open_model
from ..open_trial import open_trial
from ..osim.scale_setup import read_scale_setup
from ..scale_files import scale_from_files, write_scale_outputs
from ..setup_xml import ik_settings_from_setup, read_ik_setup
from ..storage import write_storage
from .._xml import boolean_of
from .analyze_setup import read_analyze_setup
from .documents import file_name, tool_element, unused_elements
from .id_setup import read_id_setup
from .motion_inputs import external_loads_of, load_columns, motion_of


@dataclass
class ToolRun:
    """One setup run: the tool, the setup's name, the files written, what to say (``summary`` lines and
    ``notes``), the wall time (s) and the result object (IKResult, IDResult, MuscleForceResult, ScaleRun)."""

    tool: str
    name: str
    written: list = field(default_factory=list)
    summary: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    seconds: float = 0.0
    result: object = None


def run_setup(path) -> ToolRun:
    """Run the tool of the setup file ``path`` (see the module notes)."""
    t0 = _time.perf_counter()
    tool, _ = tool_element(path)
    run = {"ScaleTool": _scale, "InverseKinematicsTool": _inverse_kinematics, "InverseDynamicsTool":
           _inverse_dynamics, "AnalyzeTool": _static_optimization}[tool.tag](Path(path), tool)
    run.seconds = _time.perf_counter() - t0
    return run


def _write(path, table, written: list) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_storage(path, table)
    written.append(path)


def _model(path) -> tuple:
    """``(model, notes)``: the model file and the notes naming its elements HybridLab did not import (they take no
    part in the run)."""
    model = open_model(path)
    return model, [f"{Path(path).name}: {w}" for w in import_notes(model)]


_IK_HANDLED = ("model_file", "marker_file", "IKTaskSet", "time_range", "output_motion_file", "results_directory",
               "input_directory", "report_errors", "coordinate_file", "constraint_weight", "accuracy",
               "report_marker_locations")


def _inverse_kinematics(path, tool) -> ToolRun:
    setup = read_ik_setup(path)
    folder = path.absolute().parent
    run = ToolRun("InverseKinematicsTool", setup.name)
    if file_name(tool, "input_directory", path):
        raise SettingsError("an input directory is not supported: give the files relative to the setup",
                            element="<InverseKinematicsTool>/<input_directory>", file=path)
    for tag in ("marker_file", "model_file", "output_motion_file"):
        if not file_name(tool, tag, path):
            raise SettingsError("is missing or empty (HybridLab needs it)", element=f"<InverseKinematicsTool>/<{tag}>",
                                file=path)
    model, said = _model(folder / setup.model_file)
    trial = open_trial(folder / setup.marker_file)
    settings = ik_settings_from_setup(model, setup)
    run.notes += list(settings.notes) + said + unused_elements(tool, _IK_HANDLED, path)
    if boolean_of(tool, "report_marker_locations", path, False):
        run.notes.append("<report_marker_locations>: the model's marker locations are not written")
    from_file = any(t.apply and t.value_type == "from_file" for t in setup.coordinate_tasks)
    if setup.coordinate_file.lower() not in ("", "unassigned") and not from_file:
        run.notes.append(f"<coordinate_file> {setup.coordinate_file} not read: no coordinate task takes its value "
                         "from the file")
    if setup.constraint_weight is not None and np.isfinite(setup.constraint_weight):
        run.notes.append(f"<constraint_weight> {setup.constraint_weight:g}: HybridLab enforces the model's "
                         "constraints (coupled coordinates) exactly")
    ik = solve_ik(model, trial.markers, settings)
    run.result = ik
    if (ik.status != 1).any():
        run.notes.append(f"IK did not converge in {int((ik.status != 1).sum())} of {ik.n_frames} frames")
    run.notes += range_notes(model, ik)
    _write(folder / setup.output_motion_file, coordinate_table(model, ik.time, ik.q), run.written)
    if boolean_of(tool, "report_errors", path, True):
        results = folder / (file_name(tool, "results_directory", path) or ".")
        _write(results / f"{run.name}_ik_marker_errors.sto", marker_error_table(ik), run.written)
    run.summary.append(f"{ik.n_frames} frames ({ik.time[0]:.3f}-{ik.time[-1]:.3f} s), marker RMS mean "
                       f"{1e3 * np.nanmean(ik.rms):.2f} mm, max {1e3 * np.nanmax(ik.max):.2f} mm")
    return run


def _inverse_dynamics_of(model, inputs, notes: list):
    """``(motion, external loads or None, IDResult)``: the setup's motion and its inverse dynamics with the external
    loads only."""
    motion = motion_of(model, inputs, notes)
    external = external_loads_of(inputs, notes)
    plates = () if external is None else ground_reaction_plates(external)
    result = classic_inverse_dynamics(model, motion, plates, [] if external is None else
                                      [load.body for load in external.loads])
    notes += result.assignments
    return motion, external, result


def _inverse_dynamics(path, tool) -> ToolRun:
    setup = read_id_setup(path)
    run = ToolRun("InverseDynamicsTool", setup.name, notes=list(setup.notes))
    model, said = _model(setup.inputs.model_file)
    run.notes += said
    excluded = {f.lower() for f in setup.forces_to_exclude}
    if model.muscles and not excluded & {"muscles", "all", "actuators"}:
        raise SettingsError("the muscles are not excluded: HybridLab's inverse dynamics applies no muscle forces "
                            "(add Muscles)", element="<InverseDynamicsTool>/<forces_to_exclude>", file=path)
    motion, _, result = _inverse_dynamics_of(model, setup.inputs, run.notes)
    run.result = result
    _write(setup.output_file, generalized_force_table(model, motion.time, result.tau), run.written)
    if setup.body_force_joints:
        joints = _body_force_joints(model, setup, path)
        forces = equivalent_body_forces(model, motion.q, result.tau, joints)
        _write(setup.body_forces_file, body_force_table(model, motion.time, joints, forces), run.written)
    run.summary.append(f"{len(motion.time)} frames ({motion.time[0]:.3f}-{motion.time[-1]:.3f} s), "
                       f"{len(result.assignments)} external loads")
    return run


def _body_force_joints(model, setup, path) -> list:
    """The joints whose body forces the setup asks for, as OpenSim lists them: the names in order until ``ALL``
    (in any case), which adds every joint of the model in its order and ends the list. SettingsError naming a
    joint the model does not have (OpenSim would leave it out with a warning)."""
    names = [j.name for j in model.joints]
    joints = []
    for name in setup.body_force_joints:
        if name.upper() == "ALL":
            return joints + names
        if name not in names:
            raise SettingsError(f"names no joint of the model: {name}", file=path,
                                element="<InverseDynamicsTool>/<joints_to_report_body_forces>")
        joints.append(name)
    return joints


def _static_optimization(path, tool) -> ToolRun:
    setup = read_analyze_setup(path)
    run = ToolRun("AnalyzeTool", setup.name, notes=list(setup.notes))
    model, said = _model(setup.inputs.model_file)
    run.notes += said
    if not model.muscles:
        raise SettingsError("the model has no muscles to optimise", element="<AnalyzeTool>/<model_file>", file=path)
    motion, external, dynamics = _inverse_dynamics_of(model, setup.inputs, run.notes)
    reserves = read_actuator_files(setup.force_set_files) if setup.force_set_files else None
    if reserves is not None and reserves.skipped:
        run.notes.append(f"disabled actuators not used: {', '.join(reserves.skipped)}")
    settings = MuscleForceSettings(objective="opensim", muscle_physiology=setup.muscle_physiology,
                                   activation_exponent=setup.activation_exponent, reserves=reserves)
    result = estimate_muscle_forces(model, motion.q, motion.v, dynamics.tau, settings, time=motion.time)
    run.result = result
    run.notes += list(result.notes)
    base = f"{setup.name}_{setup.analysis}"
    setup.results_directory.mkdir(parents=True, exist_ok=True)
    run.written += [setup.results_directory / f"{base}_activation.sto", setup.results_directory / f"{base}_force.sto"]
    write_activations(run.written[-2], result)
    write_muscle_forces(run.written[-1], result, ((), None) if external is None else
                        load_columns(model, motion, external))
    run.notes.append(f"OpenSim also writes {setup.name}_{setup.analysis}_controls.xml; HybridLab does not")
    run.summary.append(result.summary().splitlines()[0])
    if result.unbalanced is not None:
        run.summary.append(f"the muscles alone could not balance the torques in {int(result.unbalanced.sum())} of "
                           f"{result.n_frames} frames (the actuators were needed there)")
    return run


def _scale(path, tool) -> ToolRun:
    setup = read_scale_setup(path)
    scaled = scale_from_files(setup)
    run = ToolRun("ScaleTool", setup.name, notes=list(scaled.result.notes), result=scaled)
    run.written += write_scale_outputs(scaled, setup)
    run.summary.append(f"total mass {scaled.result.model.total_mass:.3f} kg, "
                       f"{sum(not (f == 1.0).all() for f in scaled.result.scaled.factors.values())} bodies scaled")
    return run
