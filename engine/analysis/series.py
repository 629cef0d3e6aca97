"""The time series of an analysis result, named and with units, for curves and CSV tables.

Every series is sampled at the analysis frames, at the times ``result.motion.time`` (the IK
frames' times, put on an exact uniform grid when the coordinates were filtered): ground reactions
measured by each plate (interpolated at the frames as recorded, and, where the validation filtered them
like the estimate, as scored) and estimated for each contact group, split into vertical,
anterior-posterior and medio-lateral components; coordinates (rotations in degrees); generalized forces
of the analysis (``AnalysisResult.dynamics``), and when both inverse dynamics ran, each set named by its
loads (measured, or estimated from the motion alone); the rods' strains and generalized forces; muscle
forces, activations and EMG-driven reference forces; IK marker errors. :func:`engine.io.series_csv.write_series_csv` writes
any selection with a time column and units in the headers, atomically.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.coordinates import ROTATIONAL, STRAIN
from ..tree import compile_tree
from .inverse_dynamics import plate_samples
from .metrics import axes_of
from .coordinate_values import coordinate_values

GROUPS = ("grf", "angles", "torques", "blade strains", "blade forces", "muscle forces", "activations",
          "ik errors")
"""Series groups, in the order the application shows them."""

AXES = ("vertical", "ap", "ml")


@dataclass(frozen=True, eq=False)
class Series:
    """One signal: ``label`` (unique within a result), ``unit``, ``values`` (T,) at ``time`` (T,) s.

    ``group`` is one of :data:`GROUPS`; ``kind`` says where the values come from ('measured' (a plate, or
    generalized forces from the measured loads), 'scored' (a plate filtered as the validation compared it),
    'estimated', 'emg' or ''); ``channel`` is shared by series that describe the same quantity from different
    sources (e.g. a plate's measured vertical force and the estimate of the contact group over it), so they can
    be drawn together.
    """

    group: str
    label: str
    unit: str
    time: np.ndarray
    values: np.ndarray
    kind: str = ""
    channel: str = ""

    @property
    def header(self) -> str:
        return f"{self.label} [{self.unit}]"


def _strain_unit(name: str) -> str:
    return "1/m" if name[-2:] in ("kx", "ky", "kz") else "1"


def _force_unit(model, v_name: str) -> str:
    """Unit of the generalized force conjugate to velocity ``v_name``."""
    slot = compile_tree(model).coordinates.get(v_name)
    if slot is None:      # a free or spherical joint's angular (wx..) or linear (vx..) velocity
        return "N m" if v_name[-2:] in ("wx", "wy", "wz") else "N"
    if slot.kind == ROTATIONAL:
        return "N m"
    if slot.kind == STRAIN:
        return "N m^2" if v_name[-2:] in ("kx", "ky", "kz") else "N m"
    return "N"


def _grf_series(result, forward) -> list[Series]:
    model, time = result.model, result.motion.time
    up = model.up
    axes = axes_of(up, forward)
    out = []
    groups_of = {m.plate: m.group for m in result.metrics}
    scored = {p.name: p for p in result.reference_plates}
    for plate in result.trial.plates:
        force = plate_samples(plate, time)[0]
        reference = scored.get(plate.name)
        filtered = None if reference is None or np.array_equal(reference.force, plate.force) else \
            plate_samples(reference, time)[0]
        for axis in AXES:
            channel = f"{groups_of.get(plate.name, plate.name)} {axis}"
            out.append(Series("grf", f"GRF plate {plate.name} {axis} (measured)", "N", time, force @ axes[axis],
                              "measured", channel))
            if filtered is not None:
                out.append(Series("grf", f"GRF plate {plate.name} {axis} (measured, as scored)", "N", time,
                                  filtered @ axes[axis], "scored", channel))
    if result.qp is not None:
        for name, g in result.qp.groups.items():
            for axis in AXES:
                out.append(Series("grf", f"GRF {name} {axis} (estimated)", "N", time, g.force @ axes[axis],
                                  "estimated", f"{name} {axis}"))
    return out


def _coordinate_series(result) -> list[Series]:
    model, ik, time = result.model, result.ik, result.motion.time
    labels, values = coordinate_values(model, ik.q)
    kinds = {c.name: c.kind for c in model.all_coordinates}
    out = []
    for label, column in zip(labels, values.T):
        kind = kinds.get(label, ROTATIONAL if label[-3:-1] == "_r" else "translational")
        if kind == STRAIN:
            out.append(Series("blade strains", label, _strain_unit(label), time, column, "", label))
        else:
            out.append(Series("angles", label, "deg" if kind == ROTATIONAL else "m", time, column, "", label))
    return out


def _force_series(result) -> list[Series]:
    model, time = result.model, result.motion.time
    strains = {c.name for c in model.all_coordinates if c.kind == STRAIN}
    sources = [(result.classic, "measured", " (measured loads)"), (result.qp, "estimated", " (estimated)")]
    if result.qp is None or result.classic is None:
        sources = [(result.dynamics, "", "")]
    out = []
    for dynamics, kind, suffix in sources:
        if dynamics is None:
            continue
        for i, name in enumerate(compile_tree(model).v_names):
            unit = _force_unit(model, name)
            base = f"{name}_{'moment' if unit == 'N m' and name not in strains else 'force'}"
            group = "blade forces" if name in strains else "torques"
            out.append(Series(group, base + suffix, unit, time, dynamics.tau[:, i], kind, base))
    return out


def _muscle_series(result) -> list[Series]:
    if result.muscles is None:
        return []
    m = result.muscles.result
    time = result.motion.time
    out = []
    for j, name in enumerate(m.muscle_names):
        out.append(Series("muscle forces", f"{name} force", "N", time, m.forces[:, j], "estimated", name))
        if m.f_ref is not None and np.isfinite(m.f_ref[:, j]).any():
            out.append(Series("muscle forces", f"{name} force (EMG)", "N", time, m.f_ref[:, j], "emg", name))
        out.append(Series("activations", f"{name} activation", "1", time, m.activations[:, j], "", name))
    return out


def _ik_series(result) -> list[Series]:
    ik, time = result.ik, result.motion.time
    out = [Series("ik errors", "IK marker error RMS", "mm", time, 1000.0 * ik.rms, "", "RMS"),
           Series("ik errors", "IK marker error max", "mm", time, 1000.0 * ik.max, "", "max")]
    for k, name in enumerate(ik.marker_names):
        out.append(Series("ik errors", f"IK error {name}", "mm", time, 1000.0 * ik.errors[:, k], "", name))
    return out


def result_series(result, forward=(1.0, 0.0, 0.0)) -> list[Series]:
    """Every series of ``result`` (an :class:`~engine.analysis.pipeline.AnalysisResult`), in
    :data:`GROUPS` order. ``forward`` is the model's forward axis (the AP/ML split, as in the validation)."""
    out = (_grf_series(result, forward) + _coordinate_series(result) + _force_series(result)
           + _muscle_series(result) + _ik_series(result))
    order = {g: i for i, g in enumerate(GROUPS)}
    return sorted(out, key=lambda s: order[s.group])
