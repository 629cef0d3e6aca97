"""Checks before the analysis computes anything (issue 18): loads that do not cover the trial, marker outliers,
settings out of range, names that name nothing, and a trial without frames; each a clear error or a note."""
from dataclasses import replace

import numpy as np
import pytest

from engine.analysis.pipeline import AnalysisSettings, analysis_steps
from engine.progress import run
from engine.errors import DataError, SettingsError
from engine.io.external_loads import load_external_loads
from engine.io.open import open_model
from engine.io.open_trial import open_trial
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.io.storage import read_storage, write_storage


@pytest.fixture(scope="module")
def gait(test_data):
    d = test_data / "opensim" / "gait10dof18musc"
    return d, open_model(d / "subject01.osim")


def _inputs(gait, grf_table=None, tmp_path=None):
    d, model = gait
    grf = None
    if grf_table is not None:
        grf = tmp_path / "grf.mot"
        write_storage(grf, grf_table)
    trial = open_trial(d / "subject01_walk.trc", grf=grf, external_loads=d / "subject01_walk_grf.xml")
    settings = AnalysisSettings()
    settings.plate_bodies = {load.name: load.body for load in load_external_loads(d / "subject01_walk_grf.xml",
                                                                                  grf).loads}
    settings.ik = ik_settings_from_setup(model, read_ik_setup(d / "ik_setup.xml"))
    return model, trial, settings


def _grf(gait):
    return read_storage(gait[0] / "subject01_walk_grf.mot")


def test_loads_shifted_away_from_the_markers_are_an_error(gait, tmp_path):
    table = _grf(gait)
    model, trial, settings = _inputs(gait, replace(table, time=table.time + 10.0), tmp_path)
    with pytest.raises(DataError, match=r"do not cover .* no time in common"):
        run(analysis_steps(model, trial, settings))


@pytest.fixture(scope="module")
def clean(gait):
    return run(analysis_steps(*_inputs(gait)))


def test_loads_covering_half_a_second_cut_the_range_and_say_so(gait, clean, tmp_path):
    table = _grf(gait)
    keep = table.time <= 0.5
    result = run(analysis_steps(*_inputs(gait, replace(table, time=table.time[keep], data=table.data[keep]),
                                         tmp_path)))
    assert result.ik.time[0] == 0.0 and abs(result.ik.time[-1] - 0.5) < 1 / 60
    assert any(n.startswith("analysed range cut from 0.0000-2.5000 s to 0.0000-0.5000 s") for n in result.notes)
    # never zeros: where both ran over the same frames the torques are those of the whole file's run, but near
    # the cut, where the filter's ends differ
    inner = slice(6, len(result.ik.time) - 6)
    tau, reference = result.dynamics.tau[inner], clean.dynamics.tau[inner]
    span = np.ptp(clean.dynamics.tau, axis=0)
    assert np.all(np.abs(tau - reference).max(axis=0) <= 0.05 * span + 1e-9)


def test_a_marker_sample_a_kilometre_away_is_flagged_and_treated_as_a_gap(gait, clean):
    model, trial, settings = _inputs(gait)
    positions = np.array(trial.markers.positions)
    k, f = trial.markers.index("R.Shank.Front"), 75
    positions[f, k] += [1000.0, 0.0, 0.0]
    dirty = trial.derived(markers=replace(trial.markers, positions=positions))
    result = run(analysis_steps(model, dirty, settings))
    flagged = [n for n in result.notes if n.startswith("marker outliers treated as gaps")]
    assert len(flagged) == 1 and f"R.Shank.Front frame {f} " in flagged[0] and "outside the capture volume" in flagged[0]
    # the torques everywhere within 5% of each coordinate's range of the clean run's (the frame itself included)
    span = np.ptp(clean.dynamics.tau, axis=0)
    assert np.all(np.abs(result.dynamics.tau - clean.dynamics.tau).max(axis=0) <= 0.05 * span + 1e-9)
    assert abs(result.ik.max[f] - clean.ik.max[f]) < 0.005            # m: the fit at that frame is unchanged


def test_a_marker_spike_of_one_frame_is_found_by_its_jump(gait):
    from engine.trial.outliers import remove_outliers
    _, trial, _ = _inputs(gait)
    positions = np.array(trial.markers.positions)
    k = trial.markers.index("L.Heel")
    positions[40, k, 2] += 1.2            # 1.2 m in 1/60 s and back: 72 m/s, no heel moves so fast
    cleaned, report = remove_outliers(trial.derived(markers=replace(trial.markers, positions=positions)))
    assert [(o.marker, o.frame) for o in report.removed] == [("L.Heel", 40)] and not report.kept_jumps
    assert np.isnan(cleaned.markers.positions[40, k]).all()
    untouched, report = remove_outliers(trial)
    assert not report.removed and untouched is trial


@pytest.mark.parametrize("cutoff", [float("nan"), -5.0, 1e-9, float("inf"), 29.0])
def test_filter_settings_out_of_range_are_errors_before_any_work(gait, cutoff):
    model, trial, settings = _inputs(gait)
    settings.cutoff = cutoff
    steps = analysis_steps(model, trial, settings)
    with pytest.raises(SettingsError, match="the coordinates' cut-off must be a number of Hz"):
        next(steps)


def test_plates_on_missing_bodies_and_ik_tasks_naming_nothing_are_listed(gait, tmp_path):
    d, model = gait
    model_, trial, settings = _inputs(gait)
    settings.plate_bodies = {"right": "calcn_r", "left": "no_such_body"}
    with pytest.raises(SettingsError, match="'left' applied to 'no_such_body'"):
        next(analysis_steps(model, trial, settings))
    text = (d / "ik_setup.xml").read_text().replace('<IKMarkerTask name="R.Heel">', '<IKMarkerTask name="R.Hele">')
    (tmp_path / "ik_setup.xml").write_text(text)
    ik = ik_settings_from_setup(model, read_ik_setup(tmp_path / "ik_setup.xml"))
    assert "R.Hele" not in ik.marker_weights
    assert any("1 marker tasks name markers the model does not have, left out: R.Hele" in n for n in ik.notes)


def test_a_trial_without_frames_is_an_error(gait):
    model, trial, settings = _inputs(gait)
    empty = trial.derived(markers=replace(trial.markers, time=trial.markers.time[:0],
                                          positions=trial.markers.positions[:0]), plates=())
    with pytest.raises(DataError, match="no marker frames"):
        next(analysis_steps(model, empty, settings))


def test_non_finite_results_are_flagged_and_metrics_stay_strict_json(clean, tmp_path):
    """As with a body mass of 1e308: torques that overflow are written as NaN only with their rows listed in the
    file's header and the notes, and metrics.json holds null, never a bare NaN."""
    import json

    from engine.io.analysis_outputs import write_outputs
    tau = np.array(clean.classic.tau)
    tau[[3, 7], 2] = np.nan
    tau[9, 0] = np.inf
    ik = replace(clean.ik, rms=np.full_like(clean.ik.rms, np.nan))
    broken = replace(clean, classic=replace(clean.classic, tau=tau), ik=ik, notes=list(clean.notes))
    write_outputs(broken, tmp_path)
    table = read_storage(tmp_path / "id.sto")
    assert table.header["nonfinite_rows"] == "3,7,9" and np.isnan(table.data[3, 2])
    assert any(n.startswith("id.sto: 3 of 151 rows hold values that are not finite") for n in broken.notes)

    def no_constants(name):
        raise AssertionError(f"metrics.json holds {name}")

    metrics = json.loads((tmp_path / "metrics.json").read_text(), parse_constant=no_constants)
    assert metrics["ik"]["marker_rms_mean_m"] is None
    assert "metrics.json: metrics.ik.marker_rms_mean_m is nan (not a finite number), written as null" in metrics["notes"]
