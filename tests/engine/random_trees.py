"""Seeded random rigid trees, described once and built both as our Model and as a Pinocchio model."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pinocchio as pin

from engine.model import (Body, Coordinate, FreeJoint, Model, PrismaticJoint, RevoluteJoint, SphericalJoint,
                          UniversalJoint, WeldJoint)
from engine.spatial import SE3, quat_to_matrix
from engine.tree import compile_tree

KINDS = ("revolute", "prismatic", "spherical", "universal", "weld")


@dataclass
class Spec:
    parent: int          # index of the parent body (-1: ground)
    kind: str
    axis: np.ndarray     # revolute/prismatic axis, or universal first axis
    axis2: np.ndarray    # universal second axis (orthogonal to the first)
    parent_offset: SE3   # joint frame in the parent's *body* frame
    child_offset: SE3    # joint frame in the child's body frame
    mass: float
    com: np.ndarray      # in the child's body frame
    inertia: np.ndarray  # about the com, body axes


def random_rotation(rng) -> np.ndarray:
    q = rng.normal(size=4)
    return quat_to_matrix(q / np.linalg.norm(q))


def random_inertia(rng) -> np.ndarray:
    moments = np.sort(rng.uniform(0.02, 0.2, size=3))
    moments[0] = max(moments[0], moments[2] - moments[1] + 0.01)  # triangle inequality
    R = random_rotation(rng)
    return R @ np.diag(moments) @ R.T


def random_specs(rng, n_bodies: int = 32, floating: bool = True) -> list[Spec]:
    """Bodies in depth-first order (Pinocchio's CRBA needs each subtree's velocities contiguous):
    each new body hangs on the previous body or one of its ancestors."""
    specs = []
    path: list[int] = []
    for i in range(n_bodies):
        if i == 0:
            kind = "free" if floating else "revolute"
            parent = -1
        else:
            kind = KINDS[(i - 1) % len(KINDS)]
            parent = path[int(rng.integers(max(0, len(path) - 4), len(path)))]
            path = path[:path.index(parent) + 1]
        path.append(i)
        a1 = rng.normal(size=3)
        a1 /= np.linalg.norm(a1)
        a2 = np.cross(a1, rng.normal(size=3))
        a2 /= np.linalg.norm(a2)
        specs.append(Spec(parent, kind, a1, a2,
                          SE3(random_rotation(rng), rng.normal(size=3) * 0.3),
                          SE3(random_rotation(rng), rng.normal(size=3) * 0.1),
                          float(rng.uniform(0.5, 5.0)), rng.normal(size=3) * 0.1, random_inertia(rng)))
    return specs


def build_model(specs, gravity=(0.0, -9.81, 0.0)) -> Model:
    bodies, joints = [], []
    for i, s in enumerate(specs):
        bodies.append(Body(f"b{i}", s.mass, s.com, s.inertia))
        parent = "ground" if s.parent < 0 else f"b{s.parent}"
        kw = dict(parent_offset=s.parent_offset, child_offset=s.child_offset)
        if s.kind == "free":
            joints.append(FreeJoint(f"j{i}", parent, f"b{i}", **kw))
        elif s.kind == "revolute":
            joints.append(RevoluteJoint(f"j{i}", parent, f"b{i}", coordinates=(Coordinate(f"q{i}"),), axis=s.axis, **kw))
        elif s.kind == "prismatic":
            joints.append(PrismaticJoint(f"j{i}", parent, f"b{i}", coordinates=(Coordinate(f"q{i}", "translational"),),
                                         axis=s.axis, **kw))
        elif s.kind == "spherical":
            joints.append(SphericalJoint(f"j{i}", parent, f"b{i}", **kw))
        elif s.kind == "universal":
            joints.append(UniversalJoint(f"j{i}", parent, f"b{i}", coordinates=(Coordinate(f"q{i}a"), Coordinate(f"q{i}b")),
                                         axis1=s.axis, axis2=s.axis2, **kw))
        else:
            joints.append(WeldJoint(f"j{i}", parent, f"b{i}", **kw))
    return Model("random", bodies, joints, gravity=gravity)


def _pin_se3(m: SE3) -> pin.SE3:
    return pin.SE3(np.array(m.R), np.array(m.p))


def build_pinocchio(specs, gravity=(0.0, -9.81, 0.0)):
    """Pinocchio model of the same tree. Returns (model, joint id per body, body-frame placement in its joint)."""
    pm = pin.Model()
    pm.gravity = pin.Motion(np.array(gravity), np.zeros(3))
    joint_of = []          # pinocchio joint id that carries body i
    body_in_joint = []     # placement of body i's frame in that joint's frame
    for i, s in enumerate(specs):
        if s.parent < 0:
            pj, parent_body = 0, SE3()
        else:
            pj, parent_body = joint_of[s.parent], body_in_joint[s.parent]
        placement = parent_body @ s.parent_offset       # joint frame in the parent joint's frame
        body_placement = s.child_offset.inverse()        # body frame in this joint's frame
        inertia = pin.Inertia(s.mass, s.com, s.inertia)
        if s.kind == "weld":
            pm.appendBodyToJoint(pj, inertia, _pin_se3(placement @ body_placement))
            joint_of.append(pj)
            body_in_joint.append(placement @ body_placement)
            continue
        jm = {"free": lambda: pin.JointModelFreeFlyer(),
              "revolute": lambda: pin.JointModelRevoluteUnaligned(s.axis),
              "prismatic": lambda: pin.JointModelPrismaticUnaligned(s.axis),
              "spherical": lambda: pin.JointModelSpherical(),
              "universal": lambda: pin.JointModelUniversal(s.axis, s.axis2)}[s.kind]()
        jid = pm.addJoint(pj, jm, _pin_se3(placement), f"j{i}")
        pm.appendBodyToJoint(jid, inertia, _pin_se3(body_placement))
        joint_of.append(jid)
        body_in_joint.append(body_placement)
    return pm, joint_of, body_in_joint


def index_maps(model: Model, pm, specs):
    """Permutations taking Pinocchio's q and v to ours: ``q_ours = qmap(q_pin)``, ``v_ours = P @ v_pin``.

    Free-flyer velocities are ``[v; w]`` in Pinocchio and ``[w; v]`` here.
    """
    tree = compile_tree(model)
    P = np.zeros((model.nv, pm.nv))
    qperm = np.zeros(model.nq, int)
    for i, s in enumerate(specs):
        if s.kind == "weld":
            continue
        j = pm.joints[pm.getJointId(f"j{i}")]
        q0, nq, v0, nv = tree.joint_q[f"j{i}"]
        if s.kind == "free":
            P[v0:v0 + 3, j.idx_v + 3:j.idx_v + 6] = np.eye(3)
            P[v0 + 3:v0 + 6, j.idx_v:j.idx_v + 3] = np.eye(3)
        else:
            P[v0:v0 + nv, j.idx_v:j.idx_v + nv] = np.eye(nv)
        qperm[q0:q0 + nq] = np.arange(j.idx_q, j.idx_q + nq)
    return qperm, P
