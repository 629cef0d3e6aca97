"""The study table and summary `hybrid batch` writes on a real local Dask cluster (two worker processes) for two
gait10dof18musc walks, a corrupt trial and the demo's run (a blade on the right), checked against the trials' own
output files read here: each cycle's peak moments from id.sto and peak vertical ground reaction from
grf_estimated.mot over its stance, each trial's IK RMS from ik_marker_errors.sto; the corrupt trial's row; the
prosthetic and intact sides; the summary's statistics by side and per trial recomputed from the CSV table."""
import csv
import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from engine.analysis.gait_phases import side_of
from engine.cli.main import main
from engine.io.open import open_model
from engine.io.storage import read_storage

G = 9.80665
ROOT = Path(__file__).resolve().parents[2]


def _study(folder, test_data):
    t = test_data / "opensim" / "gait10dof18musc"
    (folder / "bad.trc").write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    loads = f"        grf: {t / 'subject01_walk_grf.mot'}\n        external_loads: {t / 'subject01_walk_grf.xml'}\n"
    path = folder / "study.yaml"
    path.write_text(f"""format: hybridlab-study
version: 1
settings: {{start: 0.0, end: 2.5, estimate_grf: true}}
subjects:
  - id: s
    model: {t / 'subject01.osim'}
    trials:
      - id: walk
        file: {t / 'subject01_walk.trc'}
{loads}      - id: walk_8hz
        file: {t / 'subject01_walk.trc'}
{loads}        settings: {{filter: 8}}
      - id: corrupt
        file: {folder / 'bad.trc'}
  - id: demo
    model: {ROOT / 'resources' / 'athlete.yaml'}
    trials:
      - id: run
        file: {ROOT / 'resources' / 'demo' / 'run.c3d'}
        settings: {{end: 1.435}}
""")
    return path, {"s": open_model(t / "subject01.osim"), "demo": open_model(ROOT / "resources" / "athlete.yaml")}


def _stats(values):
    return {"mean": pytest.approx(statistics.mean(values), rel=1e-12),
            "sd": pytest.approx(statistics.stdev(values), rel=1e-12) if len(values) > 1 else None, "n": len(values)}


def _vertical(grf, side, up) -> np.ndarray:
    """The vertical force (N) of the contact groups of ``side`` in a GRF .mot (columns ``<group>_ground_force_v*``)."""
    groups = {label[:-len("_ground_force_vx")] for label in grf.labels if label.endswith("_ground_force_vx")}
    force = sum(grf.data[:, [grf.labels.index(f"{g}_ground_force_v{a}") for a in "xyz"]] for g in groups
                if side_of(g) == side)
    return force @ up


def test_the_batch_s_table_and_summary_agree_with_the_trials_files(tmp_path, test_data, capsys):
    study, models = _study(tmp_path, test_data)
    out = tmp_path / "out"
    assert main(["batch", str(study), "--out", str(out), "--workers", "2", "--no-warm-up"]) == 1, capsys.readouterr().out
    with open(out / "study_table.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [(r["trial"], r["status"]) for r in table if r["status"] != "done"] == [("corrupt", "failed")]
    failed = next(r for r in table if r["status"] == "failed")
    assert "bad.trc" in failed["notes"] and failed["subject"] == "s" and failed["cycle"] == ""
    cycles = [r for r in table if r["cycle"]]
    assert {(r["trial"], r["side"], r["limb"]) for r in cycles} == {
        ("walk", "Left", ""), ("walk", "Right", ""), ("walk_8hz", "Left", ""), ("walk_8hz", "Right", ""),
        ("run", "Left", "intact"), ("run", "Right", "prosthetic")}
    assert [r["limb"] for r in cycles if r["blade_stiffness_n_per_m"]] == ["prosthetic"]
    checked = 0
    for subject, trial in (("s", "walk"), ("s", "walk_8hz"), ("demo", "run")):
        folder, model = out / "trials" / subject / trial, models[subject]
        tau = read_storage(folder / "id.sto")
        grf = read_storage(folder / "grf_estimated.mot")
        errors = read_storage(folder / "ik_marker_errors.sto")
        rms = 1e3 * np.nanmean(errors.data[:, errors.labels.index("marker_error_RMS")])
        for r in (r for r in cycles if (r["subject"], r["trial"]) == (subject, trial)):
            assert float(r["ik_rms_mean_mm"]) == pytest.approx(rms, rel=1e-9)
            start = float(r["cycle_start_s"])
            stance = (tau.time >= start) & (tau.time <= start + float(r["contact_time_s"]) + 1e-9)
            vertical = _vertical(grf, r["side"], model.up)[stance]
            weight = model.total_mass * G
            assert float(r["peak_vertical_grf_pct_bw"]) == pytest.approx(100 * vertical.max() / weight, rel=1e-9)
            s = r["side"][0].lower()
            for joint, label, sign, opposite in (("hip_flexion", f"hip_flexion_{s}", 1, "hip_extension"),
                                                 ("knee_flexion", f"knee_angle_{s}", -1, "knee_extension"),
                                                 ("ankle_dorsiflexion", f"ankle_angle_{s}", 1, "ankle_plantarflexion")):
                if f"{label}_moment" not in tau.labels:        # the blade's side has no ankle
                    assert not r.get(f"peak_{joint}_moment_stance_n_m_per_kg")
                    continue
                m = sign * tau.data[stance, tau.labels.index(f"{label}_moment")] / model.total_mass
                assert float(r[f"peak_{joint}_moment_stance_n_m_per_kg"]) == pytest.approx(m.max(), rel=1e-9)
                assert float(r[f"peak_{opposite}_moment_stance_n_m_per_kg"]) == pytest.approx(-m.min(), rel=1e-9)
                checked += 1
    assert checked == 4 * 3 + 3 + 2
    summary = json.loads((out / "study_summary.json").read_text())
    subject = summary["subjects"]["s"]
    assert subject["per_trial"]["trials"] == 2
    ik = [float(next(r for r in table if r["trial"] == t)["ik_rms_mean_mm"]) for t in ("walk", "walk_8hz")]
    assert subject["per_trial"]["columns"]["ik_rms_mean_mm"] == _stats(ik)
    for side in ("Left", "Right"):
        rows = [r for r in cycles if r["side"] == side and r["subject"] == "s"]
        entry = subject["per_cycle"][side]
        assert (entry["limb"], entry["cycles"]) == (None, len(rows))
        for column in ("peak_vertical_grf_pct_bw", "peak_knee_extension_moment_stance_n_m_per_kg"):
            assert entry["columns"][column] == _stats([float(r[column]) for r in rows])
        assert summary["study"]["per_cycle"][side]["peak_vertical_grf_pct_bw"] == _stats(
            [statistics.mean(float(r["peak_vertical_grf_pct_bw"]) for r in rows)])
    for side, limb in (("Left", "intact"), ("Right", "prosthetic")):
        row = next(r for r in cycles if (r["subject"], r["side"]) == ("demo", side))
        assert summary["subjects"]["demo"]["per_cycle"][side]["limb"] == limb
        assert summary["study"]["per_cycle"][limb]["peak_vertical_grf_pct_bw"] == _stats(
            [float(row["peak_vertical_grf_pct_bw"])])
