"""Marker gaps: where markers are missing, and cubic-spline filling of short gaps.

A gap is a run of consecutive frames where a marker is missing (any coordinate
NaN). Gaps touching the first or last frame are *edge* gaps: filling them would
be extrapolation, so they are never filled. Gaps longer than the allowed length
stay missing (inverse kinematics then ignores that marker there) and are listed in
the report.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import SettingsError


@dataclass(frozen=True)
class Gap:
    """Frames ``start`` to ``end`` (0-based, both included) where a marker is missing."""

    start: int
    end: int
    at_edge: bool

    @property
    def length(self) -> int:
        return self.end - self.start + 1


@dataclass(frozen=True)
class MarkerGaps:
    """Gap report of one marker: its gaps, the longest (frames) and the percentage of missing frames."""

    name: str
    gaps: tuple[Gap, ...]
    n_frames: int

    @property
    def n_gaps(self) -> int:
        return len(self.gaps)

    @property
    def longest(self) -> int:
        return max((g.length for g in self.gaps), default=0)

    @property
    def percent_missing(self) -> float:
        missing = sum(g.length for g in self.gaps)
        return 100.0 * missing / self.n_frames if self.n_frames else 0.0

    @property
    def ranges(self) -> list[tuple[int, int]]:
        """(first, last) missing frame of every gap, 0-based and inclusive."""
        return [(g.start, g.end) for g in self.gaps]


def _runs(missing: np.ndarray) -> list[Gap]:
    edges = np.diff(np.concatenate(([0], missing.astype(np.int8), [0])))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1) - 1
    n = len(missing)
    return [Gap(int(a), int(b), bool(a == 0 or b == n - 1)) for a, b in zip(starts, ends)]


def gap_report(markers) -> tuple[MarkerGaps, ...]:
    """One :class:`MarkerGaps` per marker of ``markers`` (a :class:`~engine.trial.trial.Markers`)."""
    missing = ~np.isfinite(markers.positions).all(axis=2)
    return tuple(MarkerGaps(name, tuple(_runs(missing[:, k])), markers.n_frames)
                 for k, name in enumerate(markers.names))


@dataclass(frozen=True)
class FillReport:
    """What :func:`fill_gaps` did: ``filled`` and ``left`` hold (marker name, gap) pairs."""

    max_gap: int
    filled: tuple[tuple[str, Gap], ...]
    left: tuple[tuple[str, Gap], ...]

    def describe(self) -> str:
        text = f"gaps of up to {self.max_gap} frames filled with a cubic spline: {len(self.filled)} gaps"
        if self.filled:
            text += f" in {len({name for name, _ in self.filled})} markers"
        if self.left:
            listed = ", ".join(f"{name} frames {g.start}-{g.end}" + (" (edge)" if g.at_edge else "")
                               for name, g in self.left)
            text += f"; {len(self.left)} gaps left missing: {listed}"
        return text


def _max_gap_frames(rate, max_gap, max_gap_s) -> int:
    if (max_gap is None) == (max_gap_s is None):
        raise SettingsError("give the longest gap to fill either in frames (max_gap) or in seconds (max_gap_s)")
    if max_gap_s is not None:
        if not np.isfinite(max_gap_s) or max_gap_s < 0:
            raise SettingsError(f"max_gap_s must be a non-negative number of seconds, got {max_gap_s}")
        return int(np.floor(max_gap_s * rate + 1e-9))
    if int(max_gap) != max_gap or max_gap < 0:
        raise SettingsError(f"max_gap must be a non-negative whole number of frames, got {max_gap}")
    return int(max_gap)


def fill_gaps(trial, max_gap: int | None = None, *, max_gap_s: float | None = None):
    """Fill marker gaps of at most ``max_gap`` frames (or ``max_gap_s`` seconds) by cubic splines.

    Each marker's coordinates are interpolated by a cubic spline (scipy
    ``CubicSpline``, not-a-knot ends) through all its present frames, evaluated only
    in the interior gaps short enough to fill. Longer gaps and edge gaps stay NaN.
    A marker needs at least 4 present frames to be interpolated.

    Returns the new trial (the fill recorded in ``conversions``) and a :class:`FillReport`.
    """
    markers = trial.markers
    limit = _max_gap_frames(markers.rate, max_gap, max_gap_s)
    positions = np.array(markers.positions)
    t = markers.time
    filled, left = [], []
    for k, report in enumerate(gap_report(markers)):
        fillable = [g for g in report.gaps if not g.at_edge and g.length <= limit]
        present = np.isfinite(positions[:, k]).all(axis=1)
        if fillable and present.sum() >= 4:
            from scipy.interpolate import CubicSpline     # imported when used (see engine.model.functions)
            spline = CubicSpline(t[present], positions[present, k], axis=0)
            for g in fillable:
                positions[g.start:g.end + 1, k] = spline(t[g.start:g.end + 1])
            filled += [(report.name, g) for g in fillable]
        else:
            fillable = []
        left += [(report.name, g) for g in report.gaps if g not in fillable]
    result = FillReport(limit, tuple(filled), tuple(left))
    new = trial.derived(result.describe(), markers=replace(markers, positions=positions))
    return new, result
