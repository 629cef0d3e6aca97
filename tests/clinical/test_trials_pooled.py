"""Several trials of one patient in one report: each side's cycles of every trial pooled (mean and SD across all of
them, checked against the closed form for two cycles), parameters and stances pooled, symmetry recomputed, per-trial
tables named by trial, trials of one C3D name told apart by the files they were read from; trials of another patient
refused; ``hybrid report A B`` writes the pooled report."""
import dataclasses
import shutil
import subprocess

import numpy as np
import pytest

from engine.analysis.gait_phases import CycleCurves
from engine.cli.main import main
from engine.clinical.parameters import SideParameters
from engine.clinical.summary import clinical_summary
from engine.clinical.symmetry import symmetry_index
from engine.clinical.trials import pooled_summary, trial_names
from engine.demo import demo_files, demo_results
from engine.errors import SettingsError


@pytest.fixture(scope="module")
def summary():
    result, settings = demo_results()
    return clinical_summary(result, settings.forward)


def _other_trial(s, factor):
    """``s`` as another trial of the same patient whose curves and parameters are ``factor`` times its own."""
    curves = {k: {side: CycleCurves(c.percent, factor * c.curves, factor * c.mean, abs(factor) * c.sd)
                  for side, c in by_side.items()} for k, by_side in s.curves.items()}
    params = {side: SideParameters(side, p.cycles, {n: factor * v for n, v in p.values.items()})
              for side, p in s.parameters.items()}
    return dataclasses.replace(s, trial="other.c3d", curves=curves, parameters=params,
                               trials=[("other.c3d",) + tuple(s.trials[0][1:])],
                               emg_tables=[("other.c3d", t) for _, t in s.emg_tables])


def test_cycles_of_every_trial_pooled_per_side(summary):
    other = _other_trial(summary, 2.0)
    pooled = pooled_summary([summary, other])
    key = ("Kinematics", "knee flexion", "deg")
    for side in ("Left", "Right"):
        one = summary.curves[key][side]
        both = pooled.curves[key][side]
        assert both.curves.shape[0] == 2 * one.curves.shape[0] == 2
        x = one.mean
        assert np.allclose(both.mean, 1.5 * x)                              # (x + 2x) / 2
        assert np.allclose(both.sd, np.abs(2 * x - x) / np.sqrt(2))         # SD of two values, ddof 1
        n = len(summary.parameters[side].cycles)
        assert len(pooled.parameters[side].cycles) == 2 * n
        cadence = summary.parameters[side].mean("cadence")
        assert pooled.parameters[side].mean("cadence") == pytest.approx(1.5 * cadence)
    # symmetry from the pooled means
    name, unit, i, p, si = next(row for row in pooled.symmetry if row[0] == "cadence")
    assert i == pytest.approx(pooled.parameters[summary.intact].mean("cadence"))
    assert si == pytest.approx(symmetry_index(i, p))
    assert len(pooled.prosthesis) == 2 * len(summary.prosthesis) and len(pooled.blades) == 2
    assert pooled.trials == [summary.trials[0], other.trials[0]] and pooled.trial == "2 trials"
    assert all(m.plate.startswith((summary.trial + ": ", "other.c3d: ")) for m in pooled.validation)
    assert [t for t, _ in pooled.emg_tables] == [summary.trial, "other.c3d"]
    assert pooled_summary([summary]) is summary


def test_trials_of_another_patient_are_refused(summary):
    with pytest.raises(SettingsError, match="other.c3d.*subject"):
        pooled_summary([summary, dataclasses.replace(_other_trial(summary, 1.0), subject="Someone else")])
    with pytest.raises(SettingsError, match="body mass"):
        pooled_summary([summary, dataclasses.replace(_other_trial(summary, 1.0), mass=1.2 * summary.mass)])


def test_trials_of_one_c3d_name_are_told_apart_by_the_files_they_were_read_from(tmp_path):
    assert trial_names(["a.c3d", "b.c3d"], ["/lab/x/a.c3d", "/lab/y/b.c3d"]) == ["a.c3d", "b.c3d"]
    # every session's run.c3d, the C3Ds themselves: by their folders
    assert trial_names(["run.c3d", "run.c3d", "walk.c3d"], ["/lab/day1/run.c3d", "/lab/day2/run.c3d",
                                                           "/lab/day1/walk.c3d"]) == [
        "day1/run.c3d", "day2/run.c3d", "walk.c3d"]
    # results files of one C3D: by as much of their paths as tells them apart
    assert trial_names(["run.c3d"] * 2, ["/s/a.hlr", "/s/b.hlr"]) == ["run.c3d (a.hlr)", "run.c3d (b.hlr)"]
    assert trial_names(["run.c3d"] * 2, ["/p/day1/results.hlr", "/q/day1/results.hlr"]) == [
        "run.c3d (p/day1/results.hlr)", "run.c3d (q/day1/results.hlr)"]
    assert trial_names(["run.c3d"] * 3, [None, "/s/a.hlr", None]) == ["run.c3d (trial 1)", "run.c3d (a.hlr)",
                                                                     "run.c3d (trial 3)"]      # read from no file
    assert trial_names(["run.c3d"] * 2, ["/lab/day1/run.c3d", None]) == ["day1/run.c3d", "run.c3d (trial 2)"]
    with pytest.raises(SettingsError, match="results.hlr.*pooled twice"):
        trial_names(["run.c3d"] * 2, [tmp_path / "results.hlr", tmp_path / "." / "results.hlr"])
    # two windows of one recording (the application's patient may hold a C3D twice): named by their windows when
    # they do not overlap, refused naming the shared time when they do
    c3d = tmp_path / "run.c3d"
    assert trial_names(["run.c3d", "run.c3d", "walk.c3d"], [c3d, c3d, "/lab/walk.c3d"],
                       [(0.0, 1.0), (1.5, 2.25), (0, 1)]) == ["run.c3d (0.00-1.00 s)", "run.c3d (1.50-2.25 s)", "walk.c3d"]
    with pytest.raises(SettingsError, match=r"run.c3d.*pooled twice over 0.80-1.00 s"):
        trial_names(["run.c3d"] * 2, [c3d, c3d], [(0.0, 1.0), (0.8, 2.0)])


def test_hybrid_report_of_two_trials(tmp_path, capsys):
    results = demo_files().results
    copies = [tmp_path / day / "results.hlr" for day in ("day1", "day2")]
    for copy in copies:
        copy.parent.mkdir()
        shutil.copy(results, copy)
    out = tmp_path / "two.pdf"
    assert main(["report", *map(str, copies), "--out", str(out)]) == 0
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], check=True, capture_output=True, text=True).stdout
    assert "2 trials" in text and "Trials pooled (left, right cycles)" in text
    assert "(2 cycles)" in text          # each side's one cycle of each trial, pooled in the legends
    # both copies recorded run.c3d: named by the files given, in the header, the blade's legend and the plates' table
    for day in ("day1", "day2"):
        assert f"run.c3d ({day}/results.hlr) (1, 1)" in text
        assert text.count(f"run.c3d ({day}/results.hlr): FP") == 6       # two plates, three axes
    assert main(["report", str(copies[0]), str(copies[0]), "--out", str(tmp_path / "same.pdf")]) == 2
    assert "day1/results.hlr" in capsys.readouterr().err and not (tmp_path / "same.pdf").exists()


def test_pooled_ground_reactions_keep_their_source_and_the_plates_peaks():
    """A trial with the estimate and the same trial without it (the plates' loads): the pooled loads are each trial's
    in turn, the source 'mixed'; the plates' per-stance peaks are pooled beside them."""
    result, settings = demo_results()
    estimated = clinical_summary(result, settings.forward)
    measured = clinical_summary(dataclasses.replace(result, qp=None, metrics=[]), settings.forward)
    pooled = pooled_summary([estimated, measured])
    assert (estimated.grf_source, measured.grf_source, pooled.grf_source) == ("estimated", "measured", "mixed")
    for side in ("Left", "Right"):
        peaks = [s.loads[side]["peak vertical GRF"] for s in (estimated, measured)]
        assert np.array_equal(pooled.loads[side]["peak vertical GRF"], np.concatenate(peaks))
        plates = [s.measured_loads[side]["peak vertical GRF"] for s in (estimated, measured)]
        assert np.array_equal(pooled.measured_loads[side]["peak vertical GRF"], np.concatenate(plates))
    assert pooled_summary([measured, measured]).grf_source == "measured"
    assert pooled.parameters["Right"].positions == estimated.parameters["Right"].positions


def test_pooled_measured_loads_line_up_with_the_loads_stance_by_stance(summary):
    """A trial without plates (no measured loads) pooled before one with them: its stances are NaN in the pooled
    measured loads, which line up with the pooled loads stance by stance."""
    assert summary.measured_loads
    no_plates = dataclasses.replace(_other_trial(summary, 2.0), measured_loads={})
    pooled = pooled_summary([no_plates, summary])
    for side in ("Left", "Right"):
        n = len(summary.loads[side]["peak vertical GRF"])
        for name, values in pooled.measured_loads[side].items():
            assert len(values) == len(pooled.loads[side][name]) == 2 * n, (side, name)
            assert np.isnan(values[:n]).all()
            assert np.array_equal(values[n:], summary.measured_loads[side][name], equal_nan=True)
