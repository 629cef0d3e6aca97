"""Muscle-force estimation per frame: the seed's QP (eqs. 36-37) and OpenSim's static optimisation.

Seed objective (``objective='seed'``), per frame::

    minimise  1/2 || tau - (-J_l^T f) - R_res f_res ||^2_W1 + 1/2 || f - f_ref ||^2_W2
              + 1/2 w_res || f_res / f_opt ||^2
    subject to f_min(l, l-dot) <= f <= f_max(l, l-dot)

with ``tau`` the generalized forces from inverse dynamics, ``J_l = dl/dv`` the
muscle-length Jacobian (moment arms ``-J_l``), ``f`` tensions (positive pulls),
``f_max = f_active_max + f_passive`` and ``f_min = f_passive`` from the rigid-tendon
Hill model with muscle physiology (:mod:`engine.muscles.forces.hill`), or ``0 <= f <= F_max``
without. W1, W2 are diagonal (W2 = 0 by default, as in the seed's comparison).
With W2 = 0 the forces that minimise the tracking term are not unique (more muscles
than joints); a small term ``eps || f / F_max ||^2`` (``regularization``) makes the
problem strictly convex and picks, among them, the smallest normalised forces.

OpenSim objective (``objective='opensim'``), as its StaticOptimization analysis::

    minimise  sum a_i^2 + sum (f_res,k / f_opt,k)^2
    subject to -J_l^T (a * f_active_max) + R_res f_res = tau    (every unlocked coordinate)
               min_control <= a <= max_control, reserve controls within theirs

``f_active_max`` is OpenSim's ``calcInextensibleTendonActiveFiberForce(s, 1)``; OpenSim
leaves the passive fibre force out of its static optimisation (``include_passive``
adds it); ``F_max`` replaces ``f_active_max`` without muscle physiology. OpenSim matches
accelerations, which for the same model is matching the inverse-dynamics generalized
forces. The muscles' control bounds are their ``min_control`` / ``max_control``
parameters when the file gives them, else ``minimum_activation`` (OpenSim's default
min_control for Thelen and Millard muscles) and 1.

Frames are solved in sequence, each warm-started from the previous frame's active
set (:mod:`engine.muscles.forces.qp`). A frame whose constraints cannot be met is reported
``'infeasible'``, one with NaN inputs ``'not solved (NaN in its inputs)'``, both with NaN forces;
neither raises. A seed objective whose cost is flat in some reserve (``reserve_weight`` 0 and a reserve acting on
coordinates not tracked) has no unique minimum at any frame: that is a ``SettingsError`` naming the reserve.
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, replace

import numpy as np

from ...errors import SettingsError
from ...per_model import PerModel
from ...tree import compile_tree
from .balance import crossed, muscles_alone_unbalanced
from .hill import HillMuscles, RigidTendonForces
from .qp import INFEASIBLE, NO_DATA, CostNotPositiveDefinite, solve_activation_frames, solve_tracking_frames
from .reserves import ReserveActuators, check_actuators, generalized_forces
from .results import MuscleForceResult

OBJECTIVES = ("seed", "opensim")


@dataclass(frozen=True)
class MuscleForceSettings:
    """Settings of muscle-force estimation, with their defaults.

    Attributes
    ----------
    objective : ``'seed'`` (eqs. 36-37, default) or ``'opensim'`` (sum of squared activations,
        generalized forces matched exactly).
    muscle_physiology : bounds (seed) or force per activation (opensim) from the Hill model (default
        True); False uses ``0 <= f <= F_max`` (seed) or ``f = a F_max`` (opensim).
    tracking_weight : W1, the weight of each generalized force in the seed objective (1/(N m)^2 or
        1/N^2): one number, or a mapping ``{coordinate name: weight}`` (others 1). Default 1.
    reference_weight : W2, the weight of ``f - f_ref`` (1/N^2): one number or ``{muscle name: weight}``
        (others 0). Default 0. Applies only where an EMG reference exists.
    reserves : residual/reserve actuators (:mod:`engine.muscles.forces.reserves`), or None (default) for none.
    reserve_weight : seed objective: weight of ``(f_res / f_opt)^2`` relative to W1 = 1. Default 1.
    include_passive : opensim objective: add the passive fibre force to each muscle's tension
        (OpenSim leaves it out; default False).
    activation_exponent : opensim objective: only 2 (a quadratic programme) is supported.
    regularization : seed objective: ``eps`` of the term ``eps * s || f / F_max ||^2`` that makes the
        problem strictly convex, with ``s`` the largest diagonal entry of the tracking Hessian in
        those units. Default 1e-8.
    filter cut-off : not here; coordinates are filtered upstream, before inverse dynamics.
    """

    objective: str = "seed"
    muscle_physiology: bool = True
    tracking_weight: object = 1.0
    reference_weight: object = 0.0
    reserves: ReserveActuators | None = None
    reserve_weight: float = 1.0
    include_passive: bool = False
    activation_exponent: float = 2.0
    regularization: float = 1e-8

    def __post_init__(self):
        if self.objective not in OBJECTIVES:
            raise SettingsError(f"objective must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.activation_exponent != 2:
            raise SettingsError(f"activation_exponent must be 2 (the problem is then a QP), got "
                                f"{self.activation_exponent}")
        for name in ("reserve_weight", "regularization"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and np.isfinite(value) and value >= 0):
                raise SettingsError(f"{name} must be a non-negative number, got {value!r}")
        if self.objective == "seed" and self.regularization == 0:
            raise SettingsError("regularization must be positive with the seed objective (the QP solver needs a "
                                "strictly convex problem)")
        if self.reserves is not None and not isinstance(self.reserves, ReserveActuators):
            raise SettingsError("reserves must be ReserveActuators (see engine.muscles.forces.reserves)")


def _weights(spec, names, default, what):
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(names))
        if unknown:
            raise SettingsError(f"{what}: no such name(s) {', '.join(map(repr, unknown))}")
        w = np.array([float(spec.get(n, default)) for n in names])
    else:
        try:
            w = np.full(len(names), float(spec))
        except (TypeError, ValueError):
            raise SettingsError(f"{what} must be a number or a mapping of names to numbers, got {spec!r}") from None
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise SettingsError(f"{what} must be finite and non-negative")
    return w


def muscle_control_bounds(muscles) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) activation bounds of each muscle (see the module docstring)."""
    lo, hi = [], []
    for m in muscles:
        p = m.parameters
        lo.append(float(p.get("min_control", p.get("minimum_activation", 0.0))))
        hi.append(float(p.get("max_control", 1.0)))
    return np.array(lo), np.array(hi)


def locked_speeds(model) -> np.ndarray:
    """(nv,) bool: generalized speeds of locked coordinates (no generalized force is matched there)."""
    slots = compile_tree(model).coordinates
    return np.array([n in slots and slots[n].locked for n in compile_tree(model).v_names], bool)


@dataclass(frozen=True)
class _ModelMuscles:
    """What an estimate needs of the model alone: its muscles' Hill models, their control bounds
    (:func:`muscle_control_bounds`) and the speeds whose generalized forces are matched (not locked)."""

    hill: HillMuscles
    control_bounds: tuple
    matched: np.ndarray


def _build_model_muscles(model) -> _ModelMuscles:
    """The :class:`_ModelMuscles` of ``model``, which ``_model_muscles`` builds once per model and keeps while the
    model lives (the model is immutable): an estimate per trial or per settings change does not build them again."""
    bounds = muscle_control_bounds(model.muscles)
    matched = ~locked_speeds(model)
    for a in (*bounds, matched):
        a.flags.writeable = False
    return _ModelMuscles(HillMuscles(model.muscles), bounds, matched)


_model_muscles = PerModel(_build_model_muscles)


def solve_muscle_forces(J_l, tau, hill: RigidTendonForces, settings: MuscleForceSettings, *,
                        reserve_matrix=None, reserve_optimal_force=None, reserve_bounds=None, reserve_names=(),
                        muscle_bounds=None, f_ref=None, matched=None, coordinate_names=None,
                        time=None) -> MuscleForceResult:
    """Solve every frame. The arrays-only core of :func:`estimate_muscle_forces`.

    Parameters
    ----------
    J_l : (T, m, nv) length Jacobians.  tau : (T, nv) generalized forces to produce.
    hill : the rigid-tendon Hill quantities at the same frames.
    reserve_matrix : (T, nv, r) generalized force per unit reserve force; ``reserve_optimal_force``
        (r,), ``reserve_bounds`` ((r,), (r,)) control bounds; ``reserve_names``.
    muscle_bounds : ((m,), (m,)) activation bounds for the opensim objective (default 0.01 and 1).
    f_ref : (T, m) N reference forces (NaN where none) for the seed objective's W2 term.
    matched : (nv,) bool, the generalized forces to match (default all).
    """
    t_start = _time.perf_counter()
    J_l = np.asarray(J_l, float)
    tau = np.atleast_2d(np.asarray(tau, float))
    T, m, nv = J_l.shape
    if tau.shape != (T, nv):
        raise SettingsError(f"tau must be (frames, nv) = ({T}, {nv}), got {tau.shape}")
    if hill.active_max.shape != (T, m):
        raise SettingsError(f"the Hill quantities cover {hill.active_max.shape}, expected ({T}, {m})")
    names = tuple(hill.names)
    coordinate_names = tuple(coordinate_names) if coordinate_names is not None else tuple(f"v{i}" for i in range(nv))
    r = 0 if reserve_matrix is None else reserve_matrix.shape[2]
    R = np.zeros((T, nv, 0)) if reserve_matrix is None else np.asarray(reserve_matrix, float)
    opt = np.ones(0) if r == 0 else np.asarray(reserve_optimal_force, float)
    r_lo, r_hi = (np.full(r, -np.inf), np.full(r, np.inf)) if reserve_bounds is None else map(np.asarray, reserve_bounds)
    rows = np.ones(nv, bool) if matched is None else np.asarray(matched, bool)
    F0 = hill.max_isometric_force
    notes = list(hill.notes)
    if not rows.all():
        notes.append("generalized forces not matched (locked coordinates): "
                     + ", ".join(n for n, k in zip(coordinate_names, rows) if not k))
    if settings.muscle_physiology:
        active, passive = hill.active_max, hill.passive
    else:
        active, passive = np.broadcast_to(F0, (T, m)), np.zeros((T, m))
    if settings.objective == "opensim":
        lo_m, hi_m = (np.full(m, 0.01), np.ones(m)) if muscle_bounds is None else map(np.asarray, muscle_bounds)
        base = passive if settings.include_passive and settings.muscle_physiology else 0.0
        f_bounds = (lo_m * active + base, hi_m * active + base)
        lb, ub = np.concatenate([lo_m, r_lo]), np.concatenate([hi_m, r_hi])
        with_passive = settings.include_passive and settings.muscle_physiology

        x_all, status = solve_activation_frames(np.full(m + r, 2.0), J_l, active, passive if with_passive else None,
                                                R, opt, rows, tau, lb, ub)
        a = x_all[:, :m]
        forces = a * active + (passive if with_passive else 0.0)
    else:
        w1 = _weights(settings.tracking_weight, coordinate_names, 1.0, "tracking_weight") * rows
        w2 = _weights(settings.reference_weight, names, 0.0, "reference_weight")
        ref = np.full((T, m), np.nan) if f_ref is None else np.asarray(f_ref, float)
        notes.append(f"seed objective: where the forces that best produce tau are not unique, the smallest "
                     f"normalised forces are taken (regularisation {settings.regularization:g})")
        f_bounds = (passive, passive + active)
        lb_all = np.concatenate([passive / F0, np.broadcast_to(r_lo, (T, r))], axis=1)
        ub_all = np.concatenate([(passive + active) / F0, np.broadcast_to(r_hi, (T, r))], axis=1)
        try:
            x_all, status = solve_tracking_frames(J_l, R, opt, F0, w1, w2, ref, tau, settings.regularization,
                                                  settings.reserve_weight, lb_all, ub_all)
        except CostNotPositiveDefinite as error:   # a reserve without weight, or muscles whose eps is lost in H
            labels = [f"muscle {n!r}" for n in names] + [f"reserve {reserve_names[k]!r}" if k < len(reserve_names)
                                                         else f"reserve {k}" for k in range(r)]
            flat = ", ".join(labels[j] for j in error.variables)
            advice = []
            if any(j < m for j in error.variables):
                advice.append(f"a muscle needs a larger regularization: {settings.regularization:g} is lost beside "
                              f"the tracking term (the default is {MuscleForceSettings.regularization:g})")
            if any(j >= m for j in error.variables):
                advice.append("a reserve needs reserve_weight > 0, or to act alone on coordinates whose generalized "
                              "forces are tracked (tracking_weight > 0, not locked)")
            raise SettingsError(f"the seed objective has no unique minimum: its cost is flat in {flat} (smallest "
                                f"eigenvalue {error.smallest_eigenvalue:.3g}); " + "; ".join(advice)) from None
        forces = x_all[:, :m] * F0
        with np.errstate(invalid="ignore", divide="ignore"):
            a = np.where(active > 0, (forces - passive) / active, np.nan)
        if not settings.muscle_physiology:
            a = forces / F0
    controls = x_all[:, m:]
    reserve_forces = controls * opt
    solve_time = _time.perf_counter() - t_start
    reserve_tau = np.einsum("tvr,tr->tv", R, reserve_forces)
    residual = np.where(rows, tau + np.einsum("tmv,tm->tv", J_l, forces) - reserve_tau, 0.0)
    crossing = crossed(J_l)
    unbalanced = (muscles_alone_unbalanced(J_l, tau, *f_bounds, rows & crossing, guesses=reserve_tau,
                                                   forces=forces) if r
                  else None)
    success = np.array([s not in (INFEASIBLE, NO_DATA) for s in status], bool)
    if INFEASIBLE in status:
        notes.append(f"{status.count(INFEASIBLE)} of {T} frames infeasible (forces NaN there): the muscles and "
                     "reserves cannot produce the generalized forces within their bounds")
    if NO_DATA in status:
        notes.append(f"{status.count(NO_DATA)} of {T} frames not solved: NaN in their generalized forces, "
                     "geometry or reference (forces NaN there)")
    f_ref_out = None if f_ref is None else np.asarray(f_ref, float)
    return MuscleForceResult(
        objective=settings.objective, muscle_names=names, reserve_names=tuple(reserve_names),
        coordinate_names=coordinate_names, time=None if time is None else np.asarray(time, float),
        forces=forces, activations=a, reserve_forces=reserve_forces, reserve_controls=controls, tau=tau,
        residual=residual, f_active_max=hill.active_max, f_passive=hill.passive, f_max=hill.f_max,
        f_ref=f_ref_out, success=success, status=tuple(status), solve_time=solve_time,
        notes=tuple(notes), reserve_tau=reserve_tau, crossed=crossing, unbalanced=unbalanced)


def estimate_muscle_forces(model, Q, V, tau, settings: MuscleForceSettings | None = None, *, time=None,
                           emg=None, phases=None, geometry=None) -> MuscleForceResult:
    """Muscle forces of ``model`` over a trial: geometry, Hill bounds, then one QP per frame.

    Parameters
    ----------
    model : a :class:`~engine.model.Model` with muscles.
    Q : (T, nq) coordinates, already filtered.  V : (T, nv) generalized speeds.
    tau : (T, nv) generalized forces from inverse dynamics, model speed order.
    settings : :class:`MuscleForceSettings` (defaults if None).
    time : (T,) s; needed with ``emg`` and for writing .sto files.
    emg : :class:`~engine.muscles.emg.activation.MuscleActivity` (EMG-driven activations of named muscles):
        gives ``f_ref`` (eq. 40), used by the seed objective where W2 > 0.
    phases : ``{name: (start, end)}`` s; with ``emg``, the seed's Table 3 comparison is attached
        as ``result.emg_comparison``.
    geometry : the model's :class:`~engine.muscles.path.geometry.MuscleGeometry` (default: built here; pass
        one to reuse it across trials). Paths it could not compute exactly are listed in the notes.
    """
    settings = settings or MuscleForceSettings()
    if not model.muscles:
        raise SettingsError("the model has no muscles", f"model '{model.name}'")
    if emg is not None and time is None:
        raise SettingsError("EMG needs the frame times (time=...) to be matched to the frames")
    Q = np.atleast_2d(np.asarray(Q, float))
    if geometry is None:
        from ..path.geometry import MuscleGeometry
        with MuscleGeometry(model) as own:          # built here: its thread pool ends here
            paths = own.compute(Q, np.atleast_2d(np.asarray(V, float)))
    else:
        paths = geometry.compute(Q, np.atleast_2d(np.asarray(V, float)))
    lengths, speeds, J_l = paths.lengths, paths.speeds, paths.J_l
    parts = _model_muscles(model)
    hill = parts.hill.evaluate(lengths, speeds)
    kwargs = {}
    if settings.reserves is not None and settings.reserves.actuators:
        res = settings.reserves
        check_actuators(res, model)
        kwargs = dict(reserve_matrix=generalized_forces(res, model, Q), reserve_optimal_force=res.optimal_force,
                      reserve_bounds=(res.min_control, res.max_control), reserve_names=res.names)
    f_ref = None
    if emg is not None:
        from ..emg.activation import reference_forces
        f_ref = reference_forces(emg, time, hill)
    result = solve_muscle_forces(J_l, tau, hill, settings, muscle_bounds=parts.control_bounds,
                                 f_ref=f_ref, matched=parts.matched, coordinate_names=compile_tree(model).v_names,
                                 time=time, **kwargs)
    problems = tuple(paths.problems())
    if problems:
        result = replace(result, notes=problems + result.notes)
    if emg is not None and phases is not None:
        from ..emg.comparison import compare_forces
        result = replace(result, emg_comparison=compare_forces(result, phases))
    return result
