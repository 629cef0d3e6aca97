"""A protocol's markers put on a model and fitted to the subject: the trial's labels renamed to the
protocol's, virtual markers added, the model's markers replaced by the protocol's on its landmarks, the
model scaled (``engine.scaling.defaults``: segments measured between the markers nearest their joint
centres) and the markers placed (``engine.scaling.placement``, OpenSim's MarkerPlacer) on a static trial or,
without one, on the trial's best-seen frame of its first second. Technical (wand and cluster) markers weigh
nothing in the placement's pose and are then put where the trial saw them: their calibration. Without a static
trial, those on a segment that markers on its own landmarks pose are put at their mean place in the segment over
the first second's frames (one frame's pose and noise would stay in every later frame as an offset).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..algorithms.batch import frame_placements_batch
from ..analysis.ik import IKSettings, solve_ik
from ..data import Data
from ..errors import DataError
from ..scaling.apply import scale_model
from ..scaling.defaults import default_measurements
from ..scaling.measurements import compute_scale_factors
from ..scaling.placement import averaged_frame, place_markers
from ..scaling.setup import ScalerSetup
from ..tree import compile_tree
from ..trial.axes import propose_rotation, rotation_from_axes
from ..trial.body_measures import (Given, analysis_height, as_written, bmi_note, recorded_height, recorded_mass,
                                   subject_height, subject_mass)
from ..trial.origin_samples import seen_positions
from ..trial.trial import Markers
from .description import model_markers
from .joint_centres import add_virtual_markers
from .matching import Matching

CALIBRATION_WINDOW = 1.0   # s of a dynamic trial searched for its best-seen frame when there is no static trial


@dataclass(frozen=True)
class FittedProtocol:
    """``model`` scaled with the protocol's markers placed; ``trial`` with the protocol's marker names and
    virtual markers; ``renamed`` trial label -> marker name; ``notes`` what was decided; ``stature`` the subject's
    stature used, ``(m, where it comes from)`` as :func:`stature` gives it (None: none known)."""

    model: object
    trial: object
    renamed: dict
    notes: tuple
    stature: tuple | None = None


def marker_stature(model, matching: Matching) -> tuple | None:
    """The subject's stature estimated without a measure ``(m, where it comes from)``: ``model``'s height times the
    matching's geometric scale (the markers' distances over the model's); None when the model has no height or the
    matching no scale."""
    height = model.metadata.get("subject", {}).get("height_m") if isinstance(model.metadata, dict) else None
    if not (height and matching.scale):
        return None
    return float(height) * matching.scale, (f"the model's {float(height):.2f} m times the {matching.scale:.2f} the "
                                            f"markers' distances give, {float(height) * matching.scale:.3f} m")


def stature(trial, model, matching: Matching, given: Given | None = None, static=None) -> tuple | None:
    """The subject's stature ``(m, where it comes from)`` the analysis uses
    (:func:`~engine.trial.body_measures.analysis_height`): the height ``given`` by the user when there is one
    (``hybrid analyze --height``, a study's subject, the application: it overrides the trial's), else the height the
    trial records when plausible (else :func:`height_notes` says why not), else the one the ``static`` trial records
    when the trial records none, else :func:`marker_stature` of ``model`` and ``matching``; None if none is known."""
    return analysis_height(trial, static, given, marker_stature(model, matching))


def _given_notes(read, said: str) -> list:
    """``said`` (a measure the user gave is used), naming the trial's own it replaces, or saying it has none."""
    if read.found is None:
        return [f"{said}; the trial gives none"]
    parameter, raw = read.found
    return [f"{said}, instead of the trial's {parameter} {as_written(raw)}"]


def height_notes(trial, given: Given | None, static=None, estimate: tuple | None = None) -> list:
    """The notes on the subject's stature the analysis uses (:func:`stature`, ``estimate`` the one without a measure,
    :func:`marker_stature`): why the heights the trial and its ``static`` trial record were not used, if any, then
    which stature is used and where it comes from, with a height ``given`` (m) naming the trial's it replaces (or
    saying it has none)."""
    read = recorded_height(trial)
    if given is not None and given.height is not None:
        return _given_notes(read, f"the subject's stature is the height given {given.height_from}, "
                                  f"{float(given.height):.3f} m")
    used = subject_height(trial, static)
    if used.value is not None:
        return [*used.rejected, f"the subject's stature is {used.source}"]
    if estimate is not None:
        return [*used.rejected, f"the subject's stature is estimated: {estimate[1]} (no height given nor recorded "
                                "usable)"]
    return [*used.rejected, "the subject's stature is not known: no height given nor recorded usable, and none "
                            "estimated from the markers"]


def body_mass(trial, given: Given | None = None, static=None, estimate: tuple | None = None,
              kept: float | None = None) -> tuple[float | None, list]:
    """The subject's body mass (kg; None: none known, the model's is kept) and the notes saying where it comes from:
    the mass ``given`` by the user when there is one (``hybrid analyze --mass``, a study's subject, the application:
    it overrides the trial's; the notes say where it was given), else the mass the trial records when plausible
    (:func:`~engine.trial.body_measures.recorded_mass`), else the one the ``static`` trial records when the trial
    records none (:func:`~engine.trial.body_measures.subject_mass`: each checked by the stature the analysis uses,
    the height given, the trial's or the static's, else the ``estimate`` without a measure, :func:`marker_stature`,
    besides its own); ``kept`` the model's mass (kg), named when none is known. The last note is the body mass index
    of the mass used (``kept`` without one) and that stature (:func:`~engine.trial.body_measures.bmi_note`)."""
    height = analysis_height(trial, static, given, estimate)
    metres = None if height is None else height[0]
    if given is not None and given.mass is not None:
        mass = float(given.mass)
        notes = _given_notes(recorded_mass(trial), f"the subject's body mass is the mass given {given.mass_from}, "
                                                   f"{mass:.3f} kg")
        return mass, notes + [bmi_note(mass, metres, given=True)]
    read = subject_mass(trial, static, given, estimate)
    if read.value is not None:
        return read.value, [*read.rejected, f"the subject's body mass is {read.source}", bmi_note(read.value, metres)]
    if kept is None:
        return None, [*read.rejected, "no body mass in the trial nor given: the model's is kept"]
    return None, [*read.rejected, f"no body mass in the trial nor given: the model's is kept, {kept:.3f} kg",
                  bmi_note(kept, metres)]


def renamed_trial(trial, matching: Matching, stature: tuple | None = None):
    """``trial`` with its matched labels renamed to the protocol's names (an unmatched label that would clash
    with one is suffixed ' (unmatched)') and its virtual markers added (``stature`` the subject's, :func:`stature`,
    for the knee and ankle widths the trial does not give); the renaming, the virtual markers added and notes."""
    names = [matching.labels.get(n, n) for n in trial.markers.names]
    taken = set(matching.labels.values())
    names = [f"{n} (unmatched)" if old not in matching.labels and n in taken else n
             for n, old in zip(names, trial.markers.names)]
    positions, notes = without_origin_samples(trial.markers)
    markers = Markers(tuple(names), trial.markers.time, positions, trial.markers.rate)
    parameters = {**{f"PROCESSING:{k}": v for k, v in trial.metadata.get("processing", {}).items()},
                  **{f"SUBJECT:{k}": v for k, v in trial.subject.items()}}
    markers, added, virtual_notes = add_virtual_markers(markers, matching, parameters, stature)
    return replace(trial, markers=markers), dict(zip(trial.markers.names, names)), added, notes + virtual_notes


def without_origin_samples(markers: Markers) -> tuple[np.ndarray, list]:
    """Marker positions with samples at exactly (0, 0, 0) missing (some systems write the lab origin for a
    marker not seen), and a note naming the markers that had any."""
    positions, origin = seen_positions(markers)
    hit = [f"{n} ({int(c)})" for n, c in zip(markers.names, origin.sum(axis=0)) if c]
    return positions, ([f"marker samples at exactly the lab origin read as missing: {', '.join(hit)}"] if hit else [])


def _best_frame(markers: Markers, names) -> int:
    """The frame of the first :data:`CALIBRATION_WINDOW` seconds where most of ``names`` are seen."""
    window = np.flatnonzero(markers.time <= markers.time[0] + CALIBRATION_WINDOW)
    cols = [markers.index(n) for n in names]
    seen = np.isfinite(markers.positions[window][:, cols, 0]).sum(axis=1)
    return int(window[int(np.argmax(seen))])


def _nearest_neutral(model, markers: Markers, window, weights, names) -> tuple[int, bool]:
    """The frame of ``window`` (s), among those seeing the most of ``names``, whose inverse kinematics (the
    landmarks' first guesses, ``weights``) puts the non-root coordinates nearest their defaults (sum of squares,
    rad and m), and True; when no such frame's inverse kinematics converged, the first that sees the most, and
    False."""
    frames = np.flatnonzero((markers.time >= window[0] - 1e-9) & (markers.time <= window[1] + 1e-9))
    cols = [markers.index(n) for n in names if n in markers.names]
    seen = np.isfinite(markers.positions[frames][:, cols, 0]).sum(axis=1)
    frames = frames[int(np.argmax(seen == seen.max())):]          # from the first frame that sees the most
    seen = seen[len(seen) - len(frames):]
    ik = solve_ik(model, markers, IKSettings(marker_weights={k: v for k, v in weights.items()
                                                             if k in {m.name for m in model.markers}},
                                             start=float(markers.time[frames[0]]), end=window[1], robust_loss=None))
    root = {c.name for c in getattr(model.ordered_elements[0], "coordinates", ())}
    slots = [s for c, s in compile_tree(model).coordinates.items() if s.qi >= 0 and not s.locked and c not in root]
    away = np.sum([(ik.q[:, s.qi] - s.default) ** 2 for s in slots], axis=0)
    candidates = np.flatnonzero((seen == seen.max()) & (ik.status == 1))
    if not candidates.size:
        return int(frames[int(np.argmax(seen))]), False
    return int(frames[candidates[int(np.argmin(away[candidates]))]]), True


def fit_protocol(model, trial, matching: Matching, placements, catalogue: dict, static=None, axes=None,
                 given: Given | None = None) -> FittedProtocol:
    """``model`` with ``matching``'s protocol markers, scaled to the subject and its markers placed.

    ``static`` a standing trial of the same subject and lab (its labels read as the trial's); ``axes`` the lab
    axes (None: proposed from the trial, and used for the static too); ``given`` the subject's height (m) and body
    mass (kg) the user gave and where (None, or a field None: the trial's, else the static's; :func:`stature`,
    :func:`body_mass`).
    The model keeps those of its own markers (a blade's, a socket's) that the trial has under their own names and
    the protocol does not name; every other marker is the protocol's.
    """
    points = placements.points(model, catalogue)
    estimate = marker_stature(model, matching)
    height = stature(trial, model, matching, given, static)
    moving, renamed, added, notes = renamed_trial(trial, matching, height)
    notes += height_notes(trial, given, static, estimate)
    mass, mass_notes = body_mass(trial, given, static, estimate, model.total_mass)
    notes += mass_notes
    used = {**matching.used, **added}
    protocol_markers, missing = model_markers(matching.protocol, used, points, catalogue)
    if missing:
        notes.append(f"markers on landmarks model '{model.name}' does not have, not used: {', '.join(missing)}")
    rods = {r.name for r in model.rods}
    taken = {m.name for m in protocol_markers}
    kept = [m for m in model.markers if m.name not in taken and m.name in moving.markers.names
            and m.name not in matching.labels]
    if kept:
        notes.append(f"the model's own markers the trial has by name, kept: {', '.join(m.name for m in kept)}")
    fitted = model.replace(markers=tuple(protocol_markers) + tuple(kept))
    if not protocol_markers:
        raise DataError(f"no marker of protocol '{matching.protocol.name}' matched in the trial sits on a landmark "
                        f"of model '{model.name}'", element="marker labels", file=trial.source)
    R = rotation_from_axes(axes) if axes else propose_rotation(trial).rotation
    if static is not None:
        source = renamed_trial(static, matching, height)[0]
        static_markers = source.transformed(R).markers
        frame = averaged_frame(static_markers, None, static.source)      # a marker never seen stays missing
        notes.append(f"scaled and markers placed on the static trial {static.source}")
    else:
        static_markers = moving.transformed(R).markers
        best = _best_frame(static_markers, [m.name for m in fitted.markers])
        frame = Markers(static_markers.names, static_markers.time[best:best + 1],
                        static_markers.positions[best:best + 1], static_markers.rate)
        notes.append(f"no static trial: scaled on the first {CALIBRATION_WINDOW:g} s")
    technical = {full for full, (name, _) in used.items()
                 if getattr(matching.protocol.marker(name), "technical", False)}
    window = (float(static_markers.time[0]), float(static_markers.time[0]) + CALIBRATION_WINDOW)
    in_window = static_markers.time <= window[1] + 1e-9
    unseen = {n for i, n in enumerate(static_markers.names)
              if not np.isfinite(static_markers.positions[in_window, i, 0]).any()}
    anatomical = [m.name for m in fitted.markers if m.name not in technical and m.parent not in rods]
    if unseen & set(anatomical):
        notes.append(f"not used for scaling, never seen in the first {CALIBRATION_WINDOW:g} s: "
                     f"{', '.join(n for n in anatomical if n in unseen)}")
    measurements, scale_notes = default_measurements(fitted, [n for n in anatomical if n not in unseen])
    factors = compute_scale_factors(fitted, static_markers, ScalerSetup(measurements=measurements,
                                                                        time_range=window), trial.source)
    scaled = scale_model(fitted, factors.factors, mass, True, name=model.name)
    seen = {n for n, p in zip(frame.names, frame.positions[0]) if np.isfinite(p).all()}
    if any(m.name in seen for m in fitted.markers if m.name not in technical):
        weights = {n: 0.0 for n in technical}
        if static is None:
            best, by_pose = _nearest_neutral(scaled.model, static_markers, window, weights,
                                             [m.name for m in fitted.markers])
            frame = Markers(static_markers.names, static_markers.time[best:best + 1],
                            static_markers.positions[best:best + 1], static_markers.rate)
            notes.append(f"calibration frame: {static_markers.time[best]:.3f} s, of the first second's frames that "
                         "see the most markers " + (
                             "the one whose joint angles are nearest the model's default pose (the pose its "
                             "landmarks are defined in)" if by_pose else
                             "the first: the inverse kinematics of none of them converged, so none could be chosen "
                             "by its pose"))
    else:
        weights = {}
        notes.append("no anatomical marker seen: the calibration pose is fitted to the clusters' first guesses "
                     "(their landmarks), so the joint angles carry that pose's offsets")
        if static is None:
            notes.append(f"calibration frame: {frame.time[0]:.3f} s, of the first second's the one that sees the "
                         "most markers")
    placement = place_markers(scaled.model, frame, IKSettings(marker_weights=weights), trial.source)
    notes += ["scaling: " + n for n in list(scale_notes) + list(factors.notes) + list(scaled.notes)]
    notes += list(placement.notes)
    placed = placement.model
    # a segment with a marker on a landmark of its own (not a joint centre computed from markers) is posed by
    # it in every frame: its technical markers are calibrated over the window, the others on the one frame
    posed = {m.parent for m in fitted.markers if m.name not in technical and m.name not in added}
    averaged = sorted(m.name for m in fitted.markers if m.name in technical and m.parent in posed - rods) \
        if static is None and weights else []
    if averaged:
        placed, frames = _technical_over_window(placed, static_markers, window, set(averaged), technical)
        if frames:
            notes.append(f"technical markers calibrated on segments their anatomical markers pose: each at its mean "
                         f"place in its segment over the {frames} frames of the first {CALIBRATION_WINDOW:g} s: "
                         f"{', '.join(averaged)}")
        else:                   # no frame of the window posed: they stay where the calibration frame put them
            averaged = []
    single = sorted(technical - set(averaged))
    if single:
        notes.append(f"technical markers calibrated (placed where the trial saw them): {', '.join(single)}")
    return FittedProtocol(placed, moving, renamed, tuple(notes), height)


def _technical_over_window(model, markers: Markers, window, chosen, technical):
    """``model`` with each ``chosen`` technical marker at the mean of its places in its parent frame over the
    frames of ``window`` (s) where it is seen, the segments posed by inverse kinematics of the non-``technical``
    markers (the least-squares calibration of a rigid cluster over those frames); and the number of frames."""
    names = {m.name for m in model.markers}
    ik = solve_ik(model, markers, IKSettings(marker_weights={n: 0.0 for n in technical if n in names},
                                             start=window[0], end=window[1], robust_loss=None))
    frames = np.flatnonzero((markers.time >= window[0] - 1e-9) & (markers.time <= window[1] + 1e-9))
    good = ik.status == 1
    moved = [m for m in model.markers if m.name in chosen and m.name in markers.names]
    if not moved or not good.any():
        return model, 0
    R, p = frame_placements_batch(model, Data(model), ik.q[good], [m.parent for m in moved])
    offsets = {}
    for k, m in enumerate(moved):
        target = markers.positions[frames[good], markers.index(m.name)]
        seen = np.isfinite(target[:, 0])
        if seen.any():
            local = np.einsum("fji,fj->fi", R[seen, k], target[seen] - p[seen, k])
            offsets[m.name] = local.mean(axis=0)
    out = tuple(replace(m, offset=offsets[m.name]) if m.name in offsets else m for m in model.markers)
    return model.replace(markers=out), int(good.sum())
