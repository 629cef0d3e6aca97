"""Inverse dynamics by quadratic programming with ground-reaction estimation (seed eq. 35).

Unknowns per frame: joint torques ``tau_R``, the rods' generalized forces ``tau_S``
and a force ``f_i`` at every active contact candidate. The seed minimises

    1/2 || M a + b - [0; tau_R; tau_S] - J_C^T f_C ||^2_W1 + 1/2 || x ||^2_W2

subject to unilateral contact and the friction cone. With diagonal weights the
torques can be eliminated exactly (each row's optimal torque is a weighted
average of that row's residual and, for rods pulled towards their elastic model,
the elastic force), which leaves a QP in the contact forces only:

    min_f 1/2 sum_rows alpha_i (r_i(f) - beta_i)^2 + 1/2 sum_i w_f,i |f_i|^2,   r(f) = M a + b - J_C^T f

with ``alpha = W1`` on the floating base's rows, ``alpha = W1 W2 / (W1 + W2)`` on joint
rows and, for rods, ``alpha = W1 (W2 + We) / (W1 + W2 + We)``, ``beta = We e / (W2 + We)``
where ``e = K (q_rest - q) - D v`` (eq. 26) and ``We`` the elastic weight (0: rods free,
as in the seed). The cone is linearised by an inscribed pyramid; a candidate may
push only while it is near the floor and slow (documented thresholds). Solved per
frame: in numba from the previous frame's contact states (each candidate unloaded, inside its pyramid, or on
one or two of its facets) while the KKT conditions certify them optimal (``engine.kernels._qp_id``), else by
quadprog (``engine.qp.solve_qp``, the pyramids as inequalities).

Loads known at every frame (force plates) can be given as wrenches on tree nodes, with the
candidates they already measure held at zero: ``b`` then includes them and only the other
contacts are estimated (``engine.analysis.inverse_dynamics`` does so for the stances no
plate measured).
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..kernels import _qp_id
from ..errors import SettingsError
from ..spatial import tangent_basis
from ..model.joints import FreeJoint, GeneralJoint
from ..model.model import GROUND
from ..tree import compile_tree
from ..trial.forceplate import centre_of_pressure
from ..progress import Progress, run
from ..qp import solve_qp


@dataclass
class QPSettings:
    """Settings of the QP inverse dynamics (SI units).

    friction : static friction coefficient mu of the cone.
    facets : faces of the inscribed friction pyramid (mu is reduced by cos(pi/facets)).
    height : a candidate may push while it is less than this above the floor (m).
    speed : ... and moves slower than this relative to the floor (m/s).
    floor : floor height along the up direction (m), or 'auto': the lowest point any
        contact group reaches during the trial, averaged over groups.
    floor_velocity : the floor's velocity (3,) m/s (a treadmill belt), or 'auto': the median
        horizontal velocity of the candidates within ``height`` of the floor (about zero
        over ground, the belt speed on a treadmill).
    w_base : W1 on the floating base's rows (its dynamics must be explained by contact).
    w_joint : W1 on joint and rod rows.
    w_torque, w_force, w_rod : W2 on joint torques, contact forces and rod forces. The default
        is the seed's isotropic ``W2 = 1e-4 I`` on ``x = [tau_R; tau_S; f_C]`` (eq. 35): equal
        weights let the QP share the load between contacts by the torques it implies.
    rod_mode : 'free' (the seed: rod forces are unknowns like torques) or 'elastic' (pulled
        towards ``K (q_rest - q) - D v`` with weight ``w_elastic``).
    """

    friction: float = 0.8
    facets: int = 8
    height: float = 0.04
    speed: float = 1.0
    floor: float | str = "auto"
    floor_velocity: object = "auto"
    w_base: float = 1.0
    w_joint: float = 1.0
    w_torque: float = 1e-4
    w_force: float = 1e-4
    rod_mode: str = "free"
    w_rod: float = 1e-4
    w_elastic: float = 1.0
    chunk: int = 100

    def check(self):
        if not self.friction > 0 or self.facets < 3:
            raise SettingsError(f"friction must be positive and facets at least 3 (got {self.friction}, "
                                f"{self.facets})")
        if self.rod_mode not in ("free", "elastic"):
            raise SettingsError(f"rod_mode must be 'free' or 'elastic', got {self.rod_mode!r}")
        for name in ("height", "speed", "w_base", "w_joint", "w_torque", "w_force", "w_rod", "w_elastic"):
            if not getattr(self, name) >= 0:
                raise SettingsError(f"{name} must be non-negative, got {getattr(self, name)}")
        if not (self.w_force > 0):
            raise SettingsError("w_force must be positive (it keeps the QP strictly convex)")


@dataclass
class GroupForces:
    """Resultant of one contact group per frame: force (T, 3) N, centre of pressure (T, 3) m on the
    floor (NaN while unloaded), free moment (T, 3) N m about the vertical, in the model frame."""

    name: str
    force: np.ndarray
    cop: np.ndarray
    free_moment: np.ndarray


@dataclass
class QPResult:
    """``tau`` (T, nv) with the floating base's rows holding the residual; contact ``forces`` (T, C, 3),
    ``active`` (T, C) candidates; ``groups`` per contact group; ``status`` True where the QP solved;
    ``floor`` height used (m); ``loads_cutoff`` the low-pass (Hz) applied to tau, forces and groups after
    the QP (``engine.analysis.load_filter``), None if none."""

    time: np.ndarray
    tau: np.ndarray
    names: list
    contact_names: list
    forces: np.ndarray
    active: np.ndarray
    groups: dict
    status: np.ndarray
    floor: float
    seconds: float
    notes: list = field(default_factory=list)
    loads_cutoff: float | None = None


def group_resultants(model, X, forces, floor: float) -> dict:
    """``{group: GroupForces}``: each contact group's resultant, centre of pressure on the floor (``floor`` m
    along up) and free moment, from its candidates' positions ``X`` (T, C, 3) m and ``forces`` (T, C, 3) N."""
    up = model.up
    out = {}
    for g in sorted({c.group for c in model.contacts}):
        member = np.array([c.group == g for c in model.contacts])
        fg = forces[:, member].sum(axis=1)
        moment = np.cross(X[:, member], forces[:, member]).sum(axis=1)
        cop, free = centre_of_pressure(fg, moment, floor * up, up)
        out[g] = GroupForces(g, fg, cop, free)
    return out


def floating_base_rows(model) -> np.ndarray:
    """v indices of the unactuated root: a free joint, or a ground joint with translations (OpenSim pelvis)."""
    root = model.ordered_elements[0]
    q0, nq, v0, nv = compile_tree(model).joint_q[root.name]
    if isinstance(root, FreeJoint):
        return np.arange(v0, v0 + 6)
    if isinstance(root, GeneralJoint) and model.resolve(root.parent)[0] == GROUND and \
            any(ax.coordinate is not None for ax in root.translations):
        return np.arange(v0, v0 + nv)
    raise SettingsError("the model has no floating base (a free joint, or a ground joint with translations): "
                        "ground reactions cannot be estimated")


def _row_weights(model, s: QPSettings, q):
    nv = model.nv
    base = floating_base_rows(model)
    rods = np.array([compile_tree(model).coordinates[n].vi for r in model.rods for n in r.coordinate_names()], int)
    alpha = np.full(nv, s.w_joint * s.w_torque / (s.w_joint + s.w_torque) if s.w_torque > 0 else 0.0)
    we = s.w_elastic if s.rod_mode == "elastic" else 0.0
    if rods.size:
        alpha[rods] = s.w_joint * (s.w_rod + we) / (s.w_joint + s.w_rod + we) if (s.w_rod + we) > 0 else 0.0
    alpha[base] = s.w_base
    return alpha, base, rods, we


def _pyramid(mu, facets, up, t1, t2):
    """Rows g with g . f <= 0 for the inscribed friction pyramid and f . up >= 0."""
    mu_eff = mu * np.cos(np.pi / facets)
    rows = [-up]
    for k in range(facets):
        th = 2 * np.pi * k / facets
        rows.append(np.cos(th) * t1 + np.sin(th) * t2 - mu_eff * up)
    return np.array(rows)


def _pyramid_rays(mu, facets, up, t1, t2):
    """The pyramid's edge rays (facets, 3): ``up + mu (cos t1 + sin t2)`` midway between the facets' directions, where
    two facets of the inscribed pyramid meet the cone."""
    th = 2 * np.pi * (np.arange(facets) + 0.5) / facets
    return up + mu * (np.cos(th)[:, None] * t1 + np.sin(th)[:, None] * t2)


def qp_inverse_dynamics(model, motion, settings: QPSettings | None = None, node_wrenches=None, measured=None):
    """Generator step: yields Progress, returns a :class:`QPResult` for ``motion`` (a derivatives.Motion).

    ``node_wrenches`` (T, nodes, 6): loads known at every frame (measured by force plates), world wrenches
    ``[moment about the origin; force]`` (N m, N) applied before the contacts are estimated; ``measured``
    (T, C) bool: candidates held at zero force because those loads already measure their group at that frame
    (``engine.analysis.inverse_dynamics``). Both None: every load is estimated (the seed's eq. 35).
    """
    s = settings or QPSettings()
    s.check()
    t0 = _time.perf_counter()
    if not model.contacts:
        raise SettingsError(f"model '{model.name}' has no contact candidates (add them, e.g. from a contacts file)")
    data = Data(model)
    T = len(motion.time)
    names = [c.name for c in model.contacts]
    C = len(names)
    up = model.up
    t1, t2 = tangent_basis(up)
    pyramid = _pyramid(s.friction, s.facets, up, t1, t2)
    h_all = alg.rnea_batch(model, data, motion.q, motion.v, motion.a, node_wrenches)
    J_all = alg.point_jacobians_batch(model, data, motion.q, names)
    X = alg.frame_positions_batch(model, data, motion.q, names)
    heights = X @ up
    velocities = np.einsum("tcij,tj->tci", J_all, motion.v)
    groups = sorted({c.group for c in model.contacts})
    member = {g: np.array([c.group == g for c in model.contacts]) for g in groups}
    floor = float(np.mean([heights[:, member[g]].min() for g in groups])) if s.floor == "auto" else float(s.floor)
    near = (heights - floor) < s.height
    if isinstance(s.floor_velocity, str):
        if s.floor_velocity != "auto":
            raise SettingsError(f"floor_velocity must be 'auto' or a velocity (3 numbers), got {s.floor_velocity!r}")
        horizontal = velocities[near] - np.outer(velocities[near] @ up, up)
        floor_velocity = np.median(horizontal, axis=0) if len(horizontal) else np.zeros(3)
    else:
        floor_velocity = np.asarray(s.floor_velocity, float).reshape(3)
    notes = [f"floor at {floor:.4f} m along up ({'estimated' if s.floor == 'auto' else 'given'})",
             f"floor velocity {np.round(floor_velocity, 3).tolist()} m/s "
             f"({'estimated' if isinstance(s.floor_velocity, str) else 'given'})"]
    speeds = np.linalg.norm(velocities - floor_velocity, axis=2)
    active = near & (speeds < s.speed)
    if measured is not None:
        active &= ~np.asarray(measured, bool)
    alpha, base, rods, we = _row_weights(model, s, motion.q[0])
    forces = np.zeros((T, C, 3))
    residual = np.empty((T, model.nv))
    status = np.zeros(T, bool)
    # eliminated torques: tau_i = (W1 r_i + We e_i) / (W1 + W2 + We); base rows keep the residual
    w2 = np.full(model.nv, s.w_torque)
    w2[rods] = s.w_rod
    wel = np.zeros(model.nv)
    wel[rods] = we
    elastic = np.zeros((T, model.nv))
    beta = np.zeros((T, model.nv))
    if we > 0 and rods.size:
        for f in range(T):
            elastic[f] = alg.rod_forces(model, motion.q[f], motion.v[f])
        beta[:, rods] = we * elastic[:, rods] / (s.w_rod + we)
    rays = _pyramid_rays(s.friction, s.facets, up, t1, t2)
    state = np.full(C, _qp_id.UNLOADED)
    facet = np.zeros((C, 2), np.int64)
    f = 0
    while f < T:
        stop = min(T, (f // s.chunk + 1) * s.chunk)
        # the frames whose previous frame's contact states still give the optimum, in numba
        f = _qp_id.warm_frames(f, stop, J_all, h_all, beta, active, alpha, s.w_force, pyramid, rays, state, facet,
                               forces, residual, status)
        if f < stop:        # a frame whose contact states changed: quadprog
            idx = np.flatnonzero(active[f])
            Jc = J_all[f, idx].reshape(-1, model.nv)            # (3k, nv)
            P = Jc @ (alpha[:, None] * Jc.T) + s.w_force * np.eye(3 * idx.size)
            c = -Jc @ (alpha * (h_all[f] - beta[f]))
            G = np.kron(np.eye(idx.size), pyramid)              # every force in its pyramid: G f <= 0
            sol, _ = solve_qp(P, c, G, np.zeros(len(G)))
            if sol is None:
                state[:] = _qp_id.UNLOADED
            else:
                forces[f, idx] = sol.reshape(-1, 3)
                residual[f] = h_all[f] - Jc.T @ sol
                status[f] = True
                _qp_id.candidate_states(pyramid, sol, idx, state, facet)
            f += 1
        if f == stop:
            yield Progress("QP inverse dynamics", f / T, f"{motion.time[f - 1]:.3f} s")
    tau = (s.w_joint * residual + wel * elastic) / (s.w_joint + w2 + wel)
    tau[:, base] = residual[:, base]
    tau[~status] = h_all[~status]
    group_results = group_resultants(model, X, forces, floor)
    notes += failure_notes(status)
    yield Progress("QP inverse dynamics", 1.0, "done")
    return QPResult(time=motion.time, tau=tau, names=list(compile_tree(model).v_names), contact_names=names, forces=forces,
                    active=active, groups=group_results, status=status, floor=floor,
                    seconds=_time.perf_counter() - t0, notes=notes)


def solve_qp_id(model, motion, settings: QPSettings | None = None, report=None, node_wrenches=None,
                measured=None) -> QPResult:
    """Run :func:`qp_inverse_dynamics` to the end."""
    return run(qp_inverse_dynamics(model, motion, settings, node_wrenches, measured), report)


def failure_notes(status: np.ndarray) -> list[str]:
    """The note an analysis gives for the frames where the QP did not solve (``status`` False)."""
    failed = int((~np.asarray(status, bool)).sum())
    return [f"the QP failed in {failed} frames: torques there are plain ID without contact"] if failed else []
