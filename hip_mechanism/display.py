"""What the application draws of the mechanism at a model's hip, computed without Qt or VTK.

The mechanism's base frame is placed at the hip joint's frame on the pelvis with the axes of
``hip_mechanism.trial`` (X = -x, Y = -z, Z = -y of the pelvis); the limbs are drawn from Ai to Bi, the platform
as the triangle B1B2B3, over every frame of a motion.
"""
from __future__ import annotations

import numpy as np

from engine.algorithms.batch import frame_placements_batch
from engine.data import Data

from .kinematics import state
from .parameters import MechanismParameters

PELVIS_FROM_MECHANISM = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, 0.0]])
"""Columns: the mechanism's X, Y, Z in the pelvis's axes."""


def mechanism_points(params: MechanismParameters, Q) -> tuple[np.ndarray, np.ndarray]:
    """Base points A (3, 3) and platform points B (T, 3, 3) in the mechanism's base frame (m) at poses Q (T, 2)."""
    A = np.array([[params.a1, 0.0, 0.0], [0.0, params.a2, 0.0], [0.0, -params.a3, 0.0]])
    B = np.array([state(params, q).B for q in np.asarray(Q, dtype=float).reshape(-1, 2)])
    return A, B


def world_points(params: MechanismParameters, model, model_Q, mechanism_Q, side: str):
    """The base points (T, 3, 3) and platform points (T, 3, 3) in the world, the base frame at the model's hip
    joint ``hip_{side}`` at configurations ``model_Q`` (T, nq), the mechanism at ``mechanism_Q`` (T, 2)."""
    joint = model.joint(f"hip_{side}")
    R_parent, p_parent = frame_placements_batch(model, Data(model), model_Q, [joint.parent])
    R_parent, p_parent = R_parent[:, 0], p_parent[:, 0]
    R_base = R_parent @ joint.parent_offset.R @ PELVIS_FROM_MECHANISM
    origin = p_parent + R_parent @ joint.parent_offset.p
    A, B = mechanism_points(params, mechanism_Q)
    base = origin[:, None, :] + np.einsum("tij,kj->tki", R_base, A)
    platform = origin[:, None, :] + np.einsum("tij,tkj->tki", R_base, B)
    return base, platform
