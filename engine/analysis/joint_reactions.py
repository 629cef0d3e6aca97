"""Joint reaction loads over a trial: what each joint transmits from its parent body to its child.

OpenSim's JointReaction analysis, with its defaults: the load of the parent on the child, expressed in ground
(model) axes, the moment taken about the joint centre (the origin of the joint's frame on the child). It comes
from the same RNEA pass as the joint torques (``engine.algorithms.joint_wrenches_batch``), with the same
external loads: the force plates' and the estimate's where no plate measured (the inverse dynamics with the
measured loads), or the QP's contact forces (the estimate from the motion alone). The moment includes the
coordinates' torques (a coordinate's torque is the moment about its axis); for the floating base's joint it is the
residual wrench.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..tree import compile_tree


@dataclass
class JointReactions:
    """``wrench`` (T, J, 6): per joint ``joints[j]`` (child body ``children[j]``) the parent's load on the child,
    model axes, ``[moment about the joint centre (N m); force (N)]``; ``centre`` (T, J, 3) the joint centres in
    model axes (m); ``loads`` the loads they balance ("measured loads" or "estimated loads")."""

    joints: list
    children: list
    wrench: np.ndarray
    centre: np.ndarray
    loads: str

    def of(self, joint: str) -> np.ndarray:
        """(T, 6) wrench of the named joint."""
        return self.wrench[:, self.joints.index(joint)]


def joint_reactions(model, motion, node_wrenches=None, loads: str = "measured loads"):
    """``(tau, reactions)``: the generalized forces (T, nv), as ``rnea_batch``, and the :class:`JointReactions`
    of every joint for ``motion`` (``engine.analysis.derivatives.Motion``) under ``node_wrenches`` (T, nodes, 6)
    world wrenches about the origin (or none)."""
    names = [j.name for j in model.joints]
    tau, W, centre = alg.joint_wrenches_batch(model, Data(model), motion.q, motion.v, motion.a, names,
                                              node_wrenches)
    return tau, JointReactions(names, [j.child for j in model.joints], W, centre, loads)


def contact_node_wrenches(model, motion, contact_names, forces) -> np.ndarray:
    """(T, nodes, 6) world wrenches about the origin of contact forces ``forces`` (T, C, 3) (N, model axes)
    applied at the named contact points."""
    tree = compile_tree(model)
    X = alg.frame_positions_batch(model, Data(model), motion.q, contact_names)
    nodes = [tree.k.frames[tree.contact_frame[n]]["node"] for n in contact_names]
    out = np.zeros((len(motion.time), tree.n_nodes, 6))
    for c, node in enumerate(nodes):
        out[:, node, :3] += np.cross(X[:, c], forces[:, c])
        out[:, node, 3:] += forces[:, c]
    return out


def estimated_joint_reactions(model, motion, qp) -> JointReactions:
    """The reactions under the QP's contact forces (``qp_id.QPResult``; after its loads filter, if any)."""
    fext = contact_node_wrenches(model, motion, qp.contact_names, qp.forces)
    return joint_reactions(model, motion, fext, "estimated loads")[1]


def analysis_reactions(result) -> JointReactions | None:
    """The reactions that go with the analysis's joint torques (``AnalysisResult.dynamics``): those of the
    inverse dynamics with the measured loads when it ran, else those under the QP's estimate; None if neither
    ran (or a results file saved before reactions were kept)."""
    if result.classic is not None:
        return result.classic.reactions
    if result.qp is not None:
        return estimated_joint_reactions(result.model, result.motion, result.qp)
    return None


def filtered_reactions(reactions: JointReactions | None, lowpass) -> JointReactions | None:
    """``reactions`` with ``wrench`` passed through ``lowpass`` ((T, k) -> (T, k)), the joint torques' filter."""
    if reactions is None:
        return None
    T, J, _ = reactions.wrench.shape
    return replace(reactions, wrench=lowpass(reactions.wrench.reshape(T, J * 6)).reshape(T, J, 6))
