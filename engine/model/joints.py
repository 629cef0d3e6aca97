"""Joints: how a child body moves relative to its parent.

Every joint connects a parent (a body, a frame or a rod tip; ``'ground'`` is the
world) to a child body. ``parent_offset`` places the joint frame on the parent,
``child_offset`` places the joint frame on the child body, so that
``oM_child = oM_parent * parent_offset * X_J(q) * child_offset^-1``.

Velocity conventions (``v``, the seed's psi): revolute, prismatic, universal
and general joints use coordinate rates; spherical joints the body angular
velocity (rad/s, child frame); the free joint the body twist
``[omega; v_origin]`` in the child frame (as the seed's eta_0, eq. 28).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ModelError
from ..spatial import SE3
from . import _check
from .coordinates import ROTATIONAL, TRANSLATIONAL, Coordinate
from .functions import IDENTITY, Constant, Function


@dataclass(frozen=True)
class Joint:
    name: str
    parent: str
    child: str
    parent_offset: SE3 = field(default_factory=SE3)
    child_offset: SE3 = field(default_factory=SE3)
    coordinates: tuple = ()

    type_name = "joint"
    n_coordinates: int | None = None  # scalar coordinates a joint of this type needs

    def __post_init__(self):
        what = f"joint '{self.name}'"
        _check.name(self.name, "joint")
        _check.name(self.parent, f"{what} parent")
        _check.name(self.child, f"{what} child")
        for off in ("parent_offset", "child_offset"):
            if not isinstance(getattr(self, off), SE3):
                raise ModelError(f"{off} must be an SE3 placement", what)
        coords = tuple(self.coordinates)
        for c in coords:
            if not isinstance(c, Coordinate):
                raise ModelError(f"coordinates must be Coordinate objects, got {c!r}", what)
        if self.n_coordinates is not None and len(coords) != self.n_coordinates:
            raise ModelError(f"a {self.type_name} joint needs {self.n_coordinates} coordinate(s), got {len(coords)}", what)
        object.__setattr__(self, "coordinates", coords)


@dataclass(frozen=True)
class WeldJoint(Joint):
    type_name = "weld"
    n_coordinates = 0


@dataclass(frozen=True)
class RevoluteJoint(Joint):
    """Rotation about ``axis`` (unit, joint frame) by its one rotational coordinate."""

    axis: tuple = (0.0, 0.0, 1.0)
    type_name = "revolute"
    n_coordinates = 1

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "axis", tuple(_check.unit_vector(self.axis, f"joint '{self.name}'", "axis")))


@dataclass(frozen=True)
class PrismaticJoint(Joint):
    """Translation along ``axis`` (unit, joint frame) by its one translational coordinate."""

    axis: tuple = (1.0, 0.0, 0.0)
    type_name = "prismatic"
    n_coordinates = 1

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "axis", tuple(_check.unit_vector(self.axis, f"joint '{self.name}'", "axis")))


@dataclass(frozen=True)
class UniversalJoint(Joint):
    """Rotation about ``axis1`` then about ``axis2`` of the rotated frame (body-fixed)."""

    axis1: tuple = (1.0, 0.0, 0.0)
    axis2: tuple = (0.0, 1.0, 0.0)
    type_name = "universal"
    n_coordinates = 2

    def __post_init__(self):
        super().__post_init__()
        what = f"joint '{self.name}'"
        object.__setattr__(self, "axis1", tuple(_check.unit_vector(self.axis1, what, "axis1")))
        object.__setattr__(self, "axis2", tuple(_check.unit_vector(self.axis2, what, "axis2")))


@dataclass(frozen=True)
class SphericalJoint(Joint):
    """Ball joint on a unit quaternion (no gimbal lock); v is the body angular velocity."""

    type_name = "spherical"
    n_coordinates = 0


@dataclass(frozen=True)
class FreeJoint(Joint):
    """Floating base: position and unit quaternion in q, body twist in v (integrated on SE(3))."""

    type_name = "free"
    n_coordinates = 0


@dataclass(frozen=True)
class TransformAxis:
    """One of a general joint's six axes: a direction and ``function(coordinate)``.

    ``coordinate`` is ``None`` for a constant axis (its function is then evaluated at 0).
    """

    axis: tuple
    coordinate: str | None = None
    function: Function = IDENTITY

    def __post_init__(self):
        object.__setattr__(self, "axis", tuple(_check.unit_vector(self.axis, "transform axis", "axis")))
        if not isinstance(self.function, Function):
            raise ModelError("function must be a Function", "transform axis")


@dataclass(frozen=True)
class GeneralJoint(Joint):
    """OpenSim's CustomJoint: three rotations (body-fixed sequence) then three translations.

    ``rotations`` and ``translations`` are three :class:`TransformAxis` each. The
    translation is ``sum_i f_i t_i`` in the parent-side joint frame, applied
    after the rotation ``Rot(a0,f0) Rot(a1,f1) Rot(a2,f2)``. Axes may be driven by
    this joint's coordinates or by coordinates of other joints.
    """

    rotations: tuple = ()
    translations: tuple = ()
    type_name = "general"

    def __post_init__(self):
        super().__post_init__()
        what = f"joint '{self.name}'"
        for label in ("rotations", "translations"):
            axes = tuple(getattr(self, label))
            if len(axes) != 3 or not all(isinstance(a, TransformAxis) for a in axes):
                raise ModelError(f"{label} must be three TransformAxis", what)
            object.__setattr__(self, label, axes)

    @property
    def axes(self) -> tuple:
        return self.rotations + self.translations


def constant_axis(direction) -> TransformAxis:
    """An unused axis of a general joint (zero displacement)."""
    return TransformAxis(direction, None, Constant(0.0))


def rotational(name: str, **kw) -> Coordinate:
    return Coordinate(name, ROTATIONAL, **kw)


def translational(name: str, **kw) -> Coordinate:
    return Coordinate(name, TRANSLATIONAL, **kw)
