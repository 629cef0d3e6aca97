"""Markers that do not move with their segment: found before inverse kinematics, named with their evidence.

A marker mislabeled by the tracker for a whole trial, stuck on the wrong segment or fallen off and re-attached
is not rigid with the other markers of the segment the model puts it on. For every pair of markers on one body,
the spread of their distance over the trial (5th to 95th percentile, m) is a few millimetres for markers on
one segment (skin motion; up to about 25 mm across a foot that bends at the toes, yet each foot marker has a
partner within 5 mm). A marker is *not rigid* when even its steadiest partner on the body moves against it by
more than ``threshold`` and by more than ``ratio`` times the body's usual spread: a single wrong marker is then
told apart from its partners, which stay rigid with each other (a thigh and a shank marker near the knee
swapped for a whole walking trial spread by 24 and 31 mm against their steadiest partners, against 1-3 mm). Bodies with fewer than three markers in the trial cannot be judged this way and
are listed as such. Markers on rods (the blade) are not judged: a rod bends.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

SPREAD_PERCENTILES = (5.0, 95.0)


@dataclass(frozen=True)
class NonRigidMarker:
    """A marker that does not move with its segment.

    name, body : the marker and the body the model puts it on.
    spread : m, the smallest spread of its distance to any other marker of the body (5th-95th percentile).
    usual : m, the median spread of the other markers' pairs on the body.
    partner : the marker of ``body`` it is steadiest against.
    frames : (first, last, count) of the frames where its distance to ``partner`` is more than half of
        ``spread`` away from its median (where it strays).
    """

    name: str
    body: str
    spread: float
    usual: float
    partner: str
    frames: tuple

    def describe(self, time=None) -> str:
        first, last, count = self.frames
        when = (f"{count} frames between {time[first]:.3f} and {time[last]:.3f} s" if time is not None
                else f"{count} frames ({first}-{last})")
        return (f"marker {self.name} does not move with {self.body}: its distance to {self.partner}, its steadiest "
                f"partner, spreads over {1000 * self.spread:.0f} mm (the body's other marker pairs "
                f"{1000 * self.usual:.0f} mm); it strays in {when}")


def _spread(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
    d = np.linalg.norm(a - b, axis=1)
    ok = np.isfinite(d)
    if ok.sum() < 3:
        return np.nan, d
    lo, hi = np.percentile(d[ok], SPREAD_PERCENTILES)
    return float(hi - lo), d


def nonrigid_markers(model, markers, names=None, threshold: float = 0.015,
                     ratio: float = 4.0) -> tuple[list[NonRigidMarker], list[str]]:
    """``(findings, unjudged bodies)``: the markers of ``names`` (default: the model's markers found in the
    trial) that are not rigid with the other markers of their body (see the module notes), and the bodies with
    markers that have fewer than three markers in the trial.

    ``markers`` is a :class:`~engine.trial.trial.Markers` (m, any frame); ``threshold`` in m.
    """
    in_trial = set(markers.names)
    rods = {r.name for r in model.rods}
    owners = {m.name: model.resolve(m.parent)[0] for m in model.markers}
    owners = {name: owner for name, owner in owners.items() if owner not in rods}     # rods bend: not judged
    chosen = [n for n in (names if names is not None else owners) if n in owners and n in in_trial]
    bodies: dict[str, list[str]] = {}
    for n in chosen:
        bodies.setdefault(owners[n], []).append(n)
    findings, unjudged = [], []
    for body, members in bodies.items():
        if len(members) < 3:
            unjudged.append(body)
            continue
        spread, distance = {}, {}
        for i, j in itertools.combinations(members, 2):
            s, d = _spread(markers.trajectory(i), markers.trajectory(j))
            spread[i, j] = spread[j, i] = s
            distance[i, j] = distance[j, i] = d
        for n in members:
            partners = [(spread[n, p], p) for p in members if p != n and np.isfinite(spread[n, p])]
            if not partners:
                continue
            steadiest, partner = min(partners)
            others = [spread[i, j] for i, j in itertools.combinations([m for m in members if m != n], 2)
                      if np.isfinite(spread[i, j])]
            usual = float(np.median(others)) if others else 0.0
            if steadiest > threshold and steadiest > ratio * usual:
                d = distance[n, partner]
                stray = np.flatnonzero(np.abs(d - np.nanmedian(d)) > 0.5 * steadiest)
                frames = (int(stray[0]), int(stray[-1]), int(stray.size)) if stray.size else (0, 0, 0)
                findings.append(NonRigidMarker(n, body, steadiest, usual, partner, frames))
    return findings, unjudged
