"""OpenSim ExternalLoads (.xml) and the ground reactions they describe in a GRF .mot file.

An ExternalLoads document lists ExternalForce entries; each says which body the
force acts on (``applied_to_body``), in which frames the force and its point are
expressed (``force_expressed_in_body``, ``point_expressed_in_body``) and which
columns of the data file hold them: the columns whose labels start with
``force_identifier`` (three, x y z, in file order), ``point_identifier`` and
``torque_identifier`` (e.g. ``ground_force_v`` -> ``ground_force_vx/vy/vz``;
``1_ground_force_v`` -> ``1_ground_force_vx``...), as OpenSim matches them. The data
file is the document's ``datafile`` (relative to the .xml) unless one is given.

OpenSim's units are SI: forces in N, points in m, torques in N m; the ground frame
has Y up.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DataError, SettingsError
from ..trial.forceplate import DEFAULT_THRESHOLD, ForcePlate
from ._xml import boolean_of, parse_xml, text_of
from .storage import Table, read_storage

GROUND = "ground"
OPENSIM_UP = (0.0, 1.0, 0.0)


@dataclass(frozen=True)
class ExternalForceSpec:
    """One ExternalForce entry of an ExternalLoads document (names as written); ``disabled`` from
    ``isDisabled`` (OpenSim 3) or ``appliesForce`` (OpenSim 4)."""

    name: str
    applied_to_body: str
    force_expressed_in_body: str
    point_expressed_in_body: str
    force_identifier: str
    point_identifier: str
    torque_identifier: str
    data_source_name: str
    disabled: bool


@dataclass(frozen=True)
class ExternalLoadsSpec:
    """An ExternalLoads document: its forces and the data file it names (None if none)."""

    name: str
    forces: tuple[ExternalForceSpec, ...]
    datafile: str | None
    source: str


def read_external_loads(path) -> ExternalLoadsSpec:
    """Read an OpenSim ExternalLoads .xml (any document version using ExternalForce entries)."""
    path = Path(path)
    root = parse_xml(path)
    loads = root if root.tag == "ExternalLoads" else root.find(".//ExternalLoads")
    if loads is None:
        raise DataError("no <ExternalLoads> element", element=f"<{root.tag}>", file=path)
    forces = []
    for e in loads.iter("ExternalForce"):
        name = e.get("name", "").strip()
        if not name:
            raise DataError("an <ExternalForce> has no name", element="<ExternalForce>", file=path)
        forces.append(ExternalForceSpec(
            name=name,
            applied_to_body=text_of(e, "applied_to_body", path),
            force_expressed_in_body=text_of(e, "force_expressed_in_body", path, GROUND) or GROUND,
            point_expressed_in_body=text_of(e, "point_expressed_in_body", path, GROUND) or GROUND,
            force_identifier=text_of(e, "force_identifier", path),
            point_identifier=text_of(e, "point_identifier", path, ""),
            torque_identifier=text_of(e, "torque_identifier", path, ""),
            data_source_name=text_of(e, "data_source_name", path, ""),
            disabled=boolean_of(e, "isDisabled", path, False) or not boolean_of(e, "appliesForce", path, True)))
        if not forces[-1].applied_to_body or not forces[-1].force_identifier:
            raise DataError("applied_to_body and force_identifier must not be empty",
                            element=f"<ExternalForce name={name!r}>", file=path)
    names = [f.name for f in forces]
    if len(set(names)) != len(names):
        raise DataError("two ExternalForce entries have the same name", element="<ExternalLoads>", file=path)
    datafile = text_of(loads, "datafile", path, "") or None
    return ExternalLoadsSpec(name=loads.get("name", ""), forces=tuple(forces), datafile=datafile, source=str(path))


@dataclass(frozen=True, eq=False)
class ExternalLoad:
    """The samples of one external force, ready to apply to a model.

    ``force`` (n, 3) N is expressed in ``force_frame``; ``point`` (n, 3) m, the point
    of application, in ``point_frame`` (None: the origin of ``body``); ``torque``
    (n, 3) N m in ``force_frame`` (zeros when the entry names no torque columns).
    ``columns`` are the file's labels used for force, point and torque.
    """

    name: str
    body: str
    force_frame: str
    point_frame: str
    time: np.ndarray
    force: np.ndarray
    point: np.ndarray | None
    torque: np.ndarray
    columns: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class ExternalLoads:
    """The enabled loads of an ExternalLoads document with their data, and what was noticed."""

    loads: tuple[ExternalLoad, ...]
    table: Table
    notes: tuple[str, ...]
    source: str


def _columns(table: Table, identifier: str, force: str, path) -> tuple[list[str], np.ndarray]:
    labels = [label for label in table.labels if label.startswith(identifier)]
    if len(labels) != 3:
        raise DataError(f"the identifier {identifier!r} of ExternalForce {force!r} matches {len(labels)} columns "
                        f"({', '.join(labels) or 'none'}); it must match exactly three (x, y, z)",
                        element="column labels", file=path)
    values = np.column_stack([table.column(label) for label in labels])
    if not np.all(np.isfinite(values)):
        row = int(np.flatnonzero(~np.isfinite(values).all(axis=1))[0])
        raise DataError(f"NaN or infinite value where ExternalForce {force!r} needs numbers",
                        element=f"data row {row + 1}, columns {', '.join(labels)}", file=path)
    return labels, values


def load_external_loads(xml_path, data=None) -> ExternalLoads:
    """The external loads of an ExternalLoads .xml with their samples.

    ``data`` is the GRF file (a path or an already read :class:`Table`); by default
    the document's ``datafile``, relative to the .xml. Disabled entries are left out
    and listed in ``notes``.
    """
    spec = read_external_loads(xml_path)
    xml_path = Path(xml_path)
    if data is None:
        if spec.datafile is None:
            raise DataError("the document names no <datafile> and no data file was given", element="<datafile>",
                            file=xml_path)
        data = xml_path.parent / spec.datafile
    table = data if isinstance(data, Table) else read_storage(data)
    data_path = table.source or str(data)
    loads, notes = [], []
    for f in spec.forces:
        if f.disabled:
            notes.append(f"ExternalForce {f.name!r} is disabled; not applied")
            continue
        force_cols, force = _columns(table, f.force_identifier, f.name, data_path)
        point_cols, point = (_columns(table, f.point_identifier, f.name, data_path) if f.point_identifier
                             else ([], None))
        torque_cols, torque = (_columns(table, f.torque_identifier, f.name, data_path) if f.torque_identifier
                               else ([], np.zeros_like(force)))
        if point is None:
            notes.append(f"ExternalForce {f.name!r} names no point columns: applied at the origin of "
                         f"{f.applied_to_body}")
        loads.append(ExternalLoad(name=f.name, body=f.applied_to_body, force_frame=f.force_expressed_in_body,
                                  point_frame=f.point_expressed_in_body, time=table.time, force=force, point=point,
                                  torque=torque, columns=tuple(force_cols + point_cols + torque_cols)))
    return ExternalLoads(loads=tuple(loads), table=table, notes=tuple(notes), source=str(xml_path))


def _uniform_rate(time, path) -> float:
    """The sampling rate of a time column written with rounded times (e.g. 0, 0.0017, 0.0033 ...)."""
    if len(time) < 2:
        raise DataError("a force plate needs at least two samples", element="time column", file=path)
    step = (time[-1] - time[0]) / (len(time) - 1)
    jitter = np.max(np.abs(time - (time[0] + step * np.arange(len(time))))) if step > 0 else np.inf
    if not jitter <= 0.25 * step:
        raise DataError("the time column is not uniformly sampled (needed to treat the loads as a force plate)",
                        element="time column", file=path)
    return 1.0 / step


def ground_reaction_plates(external: ExternalLoads, threshold: float = DEFAULT_THRESHOLD) -> tuple[ForcePlate, ...]:
    """The loads as :class:`~engine.trial.forceplate.ForcePlate` records (no corners).

    Only loads whose force, point and torque are expressed in ground can be; the
    plate surface is the horizontal plane (ground +Y up, OpenSim's convention)
    through the median point of application while loaded. The moment about the
    ground origin is ``point x force + torque``.
    """
    plates = []
    for k, load in enumerate(external.loads):
        if load.force_frame != GROUND or load.point_frame != GROUND or load.point is None:
            raise SettingsError(f"ExternalForce {load.name!r} is expressed in {load.force_frame!r} / "
                                f"{load.point_frame!r}; only loads expressed in ground (with a point) are plates")
        rate = _uniform_rate(load.time, external.table.source)
        up = np.array(OPENSIM_UP)
        loaded = load.force @ up >= threshold
        surface = np.median(load.point[loaded] if loaded.any() else load.point, axis=0)
        moment = np.cross(load.point, load.force) + load.torque
        plates.append(ForcePlate.from_loads(load.force, moment, normal=up, surface_point=surface,
                                            threshold=threshold, name=load.name, number=k + 1, type=None,
                                            rate=rate, t0=float(load.time[0]), channels=load.columns))
    return tuple(plates)


def with_ground_reactions(trial, external: ExternalLoads, threshold: float = DEFAULT_THRESHOLD):
    """The trial (in OpenSim's ground frame, Y up) with the loads added as force plates.

    Where a load's torque columns have components along the ground, the centre of
    pressure computed from force and moment departs from the file's point columns;
    departures over 1 cm are reported in ``warnings`` (the :class:`ExternalLoad`
    keeps the point and torque as written, as OpenSim applies them).
    """
    plates = ground_reaction_plates(external, threshold)
    warnings = list(external.notes)
    for plate, load in zip(plates, external.loads):
        loaded = plate.loaded
        if loaded.any():
            gap = np.linalg.norm(plate.cop[loaded] - load.point[loaded], axis=1)
            if gap.max() > 0.01:
                worst = int(np.flatnonzero(loaded)[np.argmax(gap)])
                warnings.append(f"{load.name}: the torque columns have components along the ground, so the centre "
                                f"of pressure differs from the point columns by up to {gap.max():.3f} m (at "
                                f"{load.time[worst]:.4g} s, normal force {plate.normal_force[worst]:.0f} N)")
    bodies = ", ".join(f"{load.name} -> {load.body}" for load in external.loads)
    note = (f"ground reactions from {Path(external.table.source or '').name} via {Path(external.source).name} "
            f"({bodies}); vertical = ground +Y (OpenSim convention)")
    return trial.derived(note, warnings=warnings, plates=trial.plates + plates)
