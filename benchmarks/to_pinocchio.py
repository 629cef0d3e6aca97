"""Rebuild a rigid HybridLab model (free, spherical, revolute, prismatic, universal, weld joints) in Pinocchio."""
from __future__ import annotations

import numpy as np
import pinocchio as pin

from engine.model import FreeJoint, PrismaticJoint, RevoluteJoint, SphericalJoint, UniversalJoint, WeldJoint
from engine.spatial import SE3
from engine.tree import compile_tree


def _se3(m: SE3) -> pin.SE3:
    return pin.SE3(np.array(m.R), np.array(m.p))


def to_pinocchio(model):
    """Return ``(pin_model, joint_of_body, body_in_joint)``; markers become OP_FRAMEs named like ours."""
    pm = pin.Model()
    pm.gravity = pin.Motion(np.array(model.gravity), np.zeros(3))
    joint_of = {"ground": 0}
    body_in = {"ground": SE3()}
    for j in model.ordered_elements:
        owner, placement = model.resolve(j.parent)
        pj = joint_of[owner]
        X = body_in[owner] @ placement @ j.parent_offset
        body = model.body(j.child)
        inertia = pin.Inertia(body.mass, np.array(body.com), np.array(body.inertia))
        if isinstance(j, WeldJoint):
            joint_of[j.child] = pj
            body_in[j.child] = X @ j.child_offset.inverse()
            pm.appendBodyToJoint(pj, inertia, _se3(body_in[j.child]))
            continue
        if isinstance(j, FreeJoint):
            jm = pin.JointModelFreeFlyer()
        elif isinstance(j, SphericalJoint):
            jm = pin.JointModelSpherical()
        elif isinstance(j, RevoluteJoint):
            jm = pin.JointModelRevoluteUnaligned(np.array(j.axis))
        elif isinstance(j, PrismaticJoint):
            jm = pin.JointModelPrismaticUnaligned(np.array(j.axis))
        elif isinstance(j, UniversalJoint):
            jm = pin.JointModelUniversal(np.array(j.axis1), np.array(j.axis2))
        else:
            raise TypeError(f"joint '{j.name}' ({type(j).__name__}) has no Pinocchio counterpart here")
        jid = pm.addJoint(pj, jm, _se3(X), j.name)
        joint_of[j.child] = jid
        body_in[j.child] = j.child_offset.inverse()
        pm.appendBodyToJoint(jid, inertia, _se3(body_in[j.child]))
    for mk in model.markers:
        owner, placement = model.resolve(mk.parent)
        frame = body_in[owner] @ placement @ SE3(np.eye(3), mk.offset)
        pm.addFrame(pin.Frame(mk.name, joint_of[owner], _se3(frame), pin.FrameType.OP_FRAME))
    return pm, joint_of, body_in


def q_to_pinocchio(model, pm, Q):
    """Map configurations (frames, nq) to Pinocchio's joint order (same quaternion convention)."""
    idx = np.zeros(model.nq, int)
    for j in model.ordered_elements:
        if j.name in compile_tree(model).joint_q and pm.existJointName(j.name):
            q0, nq, _, _ = compile_tree(model).joint_q[j.name]
            idx[q0:q0 + nq] = np.arange(pm.joints[pm.getJointId(j.name)].idx_q, pm.joints[pm.getJointId(j.name)].idx_q + nq)
    out = np.empty((Q.shape[0], pm.nq))
    out[:, idx] = Q
    return out


def v_to_pinocchio(model, pm, V):
    """Map velocities (frames, nv) to Pinocchio's order; free-flyer twists ``[w; v]`` become ``[v; w]``."""
    out = np.empty((V.shape[0], pm.nv))
    for j in model.ordered_elements:
        if not (j.name in compile_tree(model).joint_q and pm.existJointName(j.name)):
            continue
        _, _, v0, nv = compile_tree(model).joint_q[j.name]
        iv = pm.joints[pm.getJointId(j.name)].idx_v
        block = V[:, v0:v0 + nv]
        if isinstance(j, FreeJoint):
            block = np.concatenate([block[:, 3:], block[:, :3]], axis=1)
        out[:, iv:iv + nv] = block
    return out
