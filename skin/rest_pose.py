"""A rest pose for a skin with separate limbs (an A-pose, as skinning pipelines bind their meshes): the arms
abducted and the legs apart, so that the flesh volumes' smooth union (``skin.surface``) joins each arm to the trunk
only at its shoulder and the thighs only at the pelvis. A skin generated there (``Skin.generate(model, q_rest=...)``)
is deformed by eq. 3 into any pose; one generated in the neutral pose (arms hanging against the trunk, thighs
touching down to the knee) has the arms fused to the flanks and the thighs to each other, which no device can pass
between (a sling's sides, which pass between the arms and the trunk)."""
from __future__ import annotations

import numpy as np

from engine.algorithms import forward_kinematics, frame_placement, neutral
from engine.data import Data
from engine.errors import ModelError
from engine.tree import compile_tree

ARM_ABDUCTION = 0.7     # rad (40 degrees): the elbow 11 cm clear of the athlete's trunk
LEG_ABDUCTION = 0.26    # rad (15 degrees) each: the thighs' flesh apart from below the crotch, the knees 24 cm apart
A_POSE_SPACING = 0.05   # m: the default athlete's skin generated in the A-pose is one piece up to this spacing
                        # (measured: 0.06 m leaves its hands and forearms apart, skin.surface names the pieces)


def _child(model, coordinate: str) -> str:
    """The body the joint that drives ``coordinate`` moves."""
    for joint in model.joints:
        if any(c.name == coordinate for c in joint.coordinates):
            return joint.child
    raise ModelError(f"no joint drives the coordinate '{coordinate}'", "rest pose")


def a_pose(model, arms: float = ARM_ABDUCTION, legs: float = LEG_ABDUCTION) -> np.ndarray:
    """``q`` (nq,): the neutral pose with each coordinate whose name holds ``shoulder_adduction`` abducted by ``arms``
    rad and each holding ``hip_adduction`` by ``legs`` rad (OpenSim's names; abduction is the negative adduction,
    checked: the moved body's centre of mass must get farther from the root body's x-y plane, the athlete's sagittal
    plane, else a clear error). A model without such coordinates is an error naming the missing ones."""
    tree = compile_tree(model)
    limbs = []
    for word, angle in zip(("shoulder_adduction", "hip_adduction"), (arms, legs)):
        names = [c for c in tree.coordinates if word in c]
        if not names:
            raise ModelError(f"has no coordinate named '*{word}*' to abduct for a rest pose with separate limbs",
                             f"model '{model.name}'")
        limbs += [(name, angle) for name in names]
    q = neutral(model)
    data = Data(model)
    forward_kinematics(model, data, q)
    root = frame_placement(model, data, model.bodies[0].name)
    for name, angle in limbs:
        body = _child(model, name)
        q_try = q.copy()
        q_try[tree.coordinates[name].qi] -= angle
        side = []
        for pose in (q, q_try):
            forward_kinematics(model, data, pose)
            limb = frame_placement(model, data, body)
            centre = limb.act(np.asarray(model.body(body).com, float))
            side.append(abs(root.inverse().act(centre)[2]))
        if angle > 0 and not side[1] > side[0]:
            raise ModelError(f"lowering '{name}' moves '{body}' towards the midline: not an abduction",
                             f"model '{model.name}'")
        q = q_try
    return q
