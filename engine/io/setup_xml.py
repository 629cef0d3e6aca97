"""OpenSim inverse-kinematics setup files (.xml): marker weights, coordinate tasks, files and time range.

Returns plain data; file names are kept as written (relative to the setup file's
folder, as OpenSim resolves them).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DataError
from ._xml import boolean_of, parse_xml, text_of


@dataclass(frozen=True)
class MarkerTask:
    """An IKMarkerTask: the marker's weight in the IK objective, and whether it is used."""

    name: str
    apply: bool
    weight: float


@dataclass(frozen=True)
class CoordinateTask:
    """An IKCoordinateTask: a coordinate held near a value (``value_type`` default_value,
    manual_value or from_file; ``value``, for manual_value, in the model's internal units: radians for rotations,
    as OpenSim 4.6 uses it, unconverted, although its GUI shows rotations in degrees)."""

    name: str
    apply: bool
    weight: float
    value_type: str
    value: float


@dataclass(frozen=True)
class IKSetup:
    """The content of an InverseKinematicsTool setup file.

    ``time_range`` is (start, end) in s, or None when not given; ``constraint_weight``
    may be ``inf`` (constraints enforced exactly).
    """

    name: str
    model_file: str
    marker_file: str
    coordinate_file: str
    output_motion_file: str
    time_range: tuple[float, float] | None
    constraint_weight: float | None
    accuracy: float | None
    marker_tasks: tuple[MarkerTask, ...]
    coordinate_tasks: tuple[CoordinateTask, ...]
    source: str


_VALUE_TYPES = ("default_value", "manual_value", "from_file")


def parse_number(text: str, what: str, element: str, path, allow_inf=False) -> float:
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{what} is {text!r}, not a number", element=element, file=path) from None
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise DataError(f"{what} is {text!r}, not a finite number", element=element, file=path)
    return value


def read_ik_tasks(holder, path) -> tuple[tuple, tuple]:
    """The IKMarkerTasks and IKCoordinateTasks anywhere inside ``holder`` (an IK tool, a MarkerPlacer)."""
    markers, coordinates = [], []
    for task in holder.iter():
        if task.tag not in ("IKMarkerTask", "IKCoordinateTask"):
            continue
        name = task.get("name", "").strip()
        element = f"<{task.tag} name={name!r}>"
        if not name:
            raise DataError("a task has no name", element=f"<{task.tag}>", file=path)
        weight = parse_number(text_of(task, "weight", path, "1"), "the weight", element, path)
        if weight < 0:
            raise DataError(f"the weight {weight} is negative", element=element, file=path)
        apply = boolean_of(task, "apply", path, True)
        if task.tag == "IKMarkerTask":
            markers.append(MarkerTask(name, apply, weight))
        else:
            value_type = text_of(task, "value_type", path, "default_value")
            if value_type not in _VALUE_TYPES:
                raise DataError(f"value_type {value_type!r} is not one of {', '.join(_VALUE_TYPES)}",
                                element=element, file=path)
            value = parse_number(text_of(task, "value", path, "0"), "the value", element, path)
            coordinates.append(CoordinateTask(name, apply, weight, value_type, value))
    for kind, tasks in (("marker", markers), ("coordinate", coordinates)):
        names = [t.name for t in tasks]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise DataError(f"{kind} tasks listed twice: {', '.join(repeated)}", element="<IKTaskSet>", file=path)
    return tuple(markers), tuple(coordinates)


def read_time_range(holder, path, where: str = "") -> tuple[float, float] | None:
    """``holder``'s ``<time_range>`` as (start, end) s, or None when absent or empty."""
    text = text_of(holder, "time_range", path, "")
    if not text:
        return None
    element = f"{where}<time_range>"
    values = [parse_number(p, "the time range", element, path) for p in text.split()]
    if len(values) != 2 or values[0] > values[1]:
        raise DataError(f"the time range must be two increasing times, got {text!r}", element=element, file=path)
    return values[0], values[1]


def read_ik_setup(path) -> IKSetup:
    """Read an OpenSim IK setup .xml.

    Raises :class:`~engine.errors.DataError` for malformed XML, a missing
    <InverseKinematicsTool>, task weights that are not finite non-negative numbers,
    ``apply`` values other than true/false, an unknown ``value_type``, a time range
    that is not two increasing numbers, or a marker or coordinate listed twice.
    """
    path = Path(path)
    root = parse_xml(path)
    tool = root if root.tag == "InverseKinematicsTool" else root.find(".//InverseKinematicsTool")
    if tool is None:
        raise DataError("no <InverseKinematicsTool> element", element=f"<{root.tag}>", file=path)
    markers, coordinates = read_ik_tasks(tool, path)
    time_range = read_time_range(tool, path)
    weight_text = text_of(tool, "constraint_weight", path, "")
    accuracy_text = text_of(tool, "accuracy", path, "")
    return IKSetup(
        name=tool.get("name", ""),
        model_file=text_of(tool, "model_file", path, ""),
        marker_file=text_of(tool, "marker_file", path, ""),
        coordinate_file=text_of(tool, "coordinate_file", path, ""),
        output_motion_file=text_of(tool, "output_motion_file", path, ""),
        time_range=time_range,
        constraint_weight=(parse_number(weight_text, "constraint_weight", "<constraint_weight>", path, allow_inf=True)
                           if weight_text else None),
        accuracy=parse_number(accuracy_text, "accuracy", "<accuracy>", path) if accuracy_text else None,
        marker_tasks=markers,
        coordinate_tasks=coordinates,
        source=str(path))


def ik_settings_from_setup(model, setup):
    """IK settings equivalent to an OpenSim IK setup (marker weights, coordinate tasks, time range). Tasks naming
    a marker or coordinate the model does not have are left out, as OpenSim does, and listed in the settings'
    ``notes`` (which the analysis's notes repeat). A ``from_file`` task follows its column of the setup's
    ``coordinate_file`` (rotations in degrees when the file's header says so); DataError naming the task when
    the setup names no file or the file has no such column."""
    from ..analysis.ik import IKSettings
    markers = {m.name for m in model.markers}
    coordinates = {c.name for c in model.all_coordinates}
    weights = {t.name: (t.weight if t.apply else 0.0) for t in setup.marker_tasks if t.name in markers}
    tasks = {}
    table = []
    for t in setup.coordinate_tasks:
        if t.apply and t.name in coordinates:
            if t.value_type == "from_file":
                table = table or [_coordinate_file(setup, t)]
                tasks[t.name] = (t.weight, _track(model, table[0], t, setup.source))
            else:
                tasks[t.name] = (t.weight, None if t.value_type == "default_value" else t.value)
    notes = []
    for kind, names, known in (("marker", [t.name for t in setup.marker_tasks], markers),
                               ("coordinate", [t.name for t in setup.coordinate_tasks], coordinates)):
        missing = [n for n in names if n not in known]
        if missing:
            notes.append(f"IK setup {Path(setup.source).name}: {len(missing)} {kind} tasks name {kind}s the model "
                         f"does not have, left out: {', '.join(missing)}")
    start, end = setup.time_range if setup.time_range else (None, None)
    return IKSettings(marker_weights=weights, coordinate_tasks=tasks, start=start, end=end, notes=tuple(notes))


def _coordinate_file(setup, task):
    """The table of the setup's ``coordinate_file`` (relative to the setup's folder)."""
    from .storage import read_storage
    if setup.coordinate_file.strip().lower() in ("", "unassigned"):
        raise DataError("has value_type from_file, but the setup names no <coordinate_file>",
                        element=f"<IKCoordinateTask name={task.name!r}>", file=setup.source)
    return read_storage(Path(setup.source).absolute().parent / setup.coordinate_file.strip())


def _track(model, table, task, source):
    """The :class:`~engine.analysis.ik.CoordinateTrack` of a from_file task: its column of ``table``."""
    from ..analysis.ik import CoordinateTrack
    if task.name not in table.labels:
        raise DataError(f"has value_type from_file, but {Path(table.source or '').name} has no column "
                        f"{task.name!r}", element=f"<IKCoordinateTask name={task.name!r}>", file=source)
    rotational = model.coordinate(task.name).kind == "rotational"
    scale = np.pi / 180 if table.in_degrees and rotational else 1.0
    return CoordinateTrack(np.asarray(table.time, float), table.column(task.name) * scale, str(table.source))
