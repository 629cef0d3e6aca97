"""OpenSim 3.x documents (Version 30000 to 39999) rewritten in OpenSim 4's layout before they are read.

What changes, as OpenSim 4 itself upgrades such a file when it opens it:

- the ground is a body of the BodySet named ``ground``: it becomes ``<Ground>`` (its wrap objects and
  geometry go with it);
- a joint lives inside its child body (``<Joint><CustomJoint>`` with ``parent_body``,
  ``location_in_parent``/``orientation_in_parent`` (placement of the joint frame in the parent) and
  ``location``/``orientation`` (in the child)): it moves to the JointSet with two PhysicalOffsetFrames,
  ``<parent>_offset`` and ``<child>_offset``, holding those placements; its ``CoordinateSet`` becomes
  ``<coordinates>`` (``motion_type`` dropped: OpenSim 4 derives it from the joint);
- inertias ``inertia_xx`` ... ``inertia_yz`` become one ``<inertia>``;
- markers and path points name their body in ``<body>``; a ConditionalPathPoint its coordinate in
  ``<coordinate>``, a MovingPathPoint in ``<x_coordinate>``...: these become socket paths;
- ``isDisabled`` becomes ``isEnforced`` (constraints) or ``appliesForce`` (forces), negated;
- a body's VisibleObject meshes become ``attached_geometry`` Meshes.

A reversed joint (``reverse`` true) is refused: OpenSim 4 rebuilds such a tree, which changes the
model's coordinates, and HybridLab does not guess that.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from ...errors import ModelError

FIRST_OPENSIM3_VERSION = 30000
_INERTIA = ("inertia_xx", "inertia_yy", "inertia_zz", "inertia_xy", "inertia_xz", "inertia_yz")
_JOINT_PLACEMENT = (("location_in_parent", "orientation_in_parent"), ("location", "orientation"))


def upgrade_opensim3(model, file) -> list[str]:
    """Rewrite the ``<Model>`` element of an OpenSim 3.x document in place; returns what to tell the user."""
    upgrade = _Upgrade(model, file)
    upgrade.run()
    return ["an OpenSim 3 document: read after rewriting it in OpenSim 4's layout, as OpenSim 4 does"] + \
        upgrade.warnings


def _child_text(element, tag, default=None):
    child = element.find(tag)
    return default if child is None else (child.text or "").strip()


def _take(element, tag):
    """Remove and return the direct child ``tag`` (None when absent)."""
    child = element.find(tag)
    if child is not None:
        element.remove(child)
    return child


def _set(element, tag, text):
    child = ET.SubElement(element, tag)
    child.text = text
    return child


def _objects(set_element):
    holder = None if set_element is None else set_element.find("objects")
    return [] if holder is None else list(holder)


def _zero(text) -> bool:
    try:
        return not np.any(np.array([float(t) for t in (text or "").split()]))
    except ValueError:
        return False


class _Upgrade:
    def __init__(self, model, file):
        self.model = model
        self.file = file
        self.warnings: list[str] = []
        self.frame_of: dict[str, str] = {"ground": "/ground"}   # body name -> 4.x path
        self.joint_of: dict[str, str] = {}                      # coordinate name -> joint name

    def error(self, problem, element):
        return ModelError(problem, element, self.file)

    def run(self):
        body_set = self.model.find("BodySet")
        bodies = _objects(body_set)
        for body in bodies:
            name = (body.get("name") or "").strip()
            if name and name != "ground":
                self.frame_of[name] = f"/bodyset/{name}"
        joints = []
        for body in bodies:
            if (body.get("name") or "").strip() == "ground":
                self._ground(body_set, body)
                continue
            self._inertia(body)
            self._geometry(body)
            joint = self._joint(body)
            if joint is not None:
                joints.append(joint)
        if joints:
            holder = ET.SubElement(ET.SubElement(self.model, "JointSet", name="jointset"), "objects")
            holder.extend(joints)
        for marker in _objects(self.model.find("MarkerSet")):
            self._socket_from(marker, "body", "socket_parent_frame", self._frame)
        for constraint in _objects(self.model.find("ConstraintSet")):
            self._negated_flag(constraint, "isEnforced")
        for force in _objects(self.model.find("ForceSet")):
            self._negated_flag(force, "appliesForce")
            for path in force.iter("GeometryPath"):
                for point in _objects(path.find("PathPointSet")):
                    self._point(point)

    # ------------------------------------------------------------------ bodies
    def _ground(self, body_set, body):
        if body.find("Joint") is not None and len(body.find("Joint")):
            raise self.error("the ground body has a joint", "body 'ground'")
        ground = ET.Element("Ground", name="ground")
        for tag in ("WrapObjectSet", "VisibleObject"):
            child = _take(body, tag)
            if child is not None:
                ground.append(child)
        self._geometry(ground)
        body_set.find("objects").remove(body)
        self.model.insert(0, ground)

    def _inertia(self, body):
        values = [_take(body, tag) for tag in _INERTIA]
        if all(v is None for v in values):
            return
        if any(v is None for v in values):
            raise self.error("gives some of inertia_xx ... inertia_yz but not all six", f"body '{body.get('name')}'")
        _set(body, "inertia", " ".join((v.text or "").strip() for v in values))

    def _geometry(self, frame):
        visible = _take(frame, "VisibleObject")
        if visible is None:
            return
        name = frame.get("name")
        outer = (_child_text(visible, "scale_factors", "1 1 1") or "1 1 1").split()
        meshes = []
        for k, shape in enumerate(_objects(visible.find("GeometrySet")), start=1):
            file = _child_text(shape, "geometry_file", "")
            if not file:
                continue
            if not (_zero(_child_text(shape, "transform")) and _zero(_child_text(visible, "transform"))):
                self.warnings.append(f"mesh {file!r} of '{name}' is placed by an OpenSim 3 display transform; not "
                                     "imported")
                continue
            mesh = ET.Element("Mesh", name=f"{name}_geom_{k}")
            inner = (_child_text(shape, "scale_factors", "1 1 1") or "1 1 1").split()
            try:
                scale = [float(a) * float(b) for a, b in zip(outer, inner)]
            except ValueError:
                raise self.error(f"the scale factors of mesh {file!r} are not numbers", f"body '{name}'") from None
            _set(mesh, "mesh_file", file)
            _set(mesh, "scale_factors", " ".join(repr(s) for s in scale))
            appearance = ET.SubElement(mesh, "Appearance")
            for tag in ("color", "opacity"):
                if _child_text(shape, tag):
                    _set(appearance, tag, _child_text(shape, tag))
            meshes.append(mesh)
        if meshes:
            ET.SubElement(frame, "attached_geometry").extend(meshes)

    # ------------------------------------------------------------------ joints
    def _joint(self, body):
        holder = _take(body, "Joint")
        child = (body.get("name") or "").strip()
        if holder is None or not len(holder):
            raise self.error("has no joint: in an OpenSim 3 model every body but ground holds the joint that "
                             "connects it to its parent", f"body '{child}'")
        joint = holder[0]
        what = f"joint '{joint.get('name')}'"
        if (_child_text(joint, "reverse", "false") or "false").lower() == "true":
            raise self.error("is a reversed joint (reverse true); HybridLab does not rebuild the tree the way "
                             "OpenSim 4 does for it", what)
        _take(joint, "reverse")
        parent = _child_text(joint, "parent_body")
        if parent not in self.frame_of:
            raise self.error(f"names the parent body {parent!r}, which is not a body of the model", what)
        if parent == child:
            raise self.error("connects a body to itself", what)
        _take(joint, "parent_body")
        frames = ET.Element("frames")
        for (location_tag, orientation_tag), owner in zip(_JOINT_PLACEMENT, (parent, child)):
            location, orientation = _take(joint, location_tag), _take(joint, orientation_tag)
            frame = ET.SubElement(frames, "PhysicalOffsetFrame", name=f"{owner}_offset")
            _set(frame, "socket_parent", self.frame_of[owner])
            _set(frame, "translation", "0 0 0" if location is None else location.text)
            _set(frame, "orientation", "0 0 0" if orientation is None else orientation.text)
        _set(joint, "socket_parent_frame", f"{parent}_offset")
        _set(joint, "socket_child_frame", f"{child}_offset")
        joint.append(frames)
        coordinates = ET.SubElement(joint, "coordinates")
        for coordinate in _objects(_take(joint, "CoordinateSet")):
            _take(coordinate, "motion_type")
            coordinates.append(coordinate)
            self.joint_of[(coordinate.get("name") or "").strip()] = joint.get("name")
        return joint

    # ------------------------------------------------------------------ references
    def _frame(self, name, what):
        if name not in self.frame_of:
            raise self.error(f"names the body {name!r}, which is not a body of the model", what)
        return self.frame_of[name]

    def _coordinate(self, name, what):
        if name not in self.joint_of:
            raise self.error(f"names the coordinate {name!r}, which no joint of the model has", what)
        return f"/jointset/{self.joint_of[name]}/{name}"

    def _socket_from(self, element, old, new, resolve):
        child = _take(element, old)
        if child is not None:
            _set(element, new, resolve((child.text or "").strip(), f"<{element.tag} name='{element.get('name')}'>"))

    def _point(self, point):
        self._socket_from(point, "body", "socket_parent_frame", self._frame)
        self._socket_from(point, "coordinate", "socket_coordinate", self._coordinate)
        for axis in "xyz":
            self._socket_from(point, f"{axis}_coordinate", f"socket_{axis}_coordinate", self._coordinate)

    def _negated_flag(self, element, tag):
        disabled = _take(element, "isDisabled")
        if disabled is not None:
            text = (disabled.text or "").strip().lower()
            if text not in ("true", "false"):
                raise self.error(f"<isDisabled> must be true or false, got {text!r}",
                                 f"<{element.tag} name='{element.get('name')}'>")
            _set(element, tag, "false" if text == "true" else "true")
