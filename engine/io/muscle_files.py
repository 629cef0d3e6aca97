"""Files of muscle-force results: ``muscle_forces.sto`` and ``activations.sto`` (OpenSim storage files) and
``emg_comparison.csv``.

Like OpenSim's static optimisation output: one column per muscle, then one per
residual/reserve actuator; forces in N (N m for torque actuators), activations
dimensionless with reserve controls (force / optimal force). Written atomically.
"""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from ..errors import SettingsError
from .atomic import atomic_write
from .storage import Table, write_storage


def _table(result, name, muscles, reserves, description, more=((), None)):
    if result.time is None:
        raise SettingsError("the result has no frame times: estimate with time=... to write .sto files")
    labels, values = more
    data = np.concatenate([muscles, reserves] + ([] if values is None else [values]), axis=1)
    comments = (description, f"Objective: {result.objective}. Units are S.I. units (seconds, metres, newtons).")
    return Table(name=name, labels=tuple(result.muscle_names) + tuple(result.reserve_names) + tuple(labels),
                 time=result.time, data=data, in_degrees=False, comments=comments)


def write_muscle_forces(path, result, more=((), None)) -> None:
    """``muscle_forces.sto``: muscle tensions (N) and reserve forces; then the columns ``more`` (labels, (T, k)
    values), e.g. the external loads OpenSim's static optimisation lists after its actuators."""
    write_storage(path, _table(result, "muscle_forces", result.forces, result.reserve_forces,
                               "Muscle tensions along the tendon (N) and residual/reserve actuator forces.", more))


def write_activations(path, result) -> None:
    """``activations.sto``: muscle activations and reserve controls."""
    write_storage(path, _table(result, "activations", result.activations, result.reserve_controls,
                               "Muscle activations and residual/reserve controls (force / optimal force)."))


def write_emg_comparison_csv(path, comparison) -> None:
    """Write one row per muscle and phase of a :class:`~engine.muscles.emg.comparison.ForceComparison`: muscle,
    phase, start_s, end_s, frames, rms_N, max_f_max_N, rms_percent (atomic write; numbers in the shortest form
    that reads back exactly)."""
    with atomic_write(path) as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["muscle", "phase", "start_s", "end_s", "frames", "rms_N", "max_f_max_N", "rms_percent"])
        for i, muscle in enumerate(comparison.muscles):
            for p, (phase, start, end) in enumerate(comparison.phases):
                values = (start, end, comparison.rms[i, p], comparison.f_max_peak[i], comparison.rms_percent[i, p])
                start_s, end_s, rms, peak, percent = (repr(float(v)) for v in values)
                writer.writerow([muscle, phase, start_s, end_s, int(comparison.frames[i, p]), rms, peak, percent])


def write_muscle_outputs(folder, outputs) -> list:
    """Write the muscle step's files (:class:`~engine.muscles.pipeline.MuscleOutputs`) into ``folder``:
    ``muscle_forces.sto``, ``activations.sto`` and, with EMG, ``emg_comparison.csv``; returns their paths."""
    folder = Path(folder)
    result = outputs.result
    paths = [folder / "muscle_forces.sto", folder / "activations.sto"]
    write_muscle_forces(paths[0], result)
    write_activations(paths[1], result)
    if result.emg_comparison is not None:
        paths.append(folder / "emg_comparison.csv")
        write_emg_comparison_csv(paths[-1], result.emg_comparison)
    return paths
