"""The study table's rows of the shipped demo analysis: one per side and cycle, the peak vertical ground reaction of
each cycle's stance from the estimate's forces, blade metrics on the prosthetic side only, and CSV and Parquet
holding the same values."""
import csv
import statistics

import pyarrow.parquet as pq
import pytest

from engine.analysis.gait_phases import side_of
from engine.clinical.events import gait_events
from engine.demo import demo_results
from study.table import summary, trial_rows, write_table


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


def test_the_summary_gives_each_subject_s_and_the_study_s_mean_sd_and_count(demo):
    result, settings = demo
    rows = trial_rows("demo", "run", result, settings.forward) + [dict(r, subject="twin", trial="copy") for r in
                                                                   trial_rows("demo", "run", result, settings.forward)[:1]]
    outcomes = {"demo/run": {"status": "done"}, "twin/copy": {"status": "skipped"},
                "twin/bad": {"status": "failed", "error": "bad.trc: not a marker file"}}
    doc = summary(rows, outcomes)
    assert (doc["trials"], doc["done"], doc["skipped"]) == (3, 1, 1)
    assert doc["failed"] == {"twin/bad": "bad.trc: not a marker file"}
    column = "peak_vertical_grf_pct_bw"
    values = [r[column] for r in rows]
    assert doc["study"][column] == {"mean": pytest.approx(sum(values) / 3, rel=1e-12),
                                    "sd": pytest.approx(statistics.stdev(values), rel=1e-12), "n": 3}
    assert doc["subjects"]["demo"][column]["n"] == 2
    assert doc["subjects"]["twin"][column] == {"mean": values[2], "sd": None, "n": 1}    # one value: no SD
    assert not set(doc["study"]) & {"subject", "trial", "side", "cycle", "cycle_start_s", "cycle_end_s"}


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
    estimate): the measured peak of each stance (the clinical summary's, tests/clinical/test_measured_grf.py) with its
    source, the spatial parameters from the heel markers, and the notes saying why a column is empty."""
    from dataclasses import replace
    from engine.clinical.summary import clinical_summary
    from tests.clinical.lab_case import lab_case
    result, settings = lab_case(str(test_data))
    rows = trial_rows("P01", "walk1", result, settings.forward)
    summary = clinical_summary(result, settings.forward)
    assert [(r["side"], r["cycle"]) for r in rows] == [("Left", 1), ("Right", 1)]
    for r in rows:
        assert r["grf_source"] == "measured" and "peak_vertical_grf_measured_pct_bw" not in r
        assert r["peak_vertical_grf_pct_bw"] == summary.loads[r["side"]]["peak vertical GRF"][0]
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
