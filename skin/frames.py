"""World placements and velocities of the skin's bones (bodies), read after the engine's forward kinematics."""
from __future__ import annotations

import numpy as np

from engine.algorithms import frame_id
from engine.tree import compile_tree

from ._kernels_skin import bone_placements


class BoneFrames:
    """Where ``bodies`` sit in the engine's tree: each one's node and its frame in the node (``compile_tree(model)``'s
    frame table); calling it after ``forward_kinematics(model, data, q[, v])`` reads their world placements."""

    def __init__(self, model, bodies):
        frames = compile_tree(model).k.frames
        ids = [frame_id(model, b) for b in bodies]
        self.nodes = np.ascontiguousarray(frames["node"][ids], dtype=np.int64)
        self.R = np.ascontiguousarray(frames["R"][ids])
        self.p = np.ascontiguousarray(frames["p"][ids])

    def __call__(self, data, velocities: bool = False):
        """World rotations ``R`` (m, 3, 3) and origins ``p`` (m, 3) (eq. 3's ``R_j``, ``t_j`` before the rest
        pose is taken out); with ``velocities`` also angular velocities ``w`` (m, 3) and origin velocities
        ``pdot`` (m, 3), world axes (rad/s, m/s): eq. 10's ``(omega, x_dot)`` of each bone."""
        m = len(self.nodes)
        R, p, w, pdot = np.empty((m, 3, 3)), np.empty((m, 3)), np.empty((m, 3)), np.empty((m, 3))
        ws = data.ws
        bone_placements(ws["oR"], ws["op"], ws["vel"], self.nodes, self.R, self.p, velocities, R, p, w, pdot)
        return (R, p, w, pdot) if velocities else (R, p)


def body_frames(model, data, bodies, velocities: bool = False):
    """:class:`BoneFrames` of ``bodies`` read once (see its call)."""
    return BoneFrames(model, bodies)(data, velocities)
