"""A HybridLab analysis's settings written as OpenSim tool setups, so that anyone can run the same analysis in OpenSim
(or with ``hybrid run``): an InverseKinematicsTool (marker weights, coordinate tasks, time range), an
InverseDynamicsTool (its coordinates the IK's output, the filter, the external loads) and an AnalyzeTool with
StaticOptimization (force-set files, activation exponent, muscle physiology). File names are written relative to the
setups' folder when they share a root with it."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from ...errors import SettingsError
from ...analysis.ik import CoordinateTrack
from ..atomic import write_text


@dataclass(frozen=True)
class SetupFiles:
    """The inputs the setups name: the model (.osim: OpenSim reads no other), the marker trial, the external loads
    (None for none), force-set files of residual and reserve actuators."""

    model: Path
    markers: Path
    external_loads: Path | None = None
    actuators: tuple = ()


def _name(path, folder: Path) -> str:
    path = Path(path).absolute()
    try:
        return Path(os.path.relpath(path, folder)).as_posix()
    except ValueError:                          # another drive
        return str(path)


def _element(parent, tag, text=None, **attributes):
    element = ET.SubElement(parent, tag, **attributes)
    if text is not None:
        element.text = text
    return element


def _number(value) -> str:
    return "-1" if value is None else repr(float(value))


def _write(path: Path, tool) -> Path:
    root = ET.Element("OpenSimDocument", Version="40000")
    root.append(tool)
    ET.indent(root, "\t")
    write_text(path, '<?xml version="1.0" encoding="UTF-8" ?>\n' + ET.tostring(root, encoding="unicode") + "\n")
    return path


def write_opensim_setups(folder, name: str, files: SetupFiles, settings, model, muscles=None) -> list:
    """Write ``<name>_Setup_IK.xml``, ``<name>_Setup_ID.xml`` and, with ``muscles`` (MuscleForceSettings of the
    opensim objective, or None), ``<name>_Setup_SO.xml`` into ``folder``; returns their paths.

    ``settings`` is the analysis's :class:`~engine.analysis.pipeline.AnalysisSettings` (its IK settings, the
    coordinates' cut-off; ``ik.start``/``ik.end`` or the whole trial), ``model`` the model the settings are for (its
    markers and coordinates). SettingsError for what OpenSim's tools cannot express: a model that is not an .osim,
    the seed's muscle objective, a start or end not given."""
    folder = Path(folder).absolute()
    folder.mkdir(parents=True, exist_ok=True)
    if Path(files.model).suffix.lower() != ".osim":
        raise SettingsError("OpenSim's tools read .osim models only", element="model", file=files.model)
    ik = settings.ik
    if ik.start is None or ik.end is None:
        raise SettingsError("the setups need the analysed time range: give the start and end", element="time range")
    time_range = f"{_number(ik.start)} {_number(ik.end)}"
    ik_tool = ET.Element("InverseKinematicsTool", name=name)
    _element(ik_tool, "results_directory", ".")
    _element(ik_tool, "model_file", _name(files.model, folder))
    _element(ik_tool, "constraint_weight", "Inf")
    _element(ik_tool, "accuracy", "1e-05")
    tasks = _element(_element(ik_tool, "IKTaskSet", name=f"{name}_IK"), "objects")
    for marker in model.markers:
        weight = ik.marker_weights.get(marker.name, ik.default_weight)
        task = _element(tasks, "IKMarkerTask", name=marker.name)
        _element(task, "apply", "true" if weight > 0 else "false")
        _element(task, "weight", repr(float(weight)))
    sources = set()
    for coordinate, (weight, target) in ik.coordinate_tasks.items():
        task = _element(tasks, "IKCoordinateTask", name=coordinate)
        _element(task, "apply", "true")
        _element(task, "weight", repr(float(weight)))
        if isinstance(target, CoordinateTrack):
            sources.add(target.source)
        kind = ("default_value" if target is None else "from_file" if isinstance(target, CoordinateTrack) else
                "manual_value")
        _element(task, "value_type", kind)
        _element(task, "value", repr(float(target)) if kind == "manual_value" else "0")    # rad, as OpenSim reads it
    if len(sources) > 1:
        raise SettingsError("coordinate tasks follow several files; an OpenSim IK setup names one coordinate_file",
                            element="coordinate tasks")
    if sources:
        _element(ik_tool, "coordinate_file", _name(sources.pop(), folder))
    _element(ik_tool, "marker_file", _name(files.markers, folder))
    _element(ik_tool, "time_range", time_range)
    _element(ik_tool, "report_errors", "true")
    motion = f"{name}_ik.mot"
    _element(ik_tool, "output_motion_file", motion)
    written = [_write(folder / f"{name}_Setup_IK.xml", ik_tool)]

    def motion_inputs(tool):
        _element(tool, "external_loads_file", "" if files.external_loads is None else
                 _name(files.external_loads, folder))
        _element(tool, "coordinates_file", motion)
        _element(tool, "lowpass_cutoff_frequency_for_coordinates", _number(settings.cutoff))

    id_tool = ET.Element("InverseDynamicsTool", name=name)
    _element(id_tool, "results_directory", ".")
    _element(id_tool, "model_file", _name(files.model, folder))
    _element(id_tool, "time_range", time_range)
    _element(id_tool, "forces_to_exclude", "Muscles")
    motion_inputs(id_tool)
    _element(id_tool, "output_gen_force_file", f"{name}_id.sto")
    written.append(_write(folder / f"{name}_Setup_ID.xml", id_tool))
    if muscles is None:
        return written
    if muscles.objective != "opensim":
        raise SettingsError("OpenSim's static optimisation is the opensim objective; the seed's tracking QP has no "
                            "OpenSim setup", element="objective")
    so_tool = ET.Element("AnalyzeTool", name=name)
    _element(so_tool, "model_file", _name(files.model, folder))
    _element(so_tool, "replace_force_set", "false")
    _element(so_tool, "force_set_files", " ".join(_name(f, folder) for f in files.actuators))
    _element(so_tool, "results_directory", ".")
    _element(so_tool, "initial_time", _number(ik.start))
    _element(so_tool, "final_time", _number(ik.end))
    analysis = _element(_element(_element(so_tool, "AnalysisSet", name="Analyses"), "objects"), "StaticOptimization",
                        name="StaticOptimization")
    for tag, text in (("on", "true"), ("start_time", _number(ik.start)), ("end_time", _number(ik.end)),
                      ("step_interval", "1"), ("in_degrees", "true"), ("use_model_force_set", "true"),
                      ("activation_exponent", repr(float(muscles.activation_exponent))),
                      ("use_muscle_physiology", "true" if muscles.muscle_physiology else "false")):
        _element(analysis, tag, text)
    motion_inputs(so_tool)
    written.append(_write(folder / f"{name}_Setup_SO.xml", so_tool))
    return written
