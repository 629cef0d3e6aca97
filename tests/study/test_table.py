"""The study table's rows of the shipped demo analysis: one per side and cycle, the peak vertical ground reaction of
each cycle's stance from the estimate's forces, signed peak moments of the stance, blade metrics on the prosthetic
side only, and CSV and Parquet holding the same values; a failed trial's row; the summary by subject and side, with
per-trial columns counted once per trial."""
import csv
import json
import statistics

import numpy as np
import pyarrow.parquet as pq
import pytest

from engine.analysis.gait_phases import side_of
from engine.clinical.parameters import stances_of
from engine.clinical.events import gait_events
from engine.demo import demo_results
from engine.io.analysis_outputs import generalized_force_table
from study.table import study_rows, summary, trial_rows, write_table


@pytest.fixture(scope="module")
def demo():
    return demo_results()


def test_rows_per_cycle_with_the_stance_peak_force_and_the_blade_on_its_side(demo):
    result, settings = demo
    rows = trial_rows("demo", "run", result, settings.forward)
    events, _ = gait_events(result)
    time, up, weight = result.motion.time, result.model.up, result.model.total_mass * 9.80665
    assert [(r["side"], r["cycle"]) for r in rows] == [("Left", 1), ("Right", 1)]
    for r in rows:
        off = min(e.time for e in events if e.label == "Foot Off" and e.context == r["side"]
                  and e.time > r["cycle_start_s"])
        stance = (time >= r["cycle_start_s"]) & (time <= off)
        force = sum(g.force for name, g in result.qp.groups.items() if side_of(name) == r["side"])
        assert r["peak_vertical_grf_pct_bw"] == pytest.approx(100 * (force[stance] @ up).max() / weight, rel=1e-12)
        blade = "blade_stiffness_n_per_m" in r
        assert blade == (r["side"] == side_of(result.model.rods[0].name))
    right = rows[1]
    assert right["blade_peak_compression_m"] > 0 and right["blade_energy_stored_j"] > 0


def test_csv_and_parquet_hold_the_same_rows(demo, tmp_path):
    result, settings = demo
    rows = trial_rows("demo", "run", result, settings.forward) + [
        {"subject": "s", "trial": "t", "notes": "no complete gait cycle in the analysed range"}]
    write_table(rows, tmp_path / "t.csv", tmp_path / "t.parquet")
    table = pq.read_table(tmp_path / "t.parquet").to_pylist()
    with open(tmp_path / "t.csv", newline="") as f:
        text = list(csv.DictReader(f))
    assert len(table) == len(text) == 3
    for a, b in zip(table, text):
        for key, value in a.items():
            if isinstance(value, float):
                assert float(b[key]) == value
            else:
                assert b[key] == ("" if value is None else str(value))
    assert table[2]["side"] is None and table[2]["notes"].startswith("no complete")


def test_peak_moments_are_signed_clinically_within_the_stance(demo):
    """Knee flexion is OpenSim's knee_angle negated, hip flexion and ankle dorsiflexion keep its sign; each column is
    the largest moment in its direction over the frames from the cycle's Foot Strike to its Foot Off, over mass."""
    result, settings = demo
    rows = trial_rows("demo", "run", result, settings.forward)
    model, time = result.model, result.motion.time
    tau = generalized_force_table(model, time, result.dynamics.tau)
    events, _ = gait_events(result)
    checked = 0
    for r in rows:
        off = min(e.time for e in events if e.label == "Foot Off" and e.context == r["side"]
                  and e.time > r["cycle_start_s"])
        stance = (time >= r["cycle_start_s"]) & (time <= off)
        s = r["side"][0].lower()
        for joint, label, sign, opposite in (("hip_flexion", f"hip_flexion_{s}", 1, "hip_extension"),
                                             ("knee_flexion", f"knee_angle_{s}", -1, "knee_extension"),
                                             ("ankle_dorsiflexion", f"ankle_angle_{s}", 1, "ankle_plantarflexion")):
            if f"{label}_moment" not in tau.labels:
                assert f"peak_{joint}_moment_stance_n_m_per_kg" not in r      # the blade's side has no ankle
                continue
            m = sign * tau.data[stance, tau.labels.index(f"{label}_moment")] / model.total_mass
            assert r[f"peak_{joint}_moment_stance_n_m_per_kg"] == pytest.approx(m.max(), rel=1e-12)
            assert r[f"peak_{opposite}_moment_stance_n_m_per_kg"] == pytest.approx(-m.min(), rel=1e-12)
            checked += 1
    assert checked == 5
    left, right = rows
    # running: stance is dominated by the knee's extensor and the ankle's plantarflexor moment
    assert left["peak_knee_extension_moment_stance_n_m_per_kg"] > 1 > left["peak_knee_flexion_moment_stance_n_m_per_kg"]
    assert left["peak_ankle_plantarflexion_moment_stance_n_m_per_kg"] > 1
    assert (left["limb"], right["limb"]) == ("intact", "prosthetic")


def test_a_failed_trial_has_a_row_with_its_ids_status_and_error(demo, tmp_path):
    result, settings = demo
    stored = trial_rows("demo", "run", result, settings.forward)
    outcomes = {"demo/run": {"status": "skipped", "rows": json.loads(json.dumps(stored))},   # a record's rows
                "demo/bad": {"status": "failed", "error": "bad.trc: not a marker file"}}
    rows = study_rows(outcomes)
    assert rows[:2] == [{**r, "status": "done"} for r in stored]
    assert rows[2] == {"subject": "demo", "trial": "bad", "status": "failed", "notes": "bad.trc: not a marker file"}
    write_table(rows, tmp_path / "t.csv", tmp_path / "t.parquet")
    with open(tmp_path / "t.csv", newline="") as f:
        text = list(csv.DictReader(f))
    assert [(r["trial"], r["status"], r["side"]) for r in text] == [("run", "done", "Left"), ("run", "done", "Right"),
                                                                      ("bad", "failed", "")]
    assert text[2]["notes"] == "bad.trc: not a marker file" and text[2]["ik_rms_mean_mm"] == ""


def _stats(values):
    return {"mean": pytest.approx(statistics.mean(values), rel=1e-12),
            "sd": pytest.approx(statistics.stdev(values), rel=1e-12) if len(values) > 1 else None, "n": len(values)}


def test_the_summary_keeps_sides_apart_and_counts_per_trial_columns_once_per_trial(demo):
    """Two trials of the amputee (the demo, and a copy with other values) and one of a subject without a blade: each
    side of each subject is summarised over its own cycles, the prosthetic and intact sides never pooled, the IK RMS
    over trials (n 2, not one per cycle row), and the study's over the subjects' means."""
    result, settings = demo
    run = trial_rows("demo", "run", result, settings.forward)
    again = [dict(r, trial="again", ik_rms_mean_mm=r["ik_rms_mean_mm"] + 1.0,
                  peak_vertical_grf_pct_bw=r["peak_vertical_grf_pct_bw"] - 7.0) for r in run]
    control = [dict(r, subject="control", trial="walk", limb=None) for r in run]
    outcomes = {"demo/run": {"status": "done", "rows": run}, "demo/again": {"status": "skipped", "rows": again},
                "demo/bad": {"status": "failed", "error": "bad.trc: not a marker file"},
                "control/walk": {"status": "done", "rows": control}}
    doc = summary(study_rows(outcomes), outcomes)
    assert (doc["trials"], doc["done"], doc["skipped"]) == (4, 2, 1)
    assert doc["failed"] == {"demo/bad": "bad.trc: not a marker file"}
    assert "by side" in doc["grouping"] and "once per trial" in doc["grouping"]
    grf, ik = "peak_vertical_grf_pct_bw", "ik_rms_mean_mm"
    amputee = doc["subjects"]["demo"]
    assert amputee["per_trial"]["trials"] == 2
    assert amputee["per_trial"]["columns"][ik] == _stats([run[0][ik], run[0][ik] + 1.0])
    assert grf not in amputee["per_trial"]["columns"] and ik not in amputee["per_cycle"]["Left"]["columns"]
    for side, limb, row in (("Left", "intact", run[0]), ("Right", "prosthetic", run[1])):
        entry = amputee["per_cycle"][side]
        assert (entry["limb"], entry["cycles"]) == (limb, 2)
        assert entry["columns"][grf] == _stats([row[grf], row[grf] - 7.0])
    assert doc["subjects"]["control"]["per_cycle"]["Right"]["limb"] is None
    assert doc["subjects"]["control"]["per_trial"]["columns"][ik] == _stats([run[0][ik]])
    study = doc["study"]
    assert set(study["per_cycle"]) == {"intact", "prosthetic", "Left", "Right"}
    assert study["per_cycle"]["prosthetic"][grf] == _stats([run[1][grf] - 3.5])          # one subject's mean
    assert study["per_cycle"]["Right"][grf] == _stats([run[1][grf]])
    assert study["per_trial"][ik] == _stats([run[0][ik] + 0.5, run[0][ik]])               # between subjects


# what each column the clinical layer may leave empty is called in the notes that say why
WHY = {"peak_vertical_grf_pct_bw": "peak vertical GRF", "peak_vertical_grf_measured_pct_bw": "measured peak vertical GRF",
       "stride_length_m": "stride length", "speed_m_per_s": "speed", "step_length_m": "step length",
       "step_width_m": "width", "contact_time_s": "contact time", "stance_pct": "stance", "swing_pct": "swing",
       "blade_stiffness_n_per_m": "blade stiffness", "blade_peak_compression_m": "blade metrics"}


def _explained(row):
    return all(row.get(column) is not None or (row["notes"] and why in row["notes"]) for column, why in WHY.items()
               if column in row)


def test_plates_without_estimate_give_the_measured_peak_and_the_heel_marker_strides(test_data):
    """The usual lab case (an OpenSim model without contact candidates, plates applied by an ExternalLoads file, no
    estimate): the measured peak of each stance, against the GRF file read by hand (the ExternalLoads file applies
    ``ground_force`` to calcn_r, ``1_ground_force`` to calcn_l), with its source, the spatial parameters from the heel
    markers, and the notes saying why a column is empty."""
    from dataclasses import replace
    from engine.clinical.summary import clinical_summary
    from tests.clinical.lab_case import lab_case
    result, settings = lab_case(str(test_data))
    rows = trial_rows("P01", "walk1", result, settings.forward)
    summary = clinical_summary(result, settings.forward)
    with open(test_data / "opensim" / "gait2354" / "subject01_walk1_grf.mot") as f:
        lines = f.read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("endheader")) + 1
    names, mot = lines[start].split("\t"), np.loadtxt(lines[start + 1:])
    weight = result.model.total_mass * 9.80665
    frame = float(np.median(np.diff(result.motion.time)))
    assert [(r["side"], r["cycle"]) for r in rows] == [("Left", 1), ("Right", 1)]
    for r in rows:
        assert r["grf_source"] == "measured" and "peak_vertical_grf_measured_pct_bw" not in r
        off = dict(stances_of(summary.events, r["side"]))[r["cycle_start_s"]]
        vertical = mot[:, names.index({"Right": "ground_force_vy", "Left": "1_ground_force_vy"}[r["side"]])]
        true = 100 * vertical[(mot[:, 0] >= r["cycle_start_s"] - frame) & (mot[:, 0] <= off + frame)].max() / weight
        # the plate sampled at the analysed frames (60 Hz of a 600 Hz plate): at most the true peak, within 1 % of it
        assert true * 0.99 <= r["peak_vertical_grf_pct_bw"] <= true + 1e-9, (r["side"], true)
        assert r["stride_length_m"] > 1.3 and r["speed_m_per_s"] > 1.0
        assert r["foot_point"].startswith(f"the marker {r['side'][0]}.Heel")
        assert _explained(r), r
    right = rows[1]
    assert right["step_length_m"] is None and "no earlier Foot Strike of the other side" in right["notes"]
    # the plates' bodies not recorded (and no contact candidates to assign them by): no side gets a load, and says so
    unknown = replace(result, classic=replace(result.classic, bodies={}))
    for r in trial_rows("P01", "walk1", unknown, settings.forward):
        assert r["grf_source"] == "none" and r["peak_vertical_grf_pct_bw"] is None
        assert "no ground-reaction estimate and no force plate's load" in r["notes"] and _explained(r)


def test_the_plates_peak_beside_the_estimate_s(demo):
    result, settings = demo
    rows = trial_rows("demo", "run", result, settings.forward)
    weight = result.model.total_mass * 9.80665
    for r in rows:
        assert r["grf_source"] == "estimated"
        assert r.get("blade_force_source") == ("estimated" if r["side"] == "Right" else None)
        off = r["cycle_start_s"] + r["contact_time_s"]
        plate = next(p for p in result.trial.plates if (p.force @ result.model.up)[
            (p.time >= r["cycle_start_s"]) & (p.time <= off)].max() > 20.0)
        k = (plate.time >= r["cycle_start_s"] - 0.002) & (plate.time <= off + 0.002)
        true = 100 * (plate.force[k] @ result.model.up).max() / weight
        assert r["peak_vertical_grf_measured_pct_bw"] == pytest.approx(true, rel=0.01)
        assert r["peak_vertical_grf_pct_bw"] != r["peak_vertical_grf_measured_pct_bw"]
        assert _explained(r), r
