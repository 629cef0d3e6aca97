"""Scale factors per body from a static trial, with OpenSim ModelScaler's semantics.

A measurement's factor is the mean over its marker pairs of ``d_measured / d_model``: ``d_measured`` the
distance between the two markers of the trial averaged over the frames of the time range (OpenSim's
``MarkerData::findFrameRange``: from the last frame at or before the start to the first at or after the
end), ``d_model`` their distance with the generic model in its default pose. The factor is written on the
axes its bodies list. Manual factors replace a body's three factors. Both are applied in the setup's
``order``; a body no step names keeps 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import DataError, ModelError
from .setup import MANUAL, MEASUREMENTS, ScalerSetup


@dataclass(frozen=True)
class PairDistance:
    """One marker pair of a measurement: distances in m, ``ratio = measured / model``."""

    measurement: str
    markers: tuple
    model: float
    measured: float
    frames: int

    @property
    def ratio(self) -> float:
        return self.measured / self.model


@dataclass(frozen=True)
class ScaleFactors:
    """Scale factors (x, y, z) of every body, the measurements' factors and their pairs, and notes."""

    factors: dict
    measurements: dict = field(default_factory=dict)
    pairs: tuple = ()
    notes: tuple = ()


def frame_range(time, start: float, end: float) -> np.ndarray:
    """Indices of the frames OpenSim averages over [start, end] (MarkerData::findFrameRange)."""
    time = np.asarray(time)
    before = np.flatnonzero(time <= start)
    first = int(before[-1]) if before.size else 0
    after = np.flatnonzero(time[first:] >= end - 1e-14)
    last = first + int(after[0]) if after.size else len(time) - 1
    return np.arange(first, last + 1)


def measured_distance(markers, a: str, b: str, frames, trial_file) -> tuple[float, int]:
    """Mean distance (m) between markers ``a`` and ``b`` over ``frames`` where both are seen."""
    for name in (a, b):
        if name not in markers.names:
            raise DataError(f"has no marker {name!r}, which a measurement needs", element=f"marker {name!r}",
                            file=trial_file)
    d = np.linalg.norm(markers.positions[frames, markers.index(a)] - markers.positions[frames, markers.index(b)],
                       axis=1)
    seen = d[~np.isnan(d)]
    if seen.size == 0:
        raise DataError(f"markers {a!r} and {b!r} are never both seen in the time range",
                        element=f"marker pair {a!r} {b!r}", file=trial_file)
    return float(seen.mean()), int(seen.size)


def model_distances(model, pairs) -> dict:
    """Distances (m) between marker pairs of ``model`` in its default pose."""
    names = {m.name for m in model.markers}
    for pair in pairs:
        for name in pair:
            if name not in names:
                raise ModelError(f"has no marker {name!r}, which a measurement needs (add it with the marker "
                                 "set file)", f"model '{model.name}'")
    data = Data(model)
    alg.forward_kinematics(model, data, alg.neutral(model))
    where = {}
    for name in {n for pair in pairs for n in pair}:
        where[name] = alg.frame_placement(model, data, name).p
    return {pair: float(np.linalg.norm(where[pair[0]] - where[pair[1]])) for pair in pairs}


def compute_scale_factors(model, markers, scaler: ScalerSetup, trial_file=None, setup_file=None) -> ScaleFactors:
    """The scale factors of ``scaler`` for ``model`` from the static trial's ``markers`` (metres).

    Raises DataError (a marker a measurement needs is missing from the trial) or ModelError (one the model
    does not have), naming the file and element. Bodies the model does not have are left out with a note,
    as OpenSim leaves them out.
    """
    bodies = {b.name for b in model.bodies}
    factors = {b: np.ones(3) for b in sorted(bodies)}
    measured, rows, notes = {}, [], []
    for step in scaler.order:
        if step == MEASUREMENTS:
            used = [m for m in scaler.measurements if m.apply]
            if used and markers is None:
                raise DataError("measurements are used but no static trial is given",
                                element="<ModelScaler>/<marker_file>", file=setup_file)
            frames = (frame_range(markers.time, *scaler.time_range) if scaler.time_range
                      else np.arange(markers.n_frames)) if used else None
            model_d = model_distances(model, [p for m in used for p in m.pairs])
            for m in used:
                for bs in m.bodies:
                    if bs.body not in bodies:
                        notes.append(f"measurement '{m.name}' scales {bs.body!r}, which model '{model.name}' "
                                     "does not have: not used for it (as OpenSim does)")
                ratios = []
                for a, b in m.pairs:
                    d, n = measured_distance(markers, a, b, frames, trial_file)
                    if n < len(frames):
                        notes.append(f"measurement '{m.name}': {a}-{b} seen in {n} of {len(frames)} frames; "
                                     "averaged over those")
                    row = PairDistance(m.name, (a, b), model_d[(a, b)], d, n)
                    rows.append(row)
                    ratios.append(row.ratio)
                factor = float(np.mean(ratios))
                measured[m.name] = factor
                for bs in m.bodies:
                    if bs.body in bodies:
                        factors[bs.body][list(bs.axes)] = factor
        elif step == MANUAL:
            for s in scaler.manual:
                if not s.apply:
                    continue
                if s.body not in bodies:
                    notes.append(f"manual scale factors for {s.body!r}, which model '{model.name}' does not "
                                 "have: not used (as OpenSim does)")
                else:
                    factors[s.body] = np.array(s.factors, dtype=float)
    return ScaleFactors(factors=factors, measurements=measured, pairs=tuple(rows), notes=tuple(notes))
