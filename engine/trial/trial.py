"""A motion-capture trial: markers, analog channels, force plates, events and provenance.

Units are SI throughout: positions in metres, times in seconds, rates in hertz,
forces in newtons, moments in newton metres. Every vector is expressed in the
frame named by :attr:`Trial.frame` (``'lab'``, the frame the file was recorded in,
until :meth:`Trial.transformed` rotates the trial into another one).

Trials never change: every operation returns a new trial whose ``conversions``
list says what was done, so the summary shown to the user lists every unit, axis
and data conversion applied since the file was read.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import SettingsError
from .forceplate import ForcePlate


def _readonly(array, dtype=float):
    out = np.array(array, dtype=dtype)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class Markers:
    """Marker trajectories.

    Parameters
    ----------
    names : marker names, unique.
    time : (F,) s, increasing.
    positions : (F, M, 3) m; NaN where a marker is missing.
    rate : Hz, the point (camera) rate.
    """

    names: tuple[str, ...]
    time: np.ndarray
    positions: np.ndarray
    rate: float

    def __post_init__(self):
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "time", _readonly(self.time))
        object.__setattr__(self, "positions", _readonly(self.positions))
        object.__setattr__(self, "rate", float(self.rate))
        F = len(self.time)
        if self.positions.shape != (F, len(self.names), 3):
            raise ValueError(f"marker positions have shape {self.positions.shape}, "
                             f"expected ({F}, {len(self.names)}, 3)")
        if len(set(self.names)) != len(self.names):
            raise ValueError("marker names must be unique")

    @property
    def n_frames(self) -> int:
        return len(self.time)

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no marker named {name!r}") from None

    def trajectory(self, name: str) -> np.ndarray:
        """(F, 3) m, one marker's positions."""
        return self.positions[:, self.index(name)]


@dataclass(frozen=True, eq=False)
class AnalogChannel:
    """One analog channel sampled at ``rate`` from time ``t0``.

    ``data`` is in ``units`` (SI where the loader could convert: volts, newtons,
    newton metres, metres; otherwise the file's own unit string). ``kind`` is
    ``'emg'``, ``'force plate'`` (a channel a plate was computed from) or ``'analog'``.
    """

    name: str
    rate: float
    units: str
    data: np.ndarray
    t0: float = 0.0
    description: str = ""
    kind: str = "analog"

    def __post_init__(self):
        object.__setattr__(self, "data", _readonly(self.data).reshape(-1))

    @property
    def time(self) -> np.ndarray:
        return self.t0 + np.arange(len(self.data)) / self.rate


@dataclass(frozen=True)
class Event:
    """A labelled instant, e.g. ``Event('Foot Strike', 'Left', 1.23)`` (time in s)."""

    label: str
    context: str
    time: float


def _check_rotation(rotation) -> np.ndarray:
    R = np.asarray(rotation, dtype=float)
    if R.shape != (3, 3) or not np.all(np.isfinite(R)):
        raise SettingsError(f"a rotation must be a finite 3x3 matrix, got shape {R.shape}")
    if not np.allclose(R @ R.T, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
        raise SettingsError("the matrix is not a proper rotation (orthonormal, determinant +1)")
    return R


def _format_matrix(R) -> str:
    return "[" + "; ".join(" ".join(f"{v:+.4g}" for v in row) for row in R) + "]"


@dataclass(frozen=True, eq=False)
class Trial:
    """Everything read from one motion-capture file.

    Parameters
    ----------
    markers : :class:`Markers`.
    analogs : every analog channel (EMG ones have ``kind == 'emg'``).
    plates : :class:`~engine.trial.forceplate.ForcePlate` records.
    events : :class:`Event` records (e.g. from the C3D EVENT group), times in s.
    subject : subject metadata as recorded in the file (name, weight, height ...),
        values unconverted.
    metadata : other file information (format, manufacturer, header fields).
    source : the file the trial was read from.
    conversions : human-readable descriptions of every unit, axis and data
        conversion applied, in order (shown in the trial summary).
    warnings : things the user should check (inconsistencies found and how they
        were handled).
    rotation : (3, 3), rotation from the recorded lab frame to the current frame.
    frame : name of the current frame.
    """

    markers: Markers
    analogs: tuple[AnalogChannel, ...] = ()
    plates: tuple[ForcePlate, ...] = ()
    events: tuple[Event, ...] = ()
    subject: dict = field(default_factory=dict)
    metadata: dict = field(default_factory=dict)
    source: str | None = None
    conversions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    frame: str = "lab"

    def __post_init__(self):
        object.__setattr__(self, "analogs", tuple(self.analogs))
        object.__setattr__(self, "plates", tuple(self.plates))
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "conversions", list(self.conversions))
        object.__setattr__(self, "warnings", list(self.warnings))
        object.__setattr__(self, "rotation", _readonly(self.rotation))

    # ------------------------------------------------------------------ access
    @property
    def emg(self) -> tuple[AnalogChannel, ...]:
        """The analog channels recognised as EMG."""
        return tuple(c for c in self.analogs if c.kind == "emg")

    @property
    def start_time(self) -> float:
        starts = [self.markers.time[0]] if self.markers.n_frames else []
        starts += [c.t0 for c in self.analogs if len(c.data)] + [p.t0 for p in self.plates if p.n_samples]
        return float(min(starts)) if starts else 0.0

    @property
    def end_time(self) -> float:
        ends = [self.markers.time[-1]] if self.markers.n_frames else []
        ends += [c.time[-1] for c in self.analogs if len(c.data)]
        ends += [p.time[-1] for p in self.plates if p.n_samples]
        return float(max(ends)) if ends else 0.0

    @property
    def duration(self) -> float:
        """s, from the first to the last sample of any signal."""
        return self.end_time - self.start_time

    # ------------------------------------------------------------------ new trials
    def derived(self, note: str | None = None, warnings=(), **changes) -> "Trial":
        """A copy with ``changes`` applied and ``note`` appended to ``conversions``."""
        conversions = self.conversions + ([note] if note else [])
        return replace(self, conversions=conversions, warnings=self.warnings + list(warnings), **changes)

    def transformed(self, rotation, frame: str = "model", reason: str | None = None) -> "Trial":
        """The trial with every vector rotated by ``rotation`` (3x3, current frame to ``frame``).

        Markers, plate corners, origins, normals, forces, moments, centres of
        pressure and free moments are rotated (positions about the frame origin);
        the conversion is recorded, with ``reason`` when given.
        """
        R = _check_rotation(rotation)
        markers = replace(self.markers, positions=self.markers.positions @ R.T)
        note = f"rotated {self.frame} -> {frame}: R = {_format_matrix(R)}"
        if reason:
            note += f" ({reason})"
        return self.derived(note, markers=markers, plates=tuple(p.transformed(R) for p in self.plates),
                            rotation=R @ self.rotation, frame=frame)

    def window(self, t0: float, t1: float) -> "Trial":
        """The samples of every signal with ``t0 <= t <= t1`` (s), and the events inside."""
        if not (np.isfinite(t0) and np.isfinite(t1) and t0 < t1):
            raise SettingsError(f"the time window [{t0}, {t1}] s is empty or not finite")
        if t1 < self.start_time or t0 > self.end_time:
            raise SettingsError(f"the time window [{t0}, {t1}] s lies outside the trial "
                                f"[{self.start_time:.6g}, {self.end_time:.6g}] s")

        def span(time, rate):
            tol = 1e-6 / rate
            inside = np.flatnonzero((time >= t0 - tol) & (time <= t1 + tol))
            return slice(int(inside[0]), int(inside[-1]) + 1) if len(inside) else slice(0, 0)

        m = self.markers
        s = span(m.time, m.rate)
        markers = replace(m, time=m.time[s], positions=m.positions[s])
        analogs = []
        for c in self.analogs:
            a = span(c.time, c.rate)
            analogs.append(replace(c, data=c.data[a], t0=float(c.t0 + (a.start or 0) / c.rate)))
        plates = tuple(p.samples(span(p.time, p.rate)) for p in self.plates)
        events = tuple(e for e in self.events if t0 <= e.time <= t1)
        return self.derived(f"time window {t0:.6g}-{t1:.6g} s selected", markers=markers,
                            analogs=tuple(analogs), plates=plates, events=events)
