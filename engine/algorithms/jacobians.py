"""Jacobians of attached frames and points, and their J-dot-psi terms."""
from __future__ import annotations

import numpy as np

from ..kernels import _passes
from ..tree import compile_tree
from .kinematics import forward_kinematics, frame_id


def frame_jacobian(model, data, q, name: str) -> np.ndarray:
    """6 x nv Jacobian of a frame: rows ``[omega; v_origin]`` in world axes, at the frame origin.

    This is Pinocchio's LOCAL_WORLD_ALIGNED Jacobian with angular rows first.
    """
    forward_kinematics(model, data, q)
    J = np.zeros((6, model.nv))
    k = compile_tree(model).k
    _passes.frame_jacobian(k.nodes, k.frames, data.ws, data.scr, frame_id(model, name), J)
    return J


def point_jacobians(model, data, q, names) -> np.ndarray:
    """(K, 3, nv) world-frame linear Jacobians of the origins of the named frames/points."""
    forward_kinematics(model, data, q)
    out = np.zeros((len(names), 3, model.nv))
    J6 = np.zeros((6, model.nv))
    k = compile_tree(model).k
    for i, n in enumerate(names):
        _passes.frame_jacobian(k.nodes, k.frames, data.ws, data.scr, frame_id(model, n), J6)
        out[i] = J6[3:]
    return out


def marker_jacobians(model, data, q) -> np.ndarray:
    """(K, 3, nv) Jacobians of all markers in ``model.markers`` order (rod markers included)."""
    return point_jacobians(model, data, q, [m.name for m in model.markers])


def frame_classical_acceleration(model, data, q, v, a, name: str) -> np.ndarray:
    """``[alpha; a_origin]`` (world axes) of a frame for the motion ``(q, v, a)``, gravity excluded.

    With ``a = 0`` this is ``J-dot v``, the acceleration bias of the frame.
    """
    forward_kinematics(model, data, q, v, a)
    return frame_classical_accelerations(model, data, [frame_id(model, name)])[0]


def frame_classical_accelerations(model, data, ids) -> np.ndarray:
    """``[alpha; a_origin]`` (K, 6; rad/s^2, m/s^2, world axes) of attached frames given by index (``frame_id``),
    after ``forward_kinematics(model, data, q, v, a)``; gravity excluded (Pinocchio's
    ``getFrameClassicalAcceleration``, LOCAL_WORLD_ALIGNED, angular rows first)."""
    out = np.empty((len(ids), 6))
    frames = compile_tree(model).k.frames
    for i, k in enumerate(ids):
        _passes.frame_classical_acceleration(frames, data.ws, int(k), out[i])
    return out
