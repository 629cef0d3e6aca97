"""Generated display shapes of a model's bodies, in each body's own frame (m).

A body that carries exactly one joint or rod (femur, tibia, humerus, foot ...) is drawn as a
bone: a capsule from its proximal joint centre to the distal one, as thick as the body's bulk.
Every other body (pelvis, torso, toes, hands, head) is drawn as its inertia-equivalent ellipsoid: the
uniform solid ellipsoid with the body's mass, centre of mass and inertia, whose semi-axes are
``a_i = sqrt(5 / (2 m) (I_j + I_k - I_i))`` along the principal axes. Massless bodies are
drawn as thin bones to their children, or not at all.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import body_placements, forward_kinematics, neutral
from ..data import Data
from ..model.joints import Joint

MIN_RADIUS = 0.008       # m, thinnest bone drawn
MAX_RADIUS = 0.06        # m, thickest bone drawn
BONE_FRACTION = 0.5      # bone radius as a fraction of the ellipsoid's mean transverse semi-axis
MIN_BONE = 0.01          # m, shorter distances between joint centres draw no bone


@dataclass(frozen=True)
class Capsule:
    """A bone: a cylinder with rounded ends from ``start`` to ``end`` (body frame, m) of ``radius`` m."""

    body: str
    start: np.ndarray
    end: np.ndarray
    radius: float


@dataclass(frozen=True)
class Ellipsoid:
    """A solid ellipsoid at ``centre`` (body frame, m) with semi-axes ``radii`` (3,) m along the columns
    of ``axes`` (3x3 rotation, body frame)."""

    body: str
    centre: np.ndarray
    axes: np.ndarray
    radii: np.ndarray


def inertia_ellipsoid(body) -> Ellipsoid | None:
    """The uniform solid ellipsoid with ``body``'s mass, centre of mass and inertia (None if massless)."""
    if body.massless or body.mass <= 0:
        return None
    moments, axes = np.linalg.eigh(np.asarray(body.inertia, float))
    total = moments.sum()
    squares = 5.0 / (2.0 * body.mass) * np.clip(total - 2.0 * moments, 0.0, None)
    if np.linalg.det(axes) < 0:
        axes[:, 2] *= -1.0
    return Ellipsoid(body.name, np.asarray(body.com, float), axes, np.sqrt(squares))


def joint_centres(model, body: str, placements: dict) -> tuple[np.ndarray, list[np.ndarray]]:
    """The centre of the joint that moves ``body`` and the centres of the joints and rods it carries, in
    ``body``'s frame (m), with the bodies at ``placements`` (``{body: world SE3}``; joints whose centre moves
    with their coordinates, like OpenSim's knee, are taken where that pose puts them)."""
    proximal = np.zeros(3)
    distal = []
    inverse = placements[body].inverse()
    for el in model.ordered_elements:
        if isinstance(el, Joint) and el.child == body:
            proximal = np.asarray(el.child_offset.p, float)
        owner, placement = model.resolve(el.parent)
        if owner != body:
            continue
        if isinstance(el, Joint):
            centre = inverse.act((placements[el.child] @ el.child_offset).p)
        else:
            centre = (placement @ el.offset).p
        distal.append(np.asarray(centre, float))
    return proximal, distal


def neutral_placements(model) -> dict:
    """``{body: world SE3}`` in the model's neutral pose."""
    data = Data(model)
    forward_kinematics(model, data, neutral(model))
    return body_placements(model, data)


def body_shapes(model, placements: dict | None = None) -> dict[str, list]:
    """``{body: [Capsule | Ellipsoid, ...]}`` for every body of ``model`` (see the module notes), with the
    joint centres of the model's neutral pose (``placements``, from :func:`neutral_placements`)."""
    placements = neutral_placements(model) if placements is None else placements
    shapes = {}
    for body in model.bodies:
        ellipsoid = inertia_ellipsoid(body)
        proximal, distal = joint_centres(model, body.name, placements)
        bones = [d for d in distal if np.linalg.norm(d - proximal) > MIN_BONE]
        if ellipsoid is None:
            shapes[body.name] = [Capsule(body.name, proximal, d, MIN_RADIUS) for d in bones]
            continue
        radius = float(np.clip(BONE_FRACTION * np.mean(np.sort(ellipsoid.radii)[:2]), MIN_RADIUS, MAX_RADIUS))
        if len(bones) == 1:
            shapes[body.name] = [Capsule(body.name, proximal, bones[0], radius)]
        else:
            shapes[body.name] = [ellipsoid]
    return shapes
