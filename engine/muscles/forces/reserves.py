"""Residual and reserve actuators from OpenSim actuator (ForceSet) files, and their generalized forces.

Supported, with OpenSim's meaning (force = control x ``optimal_force``):

- ``CoordinateActuator``: a generalized force on one coordinate (N or N m);
- ``PointActuator``: a force along ``direction`` (made unit length, in ground if
  ``force_is_global`` else in the body) at ``point`` (in the body, or in ground if
  ``point_is_global``) of ``body``;
- ``TorqueActuator``: a torque about ``axis`` (unit, in ground if ``torque_is_global``
  else in ``bodyA``) on ``bodyA``, and its opposite on ``bodyB``.

``min_control`` / ``max_control`` bound the control; ``-infinity`` / ``infinity`` are
read as unbounded. A ``<defaults>`` block supplies properties an actuator of the
same type omits, as in OpenSim. Disabled actuators (``appliesForce`` false, or
``isDisabled`` true in older files) are skipped and listed in ``skipped``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ... import algorithms as alg
from ...data import Data
from ...errors import DataError, SettingsError
from ...bounded_xml import parse_bounded
from ...tree import compile_tree

_TYPES = ("CoordinateActuator", "PointActuator", "TorqueActuator")
_CLASS_DEFAULTS = {"optimal_force": "1", "min_control": "-infinity", "max_control": "infinity",
                   "point": "0 0 0", "point_is_global": "false", "force_is_global": "true",
                   "torque_is_global": "true", "bodyB": "ground"}


@dataclass(frozen=True)
class Actuator:
    """One residual or reserve actuator.

    ``kind`` is ``'coordinate'``, ``'point'`` or ``'torque'``; ``optimal_force`` N or N m;
    ``min_control`` / ``max_control`` bound the control (force / optimal force).
    ``coordinate`` (coordinate actuators), ``body``, ``point``, ``direction``, ``point_is_global``,
    ``force_is_global`` (point actuators), ``body``, ``body_b``, ``direction`` (the axis),
    ``force_is_global`` (torque actuators) as in the file.
    """

    name: str
    kind: str
    optimal_force: float
    min_control: float = -np.inf
    max_control: float = np.inf
    coordinate: str = ""
    body: str = ""
    body_b: str = "ground"
    point: tuple = (0.0, 0.0, 0.0)
    direction: tuple = (1.0, 0.0, 0.0)
    point_is_global: bool = False
    force_is_global: bool = True


@dataclass(frozen=True)
class ReserveActuators:
    """A set of residual/reserve actuators; ``skipped`` lists disabled ones found in the file."""

    actuators: tuple
    source: str | None = None
    skipped: tuple = field(default_factory=tuple)

    @property
    def names(self) -> tuple:
        return tuple(a.name for a in self.actuators)

    @property
    def optimal_force(self) -> np.ndarray:
        return np.array([a.optimal_force for a in self.actuators], float)

    @property
    def min_control(self) -> np.ndarray:
        return np.array([a.min_control for a in self.actuators], float)

    @property
    def max_control(self) -> np.ndarray:
        return np.array([a.max_control for a in self.actuators], float)


def coordinate_reserves(model, optimal_force: float = 1.0, coordinates=None) -> ReserveActuators:
    """A CoordinateActuator named ``<coordinate>_reserve`` on each independent coordinate (or on ``coordinates``)."""
    names = coordinates if coordinates is not None else [c.name for c in model.independent_coordinates]
    if not (np.isfinite(optimal_force) and optimal_force > 0):
        raise SettingsError(f"the reserve optimal force must be positive, got {optimal_force}")
    return ReserveActuators(tuple(Actuator(f"{c}_reserve", "coordinate", float(optimal_force), coordinate=c)
                                  for c in names))


def _number(text, what, element, path):
    t = text.strip().lower()
    if t in ("inf", "infinity", "+inf", "+infinity"):
        return np.inf
    if t in ("-inf", "-infinity"):
        return -np.inf
    try:
        value = float(t)
    except ValueError:
        raise DataError(f"{what} is {text.strip()!r}, not a number", element=element, file=path) from None
    if np.isnan(value):
        raise DataError(f"{what} is NaN", element=element, file=path)
    return value


def _vector(text, what, element, path):
    parts = text.split()
    if len(parts) != 3:
        raise DataError(f"{what} must be 3 numbers, got {text.strip()!r}", element=element, file=path)
    values = tuple(_number(p, what, element, path) for p in parts)
    if not all(np.isfinite(values)):
        raise DataError(f"{what} must be finite, got {text.strip()!r}", element=element, file=path)
    return values


def _flag(text, what, element, path):
    t = text.strip().lower()
    if t not in ("true", "false"):
        raise DataError(f"{what} must be true or false, got {text.strip()!r}", element=element, file=path)
    return t == "true"


def _body_name(text):
    return text.strip().rstrip("/").split("/")[-1]


def read_actuators(path) -> ReserveActuators:
    """Read the CoordinateActuator, PointActuator and TorqueActuator elements of an OpenSim ForceSet file.

    Raises :class:`DataError` (naming the element) for unreadable XML, another actuator type,
    a missing coordinate/body/direction/axis, a non-positive optimal force, or bounds that are
    not numbers with ``min_control <= max_control``.
    """
    path = Path(path)
    root = parse_bounded(path, DataError)
    force_set = root if root.tag == "ForceSet" else root.find(".//ForceSet")
    if force_set is None:
        raise DataError("no <ForceSet> element", element=f"<{root.tag}>", file=path)
    defaults = {}
    block = force_set.find("defaults")
    if block is not None:
        for obj in block:
            defaults[obj.tag] = {c.tag: (c.text or "") for c in obj}
    objects = force_set.find("objects")
    actuators, skipped = [], []
    for obj in ([] if objects is None else list(objects)):
        name = obj.get("name", "").strip()
        element = f"<{obj.tag} name={name!r}>"
        if obj.tag not in _TYPES:
            raise DataError(f"{obj.tag} is not supported as a residual or reserve actuator (supported: "
                            f"{', '.join(_TYPES)})", element=element, file=path)
        if not name:
            raise DataError("the actuator has no name", element=f"<{obj.tag}>", file=path)
        props = {**_CLASS_DEFAULTS, **defaults.get(obj.tag, {}), **{c.tag: (c.text or "") for c in obj}}
        enabled = (_flag(props["appliesForce"], "appliesForce", element, path) if "appliesForce" in props
                   else not _flag(props.get("isDisabled", "false"), "isDisabled", element, path))
        if not enabled:
            skipped.append(name)
            continue
        actuators.append(_actuator(obj.tag, name, props, element, path))
    names = [a.name for a in actuators]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise DataError(f"actuators named twice: {', '.join(twice)}", element="<objects>", file=path)
    return ReserveActuators(tuple(actuators), str(path), tuple(skipped))


def _actuator(tag, name, props, element, path):
    opt = _number(props["optimal_force"], "optimal_force", element, path)
    if not (np.isfinite(opt) and opt > 0):
        raise DataError(f"optimal_force must be positive, got {opt}", element=element, file=path)
    lo = _number(props["min_control"], "min_control", element, path)
    hi = _number(props["max_control"], "max_control", element, path)
    if lo > hi:
        raise DataError(f"min_control ({lo}) exceeds max_control ({hi})", element=element, file=path)

    def required(key):
        text = props.get(key, "").strip()
        if not text:
            raise DataError(f"<{key}> is missing or empty", element=element, file=path)
        return text

    common = dict(optimal_force=opt, min_control=lo, max_control=hi)
    if tag == "CoordinateActuator":
        return Actuator(name, "coordinate", coordinate=required("coordinate"), **common)
    if tag == "PointActuator":
        return Actuator(name, "point", body=_body_name(required("body")),
                        point=_vector(props["point"], "point", element, path),
                        direction=_unit(_vector(required("direction"), "direction", element, path), element, path),
                        point_is_global=_flag(props["point_is_global"], "point_is_global", element, path),
                        force_is_global=_flag(props["force_is_global"], "force_is_global", element, path), **common)
    return Actuator(name, "torque", body=_body_name(required("bodyA")), body_b=_body_name(props["bodyB"] or "ground"),
                    direction=_unit(_vector(required("axis"), "axis", element, path), element, path),
                    force_is_global=_flag(props["torque_is_global"], "torque_is_global", element, path), **common)


def _unit(v, element, path):
    n = float(np.linalg.norm(v))
    if n == 0:
        raise DataError("the direction/axis is the zero vector", element=element, file=path)
    return tuple(float(x) / n for x in v)


def check_actuators(reserves: ReserveActuators, model) -> None:
    """Raise :class:`SettingsError` naming an actuator whose coordinate or body is not in ``model``."""
    slots = compile_tree(model).coordinates
    bodies = set(compile_tree(model).body_frame) | {"ground"}
    for a in reserves.actuators:
        what = f"actuator '{a.name}'"
        if a.kind == "coordinate":
            if a.coordinate not in slots:
                raise SettingsError(f"its coordinate {a.coordinate!r} is not in the model", what)
            if slots[a.coordinate].vi < 0:
                raise SettingsError(f"its coordinate {a.coordinate!r} depends on another coordinate (coupled); "
                                    "put the actuator on the independent coordinate", what)
        else:
            for body in (a.body, a.body_b) if a.kind == "torque" else (a.body,):
                if body not in bodies:
                    raise SettingsError(f"its body {body!r} is not in the model", what)


def generalized_forces(reserves: ReserveActuators, model, Q) -> np.ndarray:
    """(T, nv, r): the generalized force of each actuator per unit of its force (N or N m) at each pose.

    Coordinate actuators give a constant unit column; point and torque actuators ``J^T d``
    with the point's linear (or the bodies' angular) Jacobian at each pose of ``Q`` (T, nq). With coordinate
    actuators only, the array is one (nv, r) matrix repeated over the frames (a read-only view: a long trial's
    would otherwise take nv r 8 bytes per frame, 22 MB per 1000 frames on the demo).
    """
    check_actuators(reserves, model)
    Q = np.atleast_2d(np.asarray(Q, float))
    T, r = len(Q), len(reserves.actuators)
    constant = np.zeros((model.nv, r))
    moving = []
    for k, a in enumerate(reserves.actuators):
        if a.kind == "coordinate":
            constant[compile_tree(model).coordinates[a.coordinate].vi, k] = 1.0
        else:
            moving.append(k)
    if not moving:
        return np.broadcast_to(constant, (T, model.nv, r))
    out = np.repeat(constant[None], T, axis=0)
    bodies = sorted({b for k in moving for b in (reserves.actuators[k].body, reserves.actuators[k].body_b)} - {"ground"})
    J, R, p = alg.frame_jacobians_batch(model, Data(model), Q, bodies)    # one per body and pose
    frames = {b: (J[:, i], R[:, i], p[:, i]) for i, b in enumerate(bodies)}
    frames["ground"] = (np.zeros((T, 6, model.nv)), None, None)
    for k in moving:
        out[:, :, k] = _column(reserves.actuators[k], frames)
    return out


def _column(a, frames):
    """(T, nv): the actuator's generalized force per unit force at each pose; ``frames`` maps bodies to their
    Jacobians (T, 6, nv) and placements R (T, 3, 3), p (T, 3) (None for ground)."""
    d = np.asarray(a.direction, float)
    J, R, p = frames[a.body]
    if a.kind == "torque":
        axis = np.broadcast_to(d, (len(J), 3)) if a.force_is_global or R is None else R @ d
        return np.einsum("tav,ta->tv", J[:, :3] - frames[a.body_b][0][:, :3], axis)
    if R is None:                                   # a point actuator on ground moves nothing
        return np.zeros((len(J), J.shape[2]))
    point = np.asarray(a.point, float)
    r = (point - p) if a.point_is_global else R @ point
    force = np.broadcast_to(d, r.shape) if a.force_is_global else R @ d
    # J_point^T force with J_point = J_v - [r]x J_omega: J_v^T force + J_omega^T (r x force)
    return np.einsum("tav,ta->tv", J[:, 3:], force) + np.einsum("tav,ta->tv", J[:, :3], np.cross(r, force))


def read_actuator_files(paths) -> ReserveActuators:
    """The actuators of several ForceSet files together (OpenSim's ``force_set_files``), in the files' order;
    DataError naming the files when two hold an actuator of the same name."""
    sets = [read_actuators(p) for p in paths]
    actuators = [a for s in sets for a in s.actuators]
    names = [a.name for a in actuators]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise DataError(f"actuators named in more than one file: {', '.join(twice)}", element="<ForceSet>",
                        file=", ".join(str(p) for p in paths))
    return ReserveActuators(tuple(actuators), "; ".join(s.source for s in sets),
                            tuple(n for s in sets for n in s.skipped))
