"""Rigid placements (SE(3)) and rotation helpers for model descriptions.

This is the Python-side geometry used to *describe* models and to report
results; the numeric kernels have their own numba versions in
``engine.kernels``. Conventions:

- ``aMb`` is the placement of frame b in frame a: ``p_a = aMb.R @ p_b + aMb.p``.
- Spatial vectors (twists and wrenches) are ordered ``[angular; linear]`` as in
  the seed (its operator ``[c x]`` of equation 2) and Featherstone's book.
  Pinocchio orders them ``[linear; angular]``; tests convert explicitly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def skew(a) -> np.ndarray:
    """The matrix ``[a x]`` of the seed's equation 1 (a 3-vector's cross-product matrix)."""
    a = np.asarray(a, dtype=float)
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def tangent_basis(normal) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors ``(t1, t2)`` with ``(t1, t2, normal)`` right-handed and orthonormal, for a unit ``normal`` (3,)
    (a floor's or a force plate's surface directions)."""
    normal = np.asarray(normal, float)
    t1 = np.cross(normal, [1.0, 0.0, 0.0] if abs(normal[0]) < 0.9 else [0.0, 0.0, 1.0])
    t1 /= np.linalg.norm(t1)
    return t1, np.cross(normal, t1)


def axis_angle(axis, angle: float) -> np.ndarray:
    """Rotation matrix of ``angle`` radians about the unit 3-vector ``axis`` (Rodrigues)."""
    u = np.asarray(axis, dtype=float)
    u = u / np.linalg.norm(u)
    K = skew(u)
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def body_fixed_xyz(angles) -> np.ndarray:
    """Rotation of a body-fixed X-Y-Z sequence (OpenSim's ``orientation`` convention), radians."""
    a = np.asarray(angles, dtype=float)
    return axis_angle([1, 0, 0], a[0]) @ axis_angle([0, 1, 0], a[1]) @ axis_angle([0, 0, 1], a[2])


def to_body_fixed_xyz(R) -> np.ndarray:
    """Inverse of :func:`body_fixed_xyz` (angles in radians; the middle angle in [-pi/2, pi/2])."""
    R = np.asarray(R, dtype=float)
    b = np.arcsin(np.clip(R[0, 2], -1.0, 1.0))
    if abs(R[0, 2]) < 1.0 - 1e-12:
        a = np.arctan2(-R[1, 2], R[2, 2])
        c = np.arctan2(-R[0, 1], R[0, 0])
    else:  # gimbal lock: put all of the first+third rotation in the first angle
        a = np.arctan2(R[2, 1], R[1, 1])
        c = 0.0
    return np.array([a, b, c])


def quat_to_matrix(quat) -> np.ndarray:
    """Rotation matrix of a unit quaternion stored ``(x, y, z, w)`` as Pinocchio does."""
    x, y, z, w = np.asarray(quat, dtype=float) / np.linalg.norm(quat)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def matrix_to_quat(R) -> np.ndarray:
    """Unit quaternion ``(x, y, z, w)`` with ``w >= 0`` of a rotation matrix (Shepperd's method)."""
    R = np.asarray(R, dtype=float)
    tr = np.trace(R)
    if tr > 0:
        s = 2.0 * np.sqrt(1.0 + tr)
        q = np.array([(R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s, 0.25 * s])
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(1.0 + R[i, i] - R[j, j] - R[k, k])
        q = np.empty(4)
        q[i] = 0.25 * s
        q[j] = (R[j, i] + R[i, j]) / s
        q[k] = (R[k, i] + R[i, k]) / s
        q[3] = (R[k, j] - R[j, k]) / s
    q /= np.linalg.norm(q)
    return -q if q[3] < 0 else q


@dataclass(frozen=True)
class SE3:
    """A rigid placement: rotation ``R`` (3x3) and translation ``p`` (3,), metres."""

    R: np.ndarray = field(default_factory=lambda: np.eye(3))
    p: np.ndarray = field(default_factory=lambda: np.zeros(3))

    def __post_init__(self):
        R, p = np.array(self.R, dtype=float), np.array(self.p, dtype=float)
        object.__setattr__(self, "R", R if R.shape == (3, 3) else R.reshape(3, 3))
        object.__setattr__(self, "p", p if p.shape == (3,) else p.reshape(3))
        self.R.setflags(write=False)
        self.p.setflags(write=False)

    @classmethod
    def _of(cls, R: np.ndarray, p: np.ndarray) -> "SE3":
        """The placement of ``R`` (3, 3) and ``p`` (3,), float arrays just computed and owned by no one else, taken
        without the copy ``SE3(R, p)`` makes (placements are composed thousands of times when a model is built)."""
        placement = object.__new__(cls)
        R.setflags(write=False)
        p.setflags(write=False)
        object.__setattr__(placement, "R", R)
        object.__setattr__(placement, "p", p)
        return placement

    @staticmethod
    def identity() -> "SE3":
        return SE3()

    @staticmethod
    def from_translation_xyz(translation, orientation_xyz=(0.0, 0.0, 0.0)) -> "SE3":
        """Placement from a translation and a body-fixed X-Y-Z orientation (OpenSim offset frames)."""
        return SE3(body_fixed_xyz(orientation_xyz), translation)

    def inverse(self) -> "SE3":
        return SE3._of(np.array(self.R.T), -self.R.T @ self.p)

    def __matmul__(self, other: "SE3") -> "SE3":
        return SE3._of(self.R @ other.R, self.R @ other.p + self.p)

    def act(self, points) -> np.ndarray:
        """Transform points (..., 3) given in the placed frame into the reference frame."""
        return np.asarray(points, dtype=float) @ self.R.T + self.p

    def homogeneous(self) -> np.ndarray:
        H = np.eye(4)
        H[:3, :3] = self.R
        H[:3, 3] = self.p
        return H

    def is_identity(self, tol: float = 0.0) -> bool:
        return bool(np.abs(self.R - np.eye(3)).max() <= tol and np.abs(self.p).max() <= tol)

    def __eq__(self, other) -> bool:
        return isinstance(other, SE3) and np.array_equal(self.R, other.R) and np.array_equal(self.p, other.p)

    def __hash__(self):
        return hash((self.R.tobytes(), self.p.tobytes()))
