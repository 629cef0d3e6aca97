"""Marker samples off their rigid partners: a ghost, a swap or a reconstruction of another point, said and kept.

Two markers on one segment keep their distance: over the trial it varies by a few millimetres (skin, noise). A
pair seen together in at least :data:`MIN_FRAMES` frames whose distance's median absolute deviation is at most
:data:`RIGID_MAD` is rigid. In a frame where a rigid pair's distance departs from its median by more than
:data:`DEPARTURE` (and eight robust standard deviations), one of the two is off its place. A marker is named in
the frames where most of its rigid partners seen there are departed from (with a single partner seen, both are
named: which one is off cannot be told). Such samples are only reported: the jump detector
(``engine.trial.outliers``) misses them, being far slower than any motion; the IK's robust loss may then
down-weight them. Distances in metres, frames 0-based.
"""
from __future__ import annotations

import numpy as np

from .intervals import runs
from .origin_samples import seen_positions

MIN_FRAMES = 20
RIGID_MAD = 0.002      # m
DEPARTURE = 0.010      # m


PAIRS_PER_BLOCK = 64   # the distances of this many pairs at a time: a long trial's every pair at once took 90 kB a frame


def _rigid_pairs(P):
    """``(i, j, D, median, mad)`` of the rigid pairs among the markers of ``P`` (frames, n, 3; NaN unseen): their
    indices (i < j), distances (frames, pairs) and the distances' median and median absolute deviation (m). The
    pairs are measured a block at a time and only the rigid ones kept (a few of the n (n - 1) / 2)."""
    i, j = np.triu_indices(P.shape[1], 1)
    kept = []
    for first in range(0, len(i), PAIRS_PER_BLOCK):
        a, b = i[first:first + PAIRS_PER_BLOCK], j[first:first + PAIRS_PER_BLOCK]
        D = np.linalg.norm(P[:, a] - P[:, b], axis=2)
        enough = np.isfinite(D).sum(axis=0) >= MIN_FRAMES
        a, b, D = a[enough], b[enough], D[:, enough]
        median = np.nanmedian(D, axis=0)
        mad = np.nanmedian(np.abs(D - median), axis=0)
        rigid = mad <= RIGID_MAD
        kept.append((a[rigid], b[rigid], D[:, rigid], median[rigid], mad[rigid]))
    return tuple(np.concatenate(parts, axis=-1) for parts in zip(*kept))


def rigid_departures(markers) -> list[str]:
    """Notes naming each marker's runs of frames off its rigid partners (module notes); [] when there are none."""
    P = seen_positions(markers)[0]
    n = P.shape[1]
    if n < 2 or not len(P):
        return []
    i, j, D, median, mad = _rigid_pairs(P)
    if not len(i):
        return []
    seen = np.isfinite(D)
    departure = np.abs(D - median)
    off = seen & (departure > np.maximum(DEPARTURE, 8 * 1.4826 * mad))
    if not off.any():
        return []
    partners = np.zeros((len(P), n), int)
    departed = np.zeros((len(P), n), int)
    for a, b, s, o in zip(i, j, seen.T, off.T):
        partners[:, a] += s
        partners[:, b] += s
        departed[:, a] += o
        departed[:, b] += o
    named = (departed > 0) & (2 * departed > partners)
    time = markers.time
    found = []
    for k in np.flatnonzero(named.any(axis=0)):
        spans = []
        for first, last in runs(named[:, k]):
            pairs = [p for p, (a, b) in enumerate(zip(i, j)) if k in (a, b) and off[first:last + 1, p].any()]
            worst = max(pairs, key=lambda p: np.nanmax(departure[first:last + 1, p]))
            other = markers.names[int(j[worst] if i[worst] == k else i[worst])]
            frames = f"frame {first} ({time[first]:.3f} s" if first == last else \
                f"frames {first}-{last} ({time[first]:.3f}-{time[last]:.3f} s"
            spans.append(f"{frames}; up to "
                         f"{np.nanmax(departure[first:last + 1, worst]) * 1e3:.0f} mm off its usual "
                         f"{median[worst] * 1e3:.0f} mm from {other})")
        found.append(f"{markers.names[k]} {', '.join(spans)}")
    if not found:
        return []
    return ["marker samples off their rigid partners, kept (a ghost, a swap or another point reconstructed there: "
            "check the labelling): " + "; ".join(found)]
