"""The socket's load from an analysis: the wrench the socket (with the blade) transmits into the residual limb,
by the analysis's own inverse dynamics with the socket's weld opened into a free joint.

A weld carries no coordinate, so its wrench is not in ``tau``. Replacing it by a free joint held at the
weld's placement (zero relative motion) leaves the motion and every other generalized force unchanged and
makes the weld's wrench the free joint's ``tau``: ``[moment about the socket's origin; force]`` in the
socket's axes, what the limb applies to the socket (its opposite is the socket's load on the limb). The loads
are those of the analysis: the trial's plates, the unmeasured stances' estimate and the low-pass, with the
analysis's settings.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.algorithms import neutral
from engine.analysis.inverse_dynamics import classic_inverse_dynamics
from engine.analysis.load_filter import lowpass_classic
from engine.errors import ModelError, SettingsError
from engine.model import FreeJoint, WeldJoint
from engine.tree import compile_tree


def opened_model(model, weld: str):
    """``model`` with the weld joint ``weld`` replaced by a free joint at the same offsets."""
    joint = next((j for j in model.joints if j.name == weld), None)
    if not isinstance(joint, WeldJoint):
        raise ModelError(f"has no weld joint named {weld!r} (the socket must be welded to the residual limb)",
                         f"model '{model.name}'")
    joints = [FreeJoint(j.name, j.parent, j.child, j.parent_offset, j.child_offset) if j is joint else j
              for j in model.joints]
    return model.replace(joints=joints), joint


def socket_loads(result, settings, weld: str = "socket_weld", frames=None):
    """``(time (T,), W (T, 6), tau (T, nv))``: the socket's load on the limb, ``[moment about the socket frame's
    origin; force]`` in the socket's axes (N m, N), and the generalized forces of every other coordinate (equal to
    the analysis's), over the analysed trial ``result`` (an ``AnalysisResult`` with force plates) analysed with
    ``settings``; ``frames`` (indices or a slice) restricts the trial (the low-pass then runs over those frames)."""
    if result.classic is None:
        raise SettingsError("the analysis has no inverse dynamics with measured loads (no force plates)")
    model, motion = result.model, result.motion
    if frames is not None:
        motion = replace(motion, time=motion.time[frames], q=motion.q[frames], v=motion.v[frames],
                         a=motion.a[frames])
    opened, _ = opened_model(model, weld)
    qi = [compile_tree(opened).q_names.index(n) for n in compile_tree(model).q_names]
    vi = [compile_tree(opened).v_names.index(n) for n in compile_tree(model).v_names]
    T = len(motion.time)
    Q = np.tile(neutral(opened), (T, 1))
    V, A = np.zeros((T, opened.nv)), np.zeros((T, opened.nv))
    Q[:, qi], V[:, vi], A[:, vi] = motion.q, motion.v, motion.a
    plates = [p for p in result.trial.plates if p.loaded.any()]
    qp = settings.qp
    if qp.floor == "auto" and plates and model.contacts and (settings.estimate_grf or settings.estimate_unmeasured):
        up = -np.asarray(model.gravity, float) / np.linalg.norm(model.gravity)
        qp = replace(qp, floor=float(np.mean([p.surface_point @ up for p in plates])))
    unmeasured = qp if settings.estimate_unmeasured and model.contacts else None
    dyn = classic_inverse_dynamics(opened, replace(motion, q=Q, v=V, a=A), plates,
                                   [settings.plate_bodies.get(p.name) for p in plates], unmeasured)
    if settings.loads_cutoff is not None:
        dyn = lowpass_classic(dyn, settings.loads_cutoff, settings.order, settings.edges)
    _, _, v0, _ = compile_tree(opened).joint_q[weld]
    return motion.time, -dyn.tau[:, v0:v0 + 6], dyn.tau[:, vi]
