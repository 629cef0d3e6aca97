"""Marker samples no human motion makes: far outside the capture volume, or a jump and back.

A sample is an outlier when it lies more than ``margin`` metres outside the capture volume (the box
holding the central 98% of all the trial's marker samples along each axis), or when it belongs to a
short run of samples (at most ``longest_spike`` seconds) that a marker reaches and leaves by jumps: a
displacement between consecutive present samples faster than ``max_speed`` (m/s, plus ``noise`` metres
of reconstruction jitter). No body segment moves its skin markers at 50 m/s (a pitcher's hand, a
kicking foot or a sprinter's blade tip stay below 30 m/s). A jump that is not a short excursion (a
marker that jumps and stays, e.g. a label swap) is reported and kept: which side is right is not
known. Outliers become gaps (NaN), which :func:`engine.trial.gaps.fill_gaps` then treats like any other.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import SettingsError


@dataclass(frozen=True)
class Outlier:
    """One removed sample: the marker, its frame (0-based), time (s) and why."""

    marker: str
    frame: int
    time: float
    reason: str


@dataclass(frozen=True)
class OutlierReport:
    """What :func:`remove_outliers` did: the samples removed, and the jumps found and kept
    ((marker, frame, time, metres) of the sample after the jump)."""

    removed: tuple[Outlier, ...]
    kept_jumps: tuple[tuple[str, int, float, float], ...]

    def notes(self) -> list[str]:
        out = []
        if self.removed:
            out.append(f"marker outliers treated as gaps ({len(self.removed)} samples in frames "
                       f"{', '.join(str(f) for f in sorted({o.frame for o in self.removed}))}): "
                       + "; ".join(f"{o.marker} frame {o.frame} ({o.time:.4f} s, {o.reason})" for o in self.removed))
        if self.kept_jumps:
            out.append("marker jumps kept (the marker stays at its new place; check its labelling): "
                       + "; ".join(f"{m} frame {f} ({t:.4f} s, {d:.3f} m in one step)"
                                   for m, f, t, d in self.kept_jumps))
        return out


def remove_outliers(trial, max_speed: float = 50.0, noise: float = 0.05, margin: float = 1.0,
                    longest_spike: float = 0.1):
    """The trial with its marker outliers (see the module notes) set missing, and an :class:`OutlierReport`."""
    for name, value in (("max_speed", max_speed), ("noise", noise), ("margin", margin),
                        ("longest_spike", longest_spike)):
        if not (np.isfinite(value) and value > 0):
            raise SettingsError(f"the outlier setting {name} must be a positive number, got {value}")
    markers = trial.markers
    positions = np.array(markers.positions)
    present = np.isfinite(positions).all(axis=2)
    if not present.any():
        return trial, OutlierReport((), ())
    samples = positions[present]
    low, high = np.percentile(samples, 1.0, axis=0), np.percentile(samples, 99.0, axis=0)
    outside = np.linalg.norm(np.maximum(np.maximum(low - positions, positions - high), 0.0), axis=2)
    removed, kept = [], []
    spike = max(1, int(np.floor(longest_spike * markers.rate + 1e-9)))
    for k, name in enumerate(markers.names):
        far = present[:, k] & (outside[:, k] > margin)
        for f in np.flatnonzero(far):
            removed.append(Outlier(name, int(f), float(markers.time[f]),
                                   f"{outside[f, k]:.3g} m outside the capture volume"))
        frames = np.flatnonzero(present[:, k] & ~far)
        if len(frames) < 2:
            continue
        step = np.linalg.norm(np.diff(positions[frames, k], axis=0), axis=1)
        jump = step > max_speed * np.diff(markers.time[frames]) + noise
        pieces = np.split(np.arange(len(frames)), np.flatnonzero(jump) + 1)
        longest = max(len(p) for p in pieces)
        excursion = [0 < i < len(pieces) - 1 and len(p) <= spike and len(p) < longest for i, p in enumerate(pieces)]
        for i, piece in enumerate(pieces):
            if excursion[i]:          # reached and left by a jump
                removed += [Outlier(name, int(frames[j]), float(markers.time[frames[j]]),
                                    f"jumps {step[piece[0] - 1]:.3g} m away and back") for j in piece]
            elif i > 0 and not excursion[i - 1]:
                f = int(frames[piece[0]])
                kept.append((name, f, float(markers.time[f]), float(step[piece[0] - 1])))
    if not removed:
        return trial, OutlierReport((), tuple(kept))
    for o in removed:
        positions[o.frame, markers.index(o.marker)] = np.nan
    report = OutlierReport(tuple(sorted(removed, key=lambda o: (o.frame, o.marker))), tuple(kept))
    new = trial.derived(f"{len(removed)} marker outlier samples set missing", markers=replace(markers,
                                                                                               positions=positions))
    return new, report
