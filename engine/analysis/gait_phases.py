"""Stance phases, gait events and gait-cycle normalisation of an analysed trial.

Stance of a foot (or the blade) is where the vertical ground reaction reaches a threshold
(20 N by default, the force plates' own threshold). The reaction comes from the QP estimate of
each contact group when there is one (it covers every step), else from the force plates, and
without either from the contact candidates allowed to push (``QPResult.active``, from the
kinematics: near the floor and slow). A stance shorter than ``MIN_STANCE`` (a few newtons of an
estimate crossing the threshold for a frame or two) is dropped unless it touches the trial's start or
end, and listed in ``Phases.dropped``. Foot Strike / Foot Off events are the starts and ends of
stance; a gait cycle runs from one Foot Strike to the next on the same side. Curves are
normalised to 0-100 % of each cycle and summarised by their mean and standard deviation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import SettingsError
from ..trial.forceplate import DEFAULT_THRESHOLD
from ..trial.intervals import intervals_where
from ..trial.trial import Event
from .inverse_dynamics import plate_samples

MIN_STANCE = 0.03     # s: shorter stances are dropped (running stances last 0.08 s and more)


@dataclass(frozen=True)
class Phases:
    """``intervals``: ``{name: [(start, end), ...]}`` s per contact group or plate; ``source``:
    'estimated', 'measured' or 'contacts' (or 'none'); ``span``: first and last analysed time, s;
    ``dropped``: the intervals left out as shorter than ``min_duration`` (s), per name."""

    source: str
    intervals: dict
    span: tuple
    dropped: dict = field(default_factory=dict)
    min_duration: float = MIN_STANCE

    def notes(self) -> list[str]:
        """One line per name with dropped intervals."""
        return [f"{name}: {len(iv)} stance{'s' if len(iv) != 1 else ''} shorter than {1000 * self.min_duration:.0f} ms "
                f"left out ({', '.join(f'{a:.3f}-{b:.3f} s' for a, b in iv)})" for name, iv in self.dropped.items()]


def stance_phases(result, source: str = "auto", threshold: float = DEFAULT_THRESHOLD,
                  min_duration: float = MIN_STANCE) -> Phases:
    """Stance intervals of ``result`` (an AnalysisResult) from ``source``: 'estimated' (QP contact groups),
    'measured' (plates), 'contacts' (active candidates) or 'auto' (the first available in that order); those
    shorter than ``min_duration`` (s) inside the trial are left out and listed in ``Phases.dropped``."""
    model, time = result.model, result.motion.time
    span = (float(time[0]), float(time[-1]))
    up = model.up
    available = [s for s, ok in (("estimated", result.qp is not None), ("measured", bool(result.trial.plates)),
                                 ("contacts", result.qp is not None)) if ok]
    if source == "auto":
        if not available:
            return Phases("none", {}, span)
        source = available[0]
    if source not in available:
        raise SettingsError(f"stance phases from {source!r} need " +
                            ("force plates" if source == "measured" else "the QP ground-reaction estimate"))
    if source == "estimated":
        intervals = {g: intervals_where(time, r.force @ up >= threshold) for g, r in result.qp.groups.items()}
    elif source == "measured":
        intervals = {p.name: intervals_where(time, plate_samples(p, time)[3]) for p in result.trial.plates}
    else:
        groups = np.array([c.group for c in model.contacts])
        intervals = {g: intervals_where(time, result.qp.active[:, groups == g].any(axis=1))
                     for g in sorted(set(groups))}
    kept, dropped = keep_long(intervals, span, min_duration)
    return Phases(source, kept, span, dropped, min_duration)


def keep_long(intervals: dict, span: tuple, min_duration: float = MIN_STANCE) -> tuple[dict, dict]:
    """``(kept, dropped)`` of ``intervals`` {name: [(start, end)] s}: those shorter than ``min_duration`` s and
    inside ``span`` (first, last analysed time, s) dropped, listed per name; the others kept (module notes)."""
    kept, dropped = {}, {}
    for name, iv in intervals.items():
        short = [(a, b) for a, b in iv if b - a < min_duration and a > span[0] and b < span[1]]
        kept[name] = [x for x in iv if x not in short]
        if short:
            dropped[name] = short
    return kept, dropped


SIDES = {"left": "Left", "right": "Right", "l": "Left", "r": "Right"}


SHORT_NAME = 4
"""Letters of a name in capitals at most, for its first letter alone to be its side (Plug-in Gait's RHEE, Visual3D's
RFT); a longer one is a word (RADIUS, LUMBAR, REC_FEM)."""


def named_side(name: str, stems=None) -> str | None:
    """'Left' / 'Right' when ``name`` is a side before the rest ('R.Heel', 'r_foot', 'Left Heel', 'LHEE', 'RFT') or
    after it past a separator ('heel_r', 'calcn_l', 'FP_left'), else None; case ignored. With ``stems`` (regular
    expressions) the rest must be one of them ('Heel' alone is no left 'hee'; no stems, no side); without, a
    one-letter side joined to the rest must begin a name of :data:`SHORT_NAME` capitals at most ('RFT', 'LHEE':
    'rect_fem', 'lumbar', 'RADIUS' and 'LAT_DORSI' name no side)."""
    if stems is not None and not stems:
        return None
    n, sides = name.lower(), "|".join(SIDES)
    rest = ".+?" if stems is None else "|".join(stems)
    after = re.fullmatch(rf"({rest})[^a-z]+({sides})", n)
    if after is not None:
        return SIDES[after.group(2)]
    before = re.fullmatch(rf"({sides})([^a-z]*)({'[a-z].*' if stems is None else rest})", n)
    if before is None:
        return None
    joined = len(before.group(1)) == 1 and not before.group(2)
    if stems is None and joined and not (name.isupper() and name.isalpha() and len(name) <= SHORT_NAME):
        return None
    return SIDES[before.group(1)]


def side_of(name: str) -> str:
    """'Right' or 'Left' for a contact group, plate or body name: :func:`named_side`'s (``foot_r``, ``calcn_l``,
    ``r_foot``, ``RFT``, ``FP_left``), else 'left' or 'right' anywhere in it; else the name itself. A blade is on the
    right unless its name says otherwise (the seed's subject)."""
    side = named_side(name)
    if side is not None:
        return side
    n = name.lower()
    if "left" in n:
        return "Left"
    if "right" in n or "blade" in n:
        return "Right"
    return name


def events_from_phases(phases: Phases) -> list[Event]:
    """Foot Strike at the start and Foot Off at the end of each stance, sorted by time. A stance that
    touches the start or end of the analysed span is open there: no event is made at that edge."""
    first, last = phases.span
    events = []
    for name, ivs in phases.intervals.items():
        side = side_of(name)
        for a, b in ivs:
            if a > first:
                events.append(Event("Foot Strike", side, a))
            if b < last:
                events.append(Event("Foot Off", side, b))
    return sorted(events, key=lambda e: e.time)


def gait_cycles(events, context: str, label: str = "Foot Strike") -> list[tuple[float, float]]:
    """``(start, end)`` of each cycle: consecutive ``label`` events of one ``context`` (side)."""
    times = sorted(e.time for e in events if e.label == label and e.context == context)
    return [(a, b) for a, b in zip(times[:-1], times[1:]) if b > a]


@dataclass(frozen=True)
class CycleCurves:
    """``percent`` (n,) 0-100; ``curves`` (cycles, n); ``mean`` and ``sd`` (n,) across cycles (sd 0 for one)."""

    percent: np.ndarray
    curves: np.ndarray
    mean: np.ndarray
    sd: np.ndarray


def normalise_cycles(time, values, cycles, points: int = 101) -> CycleCurves:
    """``values`` (T,) at ``time`` (T,) resampled linearly on ``points`` instants of each cycle.

    Raises
    ------
    SettingsError
        If no cycle lies within the samples.
    """
    t = np.asarray(time, float)
    y = np.asarray(values, float)
    inside = [(a, b) for a, b in cycles if a >= t[0] and b <= t[-1]]
    if not inside:
        raise SettingsError("no complete gait cycle lies within the analysed frames")
    percent = np.linspace(0.0, 100.0, points)
    curves = np.array([np.interp(a + (b - a) * percent / 100.0, t, y) for a, b in inside])
    with np.errstate(invalid="ignore"):
        sd = curves.std(axis=0, ddof=1) if len(curves) > 1 else np.zeros(points)
    return CycleCurves(percent, curves, curves.mean(axis=0), sd)
