"""A new patient in the application (issue 17): each trial opened with the settings proposed from its own data
(never the demo's or the previous trial's), kept with it and in the session; the time range shown, checked and
offered from an IK setup without being applied; the New patient wizard through the scaling of gait2354."""
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from engine.data import Data
from engine.errors import SettingsError
from engine.io.session_file import load_session
from engine.trial.axes import propose_rotation, rotation_from_axes

GAIT = ("opensim", "gait2354")


def _open_gait(window, test_data):
    d = test_data.joinpath(*GAIT)
    window.open_model_file(d / "subject01_simbody.osim")
    window.open_trial_file(d / "subject01_walk1.trc", d / "subject01_walk1_grf.mot", d / "subject01_walk1_grf.xml")
    return d


def _set_range(window, start, end):
    panel = window.settings_panel
    panel.start.setValue(start)
    panel.end.setValue(end)


def test_gait2354_after_the_demo_runs_with_the_axes_proposed_from_its_own_trial(make_window, test_data, qtbot):
    """Issue 17's application test: launch on the demo, open gait2354's model and trial, run: it succeeds, with
    the lab axes proposed from the trial, not the demo's 'Z-up, X-forward'."""
    window = make_window()
    window.open_demo()
    demo = window.document.settings
    assert demo.axes == "Z-up, X-forward"
    _open_gait(window, test_data)
    doc, panel = window.document, window.settings_panel
    trial = doc.trial
    assert doc.settings.axes is None and panel.axes.text() == ""            # proposed from the data, not the demo's
    assert doc.settings.cutoff != demo.cutoff and doc.settings.plate_bodies   # its own cut-off, its plates' bodies
    assert panel.reasons.isVisibleTo(panel) and "lab" in panel.reasons.text()
    assert (panel.start.value(), panel.end.value()) == (trial.start_time, trial.end_time)
    assert panel.start.isEnabled() and "the trial runs from 0 to" in panel.whole.text()
    _set_range(window, 0.6, 0.9)          # one stance, to keep the test short
    with qtbot.waitSignal(window.runner.ended, timeout=300_000):
        assert window.run_analysis()
    assert window.last_error is None, window.reported
    result = doc.result
    assert result is not None and result.ik.time[0] >= 0.6 - 1e-9 and result.ik.time[-1] <= 0.9 + 1e-9
    # the markers analysed are the trial's turned by the rotation proposed from it, not by the demo's axes
    proposed = propose_rotation(trial).rotation
    assert not np.allclose(proposed, rotation_from_axes(demo.axes))
    frame = int(np.argmin(abs(trial.markers.time - result.trial.markers.time[0])))
    assert abs(trial.markers.time[frame] - result.trial.markers.time[0]) < 1e-9

    def direction(markers, k, a="R.ASIS", b="L.ASIS"):     # pelvis width: free of units and translations
        v = markers.positions[k, markers.names.index(a)] - markers.positions[k, markers.names.index(b)]
        return v / np.linalg.norm(v)
    assert np.allclose(direction(result.trial.markers, 0), proposed @ direction(trial.markers, frame), atol=1e-9)
    assert not np.allclose(direction(result.trial.markers, 0), rotation_from_axes(demo.axes)
                           @ direction(trial.markers, frame), atol=1e-2)
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())


def test_each_trial_keeps_its_own_settings_and_the_session_restores_them(make_window, test_data, tmp_path):
    from hybridgui import patient
    window = make_window()
    window.open_demo()
    d = _open_gait(window, test_data)
    doc, panel = window.document, window.settings_panel
    assert [e.path for e in doc.trials][1:] == [str(d / "subject01_walk1.trc")] and doc.current == 1
    panel.cutoff.setValue(7.25)                                     # an edit of walk1's settings
    _set_range(window, 0.5, 1.5)
    walk = panel.settings()
    panel.trial_chosen.emit(0)                                      # back to the demo's trial
    assert doc.current == 0 and panel.settings().axes == "Z-up, X-forward" and panel.axes.text() == "Z-up, X-forward"
    panel.trial_chosen.emit(1)
    assert panel.settings() == walk and doc.settings.cutoff == 7.25
    patient.open_static_trial(window, d / "scale" / "subject01_static.trc")      # the static trial field
    assert panel.static_name.text() == "subject01_static.trc"
    assert patient.analysis_settings(window, panel.settings()).static_trial is doc.static_trial   # calibrates contacts
    window.save_session(tmp_path / "patient.hls")
    other = make_window()
    other.open_session(tmp_path / "patient.hls")
    o = other.document
    assert np.array_equal(o.static_trial.markers.positions, doc.static_trial.markers.positions, equal_nan=True)
    assert other.settings_panel.static_name.text() == "subject01_static.trc"
    assert len(o.trials) == 2 and o.current == 1 and Path(o.trial_path).resolve() == d / "subject01_walk1.trc"
    assert other.settings_panel.settings() == walk and o.reasons == doc.reasons
    assert o.trials[0].settings.axes == "Z-up, X-forward" and o.trials[0].result is None   # gait2354's model is open
    # "apply these settings to all trials": the demo's trial keeps its own time range and plates
    other.settings_panel.trial_chosen.emit(1)
    other.settings_panel.apply_all.click()
    demo_entry = o.all_trials()[0]
    assert demo_entry.settings.cutoff == 7.25 and demo_entry.settings.axes is None
    assert demo_entry.settings.ik.start is None and demo_entry.settings.plate_bodies == {}
    assert "applied to all trials" in demo_entry.reasons[0]


def test_a_session_of_one_trial_written_before_still_opens(test_data):
    session = load_session(test_data / "results_v1" / "gait2354_walk1.hls")
    assert len(session.trials) == 1 and session.current == 0
    entry = session.trials[0]
    assert entry["trial"] is session.trial and entry["settings"] is session.settings and entry["reasons"] == []
    assert session.static_trial is None and session.patient == {}


def test_an_analysis_that_cannot_run_says_which_setting_to_change(make_window, test_data, qtbot):
    window = make_window()
    _open_gait(window, test_data)
    end = window.document.trial.end_time
    _set_range(window, 0.5, end + 1.0)
    with pytest.raises(SettingsError, match="the end, .* is outside the trial, which runs from 0 to"):
        window.settings_panel.settings()
    _set_range(window, 1.0, 0.5)
    assert not window.run_analysis()
    assert "must come after the start" in window.last_error.text()
    # the demo's lab axes typed in for gait2354 (issue 17: "Matrix is not positive definite" and nothing else)
    _set_range(window, 0.6, 0.7)
    window.settings_panel.axes.setText("Z-up, X-forward")
    with qtbot.waitSignal(window.runner.failed, timeout=300_000):
        assert window.run_analysis()
    box = window.last_error
    assert "the lab axes given as 'Z-up, X-forward' put up 90 degrees away from the trial's vertical" in box.text()
    assert "clear the lab axes" in box.text() and window.document.result is None
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())


def test_an_ik_setups_time_range_is_offered_not_applied(make_window, test_data):
    from engine.io.setup_xml import read_ik_setup
    from hybridgui import patient
    window = make_window()
    d = _open_gait(window, test_data)
    panel = window.settings_panel
    setup = d / "subject01_Setup_IK.xml"
    patient.load_ik_setup(window, setup)
    settings = panel.settings()
    assert settings.ik.start is None and settings.ik.end is None                 # not applied
    tasks = [t for t in read_ik_setup(setup).marker_tasks if t.apply]
    assert tasks and all(settings.ik.marker_weights.get(t.name, settings.ik.default_weight) == t.weight
                         for t in tasks)
    start, end = read_ik_setup(setup).time_range
    assert panel.use_offered.isVisibleTo(panel) and f"analyses {start:g} to {end:g} s" in panel.offered.text()
    panel.use_offered.click()
    applied = panel.settings()
    assert (applied.ik.start, applied.ik.end) == (start, end) and not panel.use_offered.isVisibleTo(panel)


def test_new_patient_wizard_scales_gait2354_and_analyses_its_trial(make_window, test_data, tmp_path, qtbot):
    from hybridgui.new_patient import NewPatientWizard
    window = make_window()
    scale = test_data.joinpath(*GAIT, "scale")
    wizard = NewPatientWizard(window)
    wizard.show()
    wizard.generic.setText(str(scale / "gait2354_simbody.osim"))
    wizard.next()
    wizard.static.setText(str(scale / "subject01_static.trc"))
    wizard.setup_file.setText(str(scale / "subject01_Setup_Scale.xml"))
    wizard.output.setText(str(tmp_path / "subject01_scaled.osim"))
    with qtbot.waitSignal(wizard.runner.ended, timeout=300_000):
        wizard.next()                     # the scaling page starts the scaling in the background
    assert window.last_error is None, window.reported
    assert wizard.scale_page.isComplete() and (tmp_path / "subject01_scaled.osim").is_file()
    result = wizard.run.result
    # every body's factors near OpenSim's ScaleTool run on the same setup
    reference = ET.parse(scale / "reference" / "subject01_scaleSet_applied.xml").getroot()
    theirs = {s.findtext("segment"): np.array(s.findtext("scales").split(), float) for s in reference.iter("Scale")}
    assert len(result.scaled.factors) == 12 and all(np.allclose(f, theirs[b], rtol=5e-3)
                                                    for b, f in result.scaled.factors.items())
    table = wizard.scale_page.residuals
    assert table.rowCount() == len(result.model.markers) and table.item(0, 0).text() == result.model.markers[0].name
    # the scaled model shown at the static pose with the static trial's markers over its own
    from engine.algorithms.kinematics import marker_positions
    doc = window.document
    assert doc.model is result.model and doc.model_path == str(tmp_path / "subject01_scaled.osim")
    assert doc.trial is doc.static_trial and window.scene.content.model is result.model
    model_markers = marker_positions(doc.model, Data(doc.model), doc.Q[0])
    shown = doc.display_trial.markers
    pairs = [(i, shown.names.index(m.name)) for i, m in enumerate(doc.model.markers) if m.name in shown.names]
    gaps = [np.linalg.norm(model_markers[i] - shown.positions[0, j]) for i, j in pairs
            if np.isfinite(shown.positions[0, j]).all()]
    assert len(gaps) > 20 and np.median(gaps) < 0.02
    # a trial added, then Finish analyses it with the settings proposed from it
    d = test_data.joinpath(*GAIT)
    wizard.next()
    wizard.add_trial(d / "subject01_walk1.trc", d / "subject01_walk1_grf.mot", d / "subject01_walk1_grf.xml")
    with qtbot.waitSignal(window.runner.ended, timeout=300_000):
        wizard.accept()
    assert window.last_error is None, window.reported
    assert len(doc.trials) == 1 and doc.result is not None and doc.result.model.name == result.model.name
    assert doc.settings.axes is None and doc.reasons
    window.save_session(tmp_path / "patient.hls")
    session = load_session(tmp_path / "patient.hls")
    assert Path(session.patient["scaled_model"]).resolve() == (tmp_path / "subject01_scaled.osim").resolve()
    assert Path(session.static_trial_path).resolve() == scale / "subject01_static.trc" and len(session.trials) == 1


def test_new_patient_wizard_mass_is_not_given_or_within_the_engines_range(make_window):
    """The spin box's minimum says "not given" (None); any other value it allows is one the engine takes (20-250
    kg), so the wizard never passes a mass the engine refuses."""
    from engine.trial.body_measures import MASS_RANGE
    from hybridgui.new_patient import NewPatientWizard
    wizard = NewPatientWizard(make_window())
    assert wizard.given_mass() is None and wizard.mass.text() == wizard.mass.specialValueText()
    wizard.mass.stepUp()
    assert wizard.given_mass() == MASS_RANGE[0]
    wizard.mass.setValue(72.6)
    assert wizard.given_mass() == 72.6
    wizard.mass.setValue(5.0)                   # below: clamped to "not given", not passed on
    assert wizard.given_mass() is None
