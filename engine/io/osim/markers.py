"""Markers: the frame they are fixed to, their location in it, and OpenSim's ``fixed`` flag."""
from __future__ import annotations

from ...model import GROUND, Marker


def read_markers(doc, paths, frames) -> list[Marker]:
    markers = []
    for element in doc.objects(doc.child(doc.model, "MarkerSet")):
        what = f"marker {paths.path_of(element)}"
        if element.tag != "Marker":
            doc.use_subtree(element)
            doc.warn(f"{what}: a <{element.tag}> in the MarkerSet; not imported (only Marker elements are)")
            continue
        doc.use(element)
        name = doc.name(element, "marker")
        parent = frames.frame(element, "socket_parent_frame", what)
        location = doc.numbers(element, "location", what, 3, [0.0, 0.0, 0.0])
        fixed = doc.flag(element, "fixed", what, False)
        if frames.in_body(parent)[0] == GROUND:
            doc.warn(f"marker '{name}' is fixed to ground; not imported (HybridLab markers move with a body)")
            continue
        markers.append(Marker(name, parent, location, fixed=fixed))
    return markers
