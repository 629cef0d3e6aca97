"""Driving the mechanism by an analysed trial: the hip's motion and torques mapped to the mechanism.

Convention. The mechanism's base frame sits at the hip joint's centre with X = -x, Y = -z, Z = -y of the
pelvis (our model's, OpenSim's: x forward, y up, z to the right): Z runs down the thigh to the platform and the
passive limb's A1 lies behind the joint. Our hip turns about the pelvis's z by the flexion (positive forward)
and then about +x (right) or -x (left) by the adduction (positive toward the midline), so

    beta  = -hip flexion          (the seed's flexion is toward negative beta: its workspace beta in [-90, 35]
                                   degrees is 90 of flexion and 35 of extension)
    alpha = -hip adduction (right side),  +hip adduction (left side)

The seed turns about X first and about y' second, our hip about z first: the two orientations agree to first
order in the smaller angle (the angles are mapped one to one, as the seed maps the hip's angles in section 7).

The hip's joint torques (``result.dynamics.tau``, what the pelvis applies to the thigh about each coordinate)
become a generalized load on the platform: the mechanism replaces the joint, so it must deliver them, and the
thigh's reaction on the platform is their opposite, Q_alpha = -s_a tau_adduction, Q_beta = +tau_flexion (with
s_a = -1 on the right, +1 on the left, the sign in alpha's mapping above). The hip's joint reaction force is not applied: the engine's public algorithms give
the generalized forces (rnea), not the spatial force across one joint, so the demands are the torques' alone
(said in the notes). The thigh's inertia is in the hip's torques; the mechanism's own is added by its dynamics.
"""
from __future__ import annotations

import numpy as np

from engine.errors import DataError

from .demands import Demands, actuator_demands
from .parameters import MechanismParameters

SIDES = ("r", "l")


def hip_angles(model, motion, side: str):
    """The hip's (flexion, adduction) angles, rates and accelerations (rad...) over the trial: three (T, 2)."""
    if side not in SIDES:
        raise DataError(f"the side must be 'r' or 'l', not {side!r}", "side")
    names = [f"hip_flexion_{side}", f"hip_adduction_{side}"]
    tree = model.tree
    missing = [n for n in names if n not in tree.q_names or n not in tree.v_names]
    if missing:
        raise DataError(f"the model '{model.name}' has no hip coordinate {', '.join(missing)}: the mechanism is "
                        "driven by a hip's flexion and adduction", "coordinates")
    iq = [tree.q_names.index(n) for n in names]
    iv = [tree.v_names.index(n) for n in names]
    return motion.q[:, iq], motion.v[:, iv], motion.a[:, iv]


def hip_torques(dynamics, side: str, n_frames: int) -> np.ndarray:
    """(tau_flexion, tau_adduction) (T, 2) (N m) from an inverse dynamics result."""
    names = [f"hip_flexion_{side}", f"hip_adduction_{side}"]
    missing = [n for n in names if n not in dynamics.names]
    if missing:
        raise DataError(f"the inverse dynamics has no torque for {', '.join(missing)}", "torques")
    tau = np.asarray(dynamics.tau)[:, [dynamics.names.index(n) for n in names]]
    if tau.shape[0] != n_frames:
        raise DataError(f"the torques have {tau.shape[0]} frames, the motion {n_frames}", "torques")
    return tau


def trial_demands(params: MechanismParameters, result, side: str = "r") -> Demands:
    """The actuators' demands over an analysed trial (``engine.analysis.pipeline.AnalysisResult``)."""
    motion = result.motion
    angles, rates, accelerations = hip_angles(result.model, motion, side)
    sign_a = -1.0 if side == "r" else 1.0
    to_mechanism = np.array([sign_a, -1.0])       # (alpha, beta) from (adduction, flexion)
    order = [1, 0]
    q = angles[:, order] * to_mechanism
    qd = rates[:, order] * to_mechanism
    qdd = accelerations[:, order] * to_mechanism
    notes = [f"hip_{side}: beta = -hip flexion, alpha = {'-' if side == 'r' else '+'}hip adduction",
             "the hip's joint reaction force is not applied (the engine's public algorithms give joint torques, "
             "not the spatial force across one joint): demands from the hip's torques and the mechanism's own "
             "dynamics"]
    dynamics = result.dynamics
    if dynamics is None:
        load = None
        notes.append("the analysis has no inverse dynamics: the demands are the mechanism's own motion only")
    else:
        tau = hip_torques(dynamics, side, len(motion.time))
        load = -(tau[:, order] * to_mechanism)
    return actuator_demands(params, motion.time, q, qd, qdd, generalized=load, notes=notes)
