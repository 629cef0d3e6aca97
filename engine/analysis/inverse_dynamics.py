"""Inverse dynamics with the measured loads: joint torques from the motion and the force plates.

Each force plate's reaction (force and moment about the lab origin, in the model
frame) is applied to the body an ExternalLoads file names for it, or, without one,
frame by frame to the contact point nearest to its centre of pressure (so a
plate under the blade loads the blade where it touches). Then RNEA gives
``tau = M a + b - sum J^T f`` (seed eq. 29). For a floating base the first
coordinates' generalized forces are the residual wrench the loads do not explain
(``IDResult.residual``).

A stance beside the plates is measured by none of them. On request (``unmeasured``)
the contact groups no plate measures at a frame get the QP's estimate (seed eq. 35,
``engine.analysis.qp_id``) with the plates' loads known, and the torques follow from all
the loads; without it (OpenSim's ID tool) such a stance shows in the residual. A plate
measures a group while one of the group's candidates is over the plate (its corners; zero
is a measurement too, so a foot hovering over a plate gets no estimated load) and while the
plate is loaded and its load is applied to the group (a plate applied to a body or rod, to the
groups with a candidate on it or distal to it). A plate without corners (from a GRF .mot) is
taken to cover, over each run of frames it is loaded, the convex hull of the candidates it
measured by the second rule within the QP's contact height of its surface: a part of the
plate, so a stance beside it is not taken for one on it, while a foot that approaches the
plate outside that hull is estimated (the notes list it). A group with one candidate over a
plate and another beside it counts as measured. Where the plates measure every loaded group
the two inverse dynamics are the same.
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import DataError, SettingsError
from ..model.joints import FreeJoint
from ..spatial import quat_to_matrix, tangent_basis
from ..tree import compile_tree
from ..trial.intervals import intervals_where, runs
from .joint_reactions import JointReactions, joint_reactions
from .qp_id import QPSettings, failure_notes, group_resultants, solve_qp_id


@dataclass
class IDResult:
    """Generalized forces ``tau`` (T, nv) (N m, N, and N m per unit strain for rods) at ``time``.

    ``residual`` (T, 6) is the root joint's part of ``tau`` for a floating base, as a world-frame
    wrench ``[moment about the root origin; force]`` (N m, N); None for a fixed base.
    ``assignments`` describes which plate loaded which body, and which contact groups' loads were estimated
    where no plate measured them; ``estimated`` holds those loads (``{group: qp_id.GroupForces}``, zero where
    the group was measured or off the floor), as applied: before any low-pass. ``loads_cutoff``: the low-pass
    (Hz) applied to ``tau`` and ``residual`` after inverse dynamics (``engine.analysis.load_filter``), None if
    none. ``bodies``: {plate: the body, frame or contact point its load was applied to} for the plates given one (an
    ExternalLoads file); the others' loads went frame by frame to the candidate :func:`nearest_candidates` gives.
    """

    time: np.ndarray
    tau: np.ndarray
    names: list
    residual: np.ndarray | None
    seconds: float
    assignments: list = field(default_factory=list)
    loads_cutoff: float | None = None
    estimated: dict = field(default_factory=dict)
    reactions: JointReactions | None = None
    bodies: dict = field(default_factory=dict)


def nearest_candidates(positions, cop, loaded, up) -> np.ndarray:
    """(T,) int: per frame, the index of the candidate at ``positions`` (T, C, 3) m horizontally nearest (across
    ``up``) to the centre of pressure ``cop`` (T, 3) m, where ``loaded`` (T,) bool; -1 elsewhere."""
    out = np.full(len(loaded), -1, np.int64)
    up = np.asarray(up, float)
    for f in np.flatnonzero(loaded):
        d = positions[f] - cop[f]
        out[f] = int(np.argmin(np.linalg.norm(d - np.outer(d @ up, up), axis=1)))
    return out


def plate_samples(plate, time):
    """Force (T, 3), moment about the origin (T, 3) and the loaded flag of a plate at ``time``; zero load outside
    the plate's samples (what a plot shows there: the inverse dynamics first checks with :func:`check_covers`)."""
    force = np.column_stack([np.interp(time, plate.time, plate.force[:, i], left=0.0, right=0.0) for i in range(3)])
    moment = np.column_stack([np.interp(time, plate.time, plate.moment[:, i], left=0.0, right=0.0)
                              for i in range(3)])
    cop = np.column_stack([np.interp(time, plate.time, np.nan_to_num(plate.cop[:, i]), left=0.0, right=0.0)
                           for i in range(3)])
    normal = force @ np.asarray(plate.normal)
    loaded = normal >= plate.threshold
    cop[~loaded] = np.nan
    return force, moment, cop, loaded


def check_covers(plate, time) -> None:
    """DataError unless the plate's samples cover ``time`` (s) to within half a sample: a load the plate did not
    record is not zero (``engine.trial.coverage.covered_range`` cuts an analysis to what the plates cover)."""
    span = plate.time[[0, -1]] if plate.n_samples else np.array([np.inf, -np.inf])
    if len(time) and (time[0] < span[0] - 0.5 / plate.rate or time[-1] > span[1] + 0.5 / plate.rate):
        raise DataError(f"the plate's loads cover {span[0]:.4f}-{span[1]:.4f} s, not the motion's "
                        f"{time[0]:.4f}-{time[-1]:.4f} s", element=f"force plate {plate.name}")


def _root_residual(model, Q, tau):
    root = model.ordered_elements[0]
    if not isinstance(root, FreeJoint):
        return None
    q0, _, v0, _ = compile_tree(model).joint_q[root.name]
    out = np.empty((len(Q), 6))
    for f, q in enumerate(Q):
        R = quat_to_matrix(q[q0 + 3:q0 + 7])
        out[f, :3] = R @ tau[f, v0:v0 + 3]
        out[f, 3:] = R @ tau[f, v0 + 3:v0 + 6]
    return out


def classic_inverse_dynamics(model, motion, plates, bodies=None, unmeasured: QPSettings | None = None) -> IDResult:
    """Torques for ``motion`` (engine.analysis.derivatives.Motion) with the measured ``plates``.

    ``bodies`` gives, per plate, the body (or frame or contact point) it acts on; None or a None
    entry assigns that plate frame by frame to the contact point nearest its centre of pressure.
    ``unmeasured``: settings of the QP that estimates the loads of the contact groups no plate
    measures at a frame (see the module notes); None applies the plates' loads only.
    """
    t0 = _time.perf_counter()
    tree = compile_tree(model)
    data = Data(model)
    T = len(motion.time)
    fext = np.zeros((T, tree.n_nodes, 6))
    bodies = list(bodies) if bodies is not None else [None] * len(plates)
    if len(bodies) != len(plates):
        raise SettingsError(f"{len(bodies)} bodies given for {len(plates)} force plates")
    frames = tree.k.frames
    assignments = []
    contact_nodes = np.array([frames[tree.contact_frame[c.name]]["node"] for c in model.contacts], np.int64)
    groups = np.array([c.group for c in model.contacts])
    measured = np.zeros((T, len(groups)), bool)      # candidates whose group a plate measures
    positions = alg.frame_positions_batch(model, data, motion.q, [c.name for c in model.contacts]) \
        if len(contact_nodes) else None
    for plate in plates:
        check_covers(plate, motion.time)
    for plate, body in zip(plates, bodies):
        force, moment, cop, loaded = plate_samples(plate, motion.time)
        assigned = np.zeros_like(measured)      # candidates of the groups this plate's load is applied to
        if body is not None:
            node = frames[alg.frame_id(model, body)]["node"]
            fext[:, node, :3] += moment
            fext[:, node, 3:] += force
            distal = {c.group for c, n in zip(model.contacts, contact_nodes)
                      if c.parent == body or _in_subtree(tree.k.nodes["parent"], n, node)}
            assigned[np.ix_(loaded, np.isin(groups, list(distal)))] = True
            assignments.append(f"plate {plate.name}: applied to {body}")
        else:
            if positions is None:
                raise SettingsError(f"plate {plate.name} names no body and the model has no contact points to "
                                    "assign it to (give an ExternalLoads file or contact candidates)")
            used = {}
            nearest = nearest_candidates(positions, cop, loaded, plate.normal)
            for f in np.flatnonzero(loaded):
                k = nearest[f]
                fext[f, contact_nodes[k], :3] += moment[f]
                fext[f, contact_nodes[k], 3:] += force[f]
                assigned[f, groups == groups[k]] = True
                used[groups[k]] = used.get(groups[k], 0) + 1
            assignments.append(f"plate {plate.name}: assigned by centre of pressure to "
                               + (", ".join(f"{g} ({n} frames)" for g, n in used.items())
                                  or "nothing (never loaded)"))
        measured |= assigned
        if unmeasured is not None and positions is not None:
            over = _over_plate(plate, positions, assigned, loaded, unmeasured.height)
            for g in set(groups):         # a group with a candidate over the plate is measured by it
                measured[:, groups == g] |= over[:, groups == g].any(axis=1)[:, None]
    estimated = {}
    if unmeasured is not None and len(contact_nodes):
        estimated, notes = _add_estimated_loads(model, motion, unmeasured, fext, measured, positions, contact_nodes)
        assignments += notes
    tau, reactions = joint_reactions(model, motion, fext)
    return IDResult(time=motion.time, tau=tau, names=list(tree.v_names), residual=_root_residual(model, motion.q, tau),
                    seconds=_time.perf_counter() - t0, assignments=assignments, estimated=estimated,
                    reactions=reactions, bodies={p.name: b for p, b in zip(plates, bodies) if b is not None})


def _in_subtree(parents, node: int, root: int) -> bool:
    """Whether tree ``node`` is ``root`` or distal to it (``parents``: each node's parent, -1 for the world)."""
    while node >= 0:
        if node == root:
            return True
        node = parents[node]
    return False


def _over_plate(plate, positions, assigned, loaded, height: float) -> np.ndarray:
    """(T, C) bool: the candidates at ``positions`` (T, C, 3) m over ``plate``: inside its corners, or, for a
    plate without corners, inside the convex hull (seen along the plate's normal) of the ``assigned`` (T, C)
    candidates within ``height`` m of its surface over one run of ``loaded`` (T,) frames, for any run."""
    over = plate.covers(positions)
    if over is not None:
        return over
    plane = np.stack(tangent_basis(plate.normal), axis=1)            # (3, 2): the surface's coordinates
    flat = (positions - plate.surface_point) @ plane
    standing = assigned & ((positions - plate.surface_point) @ plate.normal < height)
    over = np.zeros(assigned.shape, bool)
    from scipy.spatial import Delaunay, QhullError    # imported when used: the window imports this module at launch
    for a, b in runs(loaded):
        try:
            hull = Delaunay(flat[a:b + 1][standing[a:b + 1]])
        except (QhullError, ValueError):      # fewer than three points, or all on a line: no area
            continue
        over |= hull.find_simplex(flat) >= 0
    return over


def _add_estimated_loads(model, motion, settings, fext, measured, positions, contact_nodes):
    """Estimate the contact forces ``measured`` (T, C) leaves free with the plates' loads ``fext`` known and add
    them to ``fext`` (in place); returns ``({group: GroupForces} of the groups given a load, notes)``."""
    qp = solve_qp_id(model, motion, settings, node_wrenches=fext, measured=measured)
    notes = failure_notes(qp.status)
    for k, node in enumerate(contact_nodes):
        fext[:, node, :3] += np.cross(positions[:, k], qp.forces[:, k])
        fext[:, node, 3:] += qp.forces[:, k]
    estimated = {}
    for g, loads in group_resultants(model, positions, qp.forces, qp.floor).items():
        force = np.linalg.norm(loads.force, axis=1)
        if (force > 0.0).any():
            estimated[g] = loads
            spans = ", ".join(f"{a:.3f}-{b:.3f}" for a, b in intervals_where(motion.time, force > 0.0))
            notes.append(f"contact group {g}: no plate measured it where the QP, given the plates' loads, estimated "
                         f"a load on it: {int((force > 0.0).sum())} frames ({spans} s), at most {force.max():.1f} N "
                         "(grf_off_plates.mot)")
    return estimated, notes
