"""Symmetry between the intact and the prosthetic side: SI = 100 (intact - prosthetic) / (0.5 (intact +
prosthetic)) %, 0 for perfect symmetry, positive where the intact side's value is larger (Robinson et al. 1987)."""
from __future__ import annotations

import numpy as np

from ..analysis.gait_phases import side_of


def symmetry_index(intact: float, prosthetic: float) -> float:
    """The symmetry index, % (nan when the mean of the two is 0 or either is not finite)."""
    mean = 0.5 * (intact + prosthetic)
    if not (np.isfinite(intact) and np.isfinite(prosthetic)) or mean == 0:
        return float("nan")
    return 100.0 * (intact - prosthetic) / mean


def sides(model) -> tuple[str, str]:
    """``(intact, prosthetic)`` sides: the prosthetic one carries the model's rod (a blade); without one,
    ('Left', 'Right') and the index compares left with right."""
    if model.rods:
        prosthetic = side_of(model.rods[0].name)
        if prosthetic in ("Left", "Right"):
            return ("Left" if prosthetic == "Right" else "Right"), prosthetic
    return "Left", "Right"
