"""OpenSim marker set files (a ``<MarkerSet>`` on its own, as ScaleTool's ``marker_set_file``), read and written.

Both forms OpenSim reads are accepted: OpenSim 3's ``<body>`` and OpenSim 4's ``<socket_parent_frame>``
(a component path such as ``/bodyset/torso``). :func:`with_marker_set` then adds the markers to a model as
OpenSim's ``Model::updateMarkerSet`` does: a marker of the same name is replaced, the others appended.
"""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

from ...errors import DataError, ModelError
from ...model import GROUND, Marker
from .._xml import boolean_of, parse_xml, text_of
from ..atomic import write_text
from ..setup_xml import parse_number


def read_marker_set(path, model) -> list[Marker]:
    """The markers of a marker set file, attached to the frames of ``model`` they name.

    Raises :class:`~engine.errors.DataError` (malformed file, no <MarkerSet>, a location that is not three
    numbers) or :class:`~engine.errors.ModelError` (a marker on a body or frame ``model`` does not have),
    naming the file and the marker.
    """
    path = Path(path)
    root = parse_xml(path)
    holder = root if root.tag == "MarkerSet" else root.find(".//MarkerSet")
    if holder is None:
        raise DataError("no <MarkerSet> element", element=f"<{root.tag}>", file=path)
    frames = {b.name for b in model.bodies} | {f.name for f in model.frames} | {r.name for r in model.rods}
    markers = []
    for element in holder.iter("Marker"):
        name = element.get("name", "").strip()
        what = f"<Marker name={name!r}>"
        if not name:
            raise DataError("a marker has no name", element="<Marker>", file=path)
        parent = _frame_name(text_of(element, "socket_parent_frame", path, "") or text_of(element, "body", path, ""))
        if parent not in frames:
            known = ", ".join(sorted(b.name for b in model.bodies))
            raise ModelError(f"is on {parent!r}, which is not a body or frame of model '{model.name}' "
                             f"(its bodies: {known})", what, path)
        if parent == GROUND:
            raise ModelError("is fixed to ground; markers must move with a body", what, path)
        location = [parse_number(t, "the location", what, path) for t in text_of(element, "location", path,
                                                                                 "0 0 0").split()]
        if len(location) != 3:
            raise DataError(f"<location> must be three numbers, got {location}", element=what, file=path)
        markers.append(Marker(name, parent, np.array(location), fixed=boolean_of(element, "fixed", path, False)))
    return markers


def _frame_name(text: str) -> str:
    """Our name of the frame an OpenSim path names: '/bodyset/torso' -> 'torso', set names dropped."""
    parts = [p for p in text.strip().split("/") if p]
    kept = [p for p in parts if not p.lower().endswith("set")]
    return "/".join(kept) if kept else text.strip()


def with_marker_set(model, markers):
    """``model`` with ``markers`` added (OpenSim's updateMarkerSet: same names replaced, others appended)."""
    new = {m.name for m in markers}
    return model.replace(markers=tuple(m for m in model.markers if m.name not in new) + tuple(markers))


def marker_set_xml(markers) -> str:
    """OpenSim 4 ``<MarkerSet>`` XML of ``markers`` on bodies (``/bodyset/<body>``), locations in metres."""
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', '<OpenSimDocument Version="40000">',
             '\t<MarkerSet name="markerset">', "\t\t<objects>"]
    for m in markers:
        if m.s is not None:
            raise ModelError("is on a rod; an OpenSim marker set holds markers on bodies only", f"marker '{m.name}'")
        lines += [f'\t\t\t<Marker name="{escape(m.name, {chr(34): "&quot;"})}">',
                  f"\t\t\t\t<socket_parent_frame>/bodyset/{escape(m.parent)}</socket_parent_frame>",
                  "\t\t\t\t<location>" + " ".join(repr(float(x)) for x in m.offset) + "</location>",
                  f"\t\t\t\t<fixed>{'true' if m.fixed else 'false'}</fixed>", "\t\t\t</Marker>"]
    lines += ["\t\t</objects>", "\t\t<groups />", "\t</MarkerSet>", "</OpenSimDocument>", ""]
    return "\n".join(lines)


def write_marker_set(path, markers) -> None:
    """Write ``markers`` as an OpenSim marker set file (atomic); rod markers are a ModelError."""
    write_text(path, marker_set_xml(markers))
