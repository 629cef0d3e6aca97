"""Filtered motion and its analytic derivatives: q(t) -> psi(t), psi-dot(t) (the seed's v, a).

Coordinates from IK are low-passed with a zero-lag Butterworth filter (default
6 Hz, 3rd order per pass, as OpenSim's inverse dynamics filters coordinates), then each component is interpolated by a quintic
spline whose derivatives give velocities and accelerations (as OpenSim's
inverse dynamics does with its 5th-order splines). Rotations are handled on
the group: quaternion components are made continuous (no sign flips), filtered
and splined, and the body angular velocity and acceleration follow exactly from
the normalised quaternion, ``omega = 2 Im(q* dq/dt)``, ``alpha = 2 Im(q* d2q/dt2)``.
The floating base's linear velocity and acceleration are body-frame components
``v = R^T dp/dt`` and ``dv/dt = R^T d2p/dt2 - omega x v``, as RNEA expects.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SettingsError
from ..model.joints import FreeJoint, SphericalJoint
from ..spatial import quat_to_matrix
from ..tree import compile_tree
from ..trial.filtering import lowpass


@dataclass
class Motion:
    """Configurations, velocities and accelerations at ``time`` (T,): q (T, nq), v (T, nv), a (T, nv).

    ``cutoff`` (Hz, None if unfiltered), ``order`` and ``edges`` record the filter applied.
    """

    time: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    cutoff: float | None
    order: int
    edges: str = "odd"


def _continuous_quaternions(Q, blocks):
    Q = Q.copy()
    for i in blocks:
        quats = Q[:, i:i + 4]
        flips = np.cumsum(np.einsum("ij,ij->i", quats[1:], quats[:-1]) < 0) % 2
        quats[1:][flips == 1] *= -1.0
    return Q


def _normalised_derivatives(p, dp, ddp):
    """Unit quaternion n = p/|p| and its first two time derivatives (rows are samples)."""
    s = np.linalg.norm(p, axis=1, keepdims=True)
    n = p / s
    sd = np.sum(n * dp, axis=1, keepdims=True)
    nd = (dp - n * sd) / s
    sdd = np.sum(nd * dp, axis=1, keepdims=True) + np.sum(n * ddp, axis=1, keepdims=True)
    ndd = (ddp - 2.0 * sd * nd - sdd * n) / s
    return n, nd, ndd


def _body_rate(n, m):
    """``2 Im(n* m)`` for quaternions stored (x, y, z, w) (rows are samples)."""
    nv, nw = n[:, :3], n[:, 3:]
    mv, mw = m[:, :3], m[:, 3:]
    return 2.0 * (nw * mv - mw * nv - np.cross(nv, mv))


def motion_from_coordinates(model, time, Q, cutoff: float | None = 6.0, order: int = 3, edges: str = "odd") -> Motion:
    """Filter ``Q`` (T, nq) sampled at ``time`` and differentiate it analytically.

    ``cutoff`` None skips filtering. When filtering, the samples must be uniformly spaced; times
    printed with rounding (within 5% of the step of a uniform grid) are replaced by that grid, since
    differentiating through the rounding would add spurious accelerations. ``edges`` is how the
    filter extends the trial's ends (:func:`engine.trial.filtering.lowpass`): ``'odd'`` (the default,
    as OpenSim's tools do, so results compare with theirs) or ``'extrapolate'``, which keeps the
    accelerations at the first and last frames (a trial that starts or ends in flight).
    """
    time = np.asarray(time, dtype=float)
    Q = np.asarray(Q, dtype=float)
    T = len(time)
    if Q.shape != (T, model.nq):
        raise ValueError(f"Q: expected (frames, nq)=({T}, {model.nq}), got {Q.shape}")
    if T < 6:
        raise SettingsError(f"at least 6 frames are needed to differentiate the motion, got {T}")
    tree = compile_tree(model)
    # (free, first q index, first v index) of each joint on a quaternion; a free joint's q starts with its position
    rotations = [(isinstance(el, FreeJoint), tree.joint_q[el.name][0], tree.joint_q[el.name][2])
                 for el in model.ordered_elements if isinstance(el, (FreeJoint, SphericalJoint))]
    quat_blocks = [i0 + 3 if free else i0 for free, i0, _ in rotations]
    Qc = _continuous_quaternions(Q, quat_blocks)
    if cutoff is not None:
        step = (time[-1] - time[0]) / (T - 1)
        grid = time[0] + step * np.arange(T)
        if np.abs(time - grid).max() > 0.05 * step:
            raise SettingsError("the frames are not uniformly spaced in time; resample before filtering")
        time = grid
        Qc, short = lowpass(Qc, 1.0 / step, cutoff, order, edges=edges)
        if short:
            raise SettingsError(f"the trial is too short to filter at {cutoff} Hz: {T} frames")
    from scipy.interpolate import make_interp_spline     # imported when used: the window imports this module
    spline = make_interp_spline(time, Qc, k=5)
    d1 = spline(time, 1)
    d2 = spline(time, 2)
    q = Qc.copy()
    v = np.zeros((T, model.nv))
    a = np.zeros((T, model.nv))
    v2q = tree.k.v2q
    scalar = v2q >= 0
    v[:, scalar] = d1[:, v2q[scalar]]
    a[:, scalar] = d2[:, v2q[scalar]]
    for (free, i0, v0), j in zip(rotations, quat_blocks):
        quat, dquat, ddquat = _normalised_derivatives(Qc[:, j:j + 4], d1[:, j:j + 4], d2[:, j:j + 4])
        q[:, j:j + 4] = quat
        w = _body_rate(quat, dquat)
        v[:, v0:v0 + 3] = w
        a[:, v0:v0 + 3] = _body_rate(quat, ddquat)
        if free:
            R = np.array([quat_to_matrix(x) for x in quat])
            vb = np.einsum("tji,tj->ti", R, d1[:, i0:i0 + 3])
            v[:, v0 + 3:v0 + 6] = vb
            a[:, v0 + 3:v0 + 6] = np.einsum("tji,tj->ti", R, d2[:, i0:i0 + 3]) - np.cross(w, vb)
    return Motion(time=time, q=q, v=v, a=a, cutoff=cutoff, order=order, edges=edges)
