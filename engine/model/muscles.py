"""Plain descriptions of muscle paths, wrap objects and Hill-type parameters (OpenSim semantics).

- A :class:`GeometryPath` is an ordered list of path points (origin first,
  insertion last) plus the wrap objects it may wrap over.
- Points sit on a body or frame (``location`` in its frame, m) or on a rod
  (``s`` arclength, ``location`` in the cross-section frame).
- :class:`ConditionalPathPoint` is active only while ``coordinate`` is inside
  ``range`` (inclusive, SI units); :class:`MovingPathPoint` has a location
  whose components are functions of coordinates.
- Wrap objects are fixed on bodies; :class:`PathWrap` says which wrap object a
  path uses, the method, and the range of path points (1-based, inclusive,
  ``(-1, -1)`` for all) it applies between, as in OpenSim.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError
from ..spatial import SE3
from . import _check
from .functions import Function


@dataclass(frozen=True, eq=False)
class PathPoint:
    name: str
    parent: str
    location: np.ndarray = field(default_factory=lambda: np.zeros(3))
    s: float | None = None

    def __post_init__(self):
        what = f"path point '{self.name}'"
        _check.name(self.name, "path point")
        _check.name(self.parent, f"{what} parent")
        object.__setattr__(self, "location", _check.vector(self.location, what, "location", 3))
        if self.s is not None:
            object.__setattr__(self, "s", _check.finite(self.s, what, "arclength s"))

    def _key(self):
        return (type(self).__name__, self.name, self.parent, tuple(self.location), self.s)

    def __eq__(self, other):
        return isinstance(other, PathPoint) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


@dataclass(frozen=True, eq=False)
class ConditionalPathPoint(PathPoint):
    coordinate: str = ""
    range: tuple = (-np.inf, np.inf)

    def __post_init__(self):
        super().__post_init__()
        what = f"conditional path point '{self.name}'"
        _check.name(self.coordinate, f"{what} coordinate")
        lo, hi = (_check.finite(v, what, "range") for v in self.range)
        if lo > hi:
            raise ModelError(f"range must be (low, high), got ({lo}, {hi})", what)
        object.__setattr__(self, "range", (lo, hi))

    def _key(self):
        return super()._key() + (self.coordinate, self.range)


@dataclass(frozen=True, eq=False)
class MovingPathPoint(PathPoint):
    """Location ``(f_x(q_x), f_y(q_y), f_z(q_z))``; a component without a function stays at ``location``."""

    x: tuple | None = None   # (coordinate name, Function)
    y: tuple | None = None
    z: tuple | None = None

    def __post_init__(self):
        super().__post_init__()
        what = f"moving path point '{self.name}'"
        for axis in ("x", "y", "z"):
            spec = getattr(self, axis)
            if spec is None:
                continue
            if len(spec) != 2 or not isinstance(spec[1], Function):
                raise ModelError(f"{axis} must be (coordinate name, function)", what)
            _check.name(spec[0], f"{what} {axis} coordinate")
            object.__setattr__(self, axis, (spec[0], spec[1]))

    def _key(self):
        return super()._key() + tuple(
            None if s is None else (s[0], repr(s[1].to_dict())) for s in (self.x, self.y, self.z))


@dataclass(frozen=True)
class WrapObject:
    """A wrap surface fixed on ``body`` at ``placement`` (OpenSim: translation, xyz_body_rotation).

    ``quadrant`` is one of ``'all', '+x', '-x', '+y', '-y', '+z', '-z'``.
    """

    name: str
    body: str
    placement: SE3 = field(default_factory=SE3)
    quadrant: str = "all"
    active: bool = True

    kind = "wrap object"

    def __post_init__(self):
        _check.name(self.name, "wrap object")
        _check.name(self.body, f"wrap object '{self.name}' body")
        if not isinstance(self.placement, SE3):
            raise ModelError("placement must be an SE3", f"wrap object '{self.name}'")
        if not isinstance(self.quadrant, str):
            raise ModelError(f"quadrant must be text, got {self.quadrant!r}", f"wrap object '{self.name}'")
        object.__setattr__(self, "active", _check.flag(self.active, f"wrap object '{self.name}'", "active"))
        q = self.quadrant.strip().lower().replace(" ", "")
        if q in ("x", "y", "z"):
            q = "+" + q
        if q not in ("all", "+x", "-x", "+y", "-y", "+z", "-z"):
            raise ModelError(f"quadrant must be all, +x, -x, +y, -y, +z or -z, got {self.quadrant!r}",
                             f"wrap object '{self.name}'")
        object.__setattr__(self, "quadrant", q)


@dataclass(frozen=True)
class WrapCylinder(WrapObject):
    radius: float = 0.0
    length: float = 1.0
    kind = "cylinder"

    def __post_init__(self):
        super().__post_init__()
        what = f"wrap cylinder '{self.name}'"
        object.__setattr__(self, "radius", _check.positive(self.radius, what, "radius"))
        object.__setattr__(self, "length", _check.positive(self.length, what, "length"))


@dataclass(frozen=True)
class WrapSphere(WrapObject):
    radius: float = 0.0
    kind = "sphere"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "radius", _check.positive(self.radius, f"wrap sphere '{self.name}'", "radius"))


@dataclass(frozen=True)
class WrapEllipsoid(WrapObject):
    dimensions: tuple = (0.0, 0.0, 0.0)   # semi-axes along x, y, z, m
    kind = "ellipsoid"

    def __post_init__(self):
        super().__post_init__()
        what = f"wrap ellipsoid '{self.name}'"
        dims = _check.vector(self.dimensions, what, "dimensions", 3)
        if np.any(dims <= 0):
            raise ModelError(f"dimensions must be positive, got {dims.tolist()}", what)
        object.__setattr__(self, "dimensions", tuple(float(d) for d in dims))


@dataclass(frozen=True)
class WrapTorus(WrapObject):
    inner_radius: float = 0.0
    outer_radius: float = 0.0
    kind = "torus"

    def __post_init__(self):
        super().__post_init__()
        what = f"wrap torus '{self.name}'"
        object.__setattr__(self, "inner_radius", _check.positive(self.inner_radius, what, "inner_radius"))
        object.__setattr__(self, "outer_radius", _check.positive(self.outer_radius, what, "outer_radius"))


@dataclass(frozen=True)
class PathWrap:
    wrap_object: str
    method: str = "hybrid"
    range: tuple = (-1, -1)

    def __post_init__(self):
        if self.method not in ("hybrid", "midpoint", "axial"):
            raise ModelError(f"method must be hybrid, midpoint or axial, got {self.method!r}",
                             f"path wrap over '{self.wrap_object}'")
        what = f"path wrap over '{self.wrap_object}'"
        rng = tuple(self.range)
        if len(rng) != 2 or not all(isinstance(r, (int, np.integer)) and not isinstance(r, bool) for r in rng):
            raise ModelError(f"range must be two integers (path point numbers, -1 for all), got {self.range!r}", what)
        object.__setattr__(self, "range", tuple(int(r) for r in rng))


@dataclass(frozen=True)
class GeometryPath:
    points: tuple
    wraps: tuple = ()

    def __post_init__(self):
        pts = tuple(self.points)
        if len(pts) < 2:
            raise ModelError(f"a path needs at least 2 points, got {len(pts)}", "geometry path")
        if not all(isinstance(p, PathPoint) for p in pts):
            raise ModelError("points must be PathPoint objects", "geometry path")
        if isinstance(pts[0], ConditionalPathPoint) or isinstance(pts[-1], ConditionalPathPoint):
            raise ModelError("origin and insertion cannot be conditional points", "geometry path")
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "wraps", tuple(self.wraps))


MUSCLE_MODELS = ("thelen2003", "millard2012", "rigid")


@dataclass(frozen=True)
class Muscle:
    """A Hill-type musculotendon unit.

    Attributes (SI units): ``max_isometric_force`` N, ``optimal_fiber_length`` m,
    ``tendon_slack_length`` m, ``pennation_angle`` rad (at optimal fibre length),
    ``max_contraction_velocity`` in optimal fibre lengths per second, activation
    and deactivation time constants s (seed eq. 42). ``parameters`` holds the
    model's curve constants with OpenSim's names (e.g. ``FmaxTendonStrain``,
    ``KshapeActive``, or Millard curve dictionaries).
    """

    name: str
    path: GeometryPath
    model: str
    max_isometric_force: float
    optimal_fiber_length: float
    tendon_slack_length: float
    pennation_angle: float = 0.0
    max_contraction_velocity: float = 10.0
    activation_time_constant: float = 0.015
    deactivation_time_constant: float = 0.05
    parameters: dict = field(default_factory=dict)

    def __post_init__(self):
        what = f"muscle '{self.name}'"
        _check.name(self.name, "muscle")
        if not isinstance(self.path, GeometryPath):
            raise ModelError("path must be a GeometryPath", what)
        if self.model not in MUSCLE_MODELS:
            raise ModelError(f"model must be one of {MUSCLE_MODELS}, got {self.model!r}", what)
        for f in ("max_isometric_force", "optimal_fiber_length", "tendon_slack_length", "max_contraction_velocity",
                  "activation_time_constant", "deactivation_time_constant"):
            object.__setattr__(self, f, _check.positive(getattr(self, f), what, f))
        pen = _check.finite(self.pennation_angle, what, "pennation_angle")
        if not 0.0 <= pen < np.pi / 2:
            raise ModelError(f"pennation_angle must be in [0, pi/2) rad, got {pen}", what)
        object.__setattr__(self, "pennation_angle", pen)
        object.__setattr__(self, "parameters", dict(self.parameters))

    __hash__ = object.__hash__

    def check_in(self, model) -> None:
        """Check that every point, coordinate and wrap object this muscle uses exists in ``model``."""
        what = f"muscle '{self.name}'"
        wraps = {w.name for w in model.wrap_objects}
        coordinates = {c.name for c in model.all_coordinates}
        rods = {r.name for r in model.rods}
        for p in self.path.points:
            try:
                owner, _ = model.resolve(p.parent)
            except ModelError as e:
                raise ModelError(f"path point '{p.name}': {e.problem}", what) from None
            if owner == "ground":
                continue
            if p.parent in rods and p.s is None:
                raise ModelError(f"path point '{p.name}' is on a rod but has no arclength s", what)
            coords = []
            if isinstance(p, ConditionalPathPoint):
                coords.append(p.coordinate)
            if isinstance(p, MovingPathPoint):
                coords += [s[0] for s in (p.x, p.y, p.z) if s is not None]
            for c in coords:
                if c not in coordinates:
                    raise ModelError(f"path point '{p.name}' depends on {c!r}, which is not a coordinate", what)
        for w in self.path.wraps:
            if w.wrap_object not in wraps:
                raise ModelError(f"wraps over {w.wrap_object!r}, which is not a wrap object of the model", what)

