"""Musculotendon actuators: geometry, Hill-type models, force estimation, amputation edits (their descriptions
are part of the model: ``engine.model.muscles``).

The public API is imported on first use (the force estimation and EMG chain bring SciPy and numba kernels).
"""
from importlib import import_module

_LAZY = {
    "MuscleGeometry": "geometry", "PathResult": "geometry", "PathWarning": "geometry", "CurrentPoint": "geometry",
    "RemoveMuscle": "edits", "TransectMuscle": "edits", "AddWrapObject": "edits", "ReattachMuscle": "edits",
    "apply_edits": "edits", "undo_edits": "edits",
    "transtibial_edits": "transtibial", "stump_cylinder": "transtibial", "distal_bodies": "transtibial",
    "HillMuscles": "hill", "RigidTendonForces": "hill",
    "MuscleForceSettings": "static_optimization", "estimate_muscle_forces": "static_optimization",
    "MuscleForceResult": "results",
    "ReserveActuators": "reserves", "coordinate_reserves": "reserves", "read_actuators": "reserves",
    "EMGProcessing": "emg", "EMGSignals": "emg", "process_emg": "emg", "emg_from_trial": "emg",
    "MuscleActivity": "activation", "activation_dynamics": "activation", "muscle_activity": "activation",
    "compare_forces": "emg_comparison",
}

__all__ = [*_LAZY]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value
