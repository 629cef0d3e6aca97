"""Batch kernels: one call processes every frame of a trial (no per-frame dispatch cost).

They take the compiled tree ``t`` (``engine.tree.KTree``) and unpack it once.
"""
import numba as nb
import numpy as np

from ._passes import crba, frame_jacobian, frame_placement, kinematics, rnea_backward


@nb.njit(cache=True, nogil=True)
def frame_positions(t, ws, scr, Q, frames, out):
    """``out[f, k] =`` world position of attached frame ``frames[k]`` at configuration ``Q[f]``."""
    nodes, segs, funcs, fpool, grav, fr = t.nodes, t.segs, t.funcs, t.fpool, t.gravity, t.frames
    empty = np.zeros(0)
    R = np.empty((3, 3))
    for f in range(Q.shape[0]):
        kinematics(nodes, segs, funcs, fpool, grav, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for k in range(frames.shape[0]):
            frame_placement(fr, ws, frames[k], R, out[f, k])


@nb.njit(cache=True, nogil=True)
def frame_placements(t, ws, scr, Q, frames, R_out, p_out):
    """``R_out[f, k], p_out[f, k]`` = world placement of attached frame ``frames[k]`` at ``Q[f]``."""
    nodes, segs, funcs, fpool, grav, fr = t.nodes, t.segs, t.funcs, t.fpool, t.gravity, t.frames
    empty = np.zeros(0)
    for f in range(Q.shape[0]):
        kinematics(nodes, segs, funcs, fpool, grav, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for k in range(frames.shape[0]):
            frame_placement(fr, ws, frames[k], R_out[f, k], p_out[f, k])


@nb.njit(cache=True, nogil=True)
def frame_jacobians(t, ws, scr, Q, frames, J_out, R_out, p_out):
    """``J_out[f, k] =`` 6 x nv Jacobian (rows ``[omega; v_origin]``, world axes) and ``R_out[f, k], p_out[f, k]`` the
    world placement of attached frame ``frames[k]`` at ``Q[f]``."""
    nodes, segs, funcs, fpool, grav, fr = t.nodes, t.segs, t.funcs, t.fpool, t.gravity, t.frames
    empty = np.zeros(0)
    for f in range(Q.shape[0]):
        kinematics(nodes, segs, funcs, fpool, grav, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for k in range(frames.shape[0]):
            frame_jacobian(nodes, fr, ws, scr, frames[k], J_out[f, k])
            frame_placement(fr, ws, frames[k], R_out[f, k], p_out[f, k])


@nb.njit(cache=True, nogil=True)
def point_jacobians(t, ws, scr, Q, frames, out):
    """``out[f, k] =`` 3 x nv world Jacobian of frame ``frames[k]``'s origin at ``Q[f]``."""
    nodes, segs, funcs, fpool, grav, fr = t.nodes, t.segs, t.funcs, t.fpool, t.gravity, t.frames
    empty = np.zeros(0)
    J6 = np.empty((6, out.shape[3]))
    for f in range(Q.shape[0]):
        kinematics(nodes, segs, funcs, fpool, grav, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(True))
        for k in range(frames.shape[0]):
            frame_jacobian(nodes, fr, ws, scr, frames[k], J6)
            out[f, k] = J6[3:]


@nb.njit(cache=True, nogil=True, inline="always")
def _rnea_frame(t, ws, scr, Q, V, A, fext, none, f, world, tau):
    """``tau = rnea(Q[f], V[f], A[f])`` with the node wrenches ``fext[f]`` when ``fext`` has a row per frame (else
    ``none``, an empty (0, 6) array); world placements computed when loaded or ``world``."""
    loaded = fext.shape[0] == Q.shape[0]
    kinematics(t.nodes, t.segs, t.funcs, t.fpool, t.gravity, ws, scr, Q[f], V[f], A[f],
               np.int64(2), np.bool_(True), loaded or world)
    if loaded:
        rnea_backward(t.nodes, ws, fext[f], tau)
    else:
        rnea_backward(t.nodes, ws, none, tau)


@nb.njit(cache=True, nogil=True)
def joint_wrenches(t, ws, scr, Q, V, A, fext, nodes_out, tau, out, origin):
    """``out[f, k]``: the wrench node ``nodes_out[k]``'s joint transmits from its parent to its subtree at frame
    ``f`` (RNEA's backward pass), world axes, ``[moment about the node origin; force]``; ``origin[f, k]`` that
    origin in the world; ``tau[f]`` the rnea."""
    none = np.zeros((0, 6))
    for f in range(Q.shape[0]):
        _rnea_frame(t, ws, scr, Q, V, A, fext, none, f, True, tau[f])
        for k in range(nodes_out.shape[0]):
            wn = ws[nodes_out[k]]
            R = wn.oR
            w = wn.f
            for i in range(3):
                origin[f, k, i] = wn.op[i]
                out[f, k, i] = R[i, 0] * w[0] + R[i, 1] * w[1] + R[i, 2] * w[2]
                out[f, k, 3 + i] = R[i, 0] * w[3] + R[i, 1] * w[4] + R[i, 2] * w[5]


@nb.njit(cache=True, nogil=True)
def mass_matrices(t, ws, scr, Q, out):
    """``out[f] = M(Q[f])`` (CRBA)."""
    nodes, segs, funcs, fpool, grav = t.nodes, t.segs, t.funcs, t.fpool, t.gravity
    empty = np.zeros(0)
    for f in range(Q.shape[0]):
        kinematics(nodes, segs, funcs, fpool, grav, ws, scr, Q[f], empty, empty,
                   np.int64(0), np.bool_(False), np.bool_(False))
        crba(nodes, ws, scr, out[f])


@nb.njit(cache=True, nogil=True)
def inverse_dynamics(t, ws, scr, Q, V, A, fext, out):
    """``out[f] = rnea(Q[f], V[f], A[f])`` with per-frame node wrenches ``fext[f]`` (or none)."""
    none = np.zeros((0, 6))
    for f in range(Q.shape[0]):
        _rnea_frame(t, ws, scr, Q, V, A, fext, none, f, False, out[f])
