"""Landmarks, their placements on a model family, and marker protocols: plain, validated, immutable.

A landmark (``asis``, ``lateral_epicondyle``) is an anatomical point; a sided one exists on each side, its
placement written for the right side on a body stem (``femur``: ``femur_r``, mirrored in Z for ``femur_l``,
the models' Z pointing right). A protocol's marker sits on a landmark; a technical marker (a wand's or
cluster's) has a landmark only as its first guess, its place on the segment is found on a static trial.
A virtual marker is computed from the trial's markers (a joint centre) and sits on its landmark.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from ..model import Marker

SIDES = ("R", "L")
FUNCTIONAL_AXIS_POINTS = ("knee_centre", "lateral_epicondyle", "medial_epicondyle")
VIRTUAL_METHODS = ("harrington", "midpoint", "functional-centre", "functional-axis", "chord", "chord-midline")
CHORD_JOINTS = ("knee_centre", "ankle_centre")


@dataclass(frozen=True)
class Landmark:
    """An anatomical landmark of the catalogue; ``sided`` if it exists on each side."""

    name: str
    sided: bool
    description: str = ""


@dataclass(frozen=True)
class Placements:
    """Where the landmarks are on one model family's bodies.

    ``places``: ``{body stem: {landmark: (x, y, z)}}`` in metres in the body's frame, the right side's;
    ``reference_height`` (m) the height the places are written for, when the family's models are built for a
    subject's height (``model.metadata['subject']['height_m']``), else None.
    """

    family: str
    places: dict
    reference_height: float | None = None
    source: str = ""

    def check(self, catalogue: dict) -> None:
        for stem, marks in self.places.items():
            for name in marks:
                if name not in catalogue:
                    raise ModelError(f"names an unknown landmark {name!r}; known: {', '.join(sorted(catalogue))}",
                                     f"placements, body '{stem}', landmark '{name}'", self.source or None)

    def fits(self, model) -> bool:
        """True if this family's placements are meant for ``model`` (its name starts with the family's)."""
        return model.name.lower().startswith(self.family.lower())

    def points(self, model, catalogue: dict) -> dict:
        """``{(landmark, side): (body, offset)}`` on ``model`` (side 'R'/'L', or None for an unsided
        landmark); landmarks on bodies ``model`` lacks (an amputated foot) are left out."""
        bodies = {b.name for b in model.bodies}
        factor = 1.0
        height = model.metadata.get("subject", {}).get("height_m") if isinstance(model.metadata, dict) else None
        if self.reference_height and height:
            factor = float(height) / self.reference_height
        found = {}
        cut = residual_limb(model)
        for stem, marks in self.places.items():
            for name, xyz in marks.items():
                offset = np.asarray(xyz, float) * factor
                if catalogue[name].sided:
                    for side, mirror in (("R", 1.0), ("L", -1.0)):
                        body = next((b for b in (f"{stem}_{side.lower()}", stem) if b in bodies), None)
                        if body is not None and not (body in cut and offset[1] < -cut[body]):
                            found[(name, side)] = (body, offset * (1.0, 1.0, mirror))
                elif stem in bodies:
                    found[(name, None)] = (stem, offset)
        return found


def residual_limb(model) -> dict:
    """``{tibia body: residual length (m)}`` of a transtibial amputee model (its metadata's ``subject``:
    ``amputation`` 'right transtibial' and ``residual_length_m``): landmarks below it do not exist."""
    subject = model.metadata.get("subject", {}) if isinstance(model.metadata, dict) else {}
    kind, length = str(subject.get("amputation", "")), subject.get("residual_length_m")
    if "transtibial" not in kind or not length:
        return {}
    return {f"tibia_{'r' if kind.startswith('right') else 'l'}": float(length)}


@dataclass(frozen=True)
class ProtocolMarker:
    """A protocol's marker: ``name`` without its side letter, on ``landmark``; ``aliases`` other labs' names
    for it (words, without the side); ``technical`` for a wand's or cluster's marker; ``alternatives`` other
    markers of the protocol a label read as this one is matched to when only their landmark fits the trial's
    geometry (a lab's variant of the marker's place, ``engine.protocols.matching.confirm_by_geometry``)."""

    name: str
    landmark: str
    aliases: tuple = ()
    technical: bool = False
    alternatives: tuple = ()


@dataclass(frozen=True)
class VirtualMarker:
    """A marker computed from the trial's: ``method`` 'harrington' (hip joint centre from the ASIS and PSIS
    or sacrum, Harrington et al. 2007), 'midpoint' (of the two markers ``of``, e.g. the epicondyles),
    'functional-centre' (the centre of rotation between the two technical clusters ``of``, named by their markers'
    stem: ``[PV, TH]``) or 'functional-axis' (on the hinge axis between the two clusters ``of``: the point nearest
    the hip centre for a knee centre, the epicondyles either side of it) (``engine.protocols.functional``);
    'chord' (a knee or ankle centre by Davis et al.'s chord function, ``engine.protocols.chord``, ``of`` the proximal
    centre, the joint's lateral marker and the wand giving the plane) or 'chord-midline' (the same, the third
    marker in front of the joint on the segment's midline, in the plane through the centre perpendicular to its
    flexion axis)."""

    name: str
    landmark: str
    method: str
    of: tuple = ()


@dataclass(frozen=True)
class Protocol:
    """A marker protocol: its markers and virtual markers, checked against the landmark catalogue."""

    name: str
    title: str
    markers: tuple
    virtual: tuple = ()
    source: str = ""

    def check(self, catalogue: dict) -> None:
        """ModelError naming the element for an unknown landmark, a repeated name or a bad virtual marker."""
        seen = set()
        for kind, items in (("marker", self.markers), ("virtual marker", self.virtual)):
            for m in items:
                where = f"protocol '{self.name}', {kind} '{m.name}'"
                if m.landmark not in catalogue:
                    raise ModelError(f"is on an unknown landmark {m.landmark!r}; known: {', '.join(sorted(catalogue))}",
                                     where, self.source or None)
                if kind == "marker" and m.name in seen:
                    raise ModelError("is defined twice", where, self.source or None)
                seen.add(m.name)
        names, virtual = {m.name for m in self.markers}, {v.name for v in self.virtual}
        for m in self.markers:
            unknown = [a for a in m.alternatives if a not in names or a == m.name]
            if unknown:
                raise ModelError(f"has alternatives that are not other markers of the protocol: {', '.join(unknown)}",
                                 f"protocol '{self.name}', marker '{m.name}'", self.source or None)
        for v in self.virtual:
            where = f"protocol '{self.name}', virtual marker '{v.name}'"
            if v.method not in VIRTUAL_METHODS:
                raise ModelError(f"has an unknown method {v.method!r} (known: {', '.join(VIRTUAL_METHODS)})", where,
                                 self.source or None)
            if v.method == "midpoint" and (len(v.of) != 2 or not set(v.of) <= names):
                raise ModelError(f"a midpoint needs two of the protocol's markers in 'of', got {list(v.of)}", where,
                                 self.source or None)
            if v.method.startswith("functional") and (len(v.of) != 2 or not all(self.cluster(c) for c in v.of)):
                raise ModelError(f"a functional joint needs two technical clusters (their markers' stem) in 'of', "
                                 f"got {list(v.of)}", where, self.source or None)
            if v.method.startswith("chord") and (len(v.of) != 3 or v.of[0] not in names | virtual
                                                 or not set(v.of[1:]) <= names or v.landmark not in CHORD_JOINTS):
                raise ModelError(f"a chord gives {' or '.join(CHORD_JOINTS)} from the proximal centre and two of the "
                                 f"protocol's markers in 'of', got {v.landmark!r} of {list(v.of)}", where,
                                 self.source or None)
            if v.method == "functional-axis" and v.landmark not in FUNCTIONAL_AXIS_POINTS:
                raise ModelError(f"a functional axis gives only {', '.join(FUNCTIONAL_AXIS_POINTS)}, not "
                                 f"{v.landmark!r}", where, self.source or None)

    def cluster(self, stem: str) -> tuple:
        """The names of the technical markers named ``stem`` and a number (``TH`` -> TH1, TH2 ...)."""
        return tuple(m.name for m in self.markers if m.technical and m.name[:len(stem)] == stem
                     and m.name[len(stem):].isdigit())

    def marker(self, name: str) -> ProtocolMarker | VirtualMarker:
        return next(m for m in self.markers + self.virtual if m.name == name)


def full_name(name: str, side: str | None) -> str:
    """A protocol marker's label on a side: 'ASI', 'R' -> 'RASI' (Plug-in Gait's way); unsided kept."""
    return f"{side}{name}" if side else name


def model_markers(protocol: Protocol, used: dict, points: dict, catalogue: dict) -> tuple[list, list]:
    """The protocol's markers ``used`` (``{full name: (protocol marker name, side)}``) as model
    :class:`~engine.model.Marker` objects on their landmarks' places ``points`` (:meth:`Placements.points`),
    and the names whose landmark the model does not have."""
    markers, missing = [], []
    for full, (name, side) in used.items():
        landmark = protocol.marker(name).landmark
        key = (landmark, side if catalogue[landmark].sided else None)
        if key not in points:
            missing.append(full)
            continue
        body, offset = points[key]
        markers.append(Marker(full, body, offset))
    return markers, missing
