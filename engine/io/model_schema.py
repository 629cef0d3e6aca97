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

import difflib
import math
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache

import numpy as np

from ..errors import ModelError
from ..model import (ANGULAR_MODES, MODES, Body, Composition, Constant, ContactPoint, Coordinate, Frame, FreeJoint,
                     Function, GeneralJoint, Linear, Marker, Material, Mesh, Model, Multiplier, NaturalCubicSpline,
                     PiecewiseLinear, Polynomial, PrismaticJoint, RevoluteJoint, Rod, RodSegment, Section, SimmSpline,
                     SphericalJoint, TransformAxis, UniversalJoint, WeldJoint, _check)
from ..model.coordinates import ROTATIONAL, TRANSLATIONAL
from ..muscles import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap,
                       WrapCylinder, WrapEllipsoid, WrapSphere, WrapTorus)
from ..spatial import SE3

# Units a file may declare, with their SI factor (value in SI = value in file * factor); SI first.
UNITS = {
    "length": {"m": 1.0, "cm": 1e-2, "mm": 1e-3},
    "mass": {"kg": 1.0, "g": 1e-3},
    "angle": {"rad": 1.0, "deg": math.pi / 180.0},
    "modulus": {"Pa": 1.0, "kPa": 1e3, "MPa": 1e6, "GPa": 1e9},
    "density": {"kg/m^3": 1.0, "g/cm^3": 1e3},
}
SI_UNITS = {quantity: next(iter(table)) for quantity, table in UNITS.items()}

JOINTS = {cls.type_name: cls for cls in (FreeJoint, SphericalJoint, RevoluteJoint, PrismaticJoint, UniversalJoint,
                                         WeldJoint, GeneralJoint)}
_JOINT_AXES = {RevoluteJoint: ("axis",), PrismaticJoint: ("axis",), UniversalJoint: ("axis1", "axis2")}
WRAP_OBJECTS = {cls.kind: cls for cls in (WrapCylinder, WrapSphere, WrapEllipsoid, WrapTorus)}
_WRAP_SIZES = {WrapCylinder: {"radius": True, "length": False}, WrapSphere: {"radius": True},  # size: required?
               WrapTorus: {"inner_radius": True, "outer_radius": True}}
FUNCTIONS = {cls.kind: cls for cls in (Constant, Linear, Polynomial, PiecewiseLinear, NaturalCubicSpline, SimmSpline,
                                        Multiplier, Composition)}
PATH_POINTS = {"fixed": PathPoint, "conditional": ConditionalPathPoint, "moving": MovingPathPoint}

_ABSENT = object()  # an optional field the file leaves out: the class default applies


@dataclass(frozen=True)
class Units:
    """SI factors of a file's units: ``value in SI = value in file * factor``."""

    length: float
    mass: float
    angle: float
    modulus: float
    density: float

    def of_coordinate(self, kind) -> float:
        """Factor of a coordinate's values: angle (rotational), length (translational), 1 (strain, kept SI)."""
        return self.angle if kind == ROTATIONAL else self.length if kind == TRANSLATIONAL else 1.0

    def of_mode(self, mode: str) -> float:
        """Factor of a strain mode: curvatures are 1/length, stretch and shears dimensionless."""
        return 1.0 / self.length if mode in ANGULAR_MODES else 1.0


# =================================================================== reading
class _Fields:
    """One mapping of the file: typed access to its fields; :meth:`close` rejects the fields never asked for."""

    def __init__(self, data, where: str):
        if not isinstance(data, dict):
            raise ModelError(f"must be a mapping of fields, got {_describe(data)}", where)
        self.data = data
        self.where = where
        self.asked: list = []

    def named(self, kind: str, within: str = "") -> str:
        """Read ``name`` and refer to this element as ``kind 'name'`` (inside ``within``) from now on."""
        name = self.text("name")
        self.where = f"{within}, {kind} '{name}'" if within else f"{kind} '{name}'"
        return name

    def kind(self, known: dict, what: str, default=_ABSENT):
        """The class named by the ``type`` field among ``known`` (``type`` is required unless a default is given)."""
        name = self.text("type", default is _ABSENT)
        cls = known.get(default if name is _ABSENT else name)
        if cls is None:
            raise ModelError(f"unknown {what} type {name!r} (known: {', '.join(known)})", self.where)
        return cls

    def raw(self, key: str, required: bool = True):
        self.asked.append(key)
        if key in self.data:
            return self.data[key]
        if required:
            guess = difflib.get_close_matches(str(key), [str(k) for k in self.data if k not in self.asked], 1)
            hint = f" (is {guess[0]!r} a misspelling?)" if guess else ""
            raise ModelError(f"is missing the required field {key!r}{hint}", self.where)
        return _ABSENT

    def close(self) -> None:
        for key in self.data:
            if key not in self.asked:
                guess = difflib.get_close_matches(str(key), self.asked, 1)
                hint = f"did you mean {guess[0]!r}?" if guess else f"expected: {', '.join(self.asked)}"
                raise ModelError(f"has an unknown field {key!r} ({hint})", self.where)

    def text(self, key: str, required: bool = True):
        value = self.raw(key, required)
        if value is not _ABSENT and not isinstance(value, str):
            raise ModelError(f"{key} must be text, got {_describe(value)}", self.where)
        return value

    def flag(self, key: str):
        """An optional true/false field."""
        value = self.raw(key, False)
        if value is not _ABSENT and not isinstance(value, bool):
            raise ModelError(f"{key} must be true or false, got {_describe(value)}", self.where)
        return value

    def integer(self, key: str):
        """An optional whole number."""
        value = self.raw(key, False)
        if value is not _ABSENT and (isinstance(value, bool) or not isinstance(value, int)):
            raise ModelError(f"{key} must be a whole number, got {_describe(value)}", self.where)
        return value

    def number(self, key: str, factor: float = 1.0, required: bool = True):
        value = self.raw(key, required)
        return value if value is _ABSENT else _number(value, self.where, key) * factor

    def numbers(self, key: str, size: int | None, factor=1.0, required: bool = False):
        """A list of ``size`` numbers (any length if None), each times ``factor`` (a number or one per value)."""
        value = self.raw(key, required)
        return value if value is _ABSENT else _numbers(value, size, self.where, key, factor)

    def mapping(self, key: str, required: bool = False):
        value = self.raw(key, required)
        return value if value is _ABSENT else _Fields(value, f"{self.where}, {key}")

    def items(self, key: str, required: bool = False) -> list:
        value = self.raw(key, required)
        if value is _ABSENT:
            return []
        if not isinstance(value, list):
            raise ModelError(f"{key} must be a list, got {_describe(value)}", self.where)
        return value

    def data_tree(self, key: str):
        """An optional free-form mapping (metadata, muscle curve parameters), kept as written."""
        value = self.raw(key, False)
        if value is _ABSENT:
            return value
        if not isinstance(value, dict):
            raise ModelError(f"{key} must be a mapping, got {_describe(value)}", self.where)
        return plain_data(value, self.where, key)


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, str):
        return f"{value!r} (text)"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return repr(value) if value is None or isinstance(value, (int, float)) else f"a {type(value).__name__}"


def _number(value, where: str, label: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(f"{label} must be a number, got {_describe(value)}", where)
    try:
        x = float(value)
    except OverflowError:
        raise ModelError(f"{label} is too large: {value}", where) from None
    if math.isnan(x):
        raise ModelError(f"{label} is NaN (not a number)", where)
    return x


def _numbers(value, size, where: str, label: str, factor=1.0) -> list:
    if not isinstance(value, list) or (size is not None and len(value) != size) or not value:
        count = "at least one" if size is None else size
        raise ModelError(f"{label} must be a list of {count} numbers, got {_describe(value)}"
                         + (f" of {len(value)}" if isinstance(value, list) else ""), where)
    factors = factor if isinstance(factor, (list, tuple)) else [factor] * len(value)
    return [_number(v, where, label) * f for v, f in zip(value, factors)]


def plain_data(value, where: str, label: str):
    """Check that free-form data is what a YAML file stores exactly (mappings with text keys, lists,
    text, whole numbers, numbers other than NaN, true/false, null); numpy floats become floats."""
    if value is None or type(value) in (str, bool, int):
        return value
    if isinstance(value, float):
        return float(_number(value, where, label))
    if type(value) is list:
        return [plain_data(v, where, f"{label}[{i}]") for i, v in enumerate(value)]
    if type(value) is dict:
        for k in value:
            if not isinstance(k, str):
                raise ModelError(f"{label} has the key {k!r}; keys must be text", where)
        return {k: plain_data(v, where, f"{label}.{k}") for k, v in value.items()}
    raise ModelError(f"{label} holds {_describe(value)}, which a model file cannot store exactly (use mappings, "
                     "lists, text, numbers, true/false or null)", where)


def _given(**kwargs) -> dict:
    return {k: v for k, v in kwargs.items() if v is not _ABSENT}


def _build(where: str, cls, *args, **kwargs):
    """``cls(*args, **kwargs)``, its ModelError located at ``where`` (keeping the class's own element)."""
    try:
        return cls(*args, **kwargs)
    except ModelError as exc:
        element = where if exc.element in (None, where) else f"{where} ({exc.element})"
        raise ModelError(exc.problem, element) from None


def _keep_written_axes(obj, written: dict):
    """Keep unit axes bit-exact as written. ``_check.unit_vector`` divides even a unit vector by its
    norm, which moves about a third of them by one ulp, so an exact round trip needs this."""
    for key, axis in written.items():
        if axis is not _ABSENT and np.abs(np.subtract(getattr(obj, key), axis)).max() <= 4 * np.finfo(float).eps:
            object.__setattr__(obj, key, tuple(np.float64(a) for a in axis))
    return obj


def read_units(f: _Fields) -> Units:
    factors = {}
    for quantity, table in UNITS.items():
        name = f.text(quantity)
        if name not in table:
            raise ModelError(f"unknown {quantity} unit {name!r} (use {', '.join(table)})", f.where)
        factors[quantity] = table[name]
    f.close()
    return Units(**factors)


def read_model(document: dict) -> Model:
    """Build a :class:`Model` from a model file's mapping (header removed)."""
    top = _Fields(document, "top level")
    units_fields, name = top.mapping("units", required=True), top.text("name")
    gravity, metadata = top.raw("gravity", False), top.data_tree("metadata")
    sections = {key: top.items(key) for key in ("bodies", "frames", "joints", "materials", "rods", "markers",
                                                "contacts", "wrap_objects", "muscles")}
    top.close()
    u = read_units(units_fields)
    materials = {}
    for i, item in enumerate(sections["materials"], 1):
        material = _read_material(_Fields(item, f"material {i}"), u)
        if material.name in materials:
            raise ModelError("is defined twice", f"material '{material.name}'")
        materials[material.name] = material
    rods = [_read_rod(_Fields(item, f"rod {i}"), u, materials) for i, item in enumerate(sections["rods"], 1)]
    used = {sg.material.name for rod in rods for sg in rod.segments}
    for material in materials:
        if material not in used:
            raise ModelError("is defined but no rod segment uses it", f"material '{material}'")
    scales = _coordinate_factors(sections["joints"], rods, u)
    parts = dict(
        bodies=[_read_body(_Fields(item, f"body {i}"), u) for i, item in enumerate(sections["bodies"], 1)],
        frames=[_read_frame(_Fields(item, f"frame {i}"), u) for i, item in enumerate(sections["frames"], 1)],
        joints=[_read_joint(_Fields(item, f"joint {i}"), u, scales) for i, item in enumerate(sections["joints"], 1)],
        rods=rods,
        markers=[_read_point(_Fields(item, f"marker {i}"), Marker, u)
                 for i, item in enumerate(sections["markers"], 1)],
        contacts=[_read_point(_Fields(item, f"contact point {i}"), ContactPoint, u)
                  for i, item in enumerate(sections["contacts"], 1)],
        wrap_objects=[_read_wrap_object(_Fields(item, f"wrap object {i}"), u)
                      for i, item in enumerate(sections["wrap_objects"], 1)],
        muscles=[_read_muscle(_Fields(item, f"muscle {i}"), u, scales)
                 for i, item in enumerate(sections["muscles"], 1)],
    )
    if gravity is not _ABSENT:
        parts["gravity"] = _numbers(gravity, 3, "top level", "gravity", u.length)
    return Model(name, **parts, **_given(metadata=metadata))


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


def _read_placement(f: _Fields, key: str, u: Units):
    """``translation`` (length) and ``rotation`` (3x3 matrix, rows), both optional."""
    p = f.mapping(key)
    if p is _ABSENT:
        return _ABSENT
    translation = p.numbers("translation", 3, u.length)
    rows = p.raw("rotation", False)
    p.close()
    if rows is _ABSENT:
        R = np.eye(3)
    elif not isinstance(rows, list) or len(rows) != 3:
        raise ModelError(f"rotation must be 3 rows of 3 numbers, got {_describe(rows)}", p.where)
    else:
        R = _check.rotation([_numbers(r, 3, p.where, "rotation row") for r in rows], p.where, "rotation")
    return SE3(R, np.zeros(3) if translation is _ABSENT else translation)


def _read_function(f: _Fields, x_factor: float, y_factor: float):
    """A function of a coordinate: arguments times ``x_factor``, values times ``y_factor`` give SI."""
    cls = f.kind(FUNCTIONS, "function")
    if cls is Constant:
        kw = {"value": f.number("value", y_factor)}
    elif cls is Linear:
        kw = _given(slope=f.number("slope", y_factor / x_factor, False),
                    intercept=f.number("intercept", y_factor, False))
    elif cls is Polynomial:
        c = f.numbers("coefficients", None, required=True)
        kw = {"coefficients": [ci * (y_factor / x_factor ** (len(c) - 1 - i)) for i, ci in enumerate(c)]}
    elif cls is Multiplier:
        kw = _given(function=_read_function(f.mapping("function", True), x_factor, y_factor),
                    scale=f.number("scale", required=False))
    elif cls is Composition:  # the value inner passes to outer is in SI units
        kw = {"outer": _read_function(f.mapping("outer", True), 1.0, y_factor),
              "inner": _read_function(f.mapping("inner", True), x_factor, 1.0)}
    else:  # knots
        kw = {"x": f.numbers("x", None, x_factor, True), "y": f.numbers("y", None, y_factor, True)}
    f.close()
    return _build(f.where, cls, **kw)


def _read_body(f: _Fields, u: Units) -> Body:
    name = f.named("body")
    kw = _given(mass=f.number("mass", u.mass), com=f.numbers("com", 3, u.length),
                inertia=f.numbers("inertia", 6, u.mass * u.length ** 2), massless=f.flag("massless"))
    meshes = [_read_mesh(_Fields(m, f"{f.where}, mesh {i}"), u) for i, m in enumerate(f.items("meshes"), 1)]
    f.close()
    return _build(f.where, Body, name, meshes=meshes, **kw)


def _read_mesh(f: _Fields, u: Units) -> Mesh:
    kw = _given(file=f.text("file"), scale=f.numbers("scale", 3), placement=_read_placement(f, "placement", u),
                color=f.numbers("color", 3))
    f.close()
    if "color" in kw:
        kw["color"] = tuple(kw["color"])
    return _build(f.where, Mesh, **kw)


def _read_frame(f: _Fields, u: Units) -> Frame:
    name = f.named("frame")
    kw = _given(parent=f.text("parent"), placement=_read_placement(f, "placement", u))
    f.close()
    return _build(f.where, Frame, name, **kw)


def _read_coordinate(f: _Fields, u: Units, factors: dict) -> Coordinate:
    name = f.named("coordinate")
    kind = f.text("kind", False)
    factor = u.of_coordinate(ROTATIONAL if kind is _ABSENT else kind)
    coupled_to = f.text("coupled_to", False)
    coupler = f.mapping("coupler")
    kw = _given(kind=kind, range=f.numbers("range", 2, factor), default=f.number("default", factor, False),
                locked=f.flag("locked"), clamped=f.flag("clamped"), coupled_to=coupled_to)
    if coupler is not _ABSENT:
        kw["coupler"] = _read_function(coupler, factors.get(coupled_to, 1.0), factor)
    f.close()
    return _build(f.where, Coordinate, name, **kw)


def _read_joint(f: _Fields, u: Units, factors: dict):
    name = f.named("joint")
    cls = f.kind(JOINTS, "joint")
    kw = _given(parent=f.text("parent"), child=f.text("child"), parent_offset=_read_placement(f, "parent_offset", u),
                child_offset=_read_placement(f, "child_offset", u))
    kw["coordinates"] = [_read_coordinate(_Fields(c, f"{f.where}, coordinate {i}"), u, factors)
                         for i, c in enumerate(f.items("coordinates"), 1)]
    axes = {key: f.numbers(key, 3) for key in _JOINT_AXES.get(cls, ())}
    if cls is GeneralJoint:
        for key, factor in (("rotations", u.angle), ("translations", u.length)):
            kw[key] = [_read_transform_axis(_Fields(a, f"{f.where}, {key} {i}"), factor, factors)
                       for i, a in enumerate(f.items(key, True), 1)]
    f.close()
    return _keep_written_axes(_build(f.where, cls, name, **kw, **_given(**axes)), axes)


def _read_transform_axis(f: _Fields, y_factor: float, factors: dict) -> TransformAxis:
    axis, coordinate, function = f.numbers("axis", 3, required=True), f.text("coordinate", False), f.mapping("function")
    kw = _given(coordinate=coordinate)
    if function is not _ABSENT:
        kw["function"] = _read_function(function, factors.get(coordinate, 1.0), y_factor)
    f.close()
    return _keep_written_axes(_build(f.where, TransformAxis, axis, **kw), {"axis": axis})


def _read_material(f: _Fields, u: Units) -> Material:
    name = f.named("material")
    kw = _given(youngs_modulus=f.number("youngs_modulus", u.modulus),
                shear_modulus=f.number("shear_modulus", u.modulus), density=f.number("density", u.density),
                extensional_viscosity=f.number("extensional_viscosity", u.modulus, False),
                shear_viscosity=f.number("shear_viscosity", u.modulus, False))
    f.close()
    return _build(f.where, Material, name, **kw)


def _read_rod(f: _Fields, u: Units, materials: dict) -> Rod:
    name = f.named("rod")
    kw = _given(parent=f.text("parent"), offset=_read_placement(f, "offset", u), quadrature=f.integer("quadrature"))
    segments = [_read_segment(_Fields(s, f"{f.where}, segment {i}"), u, materials)
                for i, s in enumerate(f.items("segments", True), 1)]
    f.close()
    return _build(f.where, Rod, name, segments=segments, **kw)


def _read_segment(f: _Fields, u: Units, materials: dict) -> RodSegment:
    length, material = f.number("length", u.length), f.text("material")
    section = _read_section(f.mapping("section", True), u)
    modes = f.raw("free_modes", False)
    if modes is not _ABSENT and (not isinstance(modes, list) or not all(m in MODES for m in modes)):
        raise ModelError(f"free_modes must be a list of names among {', '.join(MODES)}, got {modes!r}", f.where)
    modes = ANGULAR_MODES if modes is _ABSENT else modes
    rest = f.numbers("rest_strain", 6, [u.of_mode(m) for m in MODES])
    ranges = f.items("strain_range") if "strain_range" in f.data else _ABSENT
    f.close()
    if material not in materials:
        raise ModelError(f"uses the material {material!r}, which is not among the materials", f.where)
    kw = _given(rest_strain=rest)
    if ranges is not _ABSENT:
        if len(ranges) != len(modes):
            raise ModelError(f"strain_range needs one [low, high] per free mode ({len(modes)}), got {len(ranges)}",
                             f.where)
        ranges = [_numbers(r, 2, f.where, f"strain_range of {m}", u.of_mode(m)) for r, m in zip(ranges, modes)]
        # the class sorts the modes into MODES order; sort their ranges alike so each keeps its mode
        kw["strain_range"] = [r for _, r in sorted(zip(modes, ranges), key=lambda mr: MODES.index(mr[0]))]
    return _build(f.where, RodSegment, length, section, materials[material], free_modes=modes, **kw)


def _read_section(f: _Fields, u: Units) -> Section:
    area, l4 = u.length ** 2, u.length ** 4
    kw = _given(area=f.number("area", area), second_moment_y=f.number("second_moment_y", l4),
                second_moment_z=f.number("second_moment_z", l4), torsion_constant=f.number("torsion_constant", l4),
                width=f.number("width", u.length, False), thickness=f.number("thickness", u.length, False))
    f.close()
    return _build(f.where, Section, **kw)


def _read_point(f: _Fields, cls, u: Units):
    name = f.named(cls.kind)
    kw = _given(parent=f.text("parent"), offset=f.numbers("offset", 3, u.length), s=f.number("s", u.length, False))
    kw.update(_given(fixed=f.flag("fixed")) if cls is Marker else _given(group=f.text("group", False)))
    f.close()
    return _build(f.where, cls, name, **kw)


def _read_wrap_object(f: _Fields, u: Units):
    name = f.named("wrap object")
    cls = f.kind(WRAP_OBJECTS, "wrap object")
    kw = _given(body=f.text("body"), placement=_read_placement(f, "placement", u), quadrant=f.text("quadrant", False),
                active=f.flag("active"))
    if cls is WrapEllipsoid:
        kw["dimensions"] = tuple(f.numbers("dimensions", 3, u.length, True))
    else:
        kw.update(_given(**{key: f.number(key, u.length, required) for key, required in _WRAP_SIZES[cls].items()}))
    f.close()
    return _build(f.where, cls, name, **kw)


def _read_muscle(f: _Fields, u: Units, factors: dict) -> Muscle:
    name = f.named("muscle")
    kw = _given(model=f.text("model"), max_isometric_force=f.number("max_isometric_force"),
                optimal_fiber_length=f.number("optimal_fiber_length", u.length),
                tendon_slack_length=f.number("tendon_slack_length", u.length),
                pennation_angle=f.number("pennation_angle", u.angle, False),
                max_contraction_velocity=f.number("max_contraction_velocity", required=False),
                activation_time_constant=f.number("activation_time_constant", required=False),
                deactivation_time_constant=f.number("deactivation_time_constant", required=False),
                parameters=f.data_tree("parameters"))
    path = f.mapping("path", True)
    f.close()
    points = [_read_path_point(_Fields(p, f"{f.where}, path point {i}"), f.where, u, factors)
              for i, p in enumerate(path.items("points", True), 1)]
    wraps = [_read_path_wrap(_Fields(w, f"{f.where}, path wrap {i}")) for i, w in enumerate(path.items("wraps"), 1)]
    path.close()
    return _build(f.where, Muscle, name, _build(path.where, GeometryPath, points, wraps), **kw)


def _read_path_point(f: _Fields, muscle: str, u: Units, factors: dict) -> PathPoint:
    name = f.named("path point", muscle)
    cls = f.kind(PATH_POINTS, "path point", "fixed")
    kw = _given(parent=f.text("parent"), location=f.numbers("location", 3, u.length), s=f.number("s", u.length, False))
    if cls is ConditionalPathPoint:
        kw["coordinate"] = f.text("coordinate")
        kw["range"] = tuple(f.numbers("range", 2, factors.get(kw["coordinate"], 1.0), True))
    if cls is MovingPathPoint:
        for axis in ("x", "y", "z"):
            spec = f.mapping(axis)
            if spec is not _ABSENT:
                coordinate = spec.text("coordinate")
                kw[axis] = (coordinate, _read_function(spec.mapping("function", True), factors.get(coordinate, 1.0),
                                                       u.length))
                spec.close()
    f.close()
    return _build(f.where, cls, name, **kw)


def _read_path_wrap(f: _Fields) -> PathWrap:
    kw = _given(wrap_object=f.text("wrap_object"), method=f.text("method", False))
    span = f.raw("range", False)
    if span is not _ABSENT:
        if not isinstance(span, list) or len(span) != 2 or not all(type(i) is int for i in span):
            raise ModelError(f"range must be two whole numbers [first, last], got {_describe(span)}", f.where)
        kw["range"] = tuple(span)
    f.close()
    return _build(f.where, PathWrap, **kw)


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


def _element(obj, where: str) -> dict:
    """The fields of a model dataclass, under their own names, except those equal to the class default;
    the long ``segments`` and ``path`` come last."""
    defaults = _defaults(type(obj))
    out = {f.name: _value(getattr(obj, f.name), f"{where}, {f.name}") for f in fields(obj)
           if f.name not in defaults or not _same(getattr(obj, f.name), defaults[f.name])}
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
