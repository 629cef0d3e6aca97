"""The flesh around each body: solid capsules and ellipsoids with the body's volume, in the body's frame.

A body that carries exactly one joint (femur, tibia, humerus, forearm, calcaneus) is a capsule between
its joint centres (as ``engine.display.shapes`` draws its bone), of the radius that gives it the
volume ``mass / density``; a transtibial residual limb (the model's metadata names it and its length,
``engine.protocols.description.residual_limb``) is a tapered capsule (``TaperedCapsule``) from the knee
centre to the amputation level, rounded at its end, that leaves the thigh smoothly; every other body (pelvis, torso, head, hands, toes) is its
inertia-equivalent ellipsoid scaled to that volume. Massless bodies have no flesh.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from engine.algorithms import body_placements, forward_kinematics, neutral
from engine.data import Data
from engine.display.shapes import MIN_BONE, Capsule, Ellipsoid, inertia_ellipsoid, joint_centres
from engine.errors import ModelError
from engine.model.joints import Joint
from engine.protocols.description import residual_limb

DENSITY = 1050.0     # kg/m^3, whole-body density of soft tissue and bone (Dempster 1955)


@dataclass(frozen=True)
class TaperedCapsule:
    """A residual limb's flesh: the convex hull of a sphere of ``radius`` m at ``start`` and a smaller one of
    ``end_radius`` m at ``end`` (body frame, m): a cone tangent to both, rounded at both ends."""

    body: str
    start: np.ndarray
    end: np.ndarray
    radius: float
    end_radius: float

    def _profile(self):
        """Axis length ``h`` (m) and the cone's half-angle ``sin a, cos a``."""
        h = float(np.linalg.norm(np.asarray(self.end, float) - self.start))
        s = (self.radius - self.end_radius) / h
        return h, s, np.sqrt(1.0 - s * s)

    @property
    def volume(self) -> float:
        """m^3: the proximal sphere's cap, the frustum between the tangent circles and the distal cap."""
        h, s, c = self._profile()
        r1, r2 = self.radius, self.end_radius
        cap1, cap2 = r1 * (1.0 + s), r2 * (1.0 - s)
        frustum = (h + (r2 - r1) * s) * np.pi / 3.0 * c * c * (r1 * r1 + r1 * r2 + r2 * r2)
        return float(np.pi / 3.0 * (cap1 ** 2 * (3 * r1 - cap1) + cap2 ** 2 * (3 * r2 - cap2)) + frustum)


def capsule_radius(length: float, volume: float) -> float:
    """Radius (m) of the capsule of cylinder ``length`` (m) and ``volume`` (m^3):
    the root of ``pi r^2 L + 4/3 pi r^3 = V``."""
    roots = np.roots([4.0 / 3.0 * np.pi, np.pi * length, 0.0, -volume])
    return float(max(r.real for r in roots if abs(r.imag) < 1e-12 and r.real > 0))


def body_volumes(model, q=None, bodies=None, density: float = DENSITY) -> dict[str, object]:
    """``{body: Capsule | TaperedCapsule | Ellipsoid}`` in each body's frame (m), with the joint centres at
    pose ``q`` (default: the neutral pose); ``bodies`` restricts to those names (default: every body with
    mass)."""
    data = Data(model)
    forward_kinematics(model, data, neutral(model) if q is None else q)
    placements = body_placements(model, data)
    stumps = residual_limb(model)
    out = {}
    for body in model.bodies:
        if (bodies is not None and body.name not in bodies) or body.massless or body.mass <= 0:
            continue
        if body.name in stumps:
            out[body.name] = _residual_limb(model, body, stumps[body.name], placements, density)
        else:
            out[body.name] = _flesh(model, body, placements, density)
    return out


def _flesh(model, body, placements, density):
    """A capsule between the body's two joint centres, else its scaled inertia ellipsoid (``body_volumes``)."""
    volume = body.mass / density
    proximal, distal = joint_centres(model, body.name, placements)
    bones = [d for d in distal if np.linalg.norm(d - proximal) > MIN_BONE]
    if len(bones) == 1:
        length = float(np.linalg.norm(bones[0] - proximal))
        return Capsule(body.name, proximal, bones[0], capsule_radius(length, volume))
    e = inertia_ellipsoid(body)
    radii = np.maximum(e.radii, 1e-3)
    scale = (volume / (4.0 / 3.0 * np.pi * np.prod(radii))) ** (1.0 / 3.0)
    return Ellipsoid(body.name, e.centre, e.axes, radii * scale)


def _residual_limb(model, body, length, placements, density) -> TaperedCapsule:
    """The stump of ``length`` m (knee centre to its distal end) as a tapered capsule from the knee centre along
    the body's centre of mass. Its proximal sphere is the thigh's distal one (the thigh's capsule ends at the knee
    centre with the same radius), so the cone leaves the thigh tangentially, without a crease; its distal radius
    is the one whose flesh beyond the thigh's has the body's volume ``mass / density``."""
    where = f"residual limb '{body.name}'"
    proximal, _ = joint_centres(model, body.name, placements)
    axis = np.asarray(body.com, float) - proximal
    if np.linalg.norm(axis) < MIN_BONE or not length > 0:
        raise ModelError(f"needs a centre of mass away from the knee centre and a positive residual length (got "
                         f"{length} m) to shape its flesh", where)
    axis /= np.linalg.norm(axis)
    thigh = next(model.resolve(el.parent)[0] for el in model.ordered_elements
                 if isinstance(el, Joint) and el.child == body.name)
    shape = _flesh(model, model.body(thigh), placements, density)
    if not isinstance(shape, Capsule):
        raise ModelError(f"tapers from the thigh '{thigh}', whose flesh is not a capsule", where)
    r1, volume = shape.radius, body.mass / density

    def flesh(r2):
        return TaperedCapsule(body.name, proximal, proximal + (length - r2) * axis, r1, r2)

    def beyond_thigh(r2):
        return flesh(r2).volume - 4.0 / 3.0 * np.pi * r1 ** 3 - volume

    if not (length > r1 and beyond_thigh(1e-6 * r1) < 0.0 <= beyond_thigh(r1)):
        raise ModelError(f"of {volume * 1e6:.0f} cm^3 ({body.mass:.3f} kg) and {length:.3f} m below the knee "
                         f"cannot taper from the radius {r1 * 1e3:.1f} mm of the thigh '{thigh}'", where)
    return flesh(brentq(beyond_thigh, 1e-6 * r1, r1, xtol=1e-12))


def signed_distance(shape, x) -> np.ndarray:
    """Signed distance (m, negative inside) from points ``x`` (k, 3), in the shape's body frame, to the
    surface of a Capsule or a TaperedCapsule (exact) or an Ellipsoid (first-order: exact on the surface and
    along the axes)."""
    x = np.asarray(x, float)
    if isinstance(shape, Capsule):
        a, b = np.asarray(shape.start, float), np.asarray(shape.end, float)
        ab = b - a
        s = np.clip((x - a) @ ab / (ab @ ab), 0.0, 1.0)
        return np.linalg.norm(x - a - s[:, None] * ab, axis=1) - shape.radius
    if isinstance(shape, TaperedCapsule):
        # in the plane through the axis: t along it from the proximal centre, rho from it; the cone's side has
        # outward normal (sin a, cos a), and its tangent points lie at 0 and h cos a along (cos a, -sin a)
        h, sin_a, cos_a = shape._profile()
        axis = (np.asarray(shape.end, float) - shape.start) / h
        rel = x - shape.start
        t = rel @ axis
        rho = np.linalg.norm(rel - t[:, None] * axis, axis=1)
        along = t * cos_a - rho * sin_a
        return np.where(along < 0.0, np.hypot(t, rho) - shape.radius,
                        np.where(along > h * cos_a, np.hypot(t - h, rho) - shape.end_radius,
                                 t * sin_a + rho * cos_a - shape.radius))
    local = (x - shape.centre) @ shape.axes
    k0 = np.linalg.norm(local / shape.radii, axis=1)
    k1 = np.linalg.norm(local / shape.radii ** 2, axis=1)
    return np.where(k1 > 0, k0 * (k0 - 1.0) / np.maximum(k1, 1e-300), -shape.radii.min())
