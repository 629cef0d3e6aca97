"""Virtual markers: joint centres computed from a trial's markers, added to it as markers.

Harrington et al. (2007) J Biomech 40:595-602, the hip joint centre in the pelvis frame (origin midway
between the ASIS, x forward from the PSIS' (or sacrum's) midpoint, z towards the right ASIS, y up):
``x = -0.24 PD - 9.9 mm``, ``y = -0.30 PW - 10.9 mm``, ``z = +-(0.33 PW + 7.3 mm)`` with PD the pelvis depth
(ASIS midpoint to PSIS midpoint) and PW its width (between the ASIS). Knee and ankle centres are the
mid-points of the two epicondyles or malleoli, or given by the chord function (``engine.protocols.chord``) from
the proximal centre, the lateral marker and a wand (or a marker in front of the segment), at half the subject's
knee or ankle width plus the marker's radius from the lateral marker: the widths from the C3D's parameters
(Plug-in Gait's ``PROCESSING:RKneeWidth`` ..., ``MarkerDiameter``; BTS's ``SUBJECT:Right Knee``, mm), else a population
proportion of the subject's stature (:data:`KNEE_WIDTH_OF_STATURE`, :data:`ANKLE_WIDTH_OF_STATURE`; said in the notes),
else the default athlete's own distances (:data:`EPICONDYLE_HALF_WIDTH`, :data:`MALLEOLUS_HALF_WIDTH`). Without those
anatomical markers, technical clusters give them functionally (``engine.protocols.functional``: SCoRE centres, SARA
axes; the knee centre is the point of the knee axis nearest the hip centre, the femur's mechanical axis being
perpendicular to it, and the epicondyles lie half the knee's width either side, laterally away from the other hip).
Every frame where an input is missing gives a missing centre.

The proportions: knee (femur bicondylar) and ankle (bimalleolar) breadths of 507 physically active adults (247 men,
260 women) over their statures, sexes pooled: 0.055 (sd 0.003) and 0.0405 (sd 0.003) (Heinz G, Peterson LJ, Johnson
RW, Kerk CJ (2003), Exploring relationships in body dimensions, Journal of Statistics Education 11(2); their
'bdims' data as the OpenIntro project publishes it, per joint: men 97.8 and 73.7 mm at 1.78 m, women 90.5 and
65.1 mm at 1.65 m).
"""
from __future__ import annotations

import numpy as np

from ..trial.trial import Markers
from . import functional as fn
from .chord import chord, chord_midline
from .description import full_name

EPICONDYLE_HALF_WIDTH = 0.05   # m: the default athlete's epicondyles either side of its knee centre
MALLEOLUS_HALF_WIDTH = 0.045   # m: the default athlete's lateral malleolus from its ankle centre
MARKER_DIAMETER = 0.014        # m: Plug-in Gait's default, when the trial's PROCESSING gives none
KNEE_WIDTH_OF_STATURE = 0.055      # knee (bicondylar) breadth over stature, Heinz et al. 2003 (module docstring)
ANKLE_WIDTH_OF_STATURE = 0.0405    # ankle (bimalleolar) breadth over stature, the same source
WIDTHS_SOURCE = "Heinz et al. 2003, 507 adults"


def harrington(rasi, lasi, posterior) -> tuple[np.ndarray, np.ndarray]:
    """Right and left hip joint centres (F, 3) m from the ASIS and the PSIS midpoint (or sacrum), (F, 3) m."""
    origin = 0.5 * (rasi + lasi)
    z = rasi - lasi
    width = np.linalg.norm(z, axis=1, keepdims=True)
    z = z / width
    back = origin - posterior
    x = back - np.sum(back * z, axis=1, keepdims=True) * z
    depth = np.linalg.norm(back, axis=1, keepdims=True)
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    y = np.cross(z, x)
    px, py, pz = -0.24 * depth - 0.0099, -0.30 * width - 0.0109, 0.33 * width + 0.0073
    right = origin + px * x + py * y + pz * z
    left = origin + px * x + py * y - pz * z
    return right, left


def _find(matching, landmark: str, side) -> str | None:
    """The full name of the matched anatomical marker on ``landmark`` (and ``side``), or None."""
    label = matching.label_on(landmark, side)
    return None if label is None else matching.labels[label]


def chord_delta(parameters: dict, landmark: str, side: str, stature: tuple | None = None) -> tuple[float, str]:
    """The lateral marker -> joint centre distance (m) of a knee or ankle centre on ``side`` and where it comes
    from: half the joint's width plus the marker's radius from the trial's parameters ``{'GROUP:NAME': value}``
    in mm (Plug-in Gait's ``PROCESSING:RKneeWidth`` or ``RightKneeWidth``, ``PROCESSING:MarkerDiameter``; BTS's
    ``SUBJECT:Right Knee``), else the population's proportion of the subject's ``stature`` ``(m, where it comes
    from)``, else the default athlete's distance (said)."""
    joint = "Knee" if landmark == "knee_centre" else "Ankle"
    word = "Right" if side == "R" else "Left"
    wanted = {f"{side}{joint}Width".lower(), f"{word}{joint}Width".lower(), f"{word} {joint}".lower()}
    found = [(k, v) for k, v in parameters.items() if k.split(":")[-1].lower() in wanted]
    diameter = next((v for k, v in parameters.items() if k.lower() == "processing:markerdiameter"), None)
    diameter = diameter * 1e-3 if isinstance(diameter, (int, float)) and diameter > 0 else MARKER_DIAMETER
    for key, width in found:
        if isinstance(width, (int, float)) and width > 0:
            return 0.5 * (width * 1e-3 + diameter), f"{key} {width:g} mm and a marker of {diameter * 1e3:g} mm"
    said = "; ".join(f"{k} is {v!r}, not a width" for k, v in found) or f"PROCESSING:{side}{joint}Width"
    if stature is not None:
        ratio = KNEE_WIDTH_OF_STATURE if joint == "Knee" else ANKLE_WIDTH_OF_STATURE
        width = ratio * stature[0]
        return 0.5 * (width + diameter), (f"no {joint.lower()} width in the trial ({said}): {ratio:g} of the subject's "
                                          f"stature {stature[0]:.2f} m ({stature[1]}; {WIDTHS_SOURCE}), "
                                          f"{width * 1e3:.0f} mm, and a marker of {diameter * 1e3:g} mm")
    default = EPICONDYLE_HALF_WIDTH if joint == "Knee" else MALLEOLUS_HALF_WIDTH
    return default, (f"no {joint.lower()} width in the trial ({said}) nor stature: the default athlete's "
                     f"{default * 1e3:g} mm from marker to centre, not the subject's")


def add_virtual_markers(markers: Markers, matching, parameters: dict | None = None,
                        stature: tuple | None = None) -> tuple[Markers, dict, list]:
    """``markers`` (already named as the protocol's) with the protocol's virtual markers the trial allows,
    the ``{full name: (virtual marker name, side)}`` added, and notes. ``parameters`` the trial's
    ``{'GROUP:NAME': value}`` (the knee and ankle widths a chord needs, :func:`chord_delta`), ``stature`` the
    subject's ``(m, where it comes from)`` (the widths' population proportion when the parameters give none). A
    virtual marker whose place the trial already has (a lab's exported joint centre matched to it) is not computed
    again."""
    added, notes, columns = {}, [], []
    have = set(markers.names)
    for v in matching.protocol.virtual:
        sides = {}
        if v.method == "harrington":
            r, l_ = _find(matching, "asis", "R"), _find(matching, "asis", "L")
            back = [_find(matching, "psis", "R"), _find(matching, "psis", "L")]
            if r and l_ and (all(back) or _find(matching, "sacrum", None)):
                P = markers.positions
                posterior = 0.5 * (P[:, markers.index(back[0])] + P[:, markers.index(back[1])]) if all(back) \
                    else P[:, markers.index(_find(matching, "sacrum", None))]
                sides["R"], sides["L"] = harrington(P[:, markers.index(r)], P[:, markers.index(l_)], posterior)
                used = f"{r}, {l_} and {', '.join(back) if all(back) else _find(matching, 'sacrum', None)}"
        elif v.method.startswith("chord"):
            used = {}
            for side in ("R", "L"):
                proximal = _trajectory(markers, columns, added, full_name(v.of[0], side))
                lateral, third = (full_name(n, side) for n in v.of[1:])
                if proximal is None or lateral not in have or third not in have or \
                        full_name(v.name, side) in have | set(added) or _find(matching, v.landmark, side):
                    continue
                M, A = markers.trajectory(lateral), markers.trajectory(third)
                delta, said = chord_delta(parameters or {}, v.landmark, side, stature)
                centre = chord(proximal, M, A - M, delta) if v.method == "chord" else \
                    chord_midline(proximal, M, A, delta, side)
                seen = np.isfinite(proximal[:, 0]) & np.isfinite(M[:, 0]) & np.isfinite(A[:, 0])
                lost = int(np.sum(seen & ~np.isfinite(centre[:, 0])))
                if lost:
                    said += f"; missing in {lost} frames whose markers allow no such centre"
                sides[side], used[side] = centre, f"{full_name(v.of[0], side)}, {lateral} and {third} ({said})"
        elif v.method.startswith("functional"):
            used = {}
            for side in ("R", "L"):
                found = _functional(v, side, markers, columns, added, matching, notes, stature)
                if found is not None:
                    sides[side], used[side] = found
        else:
            for side in ("R", "L"):
                a, b = (full_name(n, side) for n in v.of)
                if a in have and b in have:
                    sides[side] = 0.5 * (markers.trajectory(a) + markers.trajectory(b))
                    used = f"{v.of[0]} and {v.of[1]}"
        for side, trajectory in sides.items():
            name = full_name(v.name, side)
            if name in have or name in added or _find(matching, v.landmark, side):
                continue
            columns.append(trajectory)
            added[name] = (v.name, side)
            notes.append(f"virtual marker {name} ({v.method}) computed from "
                         f"{used[side] if isinstance(used, dict) else used}")
    if not columns:
        return markers, added, notes
    positions = np.concatenate([markers.positions, np.stack(columns, axis=1)], axis=1)
    return Markers(markers.names + tuple(added), markers.time, positions, markers.rate), added, notes


def _members(markers: Markers, matching, stem: str, side) -> list:
    """The trial's labels of the cluster of technical markers named ``stem`` + number on ``side`` (or unsided)."""
    names = set(matching.protocol.cluster(stem))
    return [f for f, (name, s) in matching.used.items() if name in names and s in (side, None)
            and f in markers.names]


def _cluster(markers: Markers, matching, stem: str, side):
    """The poses of the cluster of technical markers named ``stem`` + number on ``side`` (or unsided), or None
    when fewer than three of them are in the trial."""
    full = _members(markers, matching, stem, side)
    if len(full) < 3:
        return None
    return fn.cluster_poses(markers.positions[:, [markers.index(f) for f in full]]), full


def _functional(v, side, markers, columns, added, matching, notes, stature=None):
    """A functional virtual marker's trajectory on ``side`` and what it was computed from, or None when the
    clusters are missing (or their motion defines no centre or axis: said in ``notes``). The epicondyles lie half
    the knee's width from the knee centre: its population proportion of ``stature`` (m, where from), else the
    default athlete's."""
    name = full_name(v.name, side)
    if name in markers.names or name in added or _find(matching, v.landmark, side):
        return None
    one, two = _cluster(markers, matching, v.of[0], side), _cluster(markers, matching, v.of[1], side)
    if one is None or two is None:
        partial = [f"{stem} ({len(found)} of them)" for stem, c in zip(v.of, (one, two))
                   if c is None and (found := _members(markers, matching, stem, side))]
        if partial:         # a cluster the trial has, too incomplete to pose its segment: said
            notes.append(f"virtual marker {name} not computed: a cluster needs three markers in the trial: "
                         + ", ".join(partial))
        return None
    (R1, d1), (R2, d2) = one[0], two[0]
    said = f"clusters {', '.join(one[1])} and {', '.join(two[1])}"
    try:
        if v.method == "functional-centre":
            c1, c2, rms = fn.score(R1, d1, R2, d2)
            return 0.5 * (fn.in_lab(R1, d1, c1) + fn.in_lab(R2, d2, c2)), f"{said} (SCoRE, mismatch {rms * 1e3:.1f} mm)"
        hips = {s: _trajectory(markers, columns, added, full_name("HJC", s)) for s in ("R", "L")}
        if any(h is None for h in hips.values()):
            notes.append(f"virtual marker {name} not computed: the knee axis needs both hip centres")
            return None
        p, u, ratio = fn.sara(R1, d1, R2, d2)
        hip = fn.in_cluster(R1, d1, hips[side])
        centre = p + np.dot(hip - p, u) * u
        lateral = hips[side] - hips["L" if side == "R" else "R"]
        axis = np.einsum("fij,j->fi", R1, u)
        if np.nanmean(np.sum(axis * lateral, axis=1)) < 0:
            u = -u
        half = EPICONDYLE_HALF_WIDTH if stature is None else 0.5 * KNEE_WIDTH_OF_STATURE * stature[0]
        offset = {"knee_centre": 0.0, "lateral_epicondyle": half, "medial_epicondyle": -half}[v.landmark]
        if offset:
            said += (f"; {half * 1e3:.0f} mm from the knee centre: half of " + (
                "the default athlete's knee width" if stature is None else
                f"{KNEE_WIDTH_OF_STATURE:g} of the subject's stature {stature[0]:.2f} m ({stature[1]}; {WIDTHS_SOURCE})"))
        return fn.in_lab(R1, d1, centre + offset * u), f"{said} (SARA, singular value ratio {ratio:.3f})"
    except ValueError as exc:
        notes.append(f"virtual marker {name} not computed: {exc}")
        return None


def _trajectory(markers: Markers, columns, added, name):
    """A marker's trajectory from the trial or from the virtual markers added so far, or None."""
    if name in markers.names:
        return markers.trajectory(name)
    if name in added:
        return columns[list(added).index(name)]
    return None
