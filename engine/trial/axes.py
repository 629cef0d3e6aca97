"""Lab axes and length units: which way is up, which way is forward, mm or m.

HybridLab's models follow OpenSim's convention: **Y up, X forward** (the direction of
progression), Z to the right. A rotation ``R`` maps lab coordinates to model
coordinates, ``p_model = R @ p_lab``; its rows are the model axes expressed in the lab.

* :func:`rotation_from_axes` builds ``R`` from a description such as ``'Z-up, X-forward'``.
* :func:`propose_rotation` proposes ``R`` from a trial: the up direction from the
  mean ground reaction of the force plates (it balances gravity) or, without plates,
  from the static pose of the markers; the forward direction from the progression of
  the markers. Every decision is returned as text for ``Trial.conversions``.
* :func:`detect_length_unit` guesses mm / cm / m from the size of a human marker set.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import SettingsError

SNAP_DEGREES = 10.0
"""A measured direction within this angle of a lab axis is taken to be that axis."""

LENGTH_UNITS = {"mm": 1e-3, "millimeter": 1e-3, "millimetre": 1e-3, "millimeters": 1e-3, "millimetres": 1e-3,
                "cm": 1e-2, "centimeter": 1e-2, "centimetre": 1e-2, "centimeters": 1e-2, "centimetres": 1e-2,
                "m": 1.0, "meter": 1.0, "metre": 1.0, "meters": 1.0, "metres": 1.0}

PLAUSIBLE_SPAN_M = (0.2, 3.0)
"""Median per-frame extent (m) of a human marker set: from a foot cluster to a whole body."""

_AXIS = re.compile(r"^\s*([+-]?)\s*([xyz])\s*[-_ ]?\s*(up|forward|fwd)\s*$", re.IGNORECASE)
_AXIS_KEY = re.compile(r"^\s*(up|forward|fwd)\s*[=:]\s*([+-]?)\s*([xyz])\s*$", re.IGNORECASE)


def length_scale(unit: str | None) -> float | None:
    """Metres per ``unit`` for mm / cm / m spellings, None for anything else."""
    if unit is None:
        return None
    return LENGTH_UNITS.get(unit.strip().lower())


def _axis_vector(sign: str, letter: str) -> np.ndarray:
    v = np.zeros(3)
    v["xyz".index(letter.lower())] = -1.0 if sign == "-" else 1.0
    return v


def parse_axes(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """The lab's up and forward unit vectors from ``'Z-up, X-forward'``, ``'-Y up, Z forward'``
    or ``'up=Z, forward=-X'`` (the lab axis pointing up, then the one pointing forward)."""
    found = {}
    for part in str(spec).split(","):
        match = _AXIS.match(part)
        if match:
            sign, letter, role = match.groups()
        else:
            match = _AXIS_KEY.match(part)
            if not match:
                raise SettingsError(f"cannot read the axis description {part.strip()!r} "
                                    "(write e.g. 'Z-up, X-forward')", element=f"axes {spec!r}")
            role, sign, letter = match.groups()
        role = "forward" if role.lower() in ("forward", "fwd") else "up"
        if role in found:
            raise SettingsError(f"the {role} axis is given twice", element=f"axes {spec!r}")
        found[role] = _axis_vector(sign, letter)
    if set(found) != {"up", "forward"}:
        raise SettingsError("give both the up and the forward lab axis, e.g. 'Z-up, X-forward'",
                            element=f"axes {spec!r}")
    return found["up"], found["forward"]


def rotation_to_model(up, forward) -> np.ndarray:
    """Lab-to-model rotation sending lab ``up`` to model +Y and lab ``forward`` to model +X.

    ``forward`` is made perpendicular to ``up`` (its vertical part is removed).
    """
    up = np.asarray(up, dtype=float)
    forward = np.asarray(forward, dtype=float)
    if np.linalg.norm(up) == 0 or not np.all(np.isfinite(up)):
        raise SettingsError("the up direction is zero or not finite")
    y = up / np.linalg.norm(up)
    x = forward - (forward @ y) * y
    if np.linalg.norm(x) < 1e-6 * max(np.linalg.norm(forward), 1e-300):
        raise SettingsError("the forward direction is parallel to the up direction")
    x = x / np.linalg.norm(x)
    z = np.cross(x, y)
    return np.vstack([x, y, z])


def rotation_from_axes(spec: str) -> np.ndarray:
    """Lab-to-model rotation from a description of the lab axes, e.g. ``'Z-up, X-forward'``."""
    up, forward = parse_axes(spec)
    if abs(up @ forward) > 0:
        raise SettingsError("the up and forward axes must differ", element=f"axes {spec!r}")
    return rotation_to_model(up, forward)


def _snap(direction) -> tuple[np.ndarray, str]:
    """The lab axis within SNAP_DEGREES of ``direction`` (if any), and a description."""
    d = direction / np.linalg.norm(direction)
    k = int(np.argmax(np.abs(d)))
    axis = np.zeros(3)
    axis[k] = np.sign(d[k])
    angle = np.degrees(np.arccos(np.clip(abs(d[k]), -1.0, 1.0)))
    name = ("+" if d[k] > 0 else "-") + "XYZ"[k]
    if angle <= SNAP_DEGREES:
        return axis, f"lab {name} ({angle:.1f} deg from the measured direction)"
    return d, f"the measured direction {np.round(d, 3).tolist()} ({angle:.1f} deg from lab {name})"


@dataclass(frozen=True, eq=False)
class AxesProposal:
    """A proposed lab-to-model rotation and the reasons for it (for ``Trial.conversions``)."""

    rotation: np.ndarray
    up: np.ndarray
    forward: np.ndarray
    reasons: tuple[str, ...]


_FOOT_WORDS = ("heel", "hee", "toe", "ank", "mall", "met", "mt", "calc", "foot", "ft")
_HEAD_WORDS = ("head", "hea", "fhd", "bhd", "c7", "shoulder", "sho", "acrom", "clav", "stern", "asi", "sacr",
               "psi")


def _named(names, words):
    """Indices of the marker names with a word (optionally after an L/R prefix) starting with one of ``words``."""
    out = []
    for i, name in enumerate(names):
        stems = set()
        for token in re.split(r"[^a-z0-9]+", name.lower()):
            token = re.sub(r"\d+$", "", token)
            if token:
                stems.add(token)
                if token[0] in "lr" and len(token) > 2:
                    stems.add(token[1:])
        if any(stem.startswith(w) for stem in stems for w in words):
            out.append(i)
    return out


def _up_from_plates(trial):
    forces = [p.force[p.loaded] for p in trial.plates if p.loaded.any()]
    if not forces:
        return None
    mean = np.concatenate(forces).mean(axis=0)
    return mean, f"the mean ground reaction of the force plates while loaded ({np.linalg.norm(mean):.0f} N)"


def _up_from_markers(trial):
    P = trial.markers.positions
    names = trial.markers.names
    feet, upper = _named(names, _FOOT_WORDS), _named(names, _HEAD_WORDS)
    if feet and upper:
        steps = []
        for frame in P:
            low, high = frame[feet], frame[upper]
            low, high = low[np.isfinite(low).all(axis=1)], high[np.isfinite(high).all(axis=1)]
            if len(low) and len(high):
                steps.append(high.mean(axis=0) - low.mean(axis=0))
        direction = np.mean(steps, axis=0) if steps else np.zeros(3)
        if np.linalg.norm(direction) > 0:
            return direction, (f"the mean direction from the foot markers ({', '.join(names[i] for i in feet[:3])}"
                               f"...) to the upper-body markers ({', '.join(names[i] for i in upper[:3])}...)")
    valid = np.isfinite(P).all(axis=2)
    cov = np.zeros((3, 3))
    count = 0
    for f in range(len(P)):
        pts = P[f, valid[f]]
        if len(pts) >= 3:
            d = pts - pts.mean(axis=0)
            cov += d.T @ d / len(pts)
            count += 1
    if count == 0:
        return None
    axis = np.linalg.eigh(cov / count)[1][:, -1]
    centre = np.mean(P[valid], axis=0) @ axis
    sign = 1.0 if centre >= 0 else -1.0
    return sign * axis, ("the long axis of the marker cloud (a guess: no foot and upper-body marker names "
                         "recognised); its sign is the side where the markers lie, taking the lab origin on the floor")


def _forward_from_markers(trial, up):
    P = trial.markers.positions
    valid_frames = np.flatnonzero(np.isfinite(P).all(axis=2).any(axis=1))
    if len(valid_frames) >= 2:
        common = np.isfinite(P[valid_frames[0]]).all(axis=1) & np.isfinite(P[valid_frames[-1]]).all(axis=1)
        if common.any():
            move = P[valid_frames[-1], common].mean(axis=0) - P[valid_frames[0], common].mean(axis=0)
            move = move - (move @ up) * up
            if np.linalg.norm(move) > 0.3:
                return move, f"the progression of the markers ({np.linalg.norm(move):.2f} m)"
    return None


def propose_rotation(trial) -> AxesProposal:
    """Propose the lab-to-model rotation for ``trial`` (lab coordinates in metres).

    Up: the direction of the mean ground reaction over all loaded plate samples
    (over a trial the reaction balances gravity on average); without loaded plates,
    the mean direction from the foot markers to the upper-body markers (recognised by
    name: heel, toe, ankle ... and head, shoulder, ASIS, sacrum ...); failing that, the
    long axis of the marker cloud (a standing body is taller than wide), a guess
    that is said to be one.
    Forward: the horizontal displacement of the markers from the first to the last
    frame when it exceeds 0.3 m; otherwise the lab axis nearest to horizontal +X
    (then +Y, +Z) is taken and said to be a default. Directions within
    ``SNAP_DEGREES`` of a lab axis are snapped to it.
    """
    reasons = []
    found = _up_from_plates(trial) or _up_from_markers(trial)
    if found is None:
        raise SettingsError("the trial has neither loaded force plates nor markers to find the vertical from",
                            file=trial.source)
    up_raw, how = found
    up, snapped = _snap(up_raw)
    reasons.append(f"up = {snapped}, from {how}")
    found = _forward_from_markers(trial, up)
    if found is not None:
        fwd_raw, how = found
        forward, snapped = _snap(fwd_raw)
        reasons.append(f"forward = {snapped}, from {how}")
    else:
        candidates = [np.eye(3)[k] for k in range(3) if abs(up[k]) < 0.9]
        forward = candidates[0]
        reasons.append(f"forward = lab {'+' + 'XYZ'[int(np.argmax(forward))]} by default "
                       "(the markers do not progress by more than 0.3 m)")
    R = rotation_to_model(up, forward)
    return AxesProposal(rotation=R, up=up, forward=R[0], reasons=tuple(reasons))


GIVEN_UP_LIMIT_DEGREES = 45.0
"""Given lab axes whose up is further than this from the trial's measured vertical are refused."""


def check_given_up(trial, axes: str, R) -> None:
    """SettingsError when the lab axes ``axes`` (rotation ``R``, lab to model) put up further than
    :data:`GIVEN_UP_LIMIT_DEGREES` from the vertical the trial itself shows: its plates' mean reaction, or the
    direction from its foot to its upper-body markers (not the marker cloud's guess). A body fitted upside down or
    lying would otherwise give torques under a gravity that points sideways, with no error."""
    found = _up_from_plates(trial)
    if found is None:
        found = _up_from_markers(trial)
        if found is not None and "a guess" in found[1]:
            found = None
    if found is None:
        return
    measured, how = found
    given = np.asarray(R)[1]                      # the model's up, in lab axes
    angle = float(np.degrees(np.arccos(np.clip(given @ measured / np.linalg.norm(measured), -1.0, 1.0))))
    if angle > GIVEN_UP_LIMIT_DEGREES:
        _, snapped = _snap(measured)
        raise SettingsError(f"the lab axes given as {axes!r} put up {angle:.0f} degrees away from the trial's "
                            f"vertical (up = {snapped}, from {how}): clear the lab axes to have them proposed from "
                            "this trial, or give the axes this lab uses", element="axes", file=trial.source)


def to_model_axes(trial, axes: str | None = None):
    """The trial rotated into model axes (Y up, X forward), with the choice recorded.

    ``axes`` describes the lab axes (``'Z-up, X-forward'``), refused when its up contradicts the trial's own
    vertical (:func:`check_given_up`); when None the rotation is proposed by :func:`propose_rotation`.
    """
    if axes is not None:
        R = rotation_from_axes(axes)
        check_given_up(trial, axes, R)
        return trial.transformed(R, frame="model", reason=f"lab axes given as {axes!r}")
    proposal = propose_rotation(trial)
    return trial.transformed(proposal.rotation, frame="model", reason="; ".join(proposal.reasons))


def marker_span(positions) -> float:
    """Median over frames of the largest extent of the marker cloud (in the data's units)."""
    P = np.asarray(positions, dtype=float)
    seen = np.isfinite(P).all(axis=-1)
    frames = seen.sum(axis=-1) >= 2
    if not frames.any():
        return float("nan")
    P = np.where(seen[..., None], P, np.nan)[frames]    # every coordinate has a marker in each frame kept
    with np.errstate(over="ignore"):
        spans = np.max(np.nanmax(P, axis=1) - np.nanmin(P, axis=1), axis=1)
    return float(np.median(spans))


def detect_length_unit(positions) -> tuple[str, float, str] | None:
    """Guess the length unit of human marker data from its size.

    Returns ``(unit, metres_per_unit, reason)`` or None when no unit makes the
    median per-frame marker extent fall in ``PLAUSIBLE_SPAN_M``. Candidates are
    tried in the order of how common they are in laboratories: mm, m, cm.
    """
    span = marker_span(positions)
    if not np.isfinite(span) or span <= 0:
        return None
    lo, hi = PLAUSIBLE_SPAN_M
    for unit in ("mm", "m", "cm"):
        metres = span * LENGTH_UNITS[unit]
        if lo <= metres <= hi:
            return unit, LENGTH_UNITS[unit], (f"the markers span {span:.4g} (median per frame), "
                                              f"a plausible {metres:.2f} m if the unit is {unit}")
    return None


def implausible_unit(positions, scale: float) -> bool:
    """True when data in a declared unit (``scale`` m per unit) cannot be a human marker set:
    its median per-frame extent is below 1 cm or above 30 m."""
    span = marker_span(positions)
    return bool(np.isfinite(span) and span > 0 and not (0.01 <= span * scale <= 30.0))
