"""The study table: one row per trial and gait cycle with the trial's key results, and the study's summary.

Per cycle (``engine.clinical``: events, spatio-temporal parameters per side): the cycle's side, its ``limb``
('prosthetic' or 'intact' when the model carries a blade, else empty) and times, its spatio-temporal parameters, the
peak vertical ground reaction of its stance (%BW, from the ground-reaction estimate), each clinical joint's peak
moments of its side within the cycle's stance (its Foot Strike to its Foot Off), and on the prosthetic side the
blade's metrics of its stance (compression m, stiffness N/m, energy stored and returned J, hysteresis %). The peak
moments are the net internal moments of inverse dynamics in the clinical sign of ``engine.clinical.conventions``
(hip flexion, knee flexion, ankle dorsiflexion positive), divided by the model's mass (N m/kg), two per joint:
``peak_<joint>_<direction>_moment_stance_n_m_per_kg`` for the direction the clinical name gives (hip flexion,
knee flexion, ankle dorsiflexion) and its opposite (hip extension, knee extension, ankle plantarflexion), each the
largest moment in that direction, positive (negative when the moment never turned that way in the stance); left
empty, said in ``notes``, when the stance's Foot Off is not known. Without an estimate the peak ground reaction
and the blade's stiffness come from the plates (``grf_source``, ``blade_force_source``: estimated | measured |
none); with both, the plates' peak stands beside the estimate's (``peak_vertical_grf_measured_pct_bw``);
``foot_point`` is what the spatial parameters follow (``engine.clinical.foot_points``); the ``notes`` say why any
of those columns is left empty. Per trial, repeated on each of its rows: the IK marker RMS (``ik_rms_mean_mm``:
per frame the RMS over the fitted markers present, as OpenSim's ``marker_error_RMS`` in a frame missing none, then
the mean over the frames, mm; ``engine.analysis.ik.IKResult``), the worst vertical rRMSE of the ground-reaction
estimate against the plates (%), and the symmetry indices (%). A trial without a complete cycle has one row with
its trial-level values (``cycle``
empty) and says why in ``notes``. ``status`` is 'done' for a trial analysed (in this run or an earlier one) and
'failed' for a failed trial, whose one row holds its ids and its error in ``notes``.

Written as CSV and Parquet (pyarrow), every write atomic; the summary (JSON) gives the trials done, skipped and
failed and, per subject and for the study, the mean, SD and n of every numeric column, per-cycle columns per side
and per-trial columns once per trial (:data:`GROUPING`, written into the summary).
"""
from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from engine.analysis.gait_phases import gait_cycles, side_of
from engine.clinical.conventions import OPPOSITE, clinical_joints
from engine.clinical.parameters import UNITS, stances_of
from engine.clinical.summary import clinical_summary
from engine.clinical.symmetry import sides
from engine.errors import HybridLabError
from engine.io.analysis_outputs import nan_statistic
from engine.io.atomic import atomic_path, write_text
from engine.tree import compile_tree

KEYS = ("subject", "trial", "status", "side", "limb", "cycle", "cycle_start_s", "cycle_end_s")
PER_TRIAL = ("ik_rms_mean_mm", "grf_rrmse_vertical_worst_pct")
"""The columns of one value per trial, repeated on each of its rows (with every ``symmetry_`` column)."""


def per_trial(name: str) -> bool:
    """Whether the column ``name`` holds one value per trial (:data:`PER_TRIAL`), not one per cycle."""
    return name in PER_TRIAL or name.startswith("symmetry_")


def _name(text: str, unit: str) -> str:
    return f"{text}_{unit}".replace(" ", "_").replace("/", "_per_").replace("%", "pct").lower()


def _number(value) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def trial_rows(subject: str, trial: str, result, forward) -> list[dict]:
    """The table's rows of one analysed trial (an AnalysisResult; ``forward`` the settings' forward axis)."""
    base = {"subject": subject, "trial": trial, "side": None, "cycle": None, "cycle_start_s": None,
            "cycle_end_s": None, "ik_rms_mean_mm": _number(1e3 * nan_statistic(np.nanmean, result.ik.rms))}
    vertical = [m.rrmse for m in result.metrics if m.axis == "vertical" and math.isfinite(m.rrmse)]
    base["grf_rrmse_vertical_worst_pct"] = max(vertical) if vertical else None
    try:
        summary = clinical_summary(result, forward)
    except HybridLabError as exc:
        return [{**base, "notes": f"no clinical summary: {exc}"}]
    for name, unit, _, _, si in summary.symmetry:
        base[_name(f"symmetry {name}", "pct")] = _number(si)
    rows = []
    for side in ("Left", "Right"):
        rows += _cycle_rows(base, summary, result, side)
    if not rows:
        return [{**base, "notes": "no complete gait cycle in the analysed range"}]
    return rows


def _stance_peak(loads, stances, a):
    """The peak vertical GRF (%BW) of the stance starting at ``a`` from per-stance ``loads``, None without."""
    peaks = loads.get("peak vertical GRF", np.array([]))
    return _number(peaks[stances.index(a)]) if a in stances and stances.index(a) < len(peaks) else None


def _grf_columns(row, summary, side, a, why) -> None:
    """The cycle's stance peak vertical GRF (%BW) and its source, and the plates' beside an estimate; ``why`` gets
    the reason of each left empty."""
    stances = [s for s, e in stances_of(summary.events, side) if e is not None]
    row["peak_vertical_grf_pct_bw"] = _stance_peak(summary.loads.get(side, {}), stances, a)
    row["grf_source"] = summary.grf_source
    if summary.grf_source == "estimated":
        row["peak_vertical_grf_measured_pct_bw"] = _stance_peak(summary.measured_loads.get(side, {}), stances, a)
    if a not in stances:
        why.append("peak vertical GRF: the cycle's stance has no Foot Off")
        return
    if summary.grf_source == "none":
        why.append("peak vertical GRF: no ground-reaction estimate and no force plate's load applied to a side")
    elif row["peak_vertical_grf_pct_bw"] is None:
        why.append(f"peak vertical GRF: no {summary.grf_source} ground reaction of this side in the stance")
    elif summary.grf_source == "estimated" and row["peak_vertical_grf_measured_pct_bw"] is None:
        why.append("measured peak vertical GRF: the stance is not wholly on the force plates" if summary.measured_loads
                   else "measured peak vertical GRF: no force plate's load applied to a side")


def _spatial_notes(row, summary, side, why) -> None:
    """The reasons of the spatio-temporal columns left empty, and the foot point the spatial ones follow."""
    row["foot_point"] = summary.parameters[side].positions
    if row[_name("stride length", "m")] is None:
        why.append(f"stride length and speed: foot point {row['foot_point']}")
    elif row[_name("step length", "m")] is None:
        why.append("step length and width: no earlier Foot Strike of the other side")
    if row[_name("contact time", "s")] is None:
        why.append("contact time, stance and swing: no Foot Off of this side within the cycle")


def _blade_columns(row, summary, result, side, a, why) -> None:
    """On the prosthetic side, the blade's metrics of the cycle's stance, with the reasons of those left empty."""
    if side != summary.prosthetic or not result.model.rods:
        return
    m = {m.interval[0]: m for m in summary.prosthesis}.get(a)
    if m is None:
        why.append("blade metrics: " + ("no inverse dynamics" if result.dynamics is None
                                         else "the cycle's stance has no Foot Off"))
        return
    row.update({"blade_peak_compression_m": _number(m.peak_compression),
                "blade_stiffness_n_per_m": _number(m.stiffness), "blade_energy_stored_j": _number(m.stored),
                "blade_energy_returned_j": _number(m.returned), "blade_hysteresis_pct": _number(m.hysteresis),
                "blade_force_source": summary.blade_force_source})
    if row["blade_stiffness_n_per_m"] is None:
        why.append("blade stiffness: no ground reaction on the blade (no estimate, no plate's load applied to it)")


def _limb(model, side) -> str | None:
    """'prosthetic' or 'intact' for ``side`` of a model carrying a blade on one side, else None."""
    prosthetic = sides(model)[1]
    if not model.rods or side_of(model.rods[0].name) != prosthetic:
        return None
    return "prosthetic" if side == prosthetic else "intact"


def _peak_moments(row, result, side, a, off, why) -> None:
    """Each clinical joint's peak moments of ``side`` over the stance ``a``-``off`` s into ``row`` (module notes); why
    they are left out in ``why``."""
    model, time, dyn = result.model, result.motion.time, result.dynamics
    stance = (time >= a) & (time <= off) if off is not None else np.zeros(len(time), bool)
    for coordinate, name, s, sign in clinical_joints(model):
        if s != side or dyn is None:
            continue
        moment = sign * dyn.tau[stance, compile_tree(model).coordinates[coordinate].vi] / model.total_mass
        for direction, values in ((name, moment), (OPPOSITE[name], -moment)):
            row[_name(f"peak {direction} moment stance", "N m/kg")] = _number(values.max()) if stance.any() else None
    if dyn is not None and not stance.any():
        why.append("peak moments left out: the cycle's stance (its Foot Off) is not known")


def _cycle_rows(base, summary, result, side) -> list[dict]:
    stance_of = dict(stances_of(summary.events, side))
    rows = []
    for i, (a, b) in enumerate(gait_cycles(summary.events, side)):
        row = {**base, "side": side, "limb": _limb(result.model, side), "cycle": i + 1, "cycle_start_s": float(a),
               "cycle_end_s": float(b), "notes": None}
        why = []
        for name, unit in UNITS.items():
            row[_name(name, unit)] = _number(summary.parameters[side].values[name][i])
        _spatial_notes(row, summary, side, why)
        _grf_columns(row, summary, side, a, why)
        _peak_moments(row, result, side, a, stance_of.get(a), why)
        _blade_columns(row, summary, result, side, a, why)
        row["notes"] = "; ".join(why) or None
        rows.append(row)
    return rows


def columns(rows: list[dict]) -> list[str]:
    """Every column the rows hold, in the order first met (:data:`KEYS` first, ``notes`` last)."""
    seen = dict.fromkeys(KEYS)
    for row in rows:
        seen.update(dict.fromkeys(row))
    seen.pop("notes", None)
    return list(seen) + ["notes"]


def write_table(rows: list[dict], csv_path, parquet_path) -> None:
    """The rows as a CSV file and a Parquet file (missing values empty / null)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    names = columns(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow(["" if row.get(n) is None else row.get(n) for n in names])
    write_text(csv_path, out.getvalue())
    table = pa.Table.from_pydict({n: [row.get(n) for row in rows] for n in names})
    with atomic_path(parquet_path) as tmp:
        pq.write_table(table, tmp)


def study_rows(outcomes: dict) -> list[dict]:
    """The study table's rows of ``outcomes`` ({``subject/trial``: outcome}, in the study's order): a trial done, in
    this run or an earlier one (skipped), has its stored rows with status 'done'; a failed trial one row with its ids,
    status 'failed' and its error in ``notes``."""
    rows = []
    for key, outcome in outcomes.items():
        if outcome["status"] == "failed":
            subject, trial = key.split("/", 1)
            rows.append({"subject": subject, "trial": trial, "status": "failed", "notes": outcome["error"]})
        else:
            rows += [{**row, "status": "done"} for row in outcome.get("rows", ())]
    return rows


GROUPING = (
    "Per-cycle columns (one value per gait cycle: spatio-temporal parameters, peak GRF, peak moments, blade "
    "metrics) are summarised per subject by side over that side's cycles (n cycles; 'limb' says which side is "
    "prosthetic and which intact when the subject's model carries a blade), never pooling the two sides. Per-trial "
    "columns (IK RMS, GRF-estimate rRMSE, symmetry indices; repeated on each of a trial's rows in the table) are "
    "counted once per trial (n trials). The study's statistics are between subjects: the mean and SD of the "
    "subjects' means (n subjects), per-cycle columns by limb (prosthetic, intact) for subjects whose model carries a "
    "blade and by side (Left, Right) for the others. SD is the sample SD (n - 1), null for n < 2. Failed trials have "
    "no values.")


def _statistics(values: dict) -> dict:
    """{column: {mean, sd, n}} of {column: [values]}."""
    return {name: {"mean": float(np.mean(v)), "sd": float(np.std(v, ddof=1)) if len(v) > 1 else None, "n": len(v)}
            for name, v in values.items() if v}


def _collect(rows, names) -> dict:
    """{column: [its numbers in ``rows``]} for the columns ``names``."""
    return {name: [r[name] for r in rows if isinstance(r.get(name), float)] for name in names}


def summary(rows: list[dict], outcomes: dict) -> dict:
    """The study's summary: its ``grouping`` (:data:`GROUPING`), the trials done, skipped (done earlier) and failed
    (with their errors); per subject and for the study, the mean, SD and n of every numeric column, grouped as
    :data:`GROUPING` says."""
    names = [n for n in columns(rows) if n not in KEYS]
    trial_names, cycle_names = [n for n in names if per_trial(n)], [n for n in names if not per_trial(n)]
    subjects = list(dict.fromkeys(key.split("/")[0] for key in outcomes))
    status = {s: sorted(k for k, o in outcomes.items() if o["status"] == s) for s in ("done", "skipped", "failed")}
    per_subject, means = {}, {"per_trial": {}, "per_cycle": {}}
    for subject in subjects:
        trials = {}
        for r in rows:
            if r["subject"] == subject and r.get("status") != "failed":
                trials.setdefault(r["trial"], r)            # a trial's first row: its per-trial values
        entry = {"per_trial": {"trials": len(trials), "columns": _statistics(_collect(trials.values(), trial_names))},
                 "per_cycle": {}}
        for side in ("Left", "Right"):
            cycles = [r for r in rows if r["subject"] == subject and r.get("side") == side and r.get("cycle")]
            if not cycles:
                continue
            limbs = {r.get("limb") for r in cycles}
            limb = limbs.pop() if len(limbs) == 1 else None
            entry["per_cycle"][side] = {"limb": limb, "cycles": len(cycles),
                                        "columns": _statistics(_collect(cycles, cycle_names))}
            group = means["per_cycle"].setdefault(limb or side, {})
            for name, stats in entry["per_cycle"][side]["columns"].items():
                group.setdefault(name, []).append(stats["mean"])
        for name, stats in entry["per_trial"]["columns"].items():
            means["per_trial"].setdefault(name, []).append(stats["mean"])
        per_subject[subject] = entry
    study = {"per_trial": _statistics(means["per_trial"]),
             "per_cycle": {group: _statistics(values) for group, values in means["per_cycle"].items()}}
    return {"grouping": GROUPING, "trials": len(outcomes), "done": len(status["done"]),
            "skipped": len(status["skipped"]), "failed": {k: outcomes[k]["error"] for k in status["failed"]},
            "subjects": per_subject, "study": study}


def write_summary(path, document: dict) -> None:
    write_text(path, json.dumps(document, indent=1, allow_nan=False) + "\n")
