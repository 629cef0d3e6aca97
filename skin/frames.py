"""World placements and velocities of the skin's bones (bodies), read after the engine's forward kinematics."""
from __future__ import annotations

import numpy as np

from engine.algorithms import frame_id


def body_frames(model, data, bodies, velocities: bool = False):
    """World rotations ``R`` (m, 3, 3) and origins ``p`` (m, 3) of ``bodies`` after
    ``forward_kinematics(model, data, q[, v])``; with ``velocities``, also their angular velocities
    ``w`` (m, 3) and origin velocities ``pdot`` (m, 3), world axes (rad/s, m/s).

    These are eq. 3's ``R_j`` and ``t_j`` before the rest pose is taken out, and eq. 10's
    ``(x_dot, omega)`` of each bone."""
    frames = model.tree.k.frames
    ws = data.ws
    m = len(bodies)
    R = np.empty((m, 3, 3))
    p = np.empty((m, 3))
    w = np.empty((m, 3))
    pdot = np.empty((m, 3))
    for j, name in enumerate(bodies):
        fr = frames[frame_id(model, name)]
        node = fr["node"]
        Rn, pn = ws["oR"][node], ws["op"][node]
        R[j] = Rn @ fr["R"]
        p[j] = pn + Rn @ fr["p"]
        if velocities:
            vel = ws["vel"][node]           # body twist [omega; v at the node origin], node axes
            w[j] = Rn @ vel[:3]
            pdot[j] = Rn @ (vel[3:] + np.cross(vel[:3], fr["p"]))
    if velocities:
        return R, p, w, pdot
    return R, p
