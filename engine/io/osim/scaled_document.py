"""Write a scaled model as an .osim in the schema of the generic model it came from.

The generic model's XML document is changed as OpenSim's ``Model::scale`` changes its model, and written:
bodies' mass, centre of mass, inertia and mesh scale factors; offset frames' translations; custom joints'
translation functions wrapped in (or multiplying) a ``MultiplierFunction``; path points' locations and
moving points' functions; wrap objects' translations and sizes; muscles' optimal fibre and tendon slack
lengths; the marker set replaced by the scaled model's markers. Values come from the scaled
:class:`~engine.model.Model` (numbers written with 17 significant digits), factors from
:class:`~engine.scaling.apply.ScaledModel`. Everything else is written as it was read.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from ...model import GROUND
from ..atomic import write_text
from .document import OsimDocument
from .frames import FrameTable
from .functions import function_element
from .paths import ComponentPaths

_WRAP_SIZES = {"WrapCylinder": ("radius", "length"), "WrapSphere": ("radius",), "WrapEllipsoid": ("dimensions",),
               "WrapTorus": ("inner_radius", "outer_radius")}


def _text(values) -> str:
    return " ".join(f"{float(v):.17g}" for v in np.ravel(values))


def _set(element, tag: str, values) -> None:
    child = element.find(tag)
    if child is None:
        child = ET.SubElement(element, tag)
    child.text = _text(values)


def _numbers(element, tag: str, default) -> np.ndarray:
    child = element.find(tag)
    return np.array(default if child is None else child.text.split(), dtype=float)


def _multiply(holder, scale: float, properties=()) -> None:
    """Multiply the function held by ``holder`` by ``scale`` (OpenSim's SpatialTransform/MovingPathPoint)."""
    wrapper = holder.find("function")
    parent = wrapper if wrapper is not None else holder
    candidates = [c for c in parent if c.tag not in properties]
    if len(candidates) != 1:
        return
    function = candidates[0]
    if function.tag == "LinearFunction" and _numbers(function, "coefficients", [1, 0]).tolist() == [1.0, 0.0]:
        return      # a translational coordinate's own axis
    if function.tag == "MultiplierFunction":
        _set(function, "scale", _numbers(function, "scale", [1.0]) * scale)
        return
    index = list(parent).index(function)
    parent.remove(function)
    multiplier = ET.Element("MultiplierFunction", {"name": function.get("name")} if function.get("name") else {})
    inner = ET.SubElement(multiplier, "function")
    inner.append(function)
    ET.SubElement(multiplier, "scale").text = f"{scale:.17g}"
    parent.insert(index, multiplier)


def write_scaled_osim(generic: OsimDocument, scaled, outputs) -> None:
    """Write the scaled model as .osim files derived from the generic model's document ``generic`` (as
    ``read_osim_document`` read it; not changed), one per ``(path, markers)`` of ``outputs``: each is the scaled
    model with those markers (before or after their placement, which moves nothing else). A copy of the generic
    document is scaled once for all of them.

    ``scaled`` is the :class:`~engine.scaling.apply.ScaledModel` made from the model read with ``generic`` (its
    model, factors and muscle length ratios).
    """
    doc = generic.copy()
    model = scaled.model
    paths = ComponentPaths(doc)
    frames = FrameTable(doc, paths)
    one = np.ones(3)

    def factor(frame_name):
        return scaled.factors.get(frames.in_body(frame_name)[0], one)

    def socket_factor(element, tag):
        return factor(frames.frame(element, tag, tag))

    doc.model.set("name", model.name)
    for element in frames.bodies:
        body = model.body(frames.name_of[element])
        f = scaled.factors.get(body.name, one)
        I = body.inertia
        _set(element, "mass", body.mass)
        _set(element, "mass_center", body.com)
        _set(element, "inertia", [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
        for mesh in element.iter("Mesh"):
            _set(mesh, "scale_factors", _numbers(mesh, "scale_factors", one) * f)
    for name, element in frames.element.items():
        if element.tag == "PhysicalOffsetFrame":
            _set(element, "translation", _numbers(element, "translation", [0, 0, 0]) * factor(frames.parent[name]))
    for joint in doc.model.iter("CustomJoint"):
        f = socket_factor(joint, "socket_parent_frame")
        for axis in joint.iter("TransformAxis"):
            if axis.get("name", "").startswith("translation"):
                _multiply(axis, float(np.abs(_numbers(axis, "axis", [1, 0, 0])) @ f), ("coordinates", "axis"))
    for point in [*doc.model.iter("PathPoint"), *doc.model.iter("ConditionalPathPoint")]:
        _set(point, "location", _numbers(point, "location", [0, 0, 0]) * socket_factor(point, "socket_parent_frame"))
    for point in doc.model.iter("MovingPathPoint"):
        f = socket_factor(point, "socket_parent_frame")
        for k, axis in enumerate("xyz"):
            holder = point.find(f"{axis}_location")
            if holder is not None and function_element(doc, holder, axis) is not None:
                _multiply(holder, float(f[k]))
    wraps = {w.name: w for w in model.wrap_objects}
    for name, element in frames.element.items():
        for wrap in doc.objects(element.find("WrapObjectSet")):
            _set(wrap, "translation", _numbers(wrap, "translation", [0, 0, 0]) * factor(name))
            ours = wraps.get(wrap.get("name"))
            for tag in _WRAP_SIZES.get(wrap.tag, ()) if ours is not None else ():
                _set(wrap, tag, getattr(ours, tag))
    for muscle in doc.model.iter():
        ratio = scaled.muscle_ratios.get(muscle.get("name")) if muscle.find("optimal_fiber_length") is not None \
            else None
        if ratio is not None:
            for tag in ("optimal_fiber_length", "tendon_slack_length"):
                _set(muscle, tag, _numbers(muscle, tag, [0]) * ratio)
    for path, markers in outputs:
        _replace_markers(doc, paths, frames, markers)
        text = ET.tostring(doc.root, encoding="unicode")
        write_text(path, '<?xml version="1.0" encoding="UTF-8" ?>\n' + text + "\n")


def _replace_markers(doc, paths, frames, markers) -> None:
    marker_set = doc.model.find("MarkerSet")
    if marker_set is None:
        marker_set = ET.SubElement(doc.model, "MarkerSet", name="markerset")
    objects = marker_set.find("objects")
    if objects is None:
        objects = ET.SubElement(marker_set, "objects")
    for child in list(objects):
        objects.remove(child)
    for marker in markers:
        frame = frames.element.get(marker.parent)
        owner = "/" + GROUND if marker.parent == GROUND else (
            f"/bodyset/{marker.parent}" if frame is not None and frame.tag == "Body" else paths.path_of(frame))
        element = ET.SubElement(objects, "Marker", name=marker.name)
        ET.SubElement(element, "socket_parent_frame").text = owner
        ET.SubElement(element, "location").text = _text(marker.offset)
        ET.SubElement(element, "fixed").text = "true" if marker.fixed else "false"
