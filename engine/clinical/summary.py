"""Everything the clinical report shows, computed from an analysis result (no files, no plotting).

Per side, each curve is normalised to that side's own gait cycles (``engine.analysis.gait_phases``); the
intact/prosthetic symmetry indices cover the spatio-temporal parameters and, per stance, the peak vertical
ground reaction (%BW), its impulse (BW s), the positive work of the side's hip, knee and ankle (J/kg) and the
contact time. Ground reactions come from the QP's estimate per contact group, or without an estimate from the force
plates' loads as the inverse dynamics applied them (``engine.clinical.plate_loads``): then a stance not wholly on
the plates (a plate applied to its side loaded at its strike and at its off, within a frame) has none. With muscle
forces, the main muscle groups' forces (BW) and activations per side (``engine.clinical.muscle_groups``), and for
each muscle with an EMG reference its EMG-driven activation (eqs. 41-43: ``f_ref / f_active_max``) against the
estimated one, with the seed's Table 3 comparison of the forces.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from pathlib import Path

from ..analysis.gait_phases import gait_cycles, normalise_cycles, side_of
from ..errors import SettingsError
from ..tree import compile_tree
from .conventions import body_weight, clinical_joints
from .events import gait_events
from .muscle_groups import GROUPS, muscle_group
from .parameters import stances_of, spatiotemporal
from .plate_loads import plate_loads
from .prosthesis import compression, rod_power, stance_metrics
from .symmetry import sides, symmetry_index


@dataclass
class ClinicalSummary:
    """``parameters`` {side: SideParameters}; ``loads`` {side: {name: (stances,) array}}; ``symmetry`` [(name,
    unit, intact mean, prosthetic mean, SI %)]; ``curves`` {(group title, name, unit): {side: CycleCurves}};
    ``prosthesis`` [StanceMetrics] and ``blades`` [{'time', 'compression', 'force', 'power'} arrays, 'rod', 'trial'],
    one per trial; ``validation``
    the plates' scores (PlateMetric); ``notes`` every decision taken on the user's behalf; ``emg`` {muscle:
    {'EMG' | 'estimated': {side: CycleCurves}}} activations (1) and ``emg_tables`` [(trial, the Table 3 comparison,
    engine.muscles.emg.comparison.ForceComparison)]. The muscle groups' curves are in ``curves`` under
    'Muscle force' (BW) and 'Muscle activation' (1). ``gait`` is 'running' when the cycles have a flight phase
    (mean flight above :data:`RUNNING_FLIGHT` % of the cycle), else 'walking': the normative bands drawn are that
    gait's. ``trials`` [(trial, left cycles, right cycles)] of the trials it pools (one for a single trial;
    ``engine.clinical.trials.pooled_summary`` pools several). ``grf_source``: where ``loads`` and the GRF curves
    come from, 'estimated' (the QP's estimate), 'measured' (the plates' loads as the inverse dynamics applied them,
    ``engine.clinical.plate_loads``: when there is no estimate) or 'none'; ``measured_loads`` {side: {name: (stances,)
    array}} the plates' per stance whatever the source, for both sides as soon as a plate's load has a side (NaN for
    a stance not wholly on the plates), else empty, so an estimate and the measurement can be set side by side;
    ``blade_force_source`` the same for the ground reaction of the blade's metrics (its stiffness)."""

    subject: str
    trial: str
    mass: float
    intact: str
    prosthetic: str
    events: list
    parameters: dict
    loads: dict
    symmetry: list
    curves: dict
    prosthesis: list = field(default_factory=list)
    blades: list = field(default_factory=list)
    validation: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    emg: dict = field(default_factory=dict)
    emg_tables: list = field(default_factory=list)
    gait: str = "walking"
    trials: list = field(default_factory=list)
    grf_source: str = "none"
    measured_loads: dict = field(default_factory=dict)
    blade_force_source: str = "none"


LOAD_UNITS = {"peak vertical GRF": "%BW", "vertical impulse": "BW s", "positive joint work": "J/kg"}
SYMMETRY_PARAMETERS = (("speed", "m/s"), ("cadence", "steps/min"), ("contact time", "s"), ("stance", "%"),
                       ("flight", "%"), ("step length", "m"))


def _finite_mean(values) -> float:
    """The mean of the finite ``values`` (a stance not wholly on the plates has NaN loads), NaN if none."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    return float(np.mean(values)) if len(values) else float("nan")


def symmetry_table(params, loads, intact, prosthetic) -> list:
    """``[(name, unit, intact mean, prosthetic mean, SI %)]`` of the parameters and the per-stance loads (means over
    the stances with a value)."""
    out = []
    for name, unit in SYMMETRY_PARAMETERS:
        i, p = params[intact].mean(name), params[prosthetic].mean(name)
        out.append((name, unit, i, p, symmetry_index(i, p)))
    for name, unit in LOAD_UNITS.items():
        i, p = (_finite_mean(loads[s][name]) for s in (intact, prosthetic))
        out.append((name, unit, i, p, symmetry_index(i, p)))
    return out


RUNNING_FLIGHT = 1.0     # % of the gait cycle with both feet off the ground, above which the gait is running


def gait_of(params) -> tuple[str, str]:
    """``('running' | 'walking', note)`` from the spatio-temporal parameters' mean flight (% of the cycle)."""
    flights = [params[side].mean("flight") for side in ("Left", "Right")]
    flights = [f for f in flights if np.isfinite(f)]
    flight = float(np.mean(flights)) if flights else float("nan")
    gait = "running" if flight > RUNNING_FLIGHT else "walking"
    return gait, (f"gait taken as {gait}: mean flight {flight:.1f} % of the cycle (running above "
                  f"{RUNNING_FLIGHT:g} %); normative bands are drawn only for the quantities with a shipped band of "
                  f"{gait} (resources/normative)")


def trial_gait(result, events, forward=(1.0, 0.0, 0.0)) -> str:
    """'running' or 'walking' for ``result`` with gait ``events`` (:func:`gait_of` on its parameters)."""
    return gait_of(spatiotemporal(result, events, forward))[0]


def names(trial) -> tuple[str, str]:
    """``(subject, trial)`` as the report's and the exported figures' titles name them: the subject's NAME as the
    file recorded it, and the trial file's name."""
    subject = trial.subject or {}
    return str(subject.get("NAME", "(no subject name)")), Path(str(trial.source or "")).name


def _side_forces(result, side):
    """(T, 3) N: the estimate's ground reaction on ``side``'s contact groups, None without."""
    if result.qp is None:
        return None
    forces = [g.force for name, g in result.qp.groups.items() if side_of(name) == side]
    return np.sum(forces, axis=0) if forces else None


def _measured_side_force(measured, loaded, side):
    """``((T, 3) N, (T,) bool)``: the plates' loads applied to ``side`` and the frames where one of those plates is
    loaded (``measured`` and ``loaded`` from :func:`plate_loads`), None and None without."""
    targets = [target for target in measured if side_of(target) == side]
    if not targets:
        return None, None
    return np.sum([measured[t] for t in targets], axis=0), np.any([loaded[t] for t in targets], axis=0)


def _joint_power(result, side) -> np.ndarray:
    """(T,) W: the sum of ``tau v`` over the side's clinical joints (zero without inverse dynamics)."""
    power = np.zeros(len(result.motion.time))
    dyn = result.dynamics
    if dyn is not None:
        for coordinate, _, s, _ in clinical_joints(result.model):
            if s == side:
                vi = compile_tree(result.model).coordinates[coordinate].vi
                power += dyn.tau[:, vi] * result.motion.v[:, vi]
    return power


def _near(time, loaded, t) -> bool:
    """Whether ``loaded`` (T,) bool holds at a frame within one frame of ``t`` s."""
    frame = float(np.median(np.diff(time))) if len(time) > 1 else 0.0
    return bool(loaded[np.abs(time - t) <= frame * (1 + 1e-6)].any())


def _on_plate(time, loaded, a, b) -> bool:
    """Whether the whole stance ``a``-``b`` s is on the plates: one applied to its side is ``loaded`` (T,) bool (past
    its own threshold) at its strike and at its off, each within a frame."""
    return b is not None and loaded is not None and _near(time, loaded, a) and _near(time, loaded, b)


def _partly_on_plate(time, loaded, a, b) -> bool:
    """Whether the stance ``a``-``b`` s has a loaded frame but is not wholly on the plates (:func:`_on_plate`)."""
    k = (time >= a) & (time <= b)
    return loaded is not None and bool(loaded[k].any()) and not _on_plate(time, loaded, a, b)


def _stance_loads(time, vertical, power, stances, bw, mass, loaded=None) -> dict:
    """``{name: (stances,) array}`` of :data:`LOAD_UNITS` per complete stance ``(a, b)`` s from the ``vertical``
    (T,) N ground reaction (None: peak and impulse NaN) and the joints' ``power`` (T,) W; with the plates' ``loaded``
    (T,) bool frames (a measured ``vertical``), a stance not wholly on the plates (:func:`_on_plate`) has NaN peak and
    impulse."""
    values = {name: [] for name in LOAD_UNITS}
    for a, b in stances:
        k = (time >= a) & (time <= b)
        known = vertical is not None and (loaded is None or _on_plate(time, loaded, a, b))
        values["peak vertical GRF"].append(100.0 * vertical[k].max() / bw if known else np.nan)
        values["vertical impulse"].append(np.trapezoid(vertical[k], time[k]) / bw if known else np.nan)
        values["positive joint work"].append(np.trapezoid(np.clip(power[k], 0, None), time[k]) / mass)
    return {n: np.asarray(v, float) for n, v in values.items()}


def _cycles_or_none(time, values, cycles):
    try:
        return normalise_cycles(time, values, cycles)
    except SettingsError:       # no complete cycle of that side within the frames
        return None


def _muscle_curves(m, events, bw) -> tuple[dict, dict]:
    """``(curves, emg)`` of a MuscleForceResult ``m`` (see :class:`ClinicalSummary`)."""
    curves, emg = {}, {}
    members: dict = {}
    for j, name in enumerate(m.muscle_names):
        group = muscle_group(name)
        if group is not None:
            members.setdefault((group, side_of(name)), []).append(j)
    for group in GROUPS:
        for side in ("Left", "Right"):
            cols = members.get((group, side))
            cycles = gait_cycles(events, side)
            if not cols or not cycles:
                continue
            force = _cycles_or_none(m.time, m.forces[:, cols].sum(axis=1) / bw, cycles)
            activation = _cycles_or_none(m.time, m.activations[:, cols].mean(axis=1), cycles)
            if force is not None:
                curves.setdefault(("Muscle force", group, "BW"), {})[side] = force
                curves.setdefault(("Muscle activation", group, "1"), {})[side] = activation
    if m.f_ref is None:
        return curves, emg
    for j, name in enumerate(m.muscle_names):
        if not np.isfinite(m.f_ref[:, j]).any():
            continue
        side = side_of(name)
        with np.errstate(invalid="ignore", divide="ignore"):
            from_emg = np.where(m.f_active_max[:, j] > 0, m.f_ref[:, j] / m.f_active_max[:, j], np.nan)
        pair = {"EMG": _cycles_or_none(m.time, from_emg, gait_cycles(events, side)),
                "estimated": _cycles_or_none(m.time, m.activations[:, j], gait_cycles(events, side))}
        if pair["EMG"] is not None:
            emg[name] = {k: {side: c} for k, c in pair.items()}
    return curves, emg


def clinical_summary(result, forward=(1.0, 0.0, 0.0), events=None, trial_name=None) -> ClinicalSummary:
    """The report's content for ``result`` (an AnalysisResult); ``events`` default to :func:`gait_events`;
    ``trial_name`` the trial's name in the report (default: its file's name, :func:`names`)."""
    model, time = result.model, result.motion.time
    notes = []
    if events is None:
        events, notes = gait_events(result)
    mass, bw = model.total_mass, body_weight(model)
    intact, prosthetic = sides(model)
    params = spatiotemporal(result, events, forward)
    curves, loads = {}, {}
    dyn = result.dynamics
    for coordinate, name, side, sign in clinical_joints(model):
        cycles = gait_cycles(events, side)
        if not cycles:
            continue
        c = compile_tree(model).coordinates[coordinate]
        curves.setdefault(("Kinematics", name, "deg"), {})[side] = normalise_cycles(
            time, sign * np.degrees(result.motion.q[:, c.qi]), cycles)
        if dyn is not None:
            curves.setdefault(("Kinetics", f"{name} moment", "N m/kg"), {})[side] = normalise_cycles(
                time, sign * dyn.tau[:, c.vi] / mass, cycles)
    measured, loaded, plate_notes = plate_loads(result)
    notes += plate_notes
    sided = any(side_of(target) in ("Left", "Right") for target in measured)
    grf_source = "estimated" if result.qp is not None else "measured" if sided else "none"
    measured_loads = {}
    for side in ("Left", "Right"):
        power = _joint_power(result, side)
        stances = [(a, b) for a, b in stances_of(events, side) if b is not None]
        on_plates, side_loaded = _measured_side_force(measured, loaded, side)
        if sided:                   # a side on no plate: NaN rows, so pooled trials line up stance by stance
            measured_loads[side] = _stance_loads(time, None if on_plates is None else on_plates @ model.up, power,
                                                 stances, bw, mass, side_loaded)
        partly = [(a, b) for a, b in stances if _partly_on_plate(time, side_loaded, a, b)]
        if partly:
            notes.append(f"{side.lower()} stances only partly on the force plates (a plate applied to this side not "
                         f"loaded at the strike or at the off, within a frame): "
                         f"{', '.join(f'{a:.3f}-{b:.3f} s' for a, b in partly)}: no measured peak GRF or impulse")
        F = _side_forces(result, side) if grf_source == "estimated" else on_plates
        vertical = None if F is None else F @ model.up
        loads[side] = _stance_loads(time, vertical, power, stances, bw, mass,
                                    side_loaded if grf_source == "measured" else None)
        ends = dict(stances)
        shown = [(a, b) for a, b in gait_cycles(events, side)
                 if vertical is not None and (grf_source == "estimated" or _on_plate(time, side_loaded, a, ends.get(a)))]
        if shown:
            curves.setdefault(("Ground reaction", "vertical GRF", "%BW"), {})[side] = normalise_cycles(
                time, 100.0 * vertical / bw, shown)
    if grf_source == "none":
        notes.append("no ground-reaction estimate and no plate load attributed to a side: peak GRF, impulse and GRF "
                     "curves left out")
    elif grf_source == "measured":
        notes.append("ground reactions: the force plates' measured loads (there is no estimate), per side as the "
                     "inverse dynamics applied them; a stance not wholly on the plates (one applied to its side loaded "
                     "at its strike and at its off, within a frame) has no peak GRF or impulse")
    symmetry = symmetry_table(params, loads, intact, prosthetic)
    gait, note = gait_of(params)
    subject, trial = names(result.trial)
    summary = ClinicalSummary(subject, trial if trial_name is None else trial_name, mass,
                              intact, prosthetic, events, params, loads, symmetry, curves,
                              validation=list(result.metrics), notes=notes + [note] + list(result.notes), gait=gait)
    if result.muscles is not None:
        m = result.muscles.result
        muscle_curves, summary.emg = _muscle_curves(m, events, bw)
        summary.curves.update(muscle_curves)
        summary.emg_tables = [] if m.emg_comparison is None else [(summary.trial, m.emg_comparison)]
    summary.trials = [(summary.trial, len(params["Left"].cycles), len(params["Right"].cycles))]
    summary.grf_source, summary.measured_loads = grf_source, measured_loads
    for rod in model.rods:
        if dyn is None:
            summary.notes.append(f"rod {rod.name}: no blade metrics without inverse dynamics")
            continue
        if result.qp is not None and rod.name in result.qp.groups:
            force, summary.blade_force_source = np.linalg.norm(result.qp.groups[rod.name].force, axis=1), "estimated"
        elif rod.name in measured:
            force, summary.blade_force_source = np.linalg.norm(measured[rod.name], axis=1), "measured"
        else:
            force = np.full(len(time), np.nan)
            summary.notes.append(f"rod {rod.name}: no ground reaction on its contact group (no estimate, and no "
                                 "plate's load applied to it): its stiffness is left out")
        comp = compression(model, rod.name, result.motion.q)
        power = rod_power(model, rod.name, dyn.tau, result.motion.v)
        stances = [(a, b) for a, b in stances_of(events, side_of(rod.name)) if b is not None]
        summary.prosthesis = stance_metrics(time, comp, force, power, stances)
        if summary.blade_force_source == "measured":     # a stance not wholly on the plates: its force is unknown
            summary.prosthesis = [m if _on_plate(time, loaded[rod.name], *m.interval) else
                                  replace(m, stiffness=float("nan"), peak_force=float("nan"))
                                  for m in summary.prosthesis]
        summary.blades = [{"time": time, "compression": comp, "force": force, "power": power, "rod": rod.name,
                           "trial": summary.trial}]
    return summary
