"""Runs of True in a sampled mask (a plate loaded, a foot in stance, a load estimated), as index or time spans."""
from __future__ import annotations

import numpy as np


def runs(mask) -> list[tuple[int, int]]:
    """``(first, last)`` indices of each run of True in ``mask`` (T,)."""
    m = np.asarray(mask, bool).astype(np.int8)
    edges = np.diff(np.concatenate(([0], m, [0])))
    return [(int(a), int(b)) for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1)]


def intervals_where(time, mask) -> list[tuple[float, float]]:
    """``(first, last)`` times of each run of True in ``mask`` (T,) sampled at ``time`` (T,)."""
    t = np.asarray(time, float)
    return [(float(t[a]), float(t[b])) for a, b in runs(mask)]
