"""The model file schema: every model class to and from the plain data of a model file.

Reading (:func:`read_model`) takes the parsed YAML mapping (without the
``format``/``version`` header), converts the units the file declares to SI,
rejects unknown, missing and mistyped fields, and builds the model through the
model classes, which do the physical checks. Writing (:func:`write_model`) gives
SI plain data (:data:`SI_UNITS`), leaving out fields equal to their class default.
Errors are ModelErrors naming the element; the caller adds the file.
The format is documented in docs/model-format.md.
"""
from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from functools import cache

import numpy as np

from ..errors import ModelError
from ..model import (ANGULAR_MODES, MODES, Body, Composition, Constant, ContactPoint, Coordinate, Frame, FreeJoint,
                     Function, GeneralJoint, Linear, Marker, Material, Mesh, Model, Multiplier, NaturalCubicSpline,
                     PiecewiseLinear, Polynomial, PrismaticJoint, RevoluteJoint, Rod, RodSegment, Section, SimmSpline,
                     SphericalJoint, TransformAxis, UniversalJoint, WeldJoint, _check)
from ..model.coordinates import ROTATIONAL
from ..model.muscles import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap,
                             WrapCylinder, WrapEllipsoid, WrapSphere, WrapTorus)
from ..spatial import SE3
from .model_fields import ABSENT, Fields, Units, build, describe, given, numbers, plain_data, read_units

JOINTS = {cls.type_name: cls for cls in (FreeJoint, SphericalJoint, RevoluteJoint, PrismaticJoint, UniversalJoint,
                                         WeldJoint, GeneralJoint)}
_JOINT_AXES = {RevoluteJoint: ("axis",), PrismaticJoint: ("axis",), UniversalJoint: ("axis1", "axis2")}
WRAP_OBJECTS = {cls.kind: cls for cls in (WrapCylinder, WrapSphere, WrapEllipsoid, WrapTorus)}
_WRAP_SIZES = {WrapCylinder: {"radius": True, "length": False}, WrapSphere: {"radius": True},  # size: required?
               WrapTorus: {"inner_radius": True, "outer_radius": True}}
FUNCTIONS = {cls.kind: cls for cls in (Constant, Linear, Polynomial, PiecewiseLinear, NaturalCubicSpline, SimmSpline,
                                        Multiplier, Composition)}
PATH_POINTS = {"fixed": PathPoint, "conditional": ConditionalPathPoint, "moving": MovingPathPoint}

def read_model(document: dict) -> Model:
    """Build a :class:`Model`, in SI units, from a model file's mapping (``format`` and ``version`` removed)."""
    top = Fields(document, "top level")
    units_fields, name = top.mapping("units", required=True), top.text("name")
    gravity, metadata = top.raw("gravity", False), top.data_tree("metadata")
    sections = {key: top.items(key) for key in ("bodies", "frames", "joints", "materials", "rods", "markers",
                                                "contacts", "wrap_objects", "muscles")}
    top.close()
    u = read_units(units_fields)
    materials = {}
    for i, item in enumerate(sections["materials"], 1):
        material = _read_material(Fields(item, f"material {i}"), u)
        if material.name in materials:
            raise ModelError("is defined twice", f"material '{material.name}'")
        materials[material.name] = material
    rods = [_read_rod(Fields(item, f"rod {i}"), u, materials) for i, item in enumerate(sections["rods"], 1)]
    used = {sg.material.name for rod in rods for sg in rod.segments}
    for material in materials:
        if material not in used:
            raise ModelError("is defined but no rod segment uses it", f"material '{material}'")
    scales = _coordinate_factors(sections["joints"], rods, u)
    parts = dict(
        bodies=[_read_body(Fields(item, f"body {i}"), u) for i, item in enumerate(sections["bodies"], 1)],
        frames=[_read_frame(Fields(item, f"frame {i}"), u) for i, item in enumerate(sections["frames"], 1)],
        joints=[_read_joint(Fields(item, f"joint {i}"), u, scales) for i, item in enumerate(sections["joints"], 1)],
        rods=rods,
        markers=[_read_point(Fields(item, f"marker {i}"), Marker, u)
                 for i, item in enumerate(sections["markers"], 1)],
        contacts=[_read_point(Fields(item, f"contact point {i}"), ContactPoint, u)
                  for i, item in enumerate(sections["contacts"], 1)],
        wrap_objects=[_read_wrap_object(Fields(item, f"wrap object {i}"), u)
                      for i, item in enumerate(sections["wrap_objects"], 1)],
        muscles=[_read_muscle(Fields(item, f"muscle {i}"), u, scales)
                 for i, item in enumerate(sections["muscles"], 1)],
    )
    if gravity is not ABSENT:
        parts["gravity"] = numbers(gravity, 3, "top level", "gravity", u.length)
    return Model(name, **parts, **given(metadata=metadata))


def clamp_matters(c: Coordinate) -> bool:
    """Whether IK's treatment of ``c`` depends on its ``clamped`` flag: a coordinate IK moves (not locked, not coupled
    to another) with a finite end to its range. The writer gives the flag of such a coordinate even when false."""
    return not c.locked and c.coupled_to is None and bool(np.isfinite(c.range).any())


def unflagged_clamps(document: dict, model: Model) -> dict:
    """``{joint name: [coordinate names]}``: the coordinates of ``model``, read from the model file's mapping
    ``document``, that the file gives no ``clamped`` flag although it matters (:func:`clamp_matters`): a file written
    before IK followed the flag, whose ranges IK then kept, now leaves them free."""
    unflagged = {c.get("name") for j in document.get("joints") or () for c in j.get("coordinates") or ()
                 if "clamped" not in c}
    out = {}
    for j in model.joints:
        names = [c.name for c in j.coordinates if c.name in unflagged and clamp_matters(c)]
        if names:
            out[j.name] = names
    return out


def _coordinate_factors(joints: list, rods: list, u: Units) -> dict:
    """SI factor of every coordinate's values by name, looked up before the joints are read
    because couplers, joint axes and moving path points may use coordinates defined further on.
    Entries that are not well formed are skipped here and reported when they are read."""
    factors = {name: u.of_mode(mode) for rod in rods
               for name, mode in zip(rod.coordinate_names(), [m for sg in rod.segments for m in sg.free_modes])}
    for joint in joints:
        coordinates = joint.get("coordinates") if isinstance(joint, dict) else None
        for c in coordinates if isinstance(coordinates, list) else []:
            if isinstance(c, dict) and isinstance(c.get("name"), str):
                factors[c["name"]] = u.of_coordinate(c.get("kind", ROTATIONAL))
    return factors


def _read_placement(f: Fields, key: str, u: Units):
    """``translation`` (length) and ``rotation`` (3x3 matrix, rows), both optional."""
    p = f.mapping(key)
    if p is ABSENT:
        return ABSENT
    translation = p.numbers("translation", 3, u.length)
    rows = p.raw("rotation", False)
    p.close()
    if rows is ABSENT:
        R = np.eye(3)
    elif not isinstance(rows, list) or len(rows) != 3:
        raise ModelError(f"rotation must be 3 rows of 3 numbers, got {describe(rows)}", p.where)
    else:
        R = _check.rotation([numbers(r, 3, p.where, "rotation row") for r in rows], p.where, "rotation")
    return SE3(R, np.zeros(3) if translation is ABSENT else translation)


def _read_function(f: Fields, x_factor: float, y_factor: float):
    """A function of a coordinate: arguments times ``x_factor``, values times ``y_factor`` give SI."""
    cls = f.kind(FUNCTIONS, "function")
    if cls is Constant:
        kw = {"value": f.number("value", y_factor)}
    elif cls is Linear:
        kw = given(slope=f.number("slope", y_factor / x_factor, False),
                    intercept=f.number("intercept", y_factor, False))
    elif cls is Polynomial:
        c = f.numbers("coefficients", None, required=True)
        kw = {"coefficients": [ci * (y_factor / x_factor ** (len(c) - 1 - i)) for i, ci in enumerate(c)]}
    elif cls is Multiplier:
        kw = given(function=_read_function(f.mapping("function", True), x_factor, y_factor),
                    scale=f.number("scale", required=False))
    elif cls is Composition:  # the value inner passes to outer is in SI units
        kw = {"outer": _read_function(f.mapping("outer", True), 1.0, y_factor),
              "inner": _read_function(f.mapping("inner", True), x_factor, 1.0)}
    else:  # knots
        kw = {"x": f.numbers("x", None, x_factor, True), "y": f.numbers("y", None, y_factor, True)}
    f.close()
    return build(f.where, cls, **kw)


def _read_body(f: Fields, u: Units) -> Body:
    name = f.named("body")
    kw = given(mass=f.number("mass", u.mass), com=f.numbers("com", 3, u.length),
                inertia=f.numbers("inertia", 6, u.mass * u.length ** 2), massless=f.flag("massless"))
    meshes = [_read_mesh(Fields(m, f"{f.where}, mesh {i}"), u) for i, m in enumerate(f.items("meshes"), 1)]
    f.close()
    return build(f.where, Body, name, meshes=meshes, **kw)


def _read_mesh(f: Fields, u: Units) -> Mesh:
    kw = given(file=f.text("file"), scale=f.numbers("scale", 3), placement=_read_placement(f, "placement", u),
                color=f.numbers("color", 3))
    f.close()
    if "color" in kw:
        kw["color"] = tuple(kw["color"])
    return build(f.where, Mesh, **kw)


def _read_frame(f: Fields, u: Units) -> Frame:
    name = f.named("frame")
    kw = given(parent=f.text("parent"), placement=_read_placement(f, "placement", u))
    f.close()
    return build(f.where, Frame, name, **kw)


def _read_coordinate(f: Fields, u: Units, factors: dict) -> Coordinate:
    name = f.named("coordinate")
    kind = f.text("kind", False)
    factor = u.of_coordinate(ROTATIONAL if kind is ABSENT else kind)
    coupled_to = f.text("coupled_to", False)
    coupler = f.mapping("coupler")
    kw = given(kind=kind, range=f.numbers("range", 2, factor), default=f.number("default", factor, False),
                locked=f.flag("locked"), clamped=f.flag("clamped"), coupled_to=coupled_to)
    if coupler is not ABSENT:
        kw["coupler"] = _read_function(coupler, factors.get(coupled_to, 1.0), factor)
    f.close()
    return build(f.where, Coordinate, name, **kw)


def _read_joint(f: Fields, u: Units, factors: dict):
    name = f.named("joint")
    cls = f.kind(JOINTS, "joint")
    kw = given(parent=f.text("parent"), child=f.text("child"), parent_offset=_read_placement(f, "parent_offset", u),
                child_offset=_read_placement(f, "child_offset", u))
    kw["coordinates"] = [_read_coordinate(Fields(c, f"{f.where}, coordinate {i}"), u, factors)
                         for i, c in enumerate(f.items("coordinates"), 1)]
    axes = {key: f.numbers(key, 3) for key in _JOINT_AXES.get(cls, ())}
    if cls is GeneralJoint:
        for key, factor in (("rotations", u.angle), ("translations", u.length)):
            kw[key] = [_read_transform_axis(Fields(a, f"{f.where}, {key} {i}"), factor, factors)
                       for i, a in enumerate(f.items(key, True), 1)]
    f.close()
    return build(f.where, cls, name, **kw, **given(**axes))


def _read_transform_axis(f: Fields, y_factor: float, factors: dict) -> TransformAxis:
    axis, coordinate, function = f.numbers("axis", 3, required=True), f.text("coordinate", False), f.mapping("function")
    kw = given(coordinate=coordinate)
    if function is not ABSENT:
        kw["function"] = _read_function(function, factors.get(coordinate, 1.0), y_factor)
    f.close()
    return build(f.where, TransformAxis, axis, **kw)


def _read_material(f: Fields, u: Units) -> Material:
    name = f.named("material")
    kw = given(youngs_modulus=f.number("youngs_modulus", u.modulus),
                shear_modulus=f.number("shear_modulus", u.modulus), density=f.number("density", u.density),
                extensional_viscosity=f.number("extensional_viscosity", u.modulus, False),
                shear_viscosity=f.number("shear_viscosity", u.modulus, False))
    f.close()
    return build(f.where, Material, name, **kw)


def _read_rod(f: Fields, u: Units, materials: dict) -> Rod:
    name = f.named("rod")
    kw = given(parent=f.text("parent"), offset=_read_placement(f, "offset", u), quadrature=f.integer("quadrature"))
    segments = [_read_segment(Fields(s, f"{f.where}, segment {i}"), u, materials)
                for i, s in enumerate(f.items("segments", True), 1)]
    f.close()
    return build(f.where, Rod, name, segments=segments, **kw)


def _read_segment(f: Fields, u: Units, materials: dict) -> RodSegment:
    length, material = f.number("length", u.length), f.text("material")
    section = _read_section(f.mapping("section", True), u)
    modes = f.raw("free_modes", False)
    if modes is not ABSENT and (not isinstance(modes, list) or not all(m in MODES for m in modes)):
        raise ModelError(f"free_modes must be a list of names among {', '.join(MODES)}, got {modes!r}", f.where)
    modes = ANGULAR_MODES if modes is ABSENT else modes
    rest = f.numbers("rest_strain", 6, [u.of_mode(m) for m in MODES])
    ranges = f.items("strain_range") if "strain_range" in f.data else ABSENT
    f.close()
    if material not in materials:
        raise ModelError(f"uses the material {material!r}, which is not among the materials", f.where)
    kw = given(rest_strain=rest)
    if ranges is not ABSENT:
        if len(ranges) != len(modes):
            raise ModelError(f"strain_range needs one [low, high] per free mode ({len(modes)}), got {len(ranges)}",
                             f.where)
        kw["strain_range"] = [numbers(r, 2, f.where, f"strain_range of {m}", u.of_mode(m))
                              for r, m in zip(ranges, modes)]
    return build(f.where, RodSegment, length, section, materials[material], free_modes=modes, **kw)


def _read_section(f: Fields, u: Units) -> Section:
    area, l4 = u.length ** 2, u.length ** 4
    kw = given(area=f.number("area", area), second_moment_y=f.number("second_moment_y", l4),
                second_moment_z=f.number("second_moment_z", l4), torsion_constant=f.number("torsion_constant", l4),
                width=f.number("width", u.length, False), thickness=f.number("thickness", u.length, False))
    f.close()
    return build(f.where, Section, **kw)


def _read_point(f: Fields, cls, u: Units):
    name = f.named(cls.kind)
    kw = given(parent=f.text("parent"), offset=f.numbers("offset", 3, u.length), s=f.number("s", u.length, False))
    kw.update(given(fixed=f.flag("fixed")) if cls is Marker else given(group=f.text("group", False)))
    f.close()
    return build(f.where, cls, name, **kw)


def _read_wrap_object(f: Fields, u: Units):
    name = f.named("wrap object")
    cls = f.kind(WRAP_OBJECTS, "wrap object")
    kw = given(body=f.text("body"), placement=_read_placement(f, "placement", u), quadrant=f.text("quadrant", False),
                active=f.flag("active"))
    if cls is WrapEllipsoid:
        kw["dimensions"] = tuple(f.numbers("dimensions", 3, u.length, True))
    else:
        kw.update(given(**{key: f.number(key, u.length, required) for key, required in _WRAP_SIZES[cls].items()}))
    f.close()
    return build(f.where, cls, name, **kw)


def _read_muscle(f: Fields, u: Units, factors: dict) -> Muscle:
    name = f.named("muscle")
    kw = given(model=f.text("model"), max_isometric_force=f.number("max_isometric_force"),
                optimal_fiber_length=f.number("optimal_fiber_length", u.length),
                tendon_slack_length=f.number("tendon_slack_length", u.length),
                pennation_angle=f.number("pennation_angle", u.angle, False),
                max_contraction_velocity=f.number("max_contraction_velocity", required=False),
                activation_time_constant=f.number("activation_time_constant", required=False),
                deactivation_time_constant=f.number("deactivation_time_constant", required=False),
                parameters=f.data_tree("parameters"))
    path = f.mapping("path", True)
    f.close()
    points = [_read_path_point(Fields(p, f"{f.where}, path point {i}"), f.where, u, factors)
              for i, p in enumerate(path.items("points", True), 1)]
    wraps = [_read_path_wrap(Fields(w, f"{f.where}, path wrap {i}")) for i, w in enumerate(path.items("wraps"), 1)]
    path.close()
    return build(f.where, Muscle, name, build(path.where, GeometryPath, points, wraps), **kw)


def _read_path_point(f: Fields, muscle: str, u: Units, factors: dict) -> PathPoint:
    name = f.named("path point", muscle)
    cls = f.kind(PATH_POINTS, "path point", "fixed")
    kw = given(parent=f.text("parent"), location=f.numbers("location", 3, u.length), s=f.number("s", u.length, False))
    if cls is ConditionalPathPoint:
        kw["coordinate"] = f.text("coordinate")
        kw["range"] = tuple(f.numbers("range", 2, factors.get(kw["coordinate"], 1.0), True))
    if cls is MovingPathPoint:
        for axis in ("x", "y", "z"):
            spec = f.mapping(axis)
            if spec is not ABSENT:
                coordinate = spec.text("coordinate")
                kw[axis] = (coordinate, _read_function(spec.mapping("function", True), factors.get(coordinate, 1.0),
                                                       u.length))
                spec.close()
    f.close()
    return build(f.where, cls, name, **kw)


def _read_path_wrap(f: Fields) -> PathWrap:
    kw = given(wrap_object=f.text("wrap_object"), method=f.text("method", False))
    span = f.raw("range", False)
    if span is not ABSENT:
        if not isinstance(span, list) or len(span) != 2 or not all(type(i) is int for i in span):
            raise ModelError(f"range must be two whole numbers [first, last], got {describe(span)}", f.where)
        kw["range"] = tuple(span)
    f.close()
    return build(f.where, PathWrap, **kw)


# =================================================================== writing
def write_model(model: Model) -> dict:
    """A model as the plain data of a model file: SI units, fields equal to their default left out."""
    if not isinstance(model, Model):
        raise TypeError(f"write_model needs a Model, got {type(model).__name__}")
    out = {"name": model.name, "gravity": model.gravity}
    if model.metadata:
        out["metadata"] = plain_data(model.metadata, f"model '{model.name}'", "metadata")
    sections = {
        "bodies": [_body(b) for b in model.bodies],
        "frames": [_element(fr, f"frame '{fr.name}'") for fr in model.frames],
        "joints": [_typed(j, f"joint '{j.name}'", JOINTS, j.type_name) for j in model.joints],
        "materials": _materials(model.rods),
        "rods": [_element(r, f"rod '{r.name}'") for r in model.rods],
        "markers": [_element(p, f"marker '{p.name}'") for p in model.markers],
        "contacts": [_element(p, f"contact point '{p.name}'") for p in model.contacts],
        "wrap_objects": [_typed(w, f"wrap object '{w.name}'", WRAP_OBJECTS, getattr(w, "kind", None))
                         for w in model.wrap_objects],
        "muscles": [_muscle(m) for m in model.muscles],
    }
    out.update((key, items) for key, items in sections.items() if items)
    return _plain(out)


def _element(obj, where: str, always=()) -> dict:
    """The fields of a model dataclass, under their own names, except those equal to the class default (but the
    fields named in ``always``); the long ``segments`` and ``path`` come last."""
    defaults = _defaults(type(obj))
    out = {f.name: _value(getattr(obj, f.name), f"{where}, {f.name}") for f in fields(obj)
           if f.name in always or f.name not in defaults or not _same(getattr(obj, f.name), defaults[f.name])}
    out.update((key, out.pop(key)) for key in ("segments", "path") if key in out)
    return out


def _value(value, where: str):
    if isinstance(value, SE3):
        return _placement(value, where)
    if isinstance(value, Function):
        return value.to_dict()
    if isinstance(value, Material):
        return value.name
    if isinstance(value, PathPoint):
        return _path_point(value, where)
    if isinstance(value, Coordinate):
        return _element(value, where, ("clamped",) if clamp_matters(value) else ())
    if is_dataclass(value):
        return _element(value, where)
    if isinstance(value, tuple) and any(is_dataclass(v) for v in value):
        return [_value(v, f"{where} {i}") for i, v in enumerate(value, 1)]
    return value


@cache
def _defaults(cls) -> dict:
    return {f.name: f.default if f.default is not MISSING else f.default_factory()
            for f in fields(cls) if f.default is not MISSING or f.default_factory is not MISSING}


def _same(a, b) -> bool:
    """Whether a field value equals its default (element by element for sequences and arrays)."""
    if isinstance(a, (tuple, list, np.ndarray)) and isinstance(b, (tuple, list, np.ndarray)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    return bool(a == b)


def _plain(value):
    """Numpy arrays, tuples and numpy scalars as the lists and Python numbers YAML writes."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value)
    return bool(value) if isinstance(value, np.bool_) else value


def _placement(placement: SE3, where: str) -> dict:
    _check.rotation(placement.R, where, "rotation")
    out = {}
    if np.any(placement.p != 0.0):
        out["translation"] = placement.p
    if not np.array_equal(placement.R, np.eye(3)):
        out["rotation"] = placement.R
    return out


def _typed(obj, where: str, known: dict, kind) -> dict:
    """An element whose class the file gives as ``type``, right after the name."""
    if known.get(kind) is not type(obj):
        raise ModelError(f"is a {type(obj).__name__}, which model files do not know", where)
    out = _element(obj, where)
    return {"name": out.pop("name"), "type": kind} | out


def _body(b: Body) -> dict:
    out = _element(b, f"body '{b.name}'")
    if "inertia" in out:
        I = b.inertia
        out["inertia"] = [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]
    return out


def _materials(rods) -> list:
    table = {}
    for sg in (sg for rod in rods for sg in rod.segments):
        if table.setdefault(sg.material.name, sg.material) != sg.material:
            raise ModelError("names two different materials; model files refer to materials by name",
                             f"material '{sg.material.name}'")
    return [_element(m, f"material '{m.name}'") for m in table.values()]


def _muscle(m) -> dict:
    where = f"muscle '{m.name}'"
    if not isinstance(m, Muscle):
        raise ModelError(f"is a {type(m).__name__}, which model files do not know", where)
    out = _element(m, where)
    if "parameters" in out:
        out["parameters"] = plain_data(m.parameters, where, "parameters")
    return out


def _path_point(p: PathPoint, where: str) -> dict:
    kind = next((k for k, cls in PATH_POINTS.items() if cls is type(p)), None)
    out = _typed(p, f"{where}, path point '{p.name}'", PATH_POINTS, kind)
    if kind == "fixed":
        del out["type"]
    for axis in ("x", "y", "z"):
        if axis in out:
            out[axis] = dict(zip(("coordinate", "function"), out[axis]))  # (name, function) as a mapping
    return out
