"""Wrap objects fixed on frames: cylinders, spheres, ellipsoids and tori.

Each becomes a :mod:`engine.muscles` wrap object on the frame's body, placed by
``translation`` and the body-fixed X-Y-Z ``xyz_body_rotation`` (composed with
the frame's placement when the frame is an offset frame).
"""
from __future__ import annotations

from ...model import GROUND
from ...model.muscles import WrapCylinder, WrapEllipsoid, WrapSphere, WrapTorus
from ...spatial import SE3


def read_wrap_objects(doc, paths, frames) -> list:
    objects = []
    for frame_name, element in frames.element.items():
        for wrap in doc.objects(doc.child(element, "WrapObjectSet")):
            what = f"wrap object {paths.path_of(wrap)}"
            body, in_body = frames.in_body(frame_name)
            if wrap.tag not in _READERS:
                doc.use_subtree(wrap)
                doc.warn(f"{what}: <{wrap.tag}> not imported (HybridLab wraps over WrapCylinder, WrapSphere, "
                         "WrapEllipsoid and WrapTorus); paths that use it are imported without it")
                continue
            if body == GROUND:
                doc.use_subtree(wrap)
                doc.warn(f"{what} is fixed to ground; not imported (wrap objects must be on a body); paths that "
                         "use it are imported without it")
                continue
            doc.use(wrap)
            name = doc.name(wrap, "wrap object")
            rotation = doc.numbers(wrap, "xyz_body_rotation", what, 3, [0.0, 0.0, 0.0])
            translation = doc.numbers(wrap, "translation", what, 3, [0.0, 0.0, 0.0])
            common = dict(name=name, body=body, placement=in_body @ SE3.from_translation_xyz(translation, rotation),
                          quadrant=doc.text(wrap, "quadrant", what, "all") or "all",
                          active=doc.flag(wrap, "active", what, True))
            objects.append(_READERS[wrap.tag](doc, wrap, what, common))
    return objects


def _cylinder(doc, wrap, what, common):
    return WrapCylinder(**common, radius=doc.number(wrap, "radius", what), length=doc.number(wrap, "length", what))


def _sphere(doc, wrap, what, common):
    return WrapSphere(**common, radius=doc.number(wrap, "radius", what))


def _ellipsoid(doc, wrap, what, common):
    return WrapEllipsoid(**common, dimensions=tuple(doc.numbers(wrap, "dimensions", what, 3)))


def _torus(doc, wrap, what, common):
    return WrapTorus(**common, inner_radius=doc.number(wrap, "inner_radius", what),
                     outer_radius=doc.number(wrap, "outer_radius", what))


_READERS = {"WrapCylinder": _cylinder, "WrapSphere": _sphere, "WrapEllipsoid": _ellipsoid, "WrapTorus": _torus}
