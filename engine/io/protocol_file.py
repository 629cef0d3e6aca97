"""Marker protocol files (``format: hybridlab-protocol``), the landmark catalogue (``hybridlab-landmarks``)
and the landmarks' placements on a model family (``hybridlab-landmark-placements``): YAML read with the
model files' checks (unknown, missing and mistyped fields, an unknown landmark) as ModelErrors naming the file
and element. The built-in ones are ``resources/protocols/*.yaml``.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ..errors import ModelError
from ..protocols.description import Landmark, Placements, Protocol, ProtocolMarker, VirtualMarker
from .model_fields import ABSENT, Fields
from .yaml_documents import read_document

PROTOCOL, LANDMARKS, PLACEMENTS = "hybridlab-protocol", "hybridlab-landmarks", "hybridlab-landmark-placements"


def builtin_folder() -> Path:
    return Path(str(files("hybridlab_resources"))) / "protocols"


def _read(path, fmt: str, what: str, build):
    """``build(top-level Fields)`` of a YAML document of format ``fmt``; its ModelErrors name ``path``."""
    body = read_document(path, fmt, 1, what)
    try:
        return build(Fields(body, "top level"))
    except ModelError as exc:
        raise exc.in_file(path) from None


def read_catalogue(path) -> dict:
    """``{name: Landmark}`` of a landmark catalogue file."""
    def build(top):
        items = top.items("landmarks", required=True)
        top.close()
        catalogue = {}
        for i, item in enumerate(items, 1):
            f = Fields(item, f"landmark {i}")
            name = f.named("landmark")
            sided, text = f.flag("sided"), f.text("description", False)
            f.close()
            if name in catalogue:
                raise ModelError("is defined twice", f.where)
            catalogue[name] = Landmark(name, sided is True, "" if text is ABSENT else text)
        return catalogue
    return _read(path, LANDMARKS, "HybridLab landmark catalogue", build)


def read_placements(path, catalogue: dict) -> Placements:
    """A model family's landmark placements, every landmark checked against ``catalogue``."""
    def build(top):
        family, height = top.text("family"), top.number("reference_height", required=False)
        places_fields = top.mapping("placements", required=True)
        top.close()
        places = {}
        for stem in list(places_fields.data):
            marks = places_fields.mapping(stem)
            places[stem] = {name: tuple(marks.numbers(name, 3, required=True)) for name in list(marks.data)}
        placements = Placements(family, places, None if height is ABSENT else height, str(path))
        placements.check(catalogue)
        return placements
    return _read(path, PLACEMENTS, "HybridLab landmark placement file", build)


def read_protocol(path, catalogue: dict) -> Protocol:
    """A marker protocol, its landmarks checked against ``catalogue`` (an unknown one is a ModelError)."""
    def build(top):
        name, title = top.text("name"), top.text("title", False)
        marker_items, virtual_items = top.items("markers", required=True), top.items("virtual")
        top.close()
        markers, virtual = [], []
        for i, item in enumerate(marker_items, 1):
            f = Fields(item, f"marker {i}")
            markers.append(ProtocolMarker(f.named("marker"), f.text("landmark"), tuple(_texts(f, "aliases")),
                                          f.flag("technical") is True, tuple(_texts(f, "alternatives"))))
            f.close()
        for i, item in enumerate(virtual_items, 1):
            f = Fields(item, f"virtual marker {i}")
            virtual.append(VirtualMarker(f.named("virtual marker"), f.text("landmark"), f.text("method"),
                                         tuple(_texts(f, "of"))))
            f.close()
        protocol = Protocol(name, name if title is ABSENT else title, tuple(markers), tuple(virtual), str(path))
        protocol.check(catalogue)
        return protocol
    return _read(path, PROTOCOL, "HybridLab marker protocol", build)


def _texts(f: Fields, key: str) -> list:
    values = f.items(key)
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise ModelError(f"{key} must be a list of names, got {v!r}", f.where)
    return values


def builtin():
    """The built-in catalogue, placements (one per model family) and protocols."""
    folder = builtin_folder()
    catalogue = read_catalogue(folder / "landmarks.yaml")
    placements = [read_placements(p, catalogue) for p in sorted(folder.glob("landmarks_*.yaml"))]
    protocols = [read_protocol(p, catalogue) for p in sorted(folder.glob("*.yaml"))
                 if not p.name.startswith("landmarks")]
    return catalogue, placements, protocols


def placements_for(model, placements) -> Placements:
    """The placements meant for ``model``: its family's by name, else the family whose bodies it has most of
    (a gait2354/gait2392-type model); ModelError if none places a landmark on it."""
    named = [p for p in placements if p.fits(model)]
    if named:
        return named[0]
    bodies = {b.name for b in model.bodies}

    def coverage(p):
        covered = sum(any(b in bodies for b in (s, f"{s}_r", f"{s}_l")) for s in p.places)
        return covered, covered - len(p.places)
    best = max(placements, key=coverage)
    if coverage(best)[0] == 0:
        raise ModelError("has none of the bodies the landmarks are placed on (pelvis, femur_r, tibia_r, calcn_r ...)",
                         f"model '{model.name}'")
    return best
