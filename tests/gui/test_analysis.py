"""The analysis in the worker thread: progress per stage, results shown when done; a cancelled or failed run
leaves the results shown untouched and says why."""
import copy
import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import QTimer


def _open_inputs(window, inputs):
    model, trial, settings = inputs
    window.document.settings = copy.deepcopy(settings)
    window.document.set_inputs(model=model, trial=trial)


def test_analysis_runs_in_the_worker_with_progress_per_stage(make_window, inputs, qtbot):
    window = make_window()
    _open_inputs(window, inputs)
    reports, ticks = [], []
    window.runner.progress.connect(reports.append)
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))      # the event loop keeps turning during the analysis
    timer.start(1)
    with qtbot.waitSignal(window.runner.finished, timeout=240_000):
        assert window.run_analysis()
        assert not window.progress.run.isEnabled() and window.progress.cancel.isEnabled()
    timer.stop()
    result = window.document.result
    assert result is not None and result.ik.n_frames == window.document.n_frames
    stages = list(dict.fromkeys(p.stage for p in reports))
    assert stages[0] == "inverse kinematics" and stages[-1] == "done"
    assert all(0.0 <= p.fraction <= 1.0 for p in reports)
    assert all(p.stage_fraction is None or 0.0 <= p.stage_fraction <= 1.0 for p in reports)
    assert set(window.progress.bars) == set(stages) - {"done"}
    assert all(bar.value() == bar.maximum() for bar in window.progress.bars.values())
    assert window.progress.overall.value() == window.progress.overall.maximum()
    assert ticks, "the event loop did not turn while the analysis ran"
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())
    # what is shown is the new result: curves, tables, 3D view
    assert window.curves.panels and window.results.grf.rowCount() == len(result.metrics)
    assert window.scene.content.result is result


def test_cancel_keeps_the_previous_results(shown, inputs, qtbot):
    window = shown
    before = window.document.result
    settings = copy.deepcopy(inputs[2])
    settings.ik.chunk = 2                     # many progress reports, so that the cancel lands mid-way
    window.settings_panel.set_settings(settings, [m.name for m in window.document.model.markers])
    window.document.trial = inputs[1]
    seen = []

    def cancel_in_ik(p):
        seen.append(p)
        if p.stage == "inverse kinematics" and p.fraction > 0:
            window.runner.cancel()

    window.runner.progress.connect(cancel_in_ik)
    with qtbot.waitSignal(window.runner.cancelled, timeout=120_000):
        assert window.run_analysis()
    assert {p.stage for p in seen} == {"inverse kinematics"}
    assert window.document.result is before
    assert window.scene.content.result is before
    assert "cancelled" in window.statusBar().currentMessage()
    assert window.progress.message.text() == "cancelled; the results shown are unchanged"   # not its last stage
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())


def test_a_failed_analysis_shows_why_and_keeps_the_results(shown, qtbot):
    window = shown
    before = window.document.result
    q_before = before.ik.q.copy()
    settings = window.settings_panel.settings()
    settings.ik = dataclasses.replace(settings.ik, start=2.0, end=1.0)
    window.settings_panel.set_settings(settings, [])
    with qtbot.waitSignal(window.runner.failed, timeout=60_000):
        assert window.run_analysis()
    box = window.last_error
    assert box.isVisible() and "ends (1.0 s) before it starts (2.0 s)" in box.text()
    assert "Traceback" in box.detailedText()
    assert window.document.result is before and np.array_equal(before.ik.q, q_before)
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())


def _run_with_many_reports(window, inputs, during, qtbot):
    """Run the analysis of the demo, calling ``during()`` at its first inverse-kinematics report."""
    _open_inputs(window, inputs)
    settings = copy.deepcopy(inputs[2])
    settings.ik.chunk = 2
    window.settings_panel.set_settings(settings, [m.name for m in window.document.model.markers])
    calls = []

    def once(p):
        if p.stage == "inverse kinematics" and not calls:
            calls.append(p)
            during()

    window.runner.progress.connect(once)
    with qtbot.waitSignal(window.runner.finished, timeout=240_000):
        assert window.run_analysis()
    assert calls, "the analysis ended before the action"
    qtbot.waitUntil(lambda: window.progress.run.isEnabled())


def test_nothing_opens_while_the_analysis_runs(make_window, inputs, test_data, qtbot):
    window = make_window()
    other = test_data / "opensim" / "gait2354" / "subject01_simbody.osim"
    _run_with_many_reports(window, inputs, lambda: window.open_paths([other]), qtbot)
    doc = window.document
    assert doc.model is inputs[0] and doc.model_path is None      # the demo's model stayed open
    assert doc.result is not None and doc.result.model is doc.model and doc.Q.shape[1] == doc.model.nq
    box = window.last_error
    assert box.isVisible() and "analysis is running" in box.text() and "subject01_simbody.osim" in box.text()
    window.last_error = None
    _run_with_many_reports(window, inputs, lambda: window.attempt("Cannot open the demo", window.open_demo), qtbot)
    assert "analysis is running" in window.last_error.text() and window.document.result.model is inputs[0]


def test_a_result_of_a_model_changed_while_it_ran_is_not_shown(make_window, inputs, qtbot):
    from engine.edits.muscles import RemoveMuscle, apply_edits
    window = make_window()
    doc = window.document
    edited = []

    def edit():
        model, _ = apply_edits(doc.model, [RemoveMuscle(doc.model.muscles[0].name)])
        edited.append(model)
        doc.set_model(model)

    _run_with_many_reports(window, inputs, edit, qtbot)
    assert doc.model is edited[0] and doc.result is None          # the result of the unedited model is not shown
    assert "the model was changed while it ran" in window.statusBar().currentMessage()
    assert "not shown" in window.progress.message.text()


def test_the_document_never_pairs_a_result_with_another_model(make_window, work, test_data):
    from engine.io.open import open_model
    window = make_window()
    doc = window.document
    result, settings = work
    other = open_model(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    doc.set_inputs(model=other, trial=result.trial)
    with pytest.raises(ValueError, match="'hybridlab_athlete' cannot be shown with the model"):
        doc.set_result(result, settings)
    assert doc.result is None and doc.model is other
    doc.set_inputs(model=result.model, trial=result.trial)
    doc.set_result(result, settings)
    with pytest.raises(ValueError, match="does not have the coordinates"):
        doc.set_model(other)                     # an edited model must keep the result's coordinates
    assert doc.model is result.model and doc.result is result
