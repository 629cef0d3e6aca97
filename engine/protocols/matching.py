"""A trial's labels matched to a protocol's markers, and the protocol recognised among several.

Each label is read as (side, key) (``engine.protocols.labels``) and looked up among the protocol's names and
aliases on that side; the first reading that hits wins. Two labels for one marker: the one matching the
marker's own name or its earlier alias keeps it, the other is listed. The geometry confirms the matching:
over the first frames, the distances between matched markers on one body must be the model's times one
plausible scale; a marker that disagrees with every partner is unmatched and said in the notes.

Some labs also export points they computed from their markers, under names that read as those markers (BTS's
Davis protocol: ``RKNE`` the knee centre beside ``RKNE1`` on the epicondyle, ``RASI1`` the ASIS moved onto the
bone). Such a label (one that lost a marker to another label, or reads as a matched marker's name and a number)
is told by geometry (:func:`derived_markers`): a few millimetres from that marker it is a copy of the same landmark
(listed, not fitted twice); inside the limb (medial of a lateral marker, about the model's distance from that
landmark to the one within: a joint centre, or the foot's axis) it is matched to the protocol's marker there.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import DataError
from ..trial.origin_samples import seen_positions
from .description import Protocol, full_name
from .joint_centres import harrington
from .labels import key, readings

PLAUSIBLE_SCALE = (0.6, 1.6)   # subject's size / the model's, from 1.05 m to 2.8 m for a 1.75 m model
DISAGREEMENT = 0.35            # a pair's ratio farther than this (relative) from the scale disagrees
FIRST_FRAMES = 50
COPY_DISTANCE = 0.025          # m: a computed point this near a marker is a copy of its landmark (a marker's size)
INSIDE_RATIO = (0.5, 2.0)      # a point inside the limb: its distance from the lateral marker over the model's
# how a label was matched (``Matching.how``): its marker's own name, one of the marker's aliases, a lab's computed
# point told by its place (:func:`derived_markers`), or another marker's label moved to an alternative the geometry fits
BY_NAME, BY_ALIAS, BY_GEOMETRY, BY_ALTERNATIVE = "name", "alias", "geometry", "alternative"
# the landmark within the limb behind a lateral one: where a lab's computed point beside that marker can sit
WITHIN = {"lateral_epicondyle": "knee_centre", "lateral_malleolus": "ankle_centre",
          "fifth_metatarsal": "second_metatarsal"}


@dataclass(frozen=True)
class Matching:
    """``labels``: trial label -> the protocol marker's full name (``RASI``); ``used``: full name ->
    (protocol marker name, side); ``unmatched``: the trial's labels left out, with why; ``scale``: the
    subject's size over the model's from the geometry (None if not checked); ``how``: matched label -> (how it was
    matched: :data:`BY_NAME`, :data:`BY_ALIAS`, :data:`BY_GEOMETRY` or :data:`BY_ALTERNATIVE`; why, in words)."""

    protocol: Protocol
    labels: dict
    used: dict
    unmatched: tuple
    scale: float | None = None
    notes: tuple = field(default=())
    how: dict = field(default_factory=dict)

    @property
    def fraction(self) -> float:
        """Matched labels over the trial's labels."""
        total = len(self.labels) + len(self.unmatched)
        return len(self.labels) / total if total else 0.0

    def anatomical(self) -> list:
        """The matched labels whose marker sits on its landmark (not a wand's or cluster's)."""
        return [label for label, full in self.labels.items()
                if not getattr(self.protocol.marker(self.used[full][0]), "technical", False)]

    def label_on(self, landmark: str, side) -> str | None:
        """The matched label whose marker sits on ``landmark`` (and ``side``: 'R', 'L' or None), or None."""
        for label in self.anatomical():
            name, s = self.used[self.labels[label]]
            if self.protocol.marker(name).landmark == landmark and s == side:
                return label
        return None


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
    chosen, used, how = {}, {}, {}
    for full, claimants in claims.items():
        claimants.sort(key=lambda c: c[0])
        (rank, _, _), label, name, side = claimants[0]
        chosen[label], used[full] = full, (name, side)
        alias = protocol.marker(name).aliases[rank - 1] if rank else None
        how[label] = (BY_NAME, f"reads as {full}") if alias is None else (BY_ALIAS, f"reads as '{alias}', {full}'s alias")
        unmatched += [(c[1], f"also reads as {full}, given to '{label}'") for c in claimants[1:]]
    order = {label: i for i, label in enumerate(labels)}
    unmatched.sort(key=lambda u: order[u[0]])
    return Matching(protocol, dict(sorted(chosen.items(), key=lambda kv: order[kv[0]])), used, tuple(unmatched),
                    how=how)


def _distance(P, markers, a: str, b: str, frames: int) -> float:
    """The median distance (m) between labels ``a`` and ``b`` over the first ``frames`` frames that see both (over
    all such frames when none of the first does); NaN when no frame does. Frame by frame: in a walking trial two
    markers' positions from different frames are not their distance apart. ``P``: :func:`~engine.trial.origin_samples.seen_positions`."""
    P = P[:, [markers.index(a), markers.index(b)]]
    seen = np.isfinite(P).all(axis=(1, 2))
    if not seen.any():
        return np.nan
    first = np.flatnonzero(seen)
    first = first[first < frames] if (first < frames).any() else first
    return float(np.median(np.linalg.norm(P[first, 0] - P[first, 1], axis=1)))


def confirm_by_geometry(matching: Matching, markers, points: dict, catalogue: dict,
                        frames: int = FIRST_FRAMES) -> Matching:
    """``matching`` checked against the model's landmarks ``points`` (``Placements.points``).

    Pairs of matched markers (technical ones aside) on one model body give measured (over the first ``frames``
    frames seeing both) / model distance ratios; their median is the scale. A scale outside :data:`PLAUSIBLE_SCALE` is a DataError; a marker whose
    every pair (even a single one) disagrees with the scale by more than :data:`DISAGREEMENT` is unmatched (in the notes),
    unless on one of its protocol marker's ``alternatives`` (another marker of the protocol: a lab's variant of its
    place) it and its partners agree: then it is matched to that one (said).
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
    distances: dict = {}
    P = seen_positions(markers)[0]
    pairs = _pairs(place, P, markers, frames, distances)
    if not pairs:
        checked = Matching(protocol, matching.labels, matching.used, matching.unmatched, None,
                           matching.notes + ("geometry not checked: no two matched markers on one body",), matching.how)
        return _told_by_place(checked, P, markers, points, catalogue)
    scale = float(np.median([r for _, _, r in pairs]))
    if not PLAUSIBLE_SCALE[0] <= scale <= PLAUSIBLE_SCALE[1]:
        raise DataError(f"the markers matched to protocol '{protocol.name}' are {scale:.2f} times the model's "
                        f"distances apart (plausible: {PLAUSIBLE_SCALE[0]}-{PLAUSIBLE_SCALE[1]}); the matching "
                        f"is wrong or the trial's units are", element="marker labels")
    bad = _disagreeing(pairs, scale)
    labels, used, notes, how = dict(matching.labels), dict(matching.used), list(matching.notes), dict(matching.how)
    for label in list(bad):       # a marker the protocol allows elsewhere (a lab's variant of its place) tried there
        name, side = matching.used[matching.labels[label]]
        for other in protocol.marker(name).alternatives:
            landmark = protocol.marker(other).landmark
            where = points.get((landmark, side if catalogue[landmark].sided else None))
            if where is None or full_name(other, side) in used:
                continue
            tried = {**place, label: where}
            again = _disagreeing(_pairs(tried, P, markers, frames, distances), scale)
            if label in bad and label not in again and len(again) < len(bad):
                place, bad = tried, again
                del used[labels[label]]
                labels[label], used[full_name(other, side)] = full_name(other, side), (other, side)
                notes.append(f"'{label}' read as {full_name(name, side)} does not fit the model's distances on its "
                             f"segment, as {full_name(other, side)} ({landmark.replace('_', ' ')}) it does: matched so")
                how[label] = (BY_ALTERNATIVE, notes[-1])
                break
    pairs = _pairs(place, P, markers, frames, distances)
    unmatched = matching.unmatched + tuple((b, f"read as {labels[b]}, but its distances to the other "
                                               f"markers on its segment do not fit the model") for b in bad)
    used = {labels[k]: used[labels[k]] for k in labels if k not in bad}
    labels = {k: v for k, v in labels.items() if k not in bad}
    notes.append(f"geometry: {len(pairs)} distances between markers on one body give the subject {scale:.2f} times "
                 "the model's size")
    how = {k: v for k, v in how.items() if k in labels}
    checked = Matching(protocol, labels, used, unmatched, scale, tuple(notes), how)
    return _told_by_place(checked, P, markers, points, catalogue)


def _told_by_place(matching: Matching, P, markers, points: dict, catalogue: dict) -> Matching:
    """``matching`` with the labels of a lab's computed points and of hips told by their places
    (:func:`derived_markers`, then :func:`hip_labels`); ``P``: :func:`~engine.trial.origin_samples.seen_positions`."""
    return hip_labels(derived_markers(matching, P, markers, points, catalogue), P, markers, points, catalogue)


def _pairs(place: dict, P, markers, frames: int, distances: dict) -> list:
    """``(a, b, measured / model distance)`` of the labels ``place``d on one model body more than 3 cm apart and
    seen together (``P``: :func:`~engine.trial.origin_samples.seen_positions`); ``distances`` caches the measured ones."""
    out = []
    for i, a in enumerate(place):
        for b in list(place)[i + 1:]:
            model = np.linalg.norm(np.asarray(place[a][1]) - np.asarray(place[b][1]))
            if place[a][0] != place[b][0] or model <= 0.03:
                continue
            if (a, b) not in distances:
                distances[(a, b)] = _distance(P, markers, a, b, frames)
            if np.isfinite(distances[(a, b)]):
                out.append((a, b, distances[(a, b)] / model))
    return out


def _disagreeing(pairs: list, scale: float) -> list:
    """The labels every pair of which (even a single one) is farther than :data:`DISAGREEMENT` from ``scale``; with
    a single partner, neither can be told right: both go."""
    agree: dict = {}
    for a, b, r in pairs:
        ok = abs(r / scale - 1.0) <= DISAGREEMENT
        for label in (a, b):
            agree.setdefault(label, []).append(ok)
    return [label for label, oks in agree.items() if not any(oks)]


def _derived_from(label: str, index: dict, matching: Matching) -> str | None:
    """The matched label ``label`` derives from: the first reading of it that names a marker another label holds,
    or that does once its trailing number is dropped ('RASI1', 'r asis#2' -> the label matched as RASIS)."""
    holder = {full: held for held, full in matching.labels.items()}
    for side, text in readings(label):
        for word in (text, text.rstrip("0123456789")):
            hit = index.get((side, word))
            if hit is not None and full_name(hit[0], hit[1]) in holder and holder[full_name(hit[0], hit[1])] != label:
                return holder[full_name(hit[0], hit[1])]
    return None


def derived_markers(matching: Matching, P, markers, points: dict, catalogue: dict) -> Matching:
    """``matching`` with its unmatched labels that a lab computed from a matched marker told by geometry (module
    notes): over the frames both are seen, a label within :data:`COPY_DISTANCE` of the marker it reads as is a copy
    of that landmark (left unmatched, said why); one whose offset from a lateral marker (on a landmark of
    :data:`WITHIN`) points medially (towards the other side's same marker) over a distance the model's landmark
    within times the geometry's scale by a factor in :data:`INSIDE_RATIO` lies inside the limb: it is matched to
    the protocol's marker on that inner landmark (a joint centre the lab computed is then used, not computed again).
    Any other label stays as it was. ``P``: the trial's positions as :func:`~engine.trial.origin_samples.seen_positions` gives them."""
    protocol, scale = matching.protocol, matching.scale or 1.0
    index = _index(protocol, catalogue)
    labels, used, notes, how = dict(matching.labels), dict(matching.used), list(matching.notes), dict(matching.how)
    unmatched = []
    for label, why in matching.unmatched:
        source = _derived_from(label, index, matching) if label in markers.names else None
        if source is None or source not in markers.names:
            unmatched.append((label, why))
            continue
        full = matching.labels[source]
        name, side = matching.used[full]
        offset = P[:, markers.index(label)] - P[:, markers.index(source)]
        both = np.isfinite(offset).all(axis=1)
        if not both.any():
            unmatched.append((label, why))
            continue
        distance = float(np.median(np.linalg.norm(offset[both], axis=1)))
        if distance < COPY_DISTANCE:
            unmatched.append((label, f"a copy of {full} ({distance * 1e3:.0f} mm from '{source}', a point the lab "
                                     "computed on its landmark): not fitted twice"))
            continue
        verdict = _inside(matching, (name, side), offset, distance, scale, P, markers, points, used)
        if isinstance(verdict, str):
            unmatched.append((label, f"{why}; {verdict}"))
            continue
        inner, inner_side = verdict
        inner_full = full_name(inner.name, inner_side)
        labels[label], used[inner_full] = inner_full, (inner.name, inner_side)
        notes.append(f"'{label}' lies {distance * 1e3:.0f} mm medial of {full} ('{source}'), inside the limb: the "
                     f"lab's computed {inner.landmark.replace('_', ' ')}, matched as {inner_full}"
                     + (" (used, not computed again)" if inner.landmark.endswith("_centre") else ""))
        how[label] = (BY_GEOMETRY, notes[-1])
    order = {label: i for i, label in enumerate(markers.names)}
    labels = dict(sorted(labels.items(), key=lambda kv: order.get(kv[0], len(order))))
    return Matching(protocol, labels, used, tuple(unmatched), matching.scale, tuple(notes), how)


def _inside(matching, marker, offset, distance, scale, P, markers, points, used):
    """The protocol marker and side inside the limb where a point ``offset`` (F, 3) m from the matched ``marker``
    (name, side), at the median ``distance`` m from it, sits; or why it does not. ``P`` the trial's positions."""
    name, side = marker
    landmark = matching.protocol.marker(name).landmark
    within = WITHIN.get(landmark)
    inner = next((m for m in matching.protocol.markers if m.landmark == within and not m.technical), None)
    if inner is None or side is None:
        return "no landmark of the protocol lies inside the limb there"
    if full_name(inner.name, side) in used:
        return f"{full_name(inner.name, side)} is already matched"
    holder = {f: held for held, f in matching.labels.items()}
    other = holder.get(full_name(name, "L" if side == "R" else "R"))
    here, there = points.get((landmark, side)), points.get((within, side))
    if other is None or here is None or there is None or here[0] != there[0]:
        return "which way is medial cannot be told (no such marker on the other side, or on the model)"
    lateral = P[:, markers.index(holder[full_name(name, side)])] - P[:, markers.index(other)]
    ok = np.isfinite(offset).all(axis=1) & np.isfinite(lateral).all(axis=1)
    if not ok.any():
        return "never seen with the other side's marker"
    lateral = lateral[ok] / np.linalg.norm(lateral[ok], axis=1, keepdims=True)
    medial = -float(np.median(np.sum(offset[ok] * lateral, axis=1)))
    expected = float(np.linalg.norm(np.asarray(there[1]) - np.asarray(here[1]))) * scale
    if not (medial > 0.5 * distance and INSIDE_RATIO[0] <= distance / expected <= INSIDE_RATIO[1]):
        return (f"{distance * 1e3:.0f} mm from it ({medial * 1e3:.0f} mm medially): not inside the limb, where the "
                f"{within.replace('_', ' ')} would be about {expected * 1e3:.0f} mm medial")
    return inner, side


def hip_labels(matching: Matching, P, markers, points: dict, catalogue: dict) -> Matching:
    """``matching`` with each label read as a hip centre or a greater trochanter (a 'Hip' is either: Codamotion's
    optional 'Hip' marker is on the skin, its computed centre 'HipCentre'; BTS exports its computed centre as 'RHIP')
    told by its distance from Harrington's hip centre of the matched ASIS and PSIS (or sacrum), over the frames both
    are seen: nearer than half the model's trochanter-to-centre distance (times the geometry's scale) it is the hip
    centre (then used, not computed again); farther, lateral of it by most of that distance and within
    :data:`INSIDE_RATIO` of it, the greater trochanter (the centre is then computed). Said in the notes either way; a
    label that fits neither, or whose landmark the protocol lacks, is left as it was (said). ``P``: the trial's
    positions as :func:`~engine.trial.origin_samples.seen_positions` gives them."""
    protocol, scale = matching.protocol, matching.scale or 1.0
    asis = [matching.label_on("asis", s) for s in ("R", "L")]
    back = [matching.label_on("psis", s) for s in ("R", "L")]
    back = back if all(back) else [matching.label_on("sacrum", None)]
    centre, trochanter = (next((m for m in protocol.markers if m.landmark == landmark and not m.technical), None)
                          for landmark in ("hip_centre", "greater_trochanter"))
    model = {s: (points.get(("hip_centre", s)), points.get(("greater_trochanter", s))) for s in ("R", "L")}
    if not all(asis) or not all(back) or centre is None:
        return matching
    posterior = np.mean([P[:, markers.index(b)] for b in back], axis=0)
    hips = dict(zip(("R", "L"), harrington(P[:, markers.index(asis[0])], P[:, markers.index(asis[1])], posterior)))
    labels, used, notes, how = dict(matching.labels), dict(matching.used), list(matching.notes), dict(matching.how)
    unmatched = list(matching.unmatched)
    for side, other in (("R", "L"), ("L", "R")):
        label = matching.label_on("hip_centre", side) or \
            (matching.label_on("greater_trochanter", side) if trochanter is not None else None)
        here, there = model[side]
        if label is None or here is None or there is None or here[0] != there[0]:
            continue
        offset = P[:, markers.index(label)] - hips[side]
        lateral = hips[side] - hips[other]
        ok = np.isfinite(offset).all(axis=1) & np.isfinite(lateral).all(axis=1)
        if not ok.any():
            continue
        distance = float(np.median(np.linalg.norm(offset[ok], axis=1)))
        outward = float(np.median(np.sum(offset[ok] * lateral[ok], axis=1) / np.linalg.norm(lateral[ok], axis=1)))
        expected = float(np.linalg.norm(np.asarray(there[1]) - np.asarray(here[1]))) * scale
        said = (f"'{label}' lies {distance * 1e3:.0f} mm from Harrington's hip centre of {', '.join(asis)} and "
                f"{', '.join(back)} ({outward * 1e3:.0f} mm lateral of it; the model's greater trochanter lies "
                f"{expected * 1e3:.0f} mm from its hip centre at the subject's scale)")
        if distance < 0.5 * expected:
            wanted, what = centre, "the lab's hip centre"
        elif outward > 0.5 * distance and INSIDE_RATIO[0] <= distance / expected <= INSIDE_RATIO[1]:
            wanted, what = trochanter, "a marker on the greater trochanter"
        else:
            notes.append(f"{said}: neither the hip centre nor the greater trochanter, kept as {labels[label]}")
            continue
        if wanted is None:
            del used[labels.pop(label)]
            how.pop(label, None)
            unmatched.append((label, f"{said}: {what}, which protocol '{protocol.name}' has no marker for"))
            continue
        full = full_name(wanted.name, side)
        if labels[label] == full:
            notes.append(f"{said}: {what}, as read")
            continue
        if full in used:
            notes.append(f"{said}: {what}, but {full} is already matched; kept as {labels[label]}")
            continue
        del used[labels[label]]
        labels[label], used[full] = full, (wanted.name, side)
        notes.append(f"{said}: {what}, matched as {full}")
        how[label] = (BY_GEOMETRY, notes[-1])
    order = {label: i for i, label in enumerate(markers.names)}
    unmatched.sort(key=lambda u: order.get(u[0], len(order)))
    return Matching(protocol, labels, used, tuple(unmatched), matching.scale, tuple(notes), how)


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
    if points is None:
        return best
    with np.errstate(divide="ignore", invalid="ignore"):    # coincident markers: NaN directions, which fit nothing
        return confirm_by_geometry(best, markers, points, catalogue)


def notes_of(matching: Matching) -> list:
    """The matching as lines for the results' notes."""
    lines = [f"marker protocol '{matching.protocol.name}' ({matching.protocol.title}): {len(matching.labels)} of "
             f"{len(matching.labels) + len(matching.unmatched)} labels matched: "
             + ", ".join(f"{a}={b}" for a, b in matching.labels.items() if a != b)]
    lines += [f"marker '{label}' not matched to the protocol: {why}" for label, why in matching.unmatched]
    return lines + list(matching.notes)
