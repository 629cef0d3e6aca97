"""OpenSim storage files of muscle-force results: ``muscle_forces.sto`` and ``activations.sto``.

Like OpenSim's static optimisation output: one column per muscle, then one per
residual/reserve actuator; forces in N (N m for torque actuators), activations
dimensionless with reserve controls (force / optimal force). Written atomically.
"""
from __future__ import annotations

import numpy as np

from ..errors import SettingsError
from ..io.storage import Table, write_storage


def _table(result, name, muscles, reserves, description):
    if result.time is None:
        raise SettingsError("the result has no frame times: estimate with time=... to write .sto files")
    data = np.concatenate([muscles, reserves], axis=1)
    comments = (description, f"Objective: {result.objective}. Units are S.I. units (seconds, metres, newtons).")
    return Table(name=name, labels=tuple(result.muscle_names) + tuple(result.reserve_names), time=result.time,
                 data=data, in_degrees=False, comments=comments)


def write_muscle_forces(path, result) -> None:
    """``muscle_forces.sto``: muscle tensions (N) and reserve forces."""
    write_storage(path, _table(result, "muscle_forces", result.forces, result.reserve_forces,
                               "Muscle tensions along the tendon (N) and residual/reserve actuator forces."))


def write_activations(path, result) -> None:
    """``activations.sto``: muscle activations and reserve controls."""
    write_storage(path, _table(result, "activations", result.activations, result.reserve_controls,
                               "Muscle activations and residual/reserve controls (force / optimal force)."))
