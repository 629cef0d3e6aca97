"""The flesh around each body: solid capsules and ellipsoids with the body's volume, in the body's frame.

A body that carries exactly one joint (femur, tibia, humerus, forearm, calcaneus) is a capsule between
its joint centres (as ``engine.display.shapes`` draws its bone), of the radius that gives it the
volume ``mass / density``; every other body (pelvis, torso, head, hands, toes, a residual limb) is its
inertia-equivalent ellipsoid scaled to that volume. Massless bodies have no flesh.
"""
from __future__ import annotations

import numpy as np

from engine.algorithms import body_placements, forward_kinematics, neutral
from engine.data import Data
from engine.display.shapes import MIN_BONE, Capsule, Ellipsoid, inertia_ellipsoid, joint_centres

DENSITY = 1050.0     # kg/m^3, whole-body density of soft tissue and bone (Dempster 1955)


def capsule_radius(length: float, volume: float) -> float:
    """Radius (m) of the capsule of cylinder ``length`` (m) and ``volume`` (m^3):
    the root of ``pi r^2 L + 4/3 pi r^3 = V``."""
    roots = np.roots([4.0 / 3.0 * np.pi, np.pi * length, 0.0, -volume])
    return float(max(r.real for r in roots if abs(r.imag) < 1e-12 and r.real > 0))


def body_volumes(model, q=None, bodies=None, density: float = DENSITY) -> dict[str, object]:
    """``{body: Capsule | Ellipsoid}`` in each body's frame (m), with the joint centres at pose ``q``
    (default: the neutral pose); ``bodies`` restricts to those names (default: every body with mass)."""
    data = Data(model)
    forward_kinematics(model, data, neutral(model) if q is None else q)
    placements = body_placements(model, data)
    out = {}
    for body in model.bodies:
        if (bodies is not None and body.name not in bodies) or body.massless or body.mass <= 0:
            continue
        volume = body.mass / density
        proximal, distal = joint_centres(model, body.name, placements)
        bones = [d for d in distal if np.linalg.norm(d - proximal) > MIN_BONE]
        if len(bones) == 1:
            length = float(np.linalg.norm(bones[0] - proximal))
            out[body.name] = Capsule(body.name, proximal, bones[0], capsule_radius(length, volume))
        else:
            e = inertia_ellipsoid(body)
            radii = np.maximum(e.radii, 1e-3)
            scale = (volume / (4.0 / 3.0 * np.pi * np.prod(radii))) ** (1.0 / 3.0)
            out[body.name] = Ellipsoid(body.name, e.centre, e.axes, radii * scale)
    return out


def signed_distance(shape, x) -> np.ndarray:
    """Signed distance (m, negative inside) from points ``x`` (k, 3), in the shape's body frame, to the
    surface of a Capsule (exact) or an Ellipsoid (first-order: exact on the surface and along the axes)."""
    x = np.asarray(x, float)
    if isinstance(shape, Capsule):
        a, b = np.asarray(shape.start, float), np.asarray(shape.end, float)
        ab = b - a
        s = np.clip((x - a) @ ab / (ab @ ab), 0.0, 1.0)
        return np.linalg.norm(x - a - s[:, None] * ab, axis=1) - shape.radius
    local = (x - shape.centre) @ shape.axes
    k0 = np.linalg.norm(local / shape.radii, axis=1)
    k1 = np.linalg.norm(local / shape.radii ** 2, axis=1)
    return np.where(k1 > 0, k0 * (k0 - 1.0) / np.maximum(k1, 1e-300), -shape.radii.min())
