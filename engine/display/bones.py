"""Bone-like closed surfaces for bodies without mesh files, built from the generated shapes
(:mod:`engine.display.shapes`) in each body's frame (m): a long bone (a shaft widening to epiphyses at both
joint centres) for each capsule, and for an ellipsoid, by the body's name, a pelvic ring (``pelvis``), a rib
cage with its spine (``torso``, ``thorax``, ``trunk``, ``chest``), a skull (``head``, ``skull``) or the
ellipsoid itself. "Up" is the body's direction against gravity in the model's neutral pose.

Every part is a closed, consistently oriented triangle surface (normals outwards): surfaces of revolution closed
by a vertex at each pole, and tori.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .shapes import Capsule, Ellipsoid, body_shapes, neutral_placements

SIDES = 12
"""Points around each ring of a surface (as the capsules before them: a software renderer pays per vertex)."""
ROLES = {"pelvis": ("pelvis",), "ribs": ("torso", "thorax", "trunk", "chest"), "skull": ("head", "skull")}
"""Body name words -> the bone drawn for an ellipsoid body."""
RIBS = 6                  # rib rings of a rib cage
RIB_RADIUS = 0.3          # rib thickness, fraction of the cage's smallest semi-axis ... capped by:
MAX_RIB_RADIUS = 0.012    # m
RIB_TESSELLATION = (6, 16)  # points around a rib's section, sections along it


@dataclass(frozen=True)
class Surface:
    """Triangles ``triangles`` (m, 3) indexing ``points`` (n, 3), counter-clockwise seen from outside."""

    points: np.ndarray
    triangles: np.ndarray

    def mapped(self, A, p) -> "Surface":
        """The surface through ``x -> A x + p`` (orientation kept when ``A`` mirrors)."""
        A = np.asarray(A, float)
        triangles = self.triangles if np.linalg.det(A) > 0 else self.triangles[:, ::-1]
        return Surface(self.points @ A.T + np.asarray(p, float), triangles)


def merged(parts) -> Surface:
    """One surface holding ``parts`` (each stays closed)."""
    offsets = np.cumsum([0] + [len(s.points) for s in parts])
    return Surface(np.vstack([s.points for s in parts]),
                   np.vstack([s.triangles + o for s, o in zip(parts, offsets)]))


def revolution(z, r, sides: int = SIDES) -> Surface:
    """The surface swept by the profile ``r(z)`` about the z axis; ``r`` is zero at both ends (the poles)."""
    z, r = np.asarray(z, float), np.asarray(r, float)
    phi = 2.0 * np.pi * np.arange(sides) / sides
    rings = [np.column_stack([ri * np.cos(phi), ri * np.sin(phi), np.full(sides, zi)]) for zi, ri in zip(z[1:-1],
                                                                                                         r[1:-1])]
    points = np.vstack([[0.0, 0.0, z[0]], *rings, [0.0, 0.0, z[-1]]])
    n_rings, top = len(rings), len(points) - 1
    j = np.arange(sides)
    k = (j + 1) % sides
    triangles = [np.column_stack([np.zeros(sides, int), 1 + k, 1 + j])]
    for i in range(n_rings - 1):
        a, b = 1 + i * sides, 1 + (i + 1) * sides
        triangles += [np.column_stack([a + j, a + k, b + k]), np.column_stack([a + j, b + k, b + j])]
    last = 1 + (n_rings - 1) * sides
    triangles.append(np.column_stack([last + j, last + k, np.full(sides, top)]))
    return Surface(points, np.vstack(triangles))


def torus(major, minor: float, sides: int = SIDES, segments: int = 2 * SIDES) -> Surface:
    """A ring about the z axis through the origin: its centre line the ellipse of semi-axes ``major`` (2,) in the
    xy plane, its section a circle of radius ``minor``."""
    u = 2.0 * np.pi * np.arange(segments) / segments
    v = 2.0 * np.pi * np.arange(sides) / sides
    centre = np.column_stack([major[0] * np.cos(u), major[1] * np.sin(u), np.zeros(segments)])
    tangent = np.column_stack([-major[0] * np.sin(u), major[1] * np.cos(u), np.zeros(segments)])
    out = np.cross(tangent, [0.0, 0.0, 1.0])
    out /= np.linalg.norm(out, axis=1)[:, None]
    points = (centre[:, None, :] + minor * (np.cos(v)[None, :, None] * out[:, None, :]
                                            + np.sin(v)[None, :, None] * np.array([0.0, 0.0, 1.0])))
    i, j = np.meshgrid(np.arange(segments), np.arange(sides), indexing="ij")
    a, b = i * sides + j, ((i + 1) % segments) * sides + j
    c, d = ((i + 1) % segments) * sides + (j + 1) % sides, i * sides + (j + 1) % sides
    triangles = np.vstack([np.column_stack([a.ravel(), c.ravel(), d.ravel()]),
                           np.column_stack([a.ravel(), b.ravel(), c.ravel()])])
    return Surface(points.reshape(-1, 3), triangles)


def _frame(axis) -> np.ndarray:
    """A rotation whose third column is the unit vector ``axis``."""
    z = np.asarray(axis, float) / np.linalg.norm(axis)
    x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(z, x), z])


def long_bone(shape: Capsule, end_rings: int = 4, shaft_rings: int = 4) -> Surface:
    """A shaft of ``0.55 radius`` widening to epiphyses of the full radius near both ends, its rounded ends
    (half ellipsoids ``cap`` deep) on the joint centres ``start`` and ``end``."""
    axis = shape.end - shape.start
    length = float(np.linalg.norm(axis))
    cap, R = min(shape.radius, 0.25 * length), shape.radius
    half = np.concatenate([cap * (1.0 - np.cos(np.linspace(0.0, 0.5 * np.pi, end_rings + 1))),
                           np.linspace(cap, 0.5 * length, shaft_rings + 1)[1:]])
    z = np.concatenate([half, length - half[::-1][1:]])
    s = np.minimum(z, length - z)           # distance to the nearer end
    rounded = R * np.sqrt(np.clip(1.0 - ((cap - s) / cap) ** 2, 0.0, None))
    r = np.where(s < cap, rounded, R * (0.55 + 0.45 * np.exp(-((s - cap) / (1.5 * cap)) ** 2)))
    return revolution(z, r).mapped(_frame(axis), shape.start)


def _ellipsoid_surface(shape: Ellipsoid, squash_below: float = 0.0, rings: int = 10) -> Surface:
    """The ellipsoid (a unit sphere of revolution about its third axis, scaled), its lower half narrowed by
    ``squash_below`` (a skull's jaw)."""
    theta = np.linspace(np.pi, 0.0, rings + 2)
    z, r = np.cos(theta), np.sin(theta)
    r = r * (1.0 - squash_below * np.clip(-z, 0.0, None))
    r[[0, -1]] = 0.0
    return revolution(z, r).mapped(shape.axes @ np.diag(shape.radii), shape.centre)


def _up_first(shape: Ellipsoid, up) -> Ellipsoid:
    """The same ellipsoid with its principal axes reordered (right-handed) so that the third is the one nearest
    to ``up``, pointing up."""
    k = int(np.argmax(np.abs(shape.axes.T @ up)))
    order = [i for i in range(3) if i != k] + [k]
    axes = shape.axes[:, order] * np.array([1.0, 1.0, np.sign(shape.axes[:, k] @ up) or 1.0])
    if np.linalg.det(axes) < 0:
        axes[:, 0] *= -1.0
    return Ellipsoid(shape.body, shape.centre, axes, shape.radii[order])


def pelvis(shape: Ellipsoid) -> Surface:
    """A ring about the up axis (the pelvic girdle), as wide as the ellipsoid, as thick as a third of its
    height."""
    a, b, c = shape.radii
    minor = 0.35 * c
    return torus((a - minor, b - minor), minor).mapped(shape.axes, shape.centre)


def rib_cage(shape: Ellipsoid) -> Surface:
    """``RIBS`` rings stacked along the up axis inside the ellipsoid, and a spine along that axis."""
    a, b, c = shape.radii
    minor = min(RIB_RADIUS * min(a, b), MAX_RIB_RADIUS)
    parts = []
    for h in np.linspace(-0.55, 0.65, RIBS):
        scale = np.sqrt(1.0 - h * h)
        ring = torus((max(a * scale - minor, minor), max(b * scale - minor, minor)), minor, *RIB_TESSELLATION)
        parts.append(ring.mapped(shape.axes, shape.centre + h * c * shape.axes[:, 2]))
    spine = Capsule(shape.body, shape.centre - 0.95 * c * shape.axes[:, 2], shape.centre + 0.95 * c * shape.axes[:, 2],
                    minor * 1.6)
    return merged(parts + [long_bone(spine)])


def bone_surfaces(model) -> dict[str, Surface]:
    """``{body: Surface}`` in each body's frame for every body with a generated shape (see the module notes)."""
    placements = neutral_placements(model)
    g = np.asarray(model.gravity, float)
    world_up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0.0, 1.0, 0.0])
    out = {}
    for body, shapes in body_shapes(model, placements).items():
        up = placements[body].R.T @ world_up
        role = next((r for r, words in ROLES.items() if any(w in body.lower() for w in words)), None)
        parts = []
        for shape in shapes:
            if isinstance(shape, Capsule):
                parts.append(long_bone(shape))
            elif role == "pelvis":
                parts.append(pelvis(_up_first(shape, up)))
            elif role == "ribs":
                parts.append(rib_cage(_up_first(shape, up)))
            else:
                parts.append(_ellipsoid_surface(_up_first(shape, up), 0.3 if role == "skull" else 0.0))
        if parts:
            out[body] = merged(parts)
    return out
