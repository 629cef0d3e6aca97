"""The skinned surface of a model (seed section III-B): rest vertices, bones and weights, deformed by linear
blend skinning (eq. 3), its Jacobian (eqs. 8-11) and the generalized forces of skin forces (eq. 12)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.algorithms import forward_kinematics, frame_jacobian, neutral
from engine.data import Data
from engine.errors import ModelError

from . import _kernels_skin as _k
from .frames import BoneFrames, body_frames
from .mesh import TriangleMesh
from .surface import skin_surface
from .volumes import body_volumes
from .weights import FALLOFF, volume_weights


@dataclass(frozen=True)
class Skin:
    """A skin bound to a model's bodies (an immutable description).

    ``mesh``: the rest surface (world frame at the rest pose ``q_rest``, m); ``bodies``: the bones (body
    names, m of them); ``bone``/``weight`` (n, K): each vertex's bones and weights alpha_ij (rows sum to 1);
    ``local`` (n, K, 3): the vertex's rest position in each of its bones' frames, ``R_j0^T (v_i^0 - x_j^0)``
    (m), so that eq. 3 reads ``v_i = sum_k alpha_ik (R_j r_ik + p_j)`` with the bones' world placements;
    ``spacing``: the distance the surface was sampled at (m, :meth:`generate`'s), None when not known (a surface
    bound from a file).
    """

    mesh: TriangleMesh
    bodies: tuple
    bone: np.ndarray
    weight: np.ndarray
    local: np.ndarray
    q_rest: np.ndarray
    spacing: float | None = None

    def __post_init__(self):
        n = self.mesh.n_vertices
        if self.bone.shape != self.weight.shape or self.bone.shape[0] != n or self.local.shape != (*self.bone.shape, 3):
            raise ModelError(f"skin weights must be (n, K) with n = {n} vertices and offsets (n, K, 3)", "skin")
        if self.bone.min() < 0 or self.bone.max() >= len(self.bodies):
            raise ModelError(f"skin bone indices must lie in [0, {len(self.bodies)})", "skin")
        if not np.allclose(self.weight.sum(axis=1), 1.0, atol=1e-9) or (self.weight < 0).any():
            bad = int(np.argmax(np.abs(self.weight.sum(axis=1) - 1.0)))
            raise ModelError(f"the weights of vertex {bad} must be non-negative and sum to 1", "skin")

    @property
    def n_vertices(self) -> int:
        return self.mesh.n_vertices

    @classmethod
    def bind(cls, model, mesh: TriangleMesh, bodies, bone, weight, q_rest=None, spacing: float | None = None) -> "Skin":
        """A skin from a rest surface (world frame with the model at ``q_rest``, default neutral, sampled every
        ``spacing`` m when known) and its bones and weights (e.g. read from a mesh file with weights)."""
        q_rest = neutral(model) if q_rest is None else np.asarray(q_rest, float)
        data = Data(model)
        forward_kinematics(model, data, q_rest)
        R, p = body_frames(model, data, list(bodies))
        bone = np.ascontiguousarray(bone, dtype=np.int64)
        x = mesh.vertices
        local = np.einsum("ikba,ikb->ika", R[bone], x[:, None, :] - p[bone])
        return cls(mesh, tuple(bodies), bone, np.ascontiguousarray(weight, float), np.ascontiguousarray(local), q_rest,
                   spacing)

    @classmethod
    def generate(cls, model, q_rest=None, spacing: float = 0.012, bodies=None, falloff: float = FALLOFF) -> "Skin":
        """The skin of ``model``'s flesh volumes (``skin.volumes``; ``bodies`` restricts them, e.g. to leave out
        a prosthesis) at ``q_rest``, sampled every ``spacing`` m, weights by ``skin.weights``: a residual limb (a
        ``TaperedCapsule``) carries alone its skin beyond ``weights.BRIM`` below the knee centre, so that the thigh
        moves no skin a socket holds."""
        q_rest = neutral(model) if q_rest is None else np.asarray(q_rest, float)
        volumes = body_volumes(model, q_rest, bodies)
        mesh = skin_surface(model, volumes, q_rest, spacing)
        data = Data(model)
        forward_kinematics(model, data, q_rest)
        R, p = body_frames(model, data, list(volumes))
        bone, weight = volume_weights(volumes, R, p, mesh.vertices, falloff)
        return cls.bind(model, mesh, list(volumes), bone, weight, q_rest, float(spacing))

    def bone_frames(self, model, data, velocities: bool = False):
        """The bones' world placements (and velocities) after ``forward_kinematics`` (see ``skin.frames``)."""
        return body_frames(model, data, self.bodies, velocities)

    def frames(self, model) -> BoneFrames:
        """The bones' places in ``model``'s tree, to read their placements repeatedly."""
        return BoneFrames(model, self.bodies)

    def vertices(self, model, data, q) -> np.ndarray:
        """Eq. 3: skin vertices (n, 3) m, world frame, at ``q``."""
        forward_kinematics(model, data, q)
        R, p = self.bone_frames(model, data)
        out = np.empty((self.n_vertices, 3))
        _k.deform(R, p, self.bone, self.weight, self.local, out)
        return out

    def vertices_velocities(self, model, data, q, v) -> tuple[np.ndarray, np.ndarray]:
        """Eqs. 3 and 8: skin vertices (n, 3) m and their velocities (n, 3) m/s at ``(q, v)``."""
        forward_kinematics(model, data, q, v)
        R, p, w, pdot = self.bone_frames(model, data, True)
        x = np.empty((self.n_vertices, 3))
        xdot = np.empty((self.n_vertices, 3))
        _k.deform(R, p, self.bone, self.weight, self.local, x)
        _k.velocity(R, w, pdot, self.bone, self.weight, self.local, xdot)
        return x, xdot

    def jacobian(self, model, data, q) -> np.ndarray:
        """Eq. 11: ``J`` (n, 3, nv) with ``v_dot_i = J_i v`` for every vertex (``J_S J_B``, eqs. 9-10)."""
        JB = np.stack([frame_jacobian(model, data, q, b) for b in self.bodies])
        R, _ = self.bone_frames(model, data)
        out = np.empty((self.n_vertices, 3, model.nv))
        _k.jacobian(R, self.bone, self.weight, self.local, JB, out)
        return out

    def bone_wrenches(self, model, data, f) -> dict:
        """``J_S^T f``: ``{body: [moment about its origin; force]}`` (world axes, N m, N) of vertex forces
        ``f`` (n, 3) N at the pose of the last forward kinematics; the engine's ``loads``."""
        R, _ = self.bone_frames(model, data)
        out = np.empty((len(self.bodies), 6))
        _k.bone_wrenches(R, self.bone, self.weight, self.local, np.ascontiguousarray(f, float), out)
        return dict(zip(self.bodies, out))

    def generalized_forces(self, model, data, q, f) -> np.ndarray:
        """Eq. 12: ``tau_ext = J^T f`` (nv,) of vertex forces ``f`` (n, 3) N, computed as ``J_B^T (J_S^T f)``."""
        forward_kinematics(model, data, q)
        tau = np.zeros(model.nv)
        for body, wrench in self.bone_wrenches(model, data, f).items():
            tau += frame_jacobian(model, data, q, body).T @ wrench
        return tau
