"""OpenSim joints -> :mod:`engine.model.joints`, with OpenSim's coordinate semantics.

- ``PinJoint``: rotation about z of the joint frame; ``SliderJoint``: translation along x.
- ``CustomJoint``: its SpatialTransform, i.e. a :class:`~engine.model.GeneralJoint`
  (rotations ``Rot(a0,f0) Rot(a1,f1) Rot(a2,f2)``, then translations along the
  parent-side axes), as Simbody's FunctionBased mobilizer builds it.
- Joints whose coordinates are angles of a body-fixed X-Y-Z sequence become
  general joints with the same coordinates: ``UniversalJoint`` (x, y),
  ``GimbalJoint`` and ``BallJoint`` (x, y, z), ``FreeJoint`` (x, y, z, then
  translations along the parent's x, y, z), ``PlanarJoint`` (rotation about z,
  translations along x and y). Poses agree with OpenSim for the same coordinate
  values. Ball and Free joints in OpenSim have angular velocities as speeds;
  here their speeds are the coordinate rates (a warning says so).
- A joint whose coordinate is the dependent one of a coupler is a general joint.
"""
from __future__ import annotations

import numpy as np

from ...model import (GROUND, ROTATIONAL, TRANSLATIONAL, GeneralJoint, PrismaticJoint, RevoluteJoint, TransformAxis,
                      WeldJoint)
from ...model.functions import IDENTITY, Constant, Linear
from ...spatial import SE3
from .coordinates import read_coordinates
from .document import OPENSIM4_VERSION
from .functions import function_element, read_function

X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
SLOTS = ("rotation1", "rotation2", "rotation3", "translation1", "translation2", "translation3")
MAX_CHAIN = 3   # elementary functions the engine's kernels chain on one axis

# For each joint with fixed axes: (rotation axes, translation axes, kind of each coordinate);
# an axis is (direction, index of its coordinate or None).
_FIXED_AXES = {
    "PinJoint": (((Z, 0), (X, None), (Y, None)), ((X, None), (Y, None), (Z, None)), (ROTATIONAL,)),
    "SliderJoint": (((X, None), (Y, None), (Z, None)), ((X, 0), (Y, None), (Z, None)), (TRANSLATIONAL,)),
    "UniversalJoint": (((X, 0), (Y, 1), (Z, None)), ((X, None), (Y, None), (Z, None)), (ROTATIONAL,) * 2),
    "GimbalJoint": (((X, 0), (Y, 1), (Z, 2)), ((X, None), (Y, None), (Z, None)), (ROTATIONAL,) * 3),
    "BallJoint": (((X, 0), (Y, 1), (Z, 2)), ((X, None), (Y, None), (Z, None)), (ROTATIONAL,) * 3),
    "FreeJoint": (((X, 0), (Y, 1), (Z, 2)), ((X, 3), (Y, 4), (Z, 5)), (ROTATIONAL,) * 3 + (TRANSLATIONAL,) * 3),
    "PlanarJoint": (((Z, 0), (X, None), (Y, None)), ((X, 1), (Y, 2), (Z, None)), (ROTATIONAL,) + (TRANSLATIONAL,) * 2),
}
JOINT_TAGS = ("CustomJoint", "WeldJoint") + tuple(_FIXED_AXES)
_SPEEDS_DIFFER = ("BallJoint", "FreeJoint")


def read_joints(doc, paths, frames, couplers) -> tuple[list, dict, dict]:
    """The model joints, OpenSim's motion type of every coordinate (``'rotational'``, ``'translational'``,
    ``'coupled'`` or ``'undefined'``) and the name OpenSim gives each joint's child frame (``femur_r_offset``; the
    body's name where an OpenSim 3 joint had no offset in its child, as OpenSim 4 converts it)."""
    joints, motion_types, child_frames = [], {}, {}
    for element in doc.objects(doc.child(doc.model, "JointSet")):
        name = doc.name(element, "joint")
        what = f"joint '{name}'"
        if element.tag not in JOINT_TAGS:
            raise doc.error(f"is a {element.tag}, a joint type HybridLab cannot represent (supported: "
                            f"{', '.join(JOINT_TAGS)})", what)
        doc.use(element)
        parent = frames.frame(element, "socket_parent_frame", what)
        child_frame = frames.frame(element, "socket_child_frame", what)
        child, child_offset = frames.in_body(child_frame)
        identity = np.allclose(child_offset.R, np.eye(3), rtol=0, atol=0) and not np.any(child_offset.p)
        child_frames[name] = child if doc.version < OPENSIM4_VERSION and identity else \
            (frames.element[child_frame].get("name") or "").strip()
        if child == GROUND:
            raise doc.error("has ground as its child frame (a reversed joint); HybridLab needs every joint's "
                            "child to be a body further from ground than its parent", what)
        entries = read_coordinates(doc, element, what)
        frame = dict(name=name, parent=parent, child=child, parent_offset=SE3(), child_offset=child_offset)
        if element.tag == "CustomJoint":
            joint, types = _custom(doc, element, what, entries, couplers, frame)
        else:
            joint, types = _fixed(doc, element.tag, what, entries, couplers, frame)
        joints.append(joint)
        motion_types.update(types)
    return joints, motion_types, child_frames


def _fixed(doc, tag, what, entries, couplers, frame):
    rotations, translations, kinds = _FIXED_AXES.get(tag, ((), (), ()))
    if len(entries) != len(kinds):
        raise doc.error(f"a {tag} needs {len(kinds)} coordinate(s) in <coordinates>, got {len(entries)}", what)
    if tag == "WeldJoint":
        return WeldJoint(**frame), {}
    coords = tuple(e.build(k, couplers) for e, k in zip(entries, kinds))
    types = {c.name: c.kind for c in coords}
    coupled = any(c.is_dependent for c in coords)
    if tag == "PinJoint" and not coupled:
        return RevoluteJoint(**frame, coordinates=coords, axis=Z), types
    if tag == "SliderJoint" and not coupled:
        return PrismaticJoint(**frame, coordinates=coords, axis=X), types
    if tag in _SPEEDS_DIFFER:
        doc.warn(f"{what}: {tag} imported with OpenSim's coordinates (body-fixed X-Y-Z angles), so poses match "
                 "OpenSim; its speeds here are the coordinate rates, whereas OpenSim's are angular velocities, "
                 "so its speeds, mass-matrix rows and generalized forces differ from OpenSim's by that change "
                 "of variables")

    def axes(spec):
        return tuple(TransformAxis(d, None, Constant(0.0)) if i is None else TransformAxis(d, coords[i].name)
                     for d, i in spec)

    joint = GeneralJoint(**frame, coordinates=coords, rotations=axes(rotations), translations=axes(translations))
    _check_chains(doc, what, joint, couplers)
    return joint, types


def _custom(doc, element, what, entries, couplers, frame):
    transform = doc.child(element, "SpatialTransform")
    if transform is None:
        raise doc.error("is missing its <SpatialTransform>", what)
    by_slot = {}
    for axis_el in doc.children(transform, "TransformAxis"):
        slot = (axis_el.get("name") or "").strip()
        if slot not in SLOTS or slot in by_slot:
            raise doc.error(f"has a TransformAxis named {slot!r}; expected each of {', '.join(SLOTS)} at most once",
                            what)
        by_slot[slot] = axis_el
    axes = []   # (direction, coordinate name or None, Function, read from a function element?)
    for k, slot in enumerate(SLOTS):
        axes.append(_transform_axis(doc, by_slot.get(slot), f"{what} {slot}", (X, Y, Z)[k % 3]))
    for start, label in ((0, "rotation"), (3, "translation")):
        d = [np.asarray(a[0], float) for a in axes[start:start + 3]]
        for i, j in ((0, 1), (0, 2), (1, 2)):
            if np.linalg.norm(np.cross(d[i], d[j])) < 1e-5:
                raise doc.error(f"has collinear {label} axes {i + 1} and {j + 1} ({d[i].tolist()}, "
                                f"{d[j].tolist()}); OpenSim rejects such a joint too", what)
    order = []   # coordinates in order of first use, as OpenSim orders them
    for _, cname, _, _ in axes:
        if cname is not None and cname not in order:
            order.append(cname)
    listed = {e.name: e for e in entries}
    for cname in order:
        if cname not in listed:
            raise doc.error(f"its SpatialTransform uses the coordinate '{cname}', which is not among the "
                            "joint's <coordinates>", what)
    for e in entries:
        if e.name not in order:
            raise doc.error(f"coordinate '{e.name}' drives no axis of the SpatialTransform", what)
    types = {cname: _motion_type(cname, axes) for cname in order}
    coords = tuple(listed[c].build(_kind(c, axes, types[c]), couplers) for c in order)
    joint = GeneralJoint(**frame, coordinates=coords,
                         rotations=tuple(TransformAxis(d, c, f) for d, c, f, _ in axes[:3]),
                         translations=tuple(TransformAxis(d, c, f) for d, c, f, _ in axes[3:]))
    _check_chains(doc, what, joint, couplers)
    return joint, types


def _transform_axis(doc, element, what, default_direction):
    if element is None:   # OpenSim's default axis: no coordinate, zero displacement
        return default_direction, None, Constant(0.0), False
    doc.use(element)
    names = doc.text(element, "coordinates", what, "").split()
    if len(names) > 1:
        raise doc.error(f"is driven by {len(names)} coordinates {names}; HybridLab's joint axes are functions "
                        "of one coordinate", what)
    direction = tuple(doc.numbers(element, "axis", what, 3, default_direction))
    if np.linalg.norm(direction) < 1e-12:
        raise doc.error("has a zero <axis>", what)
    function = function_element(doc, element, what, ("coordinates", "axis"))
    cname = names[0] if names else None
    if function is None:   # OpenSim's defaults: the identity for a coordinate, else zero
        return direction, cname, IDENTITY if cname else Constant(0.0), False
    return direction, cname, read_function(doc, function, what), True


def _motion_type(cname, axes) -> str:
    """OpenSim's rule (CustomJoint::constructCoordinates): rotational or translational if some axis of
    that kind moves by exactly +-1 times the coordinate (a LinearFunction of slope +-1), else coupled."""
    kind = None
    for k, (_, c, function, written) in enumerate(axes):
        if c != cname or not written:
            continue
        if isinstance(function, Linear) and abs(function.slope) == 1.0:
            kind = ROTATIONAL if k < 3 else TRANSLATIONAL
        elif kind is None:
            kind = "coupled"
    return kind or "undefined"


def _kind(cname, axes, motion_type) -> str:
    """The unit of a coordinate: its motion type, or else the kind of the first axis it drives."""
    if motion_type in (ROTATIONAL, TRANSLATIONAL):
        return motion_type
    first = next(k for k, a in enumerate(axes) if a[1] == cname)
    return ROTATIONAL if first < 3 else TRANSLATIONAL


def _check_chains(doc, what, joint, couplers):
    for slot, axis in zip(SLOTS, joint.axes):
        n = len(axis.function.elements())
        if axis.coordinate in couplers:
            n += len(couplers[axis.coordinate][1].elements())
        if n > MAX_CHAIN:
            raise doc.error(f"the function of {slot} (with the coupler of its coordinate) nests {n} elementary "
                            f"functions; HybridLab evaluates at most {MAX_CHAIN} on one axis", what)
