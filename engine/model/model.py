"""The model: bodies, joints, rods and attached points, validated as a whole.

A :class:`Model` never changes after construction (edits make a new model with
:meth:`Model.replace`). It is a description and knows nothing of what is built from it: its compiled
flat-array form for the numba kernels is ``engine.tree.compile_tree(model)`` (built once per model), its
workspaces ``engine.data.Data(model)`` and its neutral configuration ``engine.algorithms.neutral(model)``,
as with Pinocchio's Model and Data.
"""
from __future__ import annotations

import numpy as np

from ..errors import ModelError
from ..spatial import SE3
from . import _check
from .bodies import Body, Frame
from .coordinates import STRAIN, Coordinate
from .joints import FreeJoint, GeneralJoint, Joint, SphericalJoint
from .muscles import Muscle, WrapObject
from .points import ContactPoint, Marker
from .rods import MODES, Rod

GROUND = "ground"
DEFAULT_GRAVITY = (0.0, -9.80665, 0.0)


class Model:
    """A soft-rigid hybrid-link model (seed section 2.2).

    Parameters
    ----------
    name : str
    bodies, joints, rods, frames, markers, contacts : sequences
        The parts. Every body is the child of exactly one joint; the joints and
        rods form a tree rooted at ``'ground'``.
    muscles : sequence
        Musculotendon actuators (``engine.model.Muscle``); each is validated against the model.
    wrap_objects : sequence
        Wrap surfaces fixed on bodies (``engine.model.WrapCylinder`` ...), used by muscle paths.
    gravity : (3,) m/s^2 in the ground frame (default ``-9.80665`` along y, OpenSim's convention).
    metadata : dict
        Free-form provenance (sources, credits, subject data); saved with the model.
    """

    def __init__(self, name: str, bodies=(), joints=(), rods=(), frames=(), markers=(), contacts=(),
                 muscles=(), wrap_objects=(), gravity=DEFAULT_GRAVITY, metadata=None):
        self.name = _check.name(name, "model")
        self.bodies = tuple(bodies)
        self.joints = tuple(joints)
        self.rods = tuple(rods)
        self.frames = tuple(frames)
        self.markers = tuple(markers)
        self.contacts = tuple(contacts)
        self.muscles = tuple(muscles)
        self.wrap_objects = tuple(wrap_objects)
        self.gravity = _check.vector(gravity, f"model '{name}'", "gravity", 3)
        self.metadata = dict(metadata or {})
        self._validate()

    # ------------------------------------------------------------------ access
    def replace(self, **changes) -> "Model":
        """A new model with some parts replaced (e.g. ``muscles=...``), validated again."""
        fields = dict(name=self.name, bodies=self.bodies, joints=self.joints, rods=self.rods,
                      frames=self.frames, markers=self.markers, contacts=self.contacts,
                      muscles=self.muscles, wrap_objects=self.wrap_objects, gravity=self.gravity,
                      metadata=self.metadata)
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"unknown model fields: {sorted(unknown)}")
        fields.update(changes)
        return Model(**fields)

    def body(self, name: str) -> Body:
        return self._lookup(self._bodies, name, "body")

    def joint(self, name: str) -> Joint:
        return self._lookup(self._joints, name, "joint")

    def rod(self, name: str) -> Rod:
        return self._lookup(self._rods, name, "rod")

    def coordinate(self, name: str) -> Coordinate:
        return self._lookup(self._coordinates, name, "coordinate")

    def muscle(self, name: str):
        return self._lookup({m.name: m for m in self.muscles}, name, "muscle")

    def _lookup(self, table, name, kind):
        try:
            return table[name]
        except KeyError:
            raise ModelError(f"no {kind} named {name!r} in the model", f"model '{self.name}'") from None

    @property
    def all_coordinates(self) -> tuple[Coordinate, ...]:
        """Every scalar coordinate, dependent ones included, rod strains included, in tree order."""
        return tuple(self._coordinates.values())

    @property
    def independent_coordinates(self) -> tuple[Coordinate, ...]:
        return tuple(c for c in self._coordinates.values() if not c.is_dependent)

    @property
    def ordered_elements(self) -> tuple:
        """Joints and rods in tree order (parents before children)."""
        return self._order

    @property
    def up(self) -> np.ndarray:
        """(3,) the ground frame's unit vertical, opposite gravity (a new array)."""
        g = float(np.linalg.norm(self.gravity))
        if g == 0.0:
            raise ModelError("has no gravity, so no vertical direction", f"model '{self.name}'")
        return -np.asarray(self.gravity, float) / g

    @property
    def total_mass(self) -> float:
        """Bodies plus rods, kg."""
        rods = sum(sg.line_inertia()[0] * sg.length for r in self.rods for sg in r.segments)
        return float(sum(b.mass for b in self.bodies) + rods)

    @property
    def nq(self) -> int:
        """Size of the configuration ``q``: 7 per free joint, 4 per spherical one (quaternions), one per
        independent scalar coordinate (rod strains included)."""
        return self._nq

    @property
    def nv(self) -> int:
        """Size of the velocity ``v``: 6 per free joint, 3 per spherical one, one per independent scalar
        coordinate."""
        return self._nv

    def __repr__(self):
        return (f"Model({self.name!r}: {len(self.bodies)} bodies, {len(self.joints)} joints, "
                f"{len(self.rods)} rods, {len(self.markers)} markers, {len(self.muscles)} muscles)")

    def __eq__(self, other):
        if not isinstance(other, Model):
            return NotImplemented
        return (self.name == other.name and self.bodies == other.bodies and self.joints == other.joints
                and self.rods == other.rods and self.frames == other.frames and self.markers == other.markers
                and self.contacts == other.contacts and self.muscles == other.muscles
                and self.wrap_objects == other.wrap_objects
                and np.array_equal(self.gravity, other.gravity) and self.metadata == other.metadata)

    __hash__ = object.__hash__

    # -------------------------------------------------------------- validation
    def _validate(self):
        what = f"model '{self.name}'"
        kinds = (("bodies", self.bodies, Body), ("joints", self.joints, Joint), ("rods", self.rods, Rod),
                 ("frames", self.frames, Frame), ("markers", self.markers, Marker),
                 ("contacts", self.contacts, ContactPoint), ("muscles", self.muscles, Muscle),
                 ("wrap_objects", self.wrap_objects, WrapObject))
        for label, items, cls in kinds:
            for item in items:
                if not isinstance(item, cls):
                    raise ModelError(f"{label} must hold {cls.__name__} objects, got {type(item).__name__}", what)
        self._bodies = _unique(self.bodies, "body")
        self._joints = _unique(self.joints, "joint")
        self._rods = _unique(self.rods, "rod")
        self._frames = _unique(self.frames, "frame")
        _unique(self.markers, "marker")
        _unique(self.contacts, "contact point")
        _unique(self.muscles, "muscle")
        _unique(self.wrap_objects, "wrap object")
        # Bodies, frames and rods share one namespace: they are what parents refer to.
        seen = {GROUND: "ground"}
        for kind, table in (("body", self._bodies), ("frame", self._frames), ("rod", self._rods)):
            for n in table:
                if n in seen:
                    raise ModelError(f"the name {n!r} is used by both a {seen[n]} and a {kind}", what)
                seen[n] = kind
        self._kind_of = seen
        self._check_frames()
        self._order = self._build_tree_order()
        self._coordinates = self._collect_coordinates()
        rotations = [(7, 6) if isinstance(el, FreeJoint) else (4, 3) for el in self._order
                     if isinstance(el, (FreeJoint, SphericalJoint))]
        scalars = len(self.independent_coordinates)
        self._nq = scalars + sum(nq for nq, _ in rotations)
        self._nv = scalars + sum(nv for _, nv in rotations)
        self._check_couplers()
        self._check_points()
        for wo in self.wrap_objects:
            owner = self._owner(wo.body, f"wrap object '{wo.name}'")
            if owner not in self._bodies:
                raise ModelError(f"must be fixed on a body, not {wo.body!r}", f"wrap object '{wo.name}'")
        for m in self.muscles:
            m.check_in(self)

    def resolve(self, name: str) -> tuple[str, SE3]:
        """Resolve a parent reference to ``(owner, placement)``.

        ``owner`` is ``'ground'``, a body name or a rod name (meaning its tip);
        ``placement`` is the referenced frame's placement in that owner.
        """
        placement = SE3()
        seen = set()
        while name in self._frames:
            if name in seen:
                raise ModelError("frames form a cycle", f"frame '{name}'")
            seen.add(name)
            f = self._frames[name]
            placement = f.placement @ placement
            name = f.parent
        if name not in self._kind_of:
            raise ModelError(f"refers to {name!r}, which is not ground, a body, a frame or a rod", "reference")
        return name, placement

    def _check_frames(self):
        for f in self.frames:
            try:
                self.resolve(f.name)
            except ModelError as e:
                raise ModelError(e.problem, f"frame '{f.name}'") from None

    def _owner(self, ref: str, what: str) -> str:
        try:
            return self.resolve(ref)[0]
        except ModelError as e:
            raise ModelError(e.problem, what) from None

    def _build_tree_order(self):
        children: dict[str, list] = {}
        child_joint: dict[str, Joint] = {}
        for j in self.joints:
            what = f"joint '{j.name}'"
            owner = self._owner(j.parent, what)
            if j.child not in self._bodies:
                raise ModelError(f"child {j.child!r} is not a body", what)
            if j.child in child_joint:
                raise ModelError(f"body {j.child!r} is the child of two joints "
                                 f"('{child_joint[j.child].name}' and '{j.name}')", what)
            child_joint[j.child] = j
            children.setdefault(owner, []).append(j)
        for r in self.rods:
            children.setdefault(self._owner(r.parent, f"rod '{r.name}'"), []).append(r)
        order: list = []

        def visit(owner):
            for el in children.get(owner, []):
                order.append(el)
                visit(el.child if isinstance(el, Joint) else el.name)

        visit(GROUND)
        for b in self.bodies:
            if b.name not in child_joint:
                raise ModelError("is not connected to the model: no joint has it as its child", f"body '{b.name}'")
        reached = set(map(id, order))
        for el in self.joints + self.rods:
            if id(el) not in reached:
                kind = "joint" if isinstance(el, Joint) else "rod"
                raise ModelError("cannot be reached from ground: its parents form a cycle or a detached chain",
                                 f"{kind} '{el.name}'")
        return tuple(order)

    def _collect_coordinates(self):
        coords: dict[str, Coordinate] = {}
        for el in self._order:
            if isinstance(el, Joint):
                own = el.coordinates
                if isinstance(el, (FreeJoint, SphericalJoint)) and own:
                    raise ModelError("free and spherical joints have no scalar coordinates", f"joint '{el.name}'")
            else:
                own = []
                for i, sg in enumerate(el.segments):
                    rng = sg.strain_range or [(-np.inf, np.inf)] * len(sg.free_modes)
                    for m, r in zip(sg.free_modes, rng):
                        k = MODES.index(m)
                        own.append(Coordinate(f"{el.name}_s{i + 1}_{m}", STRAIN, range=r, default=sg.rest_strain[k],
                                              clamped=sg.strain_range is not None))
            for c in own:
                if c.name in coords:
                    raise ModelError("is defined twice", f"coordinate '{c.name}'")
                coords[c.name] = c
        return coords

    def _check_couplers(self):
        for c in self._coordinates.values():
            if c.is_dependent:
                ind = self._coordinates.get(c.coupled_to)
                if ind is None:
                    raise ModelError(f"is coupled to {c.coupled_to!r}, which is not a coordinate", f"coordinate '{c.name}'")
                if ind.is_dependent:
                    raise ModelError(f"is coupled to {c.coupled_to!r}, which is itself coupled", f"coordinate '{c.name}'")
        for j in self.joints:
            if isinstance(j, GeneralJoint):
                for ax in j.axes:
                    if ax.coordinate is not None and ax.coordinate not in self._coordinates:
                        raise ModelError(f"an axis uses {ax.coordinate!r}, which is not a coordinate", f"joint '{j.name}'")
            else:
                for c in j.coordinates:
                    if c.is_dependent:
                        raise ModelError("only general joints may use coupled coordinates", f"joint '{j.name}'")

    def _check_points(self):
        for p in self.markers + self.contacts:
            what = f"{p.kind} '{p.name}'"
            owner = self._owner(p.parent, what)
            if p.parent in self._rods:
                if p.s is None:
                    raise ModelError(f"is on rod {p.parent!r} but has no arclength s", what)
                rod = self._rods[p.parent]
                if not -1e-12 <= p.s <= rod.length + 1e-12:
                    raise ModelError(f"arclength s = {p.s} m is outside rod {p.parent!r} (0 to {rod.length} m)", what)
            elif p.s is not None:
                raise ModelError(f"has an arclength s but its parent {p.parent!r} is not a rod", what)
            if owner == GROUND:
                raise ModelError("is attached to ground; points must move with a body or rod", what)


def _unique(items, kind):
    table = {}
    for it in items:
        name = getattr(it, "name", None)
        if name in table:
            raise ModelError("is defined twice", f"{kind} '{name}'")
        table[name] = it
    return table

