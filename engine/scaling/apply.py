"""Scale a model's bodies by per-body factors (x, y, z) as OpenSim's ``Model::scale`` does; a new model.

Every length fixed in a body is multiplied, axis by axis, by that body's factors: its centre of mass, mesh
sizes and placements, the translations of frames, joints (parent side by the parent's body, child side by
the child's) and rods mounted on it, the offsets of markers and contact points, muscle path points (moving
points' functions wrapped in multipliers), wrap objects' placements and sizes. A general joint's
translation functions are multiplied by ``|axis| . factors`` of its parent body, except the identity
functions of translational coordinates (OpenSim's ``SpatialTransform::scale``).

Masses and inertias (OpenSim's ``Body::scaleInertialProperties`` and ``Model::scale``): with
``preserve_mass_distribution`` masses keep their generic values, otherwise they are multiplied by
``|fx fy fz|``; inertias follow the mass and the squared length (``I * m'/m * f^2`` for equal factors;
unequal factors treat the body as a cylinder along its smallest principal moment). Given the subject's
``mass``, every scaled body's mass and inertia are then multiplied by one factor so that the model's total
equals it. Muscles' optimal fibre and tendon slack lengths are multiplied by the ratio of their path
lengths after and before, in the default pose (OpenSim's ``Muscle::postScale``).

Rods (the blade) are products, not anatomy: their geometry and material are never scaled, and the
bodies they are mounted on (the socket) keep their mass; only where they sit on a scaled body moves.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..algorithms import neutral
from ..errors import ModelError
from ..model import GROUND
from ..model.functions import Linear, Multiplier
from ..model.joints import GeneralJoint
from ..model.muscles import MovingPathPoint, WrapCylinder, WrapEllipsoid, WrapSphere, WrapTorus
from ..spatial import SE3


@dataclass(frozen=True)
class ScaledModel:
    """The scaled model, the factors applied, the final mass factor, the muscles' length ratios, notes."""

    model: object
    factors: dict
    mass_factor: float
    muscle_ratios: dict
    notes: tuple


def prosthesis_bodies(model) -> set:
    """Bodies a rod is mounted on (a blade's socket): prosthesis parts whose mass does not scale."""
    return {model.resolve(r.parent)[0] for r in model.rods} - {GROUND}


def scale_inertia(inertia, mass: float, new_mass: float, f) -> np.ndarray:
    """OpenSim's ``Body::scaleInertialProperties`` for a body whose mass goes from ``mass`` to ``new_mass``.

    Equal factors: ``I * (new_mass / mass) * f^2``. Unequal ones: the body is taken as a cylinder along
    the axis of its smallest moment, of radius and length fitted to the moments, scaled and recomputed
    (products scaled by the two factors they involve).
    """
    inertia = np.asarray(inertia, dtype=float)
    f = np.asarray(f, dtype=float)
    if mass <= 0:
        return np.zeros((3, 3))
    ratio = new_mass / mass
    if np.allclose(np.abs(f), abs(f[0]), rtol=0, atol=0):
        return inertia * ratio * f[0] ** 2
    d = np.diag(inertia)
    axis = _cylinder_axis(d)
    radius = np.sqrt(max(2.0 * d[axis] / mass, 0.0))
    other = 1 if axis == 0 else 0
    length = np.sqrt(max(12.0 * (d[other] - 0.25 * mass * radius ** 2) / mass, 0.0)) * f[axis]
    across = [i for i in range(3) if i != axis]
    rad_sqr = radius ** 2 * f[across[0]] * f[across[1]]
    out = inertia * np.outer(f, f) * ratio
    for i in range(3):
        out[i, i] = new_mass * (0.5 * rad_sqr if i == axis else length ** 2 / 12.0 + 0.25 * rad_sqr)
    return out


def _cylinder_axis(d) -> int:
    """The axis of the smallest moment, ties broken as OpenSim does."""
    if d[0] <= d[1]:
        return 0 if d[0] <= d[2] else 2
    return 1 if d[1] <= d[2] else 2


def scale_model(model, factors: dict, mass: float | None = None, preserve_mass_distribution: bool = True,
                name: str | None = None) -> ScaledModel:
    """``model`` scaled by ``factors`` (``{body: (fx, fy, fz)}``, bodies not named keep 1).

    ``mass`` (kg) is the subject's total, rods and prosthesis bodies included. Raises ModelError for a
    factor given to something that is not a body, or factors that are not three positive numbers.
    """
    bodies = {b.name for b in model.bodies}
    table = {}
    for body, f in factors.items():
        f = np.asarray(f, dtype=float)
        if body not in bodies:
            raise ModelError(f"scale factors are given for {body!r}, which is not a body", f"model '{model.name}'")
        if f.shape != (3,) or not np.all(np.isfinite(f)) or np.any(f <= 0):
            raise ModelError(f"scale factors must be three positive numbers, got {f.tolist()}", f"body '{body}'")
        table[body] = f
    one = np.ones(3)

    def of(ref):
        return table.get(model.resolve(ref)[0], one)

    lengths_before = _muscle_lengths(model)
    fixed = prosthesis_bodies(model)
    new_bodies = []
    for b in model.bodies:
        f = table.get(b.name, one)
        new_mass = b.mass if (preserve_mass_distribution or b.name in fixed) else b.mass * abs(np.prod(f))
        meshes = tuple(replace(m, scale=tuple(np.asarray(m.scale) * f), placement=_moved(m.placement, f))
                       for m in b.meshes)
        new_bodies.append(b if b.massless else replace(b, mass=new_mass, com=b.com * f, meshes=meshes,
                                                        inertia=scale_inertia(b.inertia, b.mass, new_mass, f)))
    frames = tuple(replace(fr, placement=_moved(fr.placement, of(fr.parent))) for fr in model.frames)
    joints = tuple(_scaled_joint(j, of(j.parent), table.get(j.child, one)) for j in model.joints)
    rods = tuple(replace(r, offset=_moved(r.offset, of(r.parent))) for r in model.rods)
    markers = tuple(_scaled_point(p, model, of) for p in model.markers)
    contacts = tuple(_scaled_point(p, model, of) for p in model.contacts)
    wraps = tuple(_scaled_wrap(w, of(w.body)) for w in model.wrap_objects)
    muscles = tuple(replace(m, path=replace(m.path, points=tuple(_scaled_path_point(p, model, of)
                                                                  for p in m.path.points)))
                    for m in model.muscles)
    scaled = model.replace(name=name or model.name, bodies=tuple(new_bodies), frames=frames, joints=joints,
                           rods=rods, markers=markers, contacts=contacts, wrap_objects=wraps, muscles=muscles)
    notes = []
    mass_factor = 1.0
    if mass is not None:
        if not mass > 0:
            raise ModelError(f"the subject's mass must be positive, got {mass} kg", f"model '{model.name}'")
        free = sum(b.mass for b in scaled.bodies if b.name not in fixed)
        mass_factor = (mass - (scaled.total_mass - free)) / free
        if mass_factor <= 0:
            raise ModelError(f"the subject's mass {mass} kg is less than the prosthesis's "
                             f"{scaled.total_mass - free:.3f} kg", f"model '{model.name}'")
        scaled = scaled.replace(bodies=tuple(
            b if (b.massless or b.name in fixed) else replace(b, mass=b.mass * mass_factor,
                                                               inertia=b.inertia * mass_factor)
            for b in scaled.bodies))
        if fixed or model.rods:
            notes.append(f"masses brought to {mass} kg with the prosthesis ({', '.join(sorted(fixed))} and the "
                         "rods) kept at its own mass")
    ratios = {}
    if model.muscles:
        lengths_after = _muscle_lengths(scaled)
        ratios = {m.name: lengths_after[m.name] / lengths_before[m.name] for m in model.muscles}
        scaled = scaled.replace(muscles=tuple(
            replace(m, optimal_fiber_length=m.optimal_fiber_length * ratios[m.name],
                    tendon_slack_length=m.tendon_slack_length * ratios[m.name]) for m in scaled.muscles))
    return ScaledModel(scaled, {b: table.get(b, one).copy() for b in sorted(bodies)}, mass_factor, ratios,
                       tuple(notes))


def _moved(placement: SE3, f) -> SE3:
    return SE3(placement.R, placement.p * f)


def _multiplied(function, scale: float):
    if isinstance(function, Linear) and function.slope == 1.0 and function.intercept == 0.0:
        return function       # a translational coordinate's own axis: a degree of freedom, not a length
    if isinstance(function, Multiplier):
        return Multiplier(function.function, function.scale * scale)
    return Multiplier(function, scale)


def _scaled_joint(joint, f_parent, f_child):
    changes = dict(parent_offset=_moved(joint.parent_offset, f_parent),
                   child_offset=_moved(joint.child_offset, f_child))
    if isinstance(joint, GeneralJoint):
        changes["translations"] = tuple(
            replace(ax, function=_multiplied(ax.function, float(np.abs(ax.axis) @ f_parent)))
            for ax in joint.translations)
    return replace(joint, **changes)


def _on_rod(p, model) -> bool:
    return model.resolve(p.parent)[0] in {r.name for r in model.rods}


def _scaled_point(p, model, of):
    return p if _on_rod(p, model) else replace(p, offset=p.offset * of(p.parent))


def _scaled_path_point(p, model, of):
    if _on_rod(p, model):
        return p
    f = of(p.parent)
    changes = {"location": p.location * f}
    if isinstance(p, MovingPathPoint):
        for k, axis in enumerate("xyz"):
            spec = getattr(p, axis)
            if spec is not None:
                changes[axis] = (spec[0], _multiplied(spec[1], float(f[k])))
    return replace(p, **changes)


def _scaled_wrap(w, f):
    """OpenSim's WrapObject scaling: placement moved; sizes by the factors along the object's own axes."""
    local = np.linalg.norm(w.placement.R * f[:, None], axis=0)   # |f * axis_k| for each of its axes
    changes = {"placement": _moved(w.placement, f)}
    if isinstance(w, WrapCylinder):
        changes.update(radius=w.radius * 0.5 * (local[0] + local[1]), length=w.length * local[2])
    elif isinstance(w, WrapSphere):
        changes["radius"] = w.radius * float(np.mean(local))
    elif isinstance(w, WrapEllipsoid):
        changes["dimensions"] = tuple(np.asarray(w.dimensions) * local)
    elif isinstance(w, WrapTorus):
        ring = 0.5 * (local[0] + local[1])
        changes.update(inner_radius=w.inner_radius * ring, outer_radius=w.outer_radius * ring)
    return replace(w, **changes)


def _muscle_lengths(model) -> dict:
    """Muscle-tendon lengths (m) in the default pose, with OpenSim's wrapping."""
    if not model.muscles:
        return {}
    from ..muscles.path.geometry import MuscleGeometry
    result = MuscleGeometry(model, threads=1, wrapping="opensim").compute(neutral(model)[None])
    return dict(zip(result.muscle_names, result.lengths[0]))
