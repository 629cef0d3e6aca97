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

from . import _kernels_surface as _ks

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


def packed(volumes) -> tuple[np.ndarray, np.ndarray]:
    """The shapes ``volumes`` (an iterable of Capsule, TaperedCapsule, Ellipsoid) as the distance kernels take them
    (``skin._kernels_surface``): kinds (m,) and parameters (m, 15), body frames, m."""
    volumes = list(volumes)
    kind = np.empty(len(volumes), np.int64)
    params = np.zeros((len(volumes), _ks.PARAMS))
    for j, shape in enumerate(volumes):
        if isinstance(shape, Capsule):
            kind[j] = _ks.CAPSULE
            params[j, :7] = [*shape.start, *shape.end, shape.radius]
        elif isinstance(shape, TaperedCapsule):
            h, sin_a, cos_a = shape._profile()
            kind[j] = _ks.TAPERED
            axis = (np.asarray(shape.end, float) - shape.start) / h
            params[j, :11] = [*shape.start, *axis, h, sin_a, cos_a, shape.radius, shape.end_radius]
        elif isinstance(shape, Ellipsoid):
            kind[j] = _ks.ELLIPSOID
            params[j] = [*shape.centre, *np.asarray(shape.axes, float).ravel(), *shape.radii]
        else:
            raise ModelError(f"no signed distance for a {type(shape).__name__}", f"flesh of '{shape.body}'")
    return kind, params


def signed_distance(shape, x) -> np.ndarray:
    """Signed distance (m, negative inside) from points ``x`` (k, 3), in the shape's body frame, to the
    surface of a Capsule or a TaperedCapsule (exact) or an Ellipsoid (first-order: exact on the surface and
    along the axes)."""
    x = np.ascontiguousarray(x, float).reshape(-1, 3)
    kind, params = packed([shape])
    out = np.empty((len(x), 1))
    _ks.distances(kind, params, np.eye(3)[None], np.zeros((1, 3)), x, out)
    return out[:, 0]
