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
s_a = -1 on the right, +1 on the left, the sign in alpha's mapping above). The hip's joint reaction force (the
pelvis's push on the thigh, ``engine.analysis.joint_reactions``, from the same inverse dynamics) is what the thigh,
now carried by the platform, pushes back on it: its opposite, turned into the base axes, acts at the platform's
centre as the external force of the seed's Fe (the moment stays the torques' above). A results file saved before
reactions were kept has none: then the torques alone load the platform (said in the notes). The thigh's inertia is
in the hip's loads; the mechanism's own is added by its dynamics.
"""
from __future__ import annotations

import numpy as np

from engine import algorithms as alg
from engine.analysis.joint_reactions import analysis_reactions
from engine.data import Data
from engine.errors import DataError
from engine.tree import compile_tree

from .demands import Demands, actuator_demands
from .parameters import MechanismParameters

SIDES = ("r", "l")


def hip_angles(model, motion, side: str):
    """The hip's (flexion, adduction) angles, rates and accelerations (rad...) over the trial: three (T, 2)."""
    if side not in SIDES:
        raise DataError(f"the side must be 'r' or 'l', not {side!r}", "side")
    names = [f"hip_flexion_{side}", f"hip_adduction_{side}"]
    tree = compile_tree(model)
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


BASE_FROM_PELVIS = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, 0.0]])
"""The mechanism's base axes from the pelvis's (X = -x, Y = -z, Z = -y)."""


def hip_reaction_on_platform(result, side: str) -> np.ndarray | None:
    """(T, 3) force (N, base axes) the thigh puts on the platform: minus the hip joint's reaction force (the
    pelvis's push on the thigh, model axes) turned into the mechanism's base axes; None without reactions."""
    reactions = analysis_reactions(result)
    model = result.model
    joint = next((j for j in model.joints if f"hip_flexion_{side}" in [c.name for c in j.coordinates]), None)
    if reactions is None or joint is None or joint.name not in reactions.joints:
        return None
    pelvis = model.resolve(joint.parent)[0]
    R, _ = alg.frame_placements_batch(model, Data(model), result.motion.q, [pelvis])
    force = reactions.of(joint.name)[:, 3:]
    return -np.einsum("ij,tkj,tk->ti", BASE_FROM_PELVIS, R[:, 0], force)


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
    notes = [f"hip_{side}: beta = -hip flexion, alpha = {'-' if side == 'r' else '+'}hip adduction"]
    dynamics = result.dynamics
    load = wrench = None
    if dynamics is None:
        notes.append("the analysis has no inverse dynamics: the demands are the mechanism's own motion only")
    else:
        tau = hip_torques(dynamics, side, len(motion.time))
        load = -(tau[:, order] * to_mechanism)
        force = hip_reaction_on_platform(result, side)
        if force is None:
            notes.append("the results hold no joint reaction loads (saved before they were kept): the hip's "
                         "reaction force is not applied, the demands are the hip's torques and the mechanism's own "
                         "dynamics")
        else:
            wrench = np.column_stack([force, np.zeros_like(force)])
            notes.append("the hip's joint reaction force applied at the platform's centre (the thigh's push, base "
                         "axes), with the hip's torques")
    return actuator_demands(params, motion.time, q, qd, qdd, wrench=wrench, generalized=load, notes=notes)
