"""OpenSim tool setups in the application: File > Open OpenSim setup... reads IK, ID, AnalyzeTool (static
optimisation), ExternalLoads and Scale setups as one analysis (``engine.io.tools.as_analysis``: what a setup asks that
HybridLab does not do is refused naming the element, shown as any error) and runs it in the worker; File > Save
analysis as OpenSim setups... writes the shown analysis with ``engine.io.tools.write_setups`` (atomic writes).
Presentation only."""
from __future__ import annotations

import copy
from pathlib import Path

from engine.errors import SettingsError
from engine.io.tools.as_analysis import document_kind, plan_setups, setup_analysis_steps
from engine.io.tools.write_setups import SetupFiles, write_opensim_setups




def holds_tool(paths) -> bool:
    """Whether any of the .xml files ``paths`` is an OpenSim tool setup (not ExternalLoads alone): they then open as
    setups."""
    return any(document_kind(p) not in ("ExternalLoads", None) for p in paths)


def open_setups(window, paths) -> None:
    """Read ``paths`` as one analysis and run it in the worker."""
    window._check_idle(", ".join(str(p) for p in paths))
    plan = plan_setups(paths)
    window.start_prepared(setup_analysis_steps(plan), show_result, plan)
    window.statusBar().showMessage(f"Running the OpenSim setups {', '.join(Path(p).name for p in paths)}", 15000)


def show_result(window, plan, value) -> None:
    """The analysis of ``plan`` ended with ``value`` (model, trial, settings, result): show it as any analysis."""
    model, trial, settings, result = value
    doc = window.document
    model_path = None if plan.scale_setup is not None else str(plan.model_file)
    doc.set_inputs(model=result.model, model_path=model_path)     # with the contact candidates it generated, if any
    doc.add_trial(trial, str(plan.marker_file), settings, list(settings.ik.notes))
    doc.set_result(result, settings)
    window.setup_files[str(plan.marker_file)] = SetupFiles(plan.model_file, plan.marker_file, plan.external_loads,
                                                           plan.actuator_files)
    for path in plan.sources:
        window.add_recent(path)
    window.statusBar().showMessage(f"OpenSim setups analysed: {result.ik.n_frames} frames; what the setups ask and "
                                   "HybridLab does differently is in the warnings and the settings' reasons.", 15000)


def save_setups(window, folder) -> list:
    """Write the shown analysis as OpenSim setups into ``folder``; returns the files written."""
    doc = window.document
    if doc.result is None:
        raise SettingsError("run the analysis first: the setups describe an analysis", element="analysis")
    opened = window.setup_files.get(str(doc.trial_path))
    model_path = doc.model_path or (opened.model if opened is not None else None)
    if not model_path or not doc.trial_path:
        raise SettingsError("the model and the trial must be files for OpenSim to read them (save the model first "
                            "with File > Save model as...)", element="model")
    files = SetupFiles(Path(model_path), Path(doc.trial_path),
                       opened.external_loads if opened is not None else window.trial_loads.get(str(doc.trial_path)),
                       opened.actuators if opened is not None else ())
    if files.external_loads is None and len(getattr(doc.trial, "plates", ()) or ()):
        raise SettingsError(f"the trial has {len(doc.trial.plates)} force plates but no ExternalLoads file is known for "
                            "it (OpenSim reads the loads from one): open the trial with its ExternalLoads .xml (File > "
                            "Open trial), then save the setups", element="external_loads_file", file=doc.trial_path)
    settings = copy.deepcopy(doc.settings)
    time = doc.result.ik.time
    if settings.ik.start is None:
        settings.ik.start = float(time[0])
    if settings.ik.end is None:
        settings.ik.end = float(time[-1])
    forces = getattr(settings.muscle_settings, "forces", None) if settings.muscles else None
    muscles = forces if forces is not None and forces.objective == "opensim" else None
    name = Path(doc.trial_path or "analysis").stem
    written = write_opensim_setups(folder, name, files, settings, doc.model, muscles)
    skipped = ("; the muscle step's objective is the seed's, which OpenSim's static optimisation does not have: no "
               "SO setup") if settings.muscles and muscles is None else ""
    window.statusBar().showMessage(f"Wrote {', '.join(p.name for p in written)} to {folder}{skipped}", 15000)
    return written
