"""Classic inverse dynamics: joint torques from the motion and the measured ground reactions.

Each force plate's reaction (force and moment about the lab origin, in the model
frame) is applied to the body an ExternalLoads file names for it, or, without one,
frame by frame to the contact point nearest to its centre of pressure (so a
plate under the blade loads the blade where it touches). Then RNEA gives
``tau = M a + b - sum J^T f`` (seed eq. 29). For a floating base the first
coordinates' generalized forces are the residual wrench the measured loads do
not explain (``IDResult.residual``).
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

import numpy as np

from .. import algorithms as alg
from ..errors import SettingsError
from ..model.joints import FreeJoint
from ..spatial import quat_to_matrix


@dataclass
class IDResult:
    """Generalized forces ``tau`` (T, nv) (N m, N, and N m per unit strain for rods) at ``time``.

    ``residual`` (T, 6) is the root joint's part of ``tau`` for a floating base, as a world-frame
    wrench ``[moment about the root origin; force]`` (N m, N); None for a fixed base.
    ``assignments`` describes which plate loaded which body. ``loads_cutoff``: the low-pass (Hz) applied to
    ``tau`` and ``residual`` after inverse dynamics (``engine.analysis.load_filter``), None if none.
    """

    time: np.ndarray
    tau: np.ndarray
    names: list
    residual: np.ndarray | None
    seconds: float
    assignments: list = field(default_factory=list)
    loads_cutoff: float | None = None


def plate_samples(plate, time):
    """Force (T, 3), moment about the origin (T, 3) and the loaded flag of a plate at ``time``."""
    force = np.column_stack([np.interp(time, plate.time, plate.force[:, i], left=0.0, right=0.0) for i in range(3)])
    moment = np.column_stack([np.interp(time, plate.time, plate.moment[:, i], left=0.0, right=0.0)
                              for i in range(3)])
    cop = np.column_stack([np.interp(time, plate.time, np.nan_to_num(plate.cop[:, i]), left=0.0, right=0.0)
                           for i in range(3)])
    normal = force @ np.asarray(plate.normal)
    loaded = normal >= plate.threshold
    cop[~loaded] = np.nan
    return force, moment, cop, loaded


def _root_residual(model, Q, tau):
    root = model.ordered_elements[0]
    if not isinstance(root, FreeJoint):
        return None
    q0, _, v0, _ = model.tree.joint_q[root.name]
    out = np.empty((len(Q), 6))
    for f, q in enumerate(Q):
        R = quat_to_matrix(q[q0 + 3:q0 + 7])
        out[f, :3] = R @ tau[f, v0:v0 + 3]
        out[f, 3:] = R @ tau[f, v0 + 3:v0 + 6]
    return out


def classic_inverse_dynamics(model, motion, plates, bodies=None) -> IDResult:
    """Torques for ``motion`` (engine.analysis.derivatives.Motion) with the measured ``plates``.

    ``bodies`` gives, per plate, the body (or frame or contact point) it acts on; None or a None
    entry assigns that plate frame by frame to the contact point nearest its centre of pressure.
    """
    t0 = _time.perf_counter()
    tree = model.tree
    data = model.create_data()
    T = len(motion.time)
    fext = np.zeros((T, tree.n_nodes, 6))
    bodies = list(bodies) if bodies is not None else [None] * len(plates)
    if len(bodies) != len(plates):
        raise SettingsError(f"{len(bodies)} bodies given for {len(plates)} force plates")
    frames = tree.k.frames
    assignments = []
    contact_ids = np.array([tree.contact_frame[c.name] for c in model.contacts], np.int64)
    positions = alg.frame_positions_batch(model, data, motion.q, [c.name for c in model.contacts]) \
        if len(contact_ids) else None
    for plate, body in zip(plates, bodies):
        force, moment, cop, loaded = plate_samples(plate, motion.time)
        if body is not None:
            node = frames[alg.frame_id(model, body)]["node"]
            fext[:, node, :3] += moment
            fext[:, node, 3:] += force
            assignments.append(f"plate {plate.name}: applied to {body}")
            continue
        if positions is None:
            raise SettingsError(f"plate {plate.name} names no body and the model has no contact points to "
                                "assign it to (give an ExternalLoads file or contact candidates)")
        used = {}
        up = np.asarray(plate.normal)
        for f in np.flatnonzero(loaded):
            d = positions[f] - cop[f]
            horizontal = np.linalg.norm(d - np.outer(d @ up, up), axis=1)
            k = int(np.argmin(horizontal))
            node = frames[contact_ids[k]]["node"]
            fext[f, node, :3] += moment[f]
            fext[f, node, 3:] += force[f]
            used[model.contacts[k].group] = used.get(model.contacts[k].group, 0) + 1
        assignments.append(f"plate {plate.name}: assigned by centre of pressure to "
                           + (", ".join(f"{g} ({n} frames)" for g, n in used.items()) or "nothing (never loaded)"))
    tau = alg.rnea_batch(model, data, motion.q, motion.v, motion.a, fext)
    return IDResult(time=motion.time, tau=tau, names=list(tree.v_names), residual=_root_residual(model, motion.q, tau),
                    seconds=_time.perf_counter() - t0, assignments=assignments)
