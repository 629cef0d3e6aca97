"""Algorithms over every frame of a trial in one kernel call (rows of Q, V, A are frames)."""
from __future__ import annotations

import numpy as np

from ..kernels import _batch
from ..tree import compile_tree
from . import _args
from .kinematics import frame_id


def frame_positions_batch(model, data, Q, names) -> np.ndarray:
    """(frames, K, 3) world positions of the named bodies/frames/markers/contacts."""
    Q = _args.batch(model, Q, model.nq, "Q")
    ids = np.array([frame_id(model, n) for n in names], np.int64)
    out = np.empty((Q.shape[0], ids.size, 3))
    _batch.frame_positions(compile_tree(model).k, data.ws, data.scr, Q, ids, out)
    return out


def frame_placements_batch(model, data, Q, names) -> tuple[np.ndarray, np.ndarray]:
    """World placements of the named bodies/frames/points at every frame: R (frames, K, 3, 3), p (frames, K, 3)."""
    Q = _args.batch(model, Q, model.nq, "Q")
    ids = np.array([frame_id(model, n) for n in names], np.int64)
    R = np.empty((Q.shape[0], ids.size, 3, 3))
    p = np.empty((Q.shape[0], ids.size, 3))
    _batch.frame_placements(compile_tree(model).k, data.ws, data.scr, Q, ids, R, p)
    return R, p


def frame_jacobians_batch(model, data, Q, names) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Jacobians and placements of the named bodies/frames/points at every frame: J (frames, K, 6, nv) with rows
    ``[omega; v_origin]`` in world axes (as :func:`~engine.algorithms.jacobians.frame_jacobian`), R (frames, K, 3, 3),
    p (frames, K, 3)."""
    Q = _args.batch(model, Q, model.nq, "Q")
    ids = np.array([frame_id(model, n) for n in names], np.int64)
    J = np.zeros((Q.shape[0], ids.size, 6, model.nv))
    R = np.empty((Q.shape[0], ids.size, 3, 3))
    p = np.empty((Q.shape[0], ids.size, 3))
    _batch.frame_jacobians(compile_tree(model).k, data.ws, data.scr, Q, ids, J, R, p)
    return J, R, p


def marker_positions_batch(model, data, Q) -> np.ndarray:
    """(frames, markers, 3) positions of all model markers."""
    return frame_positions_batch(model, data, Q, [m.name for m in model.markers])


def point_jacobians_batch(model, data, Q, names) -> np.ndarray:
    """(frames, K, 3, nv) world Jacobians of the named points."""
    Q = _args.batch(model, Q, model.nq, "Q")
    ids = np.array([frame_id(model, n) for n in names], np.int64)
    out = np.empty((Q.shape[0], ids.size, 3, model.nv))
    _batch.point_jacobians(compile_tree(model).k, data.ws, data.scr, Q, ids, out)
    return out


def crba_batch(model, data, Q) -> np.ndarray:
    """(frames, nv, nv) mass matrices."""
    Q = _args.batch(model, Q, model.nq, "Q")
    out = np.empty((Q.shape[0], model.nv, model.nv))
    _batch.mass_matrices(compile_tree(model).k, data.ws, data.scr, Q, out)
    return out


def rnea_batch(model, data, Q, V, A, node_wrenches=None) -> np.ndarray:
    """(frames, nv) inverse dynamics; ``node_wrenches`` (frames, nodes, 6) world wrenches about the origin."""
    Q = _args.batch(model, Q, model.nq, "Q")
    V = _args.batch(model, V, model.nv, "V")
    A = _args.batch(model, A, model.nv, "A")
    fext = np.zeros((0, 0, 6)) if node_wrenches is None else np.ascontiguousarray(node_wrenches, dtype=float)
    out = np.empty((Q.shape[0], model.nv))
    _batch.inverse_dynamics(compile_tree(model).k, data.ws, data.scr, Q, V, A, fext, out)
    return out


def joint_wrenches_batch(model, data, Q, V, A, joints, node_wrenches=None) -> tuple[np.ndarray, ...]:
    """Joint reaction loads over a trial: ``(tau, W, centre)`` with ``tau`` (frames, nv) as :func:`rnea_batch` and ``W``
    (frames, len(joints), 6) the wrench each named joint transmits from its parent body to its child (and
    everything distal to it): world axes, ``[moment about the joint centre; force]`` (N m, N). It is Pinocchio's
    ``data.f`` after ``rnea`` (there in the joint's own axes) and what OpenSim's JointReaction analysis reports as
    the parent's load on the child, in ground axes. The joint centre is the origin of the joint's frame on the
    child, ``centre`` (frames, len(joints), 3) its world position (m). Any
    generalized force the motion needs is in ``W`` too: a coordinate's torque is ``W``'s moment about its axis.
    ``node_wrenches`` as :func:`rnea_batch`."""
    Q = _args.batch(model, Q, model.nq, "Q")
    V = _args.batch(model, V, model.nv, "V")
    A = _args.batch(model, A, model.nv, "A")
    tree = compile_tree(model)
    nodes = np.array([tree.k.frames[tree.body_frame[model.joint(name).child]]["node"] for name in joints], np.int64)
    fext = np.zeros((0, 0, 6)) if node_wrenches is None else np.ascontiguousarray(node_wrenches, dtype=float)
    tau = np.empty((Q.shape[0], model.nv))
    W = np.empty((Q.shape[0], nodes.size, 6))
    centre = np.empty((Q.shape[0], nodes.size, 3))
    _batch.joint_wrenches(tree.k, data.ws, data.scr, Q, V, A, fext, nodes, tau, W, centre)
    return tau, W, centre
