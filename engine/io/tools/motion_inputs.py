"""What OpenSim's InverseDynamicsTool and AnalyzeTool both read: the model, the coordinates file and its low-pass
filter, the external loads, the time range; and the motion and loads HybridLab makes of them.

As OpenSim: the coordinates file is filtered whole (``lowpass_cutoff_frequency_for_coordinates``; negative for
none), differentiated, then cut to the time range; coordinates the model has and the file does not keep their
default value (said in the notes); columns naming no coordinate of the model are not used (said).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ...analysis.derivatives import Motion, motion_from_coordinates
from ...data import Data
from ...errors import DataError, SettingsError
from ... import algorithms as alg
from ...tree import compile_tree
from ..external_loads import GROUND, load_external_loads
from ..setup_xml import parse_number
from ..storage import read_storage
from .._xml import text_of
from .documents import file_name


@dataclass(frozen=True)
class MotionInputs:
    """The model, coordinates, filter (Hz, None for none), external loads (None for none) and time range (s, None
    for the whole file) of an ID or Analyze setup; paths resolved against the setup's folder."""

    model_file: Path
    coordinates_file: Path
    cutoff: float | None
    external_loads_file: Path | None
    time_range: tuple | None
    source: str


def read_motion_inputs(tool, path, time_range) -> MotionInputs:
    """The :class:`MotionInputs` of a tool element; DataError naming the element for a missing model or
    coordinates file or a cut-off that is not a number."""
    path = Path(path)
    folder = path.absolute().parent

    def required(tag):
        name = file_name(tool, tag, path)
        if name is None:
            raise DataError("is missing or empty (HybridLab needs it)", element=f"<{tool.tag}>/<{tag}>", file=path)
        return folder / name

    cutoff = parse_number(text_of(tool, "lowpass_cutoff_frequency_for_coordinates", path, "-1"), "the cut-off",
                          f"<{tool.tag}>/<lowpass_cutoff_frequency_for_coordinates>", path)
    loads = file_name(tool, "external_loads_file", path)
    return MotionInputs(model_file=required("model_file"), coordinates_file=required("coordinates_file"),
                        cutoff=cutoff if cutoff > 0 else None,
                        external_loads_file=None if loads is None else folder / loads, time_range=time_range,
                        source=str(path))


def coordinates_from_table(model, table, notes: list) -> np.ndarray:
    """(T, nq) configurations from a motion table's coordinate columns (degrees when its header says so)."""
    slots = compile_tree(model).coordinates
    Q = np.tile(alg.neutral(model), (len(table.time), 1))
    used = [label for label in table.labels if label in slots and slots[label].qi >= 0]   # not coupled ones
    for label in used:
        slot = slots[label]
        scale = np.pi / 180 if table.in_degrees and slot.kind == "rotational" else 1.0
        Q[:, slot.qi] = table.column(label) * scale
    name = Path(table.source or "").name
    unused = [label for label in table.labels if label not in slots]
    if unused:
        notes.append(f"{name}: columns naming no coordinate of the model, not used: {', '.join(unused)}")
    missing = [c for c in slots if c not in used and slots[c].vi >= 0]
    if missing:
        notes.append(f"{name}: coordinates the file does not hold, at their default value: {', '.join(missing)}")
    if not used:
        raise DataError("no column names a coordinate of the model", element="column labels", file=table.source)
    return Q


def motion_of(model, inputs: MotionInputs, notes: list) -> Motion:
    """The filtered motion (q, v, a) of the coordinates file over the setup's time range."""
    table = read_storage(inputs.coordinates_file)
    Q = coordinates_from_table(model, table, notes)
    motion = motion_from_coordinates(model, table.time, Q, inputs.cutoff)
    if inputs.cutoff is not None:
        notes.append(f"{inputs.coordinates_file.name}: coordinates low-pass filtered at {inputs.cutoff:g} Hz "
                     "(zero-lag Butterworth, ends mirrored as OpenSim's tools do)")
    if inputs.time_range is None:
        return motion
    start, end = inputs.time_range
    step = np.median(np.diff(motion.time)) if len(motion.time) > 1 else 0.0
    keep = (motion.time >= start - 1e-6 * max(step, 1e-9)) & (motion.time <= end + 1e-6 * max(step, 1e-9))
    if keep.sum() < 1:
        raise SettingsError(f"the time range {start:g}-{end:g} s holds no frame of the coordinates "
                            f"({motion.time[0]:g}-{motion.time[-1]:g} s)", element="time range",
                            file=inputs.source)
    if start < motion.time[0] - 0.5 * step or end > motion.time[-1] + 0.5 * step:
        notes.append(f"the time range {start:g}-{end:g} s is cut to the coordinates' {motion.time[keep][0]:g}-"
                     f"{motion.time[keep][-1]:g} s")
    return replace(motion, time=motion.time[keep], q=motion.q[keep], v=motion.v[keep], a=motion.a[keep])


def external_loads_of(inputs: MotionInputs, notes: list):
    """The setup's :class:`~engine.io.external_loads.ExternalLoads`, or None without a file."""
    if inputs.external_loads_file is None:
        return None
    external = load_external_loads(inputs.external_loads_file)
    notes += list(external.notes)
    return external


def load_columns(model, motion, external) -> tuple:
    """``(labels, (T, 9k) values)``: each external load at the motion's frames as OpenSim's force reports list it,
    ``<body>_<name>_F{x,y,z}`` (N, in ground), ``_p{x,y,z}`` (m, the point in the body's frame), ``_T{x,y,z}``
    (N m, in ground)."""
    labels, columns = [], []
    data = Data(model)
    for load in external.loads:
        samples = {part: np.column_stack([np.interp(motion.time, load.time, values[:, i]) for i in range(3)])
                   for part, values in (("F", load.force), ("p", load.point), ("T", load.torque))}
        if load.point_frame == GROUND:
            for f, q in enumerate(motion.q):
                alg.forward_kinematics(model, data, q)
                X = alg.frame_placement(model, data, load.body)
                samples["p"][f] = X.R.T @ (samples["p"][f] - X.p)
        for part in ("F", "p", "T"):
            labels += [f"{load.body}_{load.name}_{part}{axis}" for axis in "xyz"]
            columns.append(samples[part])
    return tuple(labels), np.concatenate(columns, axis=1) if columns else None
