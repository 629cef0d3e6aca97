"""OpenSim AnalyzeTool setups with a StaticOptimization analysis: motion inputs, force-set files (residual and
reserve actuators), the analysis's options, the results directory.

Refused, naming the element: another tool, an analysis other than StaticOptimization that is on (a JointReaction
analysis with the reason: HybridLab does not apply muscle forces to the bones), a replaced force
set, states/speeds/controls files, controllers, a step interval other than 1, a StaticOptimization that ignores the
model's force set. Listed in ``notes``: elements HybridLab does not use (the optimiser's settings: its QP is solved
exactly) and analyses that are off.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import SettingsError
from .._xml import boolean_of, text_of
from ..setup_xml import parse_number
from .documents import file_name, tool_element, unused_elements
from .motion_inputs import MotionInputs, read_motion_inputs

_HANDLED = ("model_file", "replace_force_set", "force_set_files", "results_directory", "input_directory",
            "initial_time", "final_time", "AnalysisSet", "external_loads_file", "coordinates_file",
            "lowpass_cutoff_frequency_for_coordinates", "states_file", "speeds_file", "controls_file",
            "ControllerSet")
_REFUSED_FILES = ("states_file", "speeds_file", "controls_file", "input_directory")
_SO_HANDLED = ("on", "start_time", "end_time", "step_interval", "in_degrees", "use_model_force_set",
               "activation_exponent", "use_muscle_physiology", "optimizer_convergence_criterion",
               "optimizer_max_iterations", "optimizer_algorithm")


@dataclass(frozen=True)
class SOSetup:
    """An AnalyzeTool running StaticOptimization: ``analysis`` its name (the outputs are
    ``<name>_<analysis>_activation.sto`` and ``_force.sto`` in ``results_directory``)."""

    name: str
    analysis: str
    inputs: MotionInputs
    force_set_files: tuple
    activation_exponent: float
    muscle_physiology: bool
    results_directory: Path
    notes: tuple
    source: str


def read_analyze_setup(path) -> SOSetup:
    """Read an AnalyzeTool setup whose analysis is StaticOptimization (see the module notes)."""
    path = Path(path)
    tool, _ = tool_element(path)
    where = f"<{tool.tag} name={tool.get('name', '')!r}>"
    if tool.tag != "AnalyzeTool":
        raise SettingsError(f"is a {tool.tag}, not an AnalyzeTool", element=where, file=path)
    for tag in _REFUSED_FILES:
        if file_name(tool, tag, path):
            raise SettingsError("is not supported (HybridLab's static optimisation takes a coordinates file)",
                                element=f"{where}/<{tag}>", file=path)
    if boolean_of(tool, "replace_force_set", path, False):
        raise SettingsError("true is not supported: the model's muscles are the static optimisation's actuators",
                            element=f"{where}/<replace_force_set>", file=path)
    if len(tool.findall("ControllerSet/objects/*")):
        raise SettingsError("controllers are not supported by HybridLab's static optimisation",
                            element=f"{where}/<ControllerSet>", file=path)
    notes = unused_elements(tool, _HANDLED, path)
    analysis = _static_optimization(tool, where, path, notes)
    folder = path.absolute().parent
    start = parse_number(text_of(tool, "initial_time", path, "-inf"), "initial_time", f"{where}/<initial_time>",
                         path, allow_inf=True)
    end = parse_number(text_of(tool, "final_time", path, "inf"), "final_time", f"{where}/<final_time>", path,
                       allow_inf=True)
    so_start = parse_number(text_of(analysis, "start_time", path, "-inf"), "start_time",
                            f"{where}/<StaticOptimization>/<start_time>", path, allow_inf=True)
    so_end = parse_number(text_of(analysis, "end_time", path, "inf"), "end_time",
                          f"{where}/<StaticOptimization>/<end_time>", path, allow_inf=True)
    start, end = max(start, so_start), min(end, so_end)
    if start > end:
        raise SettingsError(f"the tool's and the analysis's times leave no range ({start:g} > {end:g} s)",
                            element=f"{where}/<initial_time>", file=path)
    exponent = parse_number(text_of(analysis, "activation_exponent", path, "2"), "activation_exponent",
                            f"{where}/<StaticOptimization>/<activation_exponent>", path)
    if exponent != 2:
        raise SettingsError(f"{exponent:g} is not supported: HybridLab solves exponent 2 (a quadratic programme)",
                            element=f"{where}/<StaticOptimization>/<activation_exponent>", file=path)
    return SOSetup(name=tool.get("name", "") or path.stem, analysis=analysis.get("name", "") or "StaticOptimization",
                   inputs=read_motion_inputs(tool, path, (start, end)),
                   force_set_files=tuple(folder / f for f in text_of(tool, "force_set_files", path, "").split()),
                   activation_exponent=exponent,
                   muscle_physiology=boolean_of(analysis, "use_muscle_physiology", path, True),
                   results_directory=folder / (file_name(tool, "results_directory", path) or "."),
                   notes=tuple(notes), source=str(path))


def _static_optimization(tool, where, path, notes: list):
    """The one StaticOptimization that is on; SettingsError naming any other analysis that is on."""
    found = []
    objects = tool.find("AnalysisSet/objects")
    for analysis in ([] if objects is None else list(objects)):
        element = f"{where}/<{analysis.tag} name={analysis.get('name', '')!r}>"
        if not boolean_of(analysis, "on", path, True):
            notes.append(f"{Path(path).name}: {element} is off, not run")
            continue
        if analysis.tag == "JointReaction":
            raise SettingsError("the JointReaction analysis is not supported: its loads put the muscle forces of its "
                                "<forces_file> on the bones along their paths, which HybridLab does not do (hybrid "
                                "analyze's joint_reactions.sto holds the loads with the net joint torques, without "
                                "muscles); turn it off or remove it", element=element, file=path)
        if analysis.tag != "StaticOptimization":
            raise SettingsError(f"the {analysis.tag} analysis is not supported (HybridLab runs StaticOptimization "
                                "only); turn it off or remove it", element=element, file=path)
        found.append((analysis, element))
    if len(found) != 1:
        raise SettingsError(f"{'no' if not found else len(found)} StaticOptimization analyses are on; HybridLab "
                            "runs exactly one", element=f"{where}/<AnalysisSet>", file=path)
    analysis, element = found[0]
    interval = parse_number(text_of(analysis, "step_interval", path, "1"), "step_interval",
                            f"{element}/<step_interval>", path)
    if interval != 1:
        raise SettingsError(f"{interval:g} is not supported: every frame is solved", element=f"{element}/<step_interval>",
                            file=path)
    if not boolean_of(analysis, "use_model_force_set", path, True):
        raise SettingsError("false is not supported: the model's muscles are the static optimisation's actuators",
                            element=f"{element}/<use_model_force_set>", file=path)
    for tag in ("optimizer_convergence_criterion", "optimizer_max_iterations", "optimizer_algorithm"):
        if analysis.find(tag) is not None:
            notes.append(f"{Path(path).name}: {element}/<{tag}> not used: HybridLab's QP is solved exactly (active "
                         "set), not to a tolerance")
    notes += unused_elements(analysis, _SO_HANDLED, path)
    return analysis
