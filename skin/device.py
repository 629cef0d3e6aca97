"""Rigid devices: triangle meshes moved by a prescribed motion (the seed's robotic lift, section IV: one
translation and one rotation applied directly to the link, no actuator model)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.errors import ModelError
from engine.spatial import SE3

from .mesh import TriangleMesh


def ramp(t: float, start: float, end: float) -> tuple[float, float]:
    """A smooth ramp ``s(t)`` from 0 (before ``start``) to 1 (after ``end``), ``(1 - cos)/2``, and its rate (1/s)."""
    if t <= start or end <= start:
        return (0.0, 0.0) if t <= start else (1.0, 0.0)
    if t >= end:
        return 1.0, 0.0
    u = np.pi * (t - start) / (end - start)
    return 0.5 * (1.0 - np.cos(u)), 0.5 * np.pi * np.sin(u) / (end - start)


@dataclass(frozen=True)
class LiftMotion:
    """One translation and one rotation (seed Fig. 2): the device turns by ``angle`` (rad) about ``axis``
    through ``pivot`` and rises by ``height`` (m) along ``direction``, both as a smooth ramp over
    ``[start, end]`` (s); world frame."""

    height: float = 0.0
    direction: tuple = (0.0, 1.0, 0.0)
    angle: float = 0.0
    axis: tuple = (0.0, 0.0, 1.0)
    pivot: tuple = (0.0, 0.0, 0.0)
    start: float = 0.0
    end: float = 1.0

    def placement(self, t: float):
        """``(R, p, w, pdot)`` at time ``t``: a device point at ``x`` before the motion is at ``y = R x + p`` and
        moves at ``w x y + pdot`` (rad/s; ``pdot`` m/s is the velocity of the device point passing the origin)."""
        s, sdot = ramp(t, self.start, self.end)
        axis = np.asarray(self.axis, float) / np.linalg.norm(self.axis)
        direction = np.asarray(self.direction, float) / np.linalg.norm(self.direction)
        c = np.asarray(self.pivot, float)
        th = self.angle * s
        K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        R = np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * K @ K
        p = c - R @ c + self.height * s * direction
        w = self.angle * sdot * axis
        pdot = np.cross(w, -(c + self.height * s * direction)) + self.height * sdot * direction
        return R, p, w, pdot


@dataclass(frozen=True)
class RigidDevice:
    """A rigid device: its surface (``mesh``, in the device's frame, m) and its ``motion`` (an object with
    ``placement(t) -> (R, p, w, pdot)``; None: fixed where the mesh is). ``placement0`` puts the mesh in the
    world before the motion acts."""

    name: str
    mesh: TriangleMesh
    motion: object = None
    placement0: SE3 = field(default_factory=SE3.identity)

    def __post_init__(self):
        if self.mesh.n_vertices == 0:
            raise ModelError("has no vertices", f"device '{self.name}'")

    def vertices(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """World positions (N, 3) m and velocities (N, 3) m/s of the device's vertices at time ``t``."""
        x0 = self.mesh.vertices @ self.placement0.R.T + self.placement0.p
        if self.motion is None:
            return x0, np.zeros_like(x0)
        R, p, w, pdot = self.motion.placement(t)
        x = x0 @ R.T + p
        return x, np.cross(w, x) + pdot
