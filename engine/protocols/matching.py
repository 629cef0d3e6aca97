"""A trial's labels matched to a protocol's markers, and the protocol recognised among several.

Each label is read as (side, key) (``engine.protocols.labels``) and looked up among the protocol's names and
aliases on that side; the first reading that hits wins. Two labels for one marker: the one matching the
marker's own name or its earlier alias keeps it, the other is listed. The geometry confirms the matching:
over the first frames, the distances between matched markers on one body must be the model's times one
plausible scale; a marker that disagrees with every partner is unmatched and said in the notes.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from ..errors import DataError
from .description import Protocol, full_name
from .labels import key, readings

PLAUSIBLE_SCALE = (0.6, 1.6)   # subject's size / the model's, from 1.05 m to 2.8 m for a 1.75 m model
DISAGREEMENT = 0.35            # a pair's ratio farther than this (relative) from the scale disagrees
FIRST_FRAMES = 50


@dataclass(frozen=True)
class Matching:
    """``labels``: trial label -> the protocol marker's full name (``RASI``); ``used``: full name ->
    (protocol marker name, side); ``unmatched``: the trial's labels left out, with why; ``scale``: the
    subject's size over the model's from the geometry (None if not checked)."""

    protocol: Protocol
    labels: dict
    used: dict
    unmatched: tuple
    scale: float | None = None
    notes: tuple = field(default=())

    @property
    def fraction(self) -> float:
        """Matched labels over the trial's labels."""
        total = len(self.labels) + len(self.unmatched)
        return len(self.labels) / total if total else 0.0

    def anatomical(self) -> list:
        """The matched labels whose marker sits on its landmark (not a wand's or cluster's)."""
        return [label for label, full in self.labels.items()
                if not getattr(self.protocol.marker(self.used[full][0]), "technical", False)]


def _index(protocol: Protocol, catalogue: dict) -> dict:
    """``{(side, key): (marker name, side, rank)}`` over the protocol's names (rank 0) and aliases."""
    index = {}
    for m in protocol.markers:
        sided = catalogue[m.landmark].sided
        sides = ("R", "L") if sided else ((None, "R", "L") if m.technical else (None,))
        for rank, word in enumerate((m.name,) + tuple(m.aliases)):
            for side in sides:
                index.setdefault((side, key(word)), (m.name, side, rank))
    return index


def match_labels(labels, protocol: Protocol, catalogue: dict) -> Matching:
    """Match ``labels`` (a trial's marker names) to ``protocol``'s markers (no geometry)."""
    index = _index(protocol, catalogue)
    claims: dict = {}
    unmatched = []
    for order, label in enumerate(labels):
        hit = next(((index[r], n) for n, r in enumerate(readings(label)) if r in index), None)
        if hit is None:
            unmatched.append((label, "matches no marker of the protocol"))
            continue
        (name, side, rank), reading = hit
        claims.setdefault(full_name(name, side), []).append(((rank, reading, order), label, name, side))
    chosen, used = {}, {}
    for full, claimants in claims.items():
        claimants.sort(key=lambda c: c[0])
        _, label, name, side = claimants[0]
        chosen[label], used[full] = full, (name, side)
        unmatched += [(c[1], f"also reads as {full}, given to '{label}'") for c in claimants[1:]]
    order = {label: i for i, label in enumerate(labels)}
    unmatched.sort(key=lambda u: order[u[0]])
    return Matching(protocol, dict(sorted(chosen.items(), key=lambda kv: order[kv[0]])), used, tuple(unmatched))


def _seen_positions(markers, labels, frames: int) -> dict:
    """Each label's median position (m) over the first ``frames`` frames where it is seen."""
    out = {}
    for label in labels:
        p = markers.positions[:frames, markers.index(label)]
        p = p[np.isfinite(p).all(axis=1) & (p != 0.0).any(axis=1)]     # (0, 0, 0): not seen, by some systems
        if len(p):
            out[label] = np.median(p, axis=0)
    return out


def confirm_by_geometry(matching: Matching, markers, points: dict, catalogue: dict,
                        frames: int = FIRST_FRAMES) -> Matching:
    """``matching`` checked against the model's landmarks ``points`` (``Placements.points``).

    Pairs of matched markers (technical ones aside) on one model body give measured / model distance
    ratios; their median is the scale. A scale outside :data:`PLAUSIBLE_SCALE` is a DataError; a marker whose
    every pair (even a single one) disagrees with the scale by more than :data:`DISAGREEMENT` is unmatched (in the notes).
    """
    protocol = matching.protocol
    place = {}
    for label in matching.anatomical():
        full = matching.labels[label]
        name, side = matching.used[full]
        landmark = protocol.marker(name).landmark
        where = points.get((landmark, side if catalogue[landmark].sided else None))
        if where is not None:
            place[label] = where
    seen = _seen_positions(markers, list(place), frames)
    pairs = [(a, b, np.linalg.norm(seen[a] - seen[b]) / np.linalg.norm(place[a][1] - place[b][1]))
             for i, a in enumerate(seen) for b in list(seen)[i + 1:]
             if place[a][0] == place[b][0] and np.linalg.norm(place[a][1] - place[b][1]) > 0.03]
    if not pairs:
        return Matching(protocol, matching.labels, matching.used, matching.unmatched, None,
                        matching.notes + ("geometry not checked: no two matched markers on one body",))
    scale = float(np.median([r for _, _, r in pairs]))
    if not PLAUSIBLE_SCALE[0] <= scale <= PLAUSIBLE_SCALE[1]:
        raise DataError(f"the markers matched to protocol '{protocol.name}' are {scale:.2f} times the model's "
                        f"distances apart (plausible: {PLAUSIBLE_SCALE[0]}-{PLAUSIBLE_SCALE[1]}); the matching "
                        f"is wrong or the trial's units are", element="marker labels")
    agree: dict = {}
    for a, b, r in pairs:
        ok = abs(r / scale - 1.0) <= DISAGREEMENT
        for label in (a, b):
            agree.setdefault(label, []).append(ok)
    # a marker every pair of which disagrees; with a single partner, neither can be told right: both go
    bad = [label for label, oks in agree.items() if not any(oks)]
    labels = {k: v for k, v in matching.labels.items() if k not in bad}
    used = {matching.labels[k]: matching.used[matching.labels[k]] for k in labels}
    unmatched = matching.unmatched + tuple((b, f"read as {matching.labels[b]}, but its distances to the other "
                                               f"markers on its segment do not fit the model") for b in bad)
    notes = matching.notes + (f"geometry: {len(pairs)} distances between markers on one body give the subject "
                              f"{scale:.2f} times the model's size",)
    return Matching(protocol, labels, used, unmatched, scale, notes)


def recognise(markers, protocols, catalogue: dict, points: dict | None = None) -> Matching:
    """The protocol that matches most of the trial's labels (ties: the fewer markers of its own unmatched),
    confirmed by geometry when ``points`` (the model's landmarks) are given. DataError if nothing matches."""
    labels = [n for n in markers.names]
    if not labels:
        raise DataError("the trial has no markers to match a protocol to", element="markers")
    ranked = []
    for protocol in protocols:
        m = match_labels(labels, protocol, catalogue)
        ranked.append((len(m.labels), -len(protocol.markers), m))
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    best = ranked[0][2]
    if not best.labels:
        raise DataError(f"none of the trial's markers ({', '.join(labels[:8])}{'...' if len(labels) > 8 else ''}) "
                        f"matches a marker of any protocol ({', '.join(p.name for p in protocols)})",
                        element="marker labels")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return best if points is None else confirm_by_geometry(best, markers, points, catalogue)


def notes_of(matching: Matching) -> list:
    """The matching as lines for the results' notes."""
    lines = [f"marker protocol '{matching.protocol.name}' ({matching.protocol.title}): {len(matching.labels)} of "
             f"{len(matching.labels) + len(matching.unmatched)} labels matched: "
             + ", ".join(f"{a}={b}" for a, b in matching.labels.items() if a != b)]
    lines += [f"marker '{label}' not matched to the protocol: {why}" for label, why in matching.unmatched]
    return lines + list(matching.notes)
