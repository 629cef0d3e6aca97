"""The study table: one row per trial and gait cycle with the trial's key results, and the study's summary.

Per cycle (``engine.clinical``: events, spatio-temporal parameters per side): the cycle's side and times, its
spatio-temporal parameters, the peak vertical ground reaction of its stance (%BW, from the ground-reaction
estimate), the peak absolute moment of each clinical joint of its side over the cycle (N m/kg), and on the
prosthetic side the blade's metrics of its stance (compression m, stiffness N/m, energy stored and returned J,
hysteresis %). Without an estimate the peak ground reaction and the blade's stiffness come from the plates
(``grf_source``, ``blade_force_source``: estimated | measured | none); with both, the plates' peak stands beside the
estimate's (``peak_vertical_grf_measured_pct_bw``); ``foot_point`` is what the spatial parameters follow
(``engine.clinical.foot_points``); the ``notes`` say why any of those columns is left empty.
Per trial, repeated on each of its rows: the IK marker RMS (mean over frames, mm), the worst
vertical rRMSE of the ground-reaction estimate against the plates (%), and the symmetry indices (%). A trial
without a complete cycle has one row with its trial-level values (``cycle`` empty) and says why in ``notes``.

Written as CSV and Parquet (pyarrow), every write atomic; the summary (JSON) gives, per subject and for the
study, the trials done and failed and the mean and SD of every numeric column.
"""
from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from engine.analysis.gait_phases import gait_cycles
from engine.clinical.conventions import clinical_joints
from engine.clinical.parameters import UNITS, stances_of
from engine.clinical.summary import clinical_summary
from engine.errors import HybridLabError
from engine.io.analysis_outputs import nan_statistic
from engine.io.atomic import atomic_path, write_text
from engine.tree import compile_tree

KEYS = ("subject", "trial", "side", "cycle", "cycle_start_s", "cycle_end_s")


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
        why.append("measured peak vertical GRF: the stance is on no force plate" if summary.measured_loads
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


def _cycle_rows(base, summary, result, side) -> list[dict]:
    model, time = result.model, result.motion.time
    dyn = result.dynamics
    rows = []
    for i, (a, b) in enumerate(gait_cycles(summary.events, side)):
        row = {**base, "side": side, "cycle": i + 1, "cycle_start_s": float(a), "cycle_end_s": float(b)}
        why = []
        for name, unit in UNITS.items():
            row[_name(name, unit)] = _number(summary.parameters[side].values[name][i])
        _spatial_notes(row, summary, side, why)
        _grf_columns(row, summary, side, a, why)
        inside = (time >= a) & (time <= b)
        for coordinate, name, s, _ in clinical_joints(model):
            if s == side and dyn is not None and inside.any():
                vi = compile_tree(model).coordinates[coordinate].vi
                row[_name(f"peak {name} moment", "N m/kg")] = _number(
                    np.abs(dyn.tau[inside, vi]).max() / model.total_mass)
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


def summary(rows: list[dict], outcomes: dict) -> dict:
    """The study's summary: trials done, skipped (done earlier) and failed (with their errors); per subject and for
    the whole study, the mean, SD and count of every numeric column over the table's rows."""
    def statistics(selected):
        out = {}
        for name in columns(rows):
            values = [r[name] for r in selected if isinstance(r.get(name), float)]
            if name not in KEYS and values:
                out[name] = {"mean": float(np.mean(values)), "sd": float(np.std(values, ddof=1)) if len(values) > 1
                             else None, "n": len(values)}
        return out
    subjects = sorted({key.split("/")[0] for key in outcomes})
    status = {s: sorted(k for k, o in outcomes.items() if o["status"] == s) for s in ("done", "skipped", "failed")}
    return {"trials": len(outcomes), "done": len(status["done"]), "skipped": len(status["skipped"]),
            "failed": {k: outcomes[k]["error"] for k in status["failed"]},
            "subjects": {s: statistics([r for r in rows if r["subject"] == s]) for s in subjects},
            "study": statistics(rows)}


def write_summary(path, document: dict) -> None:
    write_text(path, json.dumps(document, indent=1, allow_nan=False) + "\n")
