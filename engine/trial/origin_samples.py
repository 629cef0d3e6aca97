"""Marker samples at exactly the lab origin, (0, 0, 0): the way some systems write a marker not seen."""
from __future__ import annotations

import numpy as np


def seen_positions(markers) -> tuple[np.ndarray, np.ndarray]:
    """``(P, origin)``: a float copy of ``markers``' positions (F, N, 3) m with the samples at exactly (0, 0, 0)
    missing (NaN), and the (F, N) mask of those samples."""
    P = np.array(markers.positions, float)
    origin = (P == 0.0).all(axis=2)
    P[origin] = np.nan
    return P, origin
