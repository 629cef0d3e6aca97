"""A C3D dropped alone (issue 26, items 2 and 4): read and shown in the Markers panel (the subject's height and mass
the trial records, editable) before anything runs, then, at the user's go there, analysed as `hybrid analyze
TRIAL.c3d` (the default model made for it, the protocol matched, scaled, analysed) in the worker, to the command's
coordinates, with the values the user confirmed; its matching shown as
a table (every label, matched or not, with its status) that the user edits, the edits kept with the session and used
by the next analysis; a label dragged onto a model marker in the 3D view gets it; an unsupported file dropped
is explained."""
import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from engine.analysis.coordinate_values import coordinate_values
from engine.cli.main import main
from engine.io.storage import read_storage
from engine.protocols.edits import ALIAS, EDITED, NAME
from hybridgui import patient, trial_alone
from hybridgui.matching_panel import NONE

TRIAL = ("c3d", "Sample26", "Capture0002.c3d")       # Helen Hayes, Qualisys: 18 labels


def _drop(window, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    window.dropEvent(QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier))


def _copy_with(test_data, path, parameters: dict):
    """A copy of the test trial written at ``path`` with the C3D ``parameters`` {(group, name): value} added."""
    import ezc3d
    c3d = ezc3d.c3d(str(test_data.joinpath(*TRIAL)))
    for (group, name), value in parameters.items():
        c3d.add_parameter(group, name, [value])
    c3d.write(str(path))
    return path


def _drop_and_analyse(window, path):
    """Drop ``path`` and, the trial shown in the Markers panel, analyse it with the values shown (the panel's button)."""
    _drop(window, [path])
    assert not window.runner.running and window.matching.run.text() == "Analyse with these values"
    window.matching.run.click()


def _ran(window, qtbot, start):
    with qtbot.waitSignal(window.runner.ended, timeout=120_000):
        start()
    assert window.last_error is None, window.reported
    return window.document.result


@pytest.fixture
def dropped(make_window, qtbot, test_data):
    window = make_window()
    path = test_data.joinpath(*TRIAL)
    return window, path, _ran(window, qtbot, lambda: _drop_and_analyse(window, path))


def test_a_dropped_c3d_is_analysed_as_hybrid_analyze(dropped, tmp_path):
    window, path, result = dropped
    assert result.model.name == "hybridlab_athlete_intact" and window.document.model is result.model
    assert any(n.startswith("marker protocol 'helen-hayes'") for n in result.notes)
    assert main(["analyze", str(path), "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    ik = read_storage(tmp_path / "cli" / "ik.mot")
    names, values = coordinate_values(result.model, result.ik.q)
    assert np.allclose(result.ik.time, ik.time, atol=1e-9)
    for label in ik.labels:
        assert np.allclose(values[:, names.index(label)], ik.column(label), atol=1e-6), label
    # the table: every label of the trial, with its status
    panel = window.matching
    assert [r.label for r in panel.rows] == list(window.document.trial.markers.names)
    assert panel.table.rowCount() == 18
    assert panel.status_of("r_asis") == NAME and panel.status_of("r_ankle") == ALIAS      # RMALL's alias
    assert panel.combos["r_ankle"].currentText() == "RMALL"
    assert "18 of 18" in panel.summary.text() and not panel.run.isEnabled()


def test_an_edited_matching_is_kept_in_the_session_and_used_by_the_next_analysis(dropped, make_window, qtbot,
                                                                                  tmp_path):
    window, path, result = dropped
    panel = window.matching
    assert "RTOE" in [m.name for m in result.model.markers]
    panel.combos["r_toe"].setCurrentText(NONE)                # cleared by the user
    assert panel.status_of("r_toe") == EDITED and panel.run.isEnabled() and "17 of 18" in panel.summary.text()
    panel.combos["l_heel"].setCurrentText("LTOE")             # moved: l_toe loses LTOE
    assert panel.status_of("l_toe") == EDITED and panel.combos["l_toe"].currentText() == NONE
    window.save_session(tmp_path / "edited.hls")
    again = _ran(window, qtbot, window.run_analysis)
    markers = [m.name for m in again.model.markers]
    assert "RTOE" not in markers and "LHEEL" not in markers and "LTOE" in markers
    assert any("edited by the user" in n and "r_toe=none" in n for n in again.notes)
    assert not panel.run.isEnabled()
    # the model's LTOE now tracks what l_heel recorded: the first run's LHEEL data
    def column(run, name):
        return run.trial.markers.positions[:, run.trial.markers.names.index(name)]
    assert np.allclose(column(again, "LTOE"), column(result, "LHEEL"), equal_nan=True)
    assert not np.allclose(column(again, "LTOE"), column(result, "LTOE"), equal_nan=True)
    # the session keeps the edits: a new window shows them and its next analysis uses them
    other = make_window()
    other.open_session(tmp_path / "edited.hls")
    assert other.matching.status_of("r_toe") == EDITED and other.matching.combos["l_heel"].currentText() == "LTOE"
    assert other.matching.run.isEnabled()                   # the session's result was run before the edits
    rerun = _ran(other, qtbot, other.run_analysis)
    assert [m.name for m in rerun.model.markers] == markers
    assert np.allclose(rerun.ik.q, again.ik.q, atol=1e-9)


def test_a_label_dragged_onto_a_model_marker_gets_that_marker(dropped):
    window, _, result = dropped
    scene, panel = window.scene, window.matching
    window.view.render()
    frame = window.document.frame
    renderer = scene.renderer
    renderer.SetWorldPoint(*scene.poses.markers[frame][scene.poses.marker_names.index("LTOE")], 1.0)
    renderer.WorldToDisplay()
    x, y = renderer.GetDisplayPoint()[:2]
    row = [r.label for r in panel.rows].index("l_heel")
    mime = panel.table.mimeData([panel.table.item(row, 0)])
    window.view.dropEvent(QDropEvent(QPointF(x, window.view.height() - y), Qt.DropAction.CopyAction, mime,
                                     Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert window.last_error is None, window.reported
    assert panel.combos["l_heel"].currentText() == "LTOE" and panel.status_of("l_heel") == EDITED
    assert panel.combos["l_toe"].currentText() == NONE                # LTOE moved from l_toe
    # dropped on empty space: nothing changes, the status bar says why
    mime = panel.table.mimeData([panel.table.item(0, 0)])      # kept alive: the event does not own it
    window.view.dropEvent(QDropEvent(QPointF(2, 2), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                     Qt.KeyboardModifier.NoModifier))
    assert panel.status_of(panel.rows[0].label) != EDITED and "drop it onto a marker" in \
        window.statusBar().currentMessage()


def test_an_unsupported_file_dropped_is_explained(make_window, tmp_path):
    window = make_window()
    notes = tmp_path / "notes.docx"
    notes.write_bytes(b"x")
    _drop(window, [notes])
    text = window.last_error.text()
    assert "notes.docx" in text and ".docx" in text and ".c3d" in text and "hybrid analyze" in text
    assert not window.runner.running and window.document.result is None


def test_the_subjects_height_and_mass_are_shown_before_the_first_analysis_which_uses_those_confirmed(
        shown, make_window, qtbot, test_data, tmp_path):
    # a Nexus-like copy of the trial (PROCESSING:Height in mm and Bodymass in kg, added by ezc3d) dropped on a window
    # showing a result: read, it is shown in the Markers panel with the values it records and where they come from,
    # and nothing runs nor changes in the window until the user's go; a mass given there is the first analysis's and
    # makes the model the CLI's `--mass` makes (same engine function), the notes saying it was given in the
    # application; the session keeps it

    from engine.cli.analyze import analysis_inputs, parse_arguments
    window = shown
    before = (window.document.model, window.document.trial, window.document.result)
    path = _copy_with(test_data, tmp_path / "nexus.c3d", {("PROCESSING", "Height"): 1745.0,
                                                          ("PROCESSING", "Bodymass"): 68.5})
    _drop(window, [path])
    panel = window.matching
    assert window.last_error is None, window.reported
    assert not window.runner.running
    assert all(a is b for a, b in zip((window.document.model, window.document.trial, window.document.result), before))
    assert (panel.height.value(), panel.mass.value()) == (1.745, 68.5) and panel.body.isEnabled()
    assert panel.height_said.text() == "from the trial's PROCESSING:Height 1745 mm"
    assert panel.mass_said.text() == "from the trial's PROCESSING:Bodymass 68.5 kg"
    assert panel.run.isEnabled() and "Not analysed yet" in panel.summary.text() and panel.table.rowCount() == 18
    panel.height.selectAll()                                     # typed: one value when typed out, not one a key
    QTest.keyClicks(panel.height, "1.62")
    QTest.keyClick(panel.height, Qt.Key.Key_Return)
    assert panel.height.value() == 1.62 and trial_alone.active(window).body["height"] == 1.62
    panel.height.setValue(1.745)                                 # the trial's value again
    assert trial_alone.active(window).body["height"] is None
    panel.mass.setValue(75.0)                                    # the user's
    assert panel.mass_said.text() == "given by you, instead of the trial's PROCESSING:Bodymass 68.5 kg"
    panel.body_edited.emit("height", 3.1)                        # out of range: refused, naming the range
    assert "between 1 and 2.5; got 3.1" in window.reported[-1] and panel.height.value() == 1.745
    window.last_error.close()
    window.last_error = None
    first = _ran(window, qtbot, panel.run.click)
    cli = analysis_inputs(parse_arguments([str(path), "--mass", "75"]))[0]
    assert first.model.total_mass == pytest.approx(75.0, rel=1e-12) == cli.total_mass
    assert [b.mass for b in first.model.bodies] == [b.mass for b in cli.bodies]
    assert ("the subject's body mass is the mass given in the application's Markers panel, 75.000 kg, instead of the "
            "trial's PROCESSING:Bodymass 68.5") in first.notes
    assert window.document.trial is window.trial_alone.trial and window.trial_waiting is None
    assert not panel.run.isEnabled() and panel.run.text() == "Analyse again with these matches"
    window.save_session(tmp_path / "mass.hls")
    panel.mass.setValue(68.5)                                    # the trial's value again: not the user's
    assert window.trial_alone.body == {"height": None, "mass": None} and panel.run.isEnabled()
    again = _ran(window, qtbot, window.run_analysis)
    assert again.model.total_mass == pytest.approx(68.5, rel=1e-12)
    assert "the subject's body mass is the trial's PROCESSING:Bodymass 68.5 kg" in again.notes
    other = make_window()
    other.open_session(tmp_path / "mass.hls")
    assert other.matching.mass.value() == 75.0 and not other.matching.run.isEnabled()
    assert other.trial_alone.body == {"height": None, "mass": 75.0}


def _analysed_notes(window):
    """The notes of the model the analysis of the shown trial makes, with the patient's static trial and the values
    given in the panel (``engine.demo.for_trial.model_for_trial``, as the panel's button runs it), and its mass."""
    from engine.demo.for_trial import model_for_trial
    alone = trial_alone.active(window)
    made = model_for_trial(alone.trial, window.document.static_trial, given=alone.given())
    return made.notes, made.model.total_mass


def test_a_mass_recorded_without_a_height_is_checked_by_the_stature_the_analysis_uses(shown, test_data, tmp_path):
    # the trial records SUBJECT:WEIGHT 154 (pounds, taken as kg) and no height: the analysis makes the model with the
    # stature the markers give, by which 154 kg is refused: the panel says so in the analysis's words, and what the
    # analysis uses instead; with 1.6 m given, 154 / 1.6^2 = 60.2 kg/m^2 is refused naming the height given; with
    # 2.0 m given, 38.5 kg/m^2, it is taken
    from engine.demo.athlete import MASS
    path = _copy_with(test_data, tmp_path / "pounds.c3d", {("SUBJECT", "WEIGHT"): 154.0})
    _drop(shown, [path])
    panel = shown.matching
    assert shown.last_error is None, shown.reported
    notes, mass = _analysed_notes(shown)
    (refused,) = [n for n in notes if n.startswith("the trial's SUBJECT:WEIGHT 154 was not used")]
    assert "with the stature the analysis uses (the model's 1.75 m times the " in refused and mass == pytest.approx(MASS)
    assert panel.mass.given() is None
    assert panel.mass_said.text() == f"{refused}; the analysis keeps the default athlete's {MASS:g} kg"
    (estimated,) = [n for n in notes if n.startswith("the subject's stature is estimated: ")]
    assert panel.height_said.text() == ("none recorded: the analysis uses the stature the markers give: "
                                        + estimated.removeprefix("the subject's stature is estimated: ")
                                        .removesuffix(" (no height given nor recorded usable)"))
    panel.height.setValue(1.6)
    assert trial_alone.active(shown).body == {"height": 1.6, "mass": None}
    assert panel.mass_said.text() == (
        "the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, with the stature the "
        "analysis uses (the height given in the application's Markers panel, 1.600 m) it gives a body mass index "
        f"of {154 / 1.6 ** 2:.1f} kg/m^2, not within 12-50 kg/m^2 (pounds, or another subject's mass?); the analysis "
        f"keeps the default athlete's {MASS:g} kg")
    panel.height.setValue(2.0)
    assert panel.mass.value() == 154.0 and trial_alone.active(shown).body == {"height": 2.0, "mass": None}
    assert panel.mass_said.text() == "from the trial's SUBJECT:WEIGHT 154, taken as kg (C3D gives no unit)"
    assert _analysed_notes(shown)[1] == pytest.approx(154.0, rel=1e-9)


def test_the_panel_checks_a_recorded_mass_by_the_stature_the_analysis_uses_in_its_words(shown, test_data, tmp_path):
    # the trial records SUBJECT:HEIGHT 17.8 (no stature: refused) and WEIGHT 80; its static trial records HEIGHT 1.2,
    # by which 80 kg would be 55.6 kg/m^2; but the refused height is not replaced by the static's: the analysis makes
    # the model with the stature the markers give, by which 80 kg is within 12-50 kg/m^2, and takes it: the panel shows
    # what the analysis does (not a check by a height it does not use), and says the static's height is not used;
    # then HEIGHT 1.9 and WEIGHT 154 (42.7 kg/m^2 with it), and 1.6 m given: the analysis would make a 1.6 m subject
    # of 154 kg, refused too, naming both heights
    _copy_with(test_data, tmp_path / "typo.c3d", {("SUBJECT", "HEIGHT"): 17.8, ("SUBJECT", "WEIGHT"): 80.0})
    _copy_with(test_data, tmp_path / "static.c3d", {("SUBJECT", "HEIGHT"): 1.2})
    _copy_with(test_data, tmp_path / "tall.c3d", {("SUBJECT", "HEIGHT"): 1.9, ("SUBJECT", "WEIGHT"): 154.0})
    panel = shown.matching
    _drop(shown, [tmp_path / "typo.c3d"])
    patient.open_static_trial(shown, tmp_path / "static.c3d")
    assert shown.last_error is None, shown.reported
    static = shown.document.static_trial
    assert 80 / 1.2 ** 2 > 50
    notes, mass = _analysed_notes(shown)
    assert mass == pytest.approx(80.0, rel=1e-9) and panel.mass.value() == 80.0
    assert panel.mass_said.text() == "from the trial's SUBJECT:WEIGHT 80, taken as kg (C3D gives no unit)"
    assert f"the subject's body mass is {panel.mass_said.text().removeprefix('from ')}" in notes
    not_used = (f"the static trial {static.source}'s SUBJECT:HEIGHT 1.2 m was not used as the subject's stature in "
                "place of the trial's: a value the trial records but refuses is not replaced (the trial may be another "
                "subject's)")
    assert not_used in notes and panel.height.given() is None
    assert panel.height_said.text().startswith("the trial's SUBJECT:HEIGHT 17.8 was not used as the subject's stature")
    assert f"; {not_used}; the analysis uses the stature the markers give: the model's 1.75 m" in panel.height_said.text()
    patient.set_static_trial(shown, None, None)
    _drop(shown, [tmp_path / "tall.c3d"])
    assert panel.mass.value() == 154.0                  # 42.7 kg/m^2 with the height recorded with it
    panel.height.setValue(1.6)
    notes, mass = _analysed_notes(shown)
    (refused,) = [n for n in notes if n.startswith("the trial's SUBJECT:WEIGHT 154 was not used")]
    assert panel.mass_said.text().startswith(refused + "; ") and mass == pytest.approx(70.0)
    assert ("with the stature the analysis uses (the height given in the application's Markers panel, 1.600 m) it "
            f"gives a body mass index of {154 / 1.6 ** 2:.1f} kg/m^2") in refused


def test_a_dropped_trial_waiting_for_its_analysis_is_left_when_something_else_opens(shown, test_data):
    window = shown
    _drop(window, [test_data.joinpath(*TRIAL)])
    assert window.matching.run.isEnabled() and "Not analysed yet" in window.matching.summary.text()
    result = window.document.result
    window.document.set_inputs(model=result.model, trial=dataclasses.replace(result.trial))   # another trial opened
    assert window.matching.rows == [] and not window.matching.run.isEnabled()
    assert trial_alone.active(window) is None and not trial_alone.run_waiting(window)   # Run analyses what is shown


def test_a_height_and_mass_from_the_static_trial_are_shown_with_that_origin_which_the_analysis_uses(
        shown, qtbot, test_data, tmp_path):
    # a lab recording the subject's height and mass in the static trial only (here a copy of the trial with Nexus's
    # PROCESSING:Height and Bodymass, the patient's static trial), the trial dropped recording none: the Markers panel
    # shows the static trial's values and says they are its, in the words of the notes of the analysis that then uses
    # them (hybrid analyze TRIAL.c3d --static S's fallback); without the static trial it says the trial records none

    window, panel = shown, shown.matching
    path = test_data.joinpath(*TRIAL)
    static_path = _copy_with(test_data, tmp_path / "static.c3d", {("PROCESSING", "Height"): 1745.0,
                                                                  ("PROCESSING", "Bodymass"): 68.5})
    _drop(window, [path])
    assert window.last_error is None, window.reported
    assert (panel.height.given(), panel.mass.given()) == (None, None)           # none recorded
    patient.open_static_trial(window, static_path)
    static = window.document.static_trial
    said = f"the static trial {static.source}'s PROCESSING:Height 1745 mm (the trial records none)"
    assert panel.height.value() == 1.745 and panel.height_said.text() == f"from {said}"
    assert panel.mass.value() == 68.5 and panel.mass_said.text() == (
        f"from the static trial {static.source}'s PROCESSING:Bodymass 68.5 kg (the trial records none)")
    panel.mass.setValue(68.5)                       # the value shown, confirmed: not the user's
    assert trial_alone.active(window).body == {"height": None, "mass": None}
    result = _ran(window, qtbot, panel.run.click)
    assert f"the subject's stature is {said}" in result.notes
    assert f"the subject's body mass is {panel.mass_said.text().removeprefix('from ')}" in result.notes
    assert result.model.total_mass == pytest.approx(68.5, rel=1e-12)
    patient.set_static_trial(window, None, None)    # the next analysis would take the trial's: none
    assert (panel.height.given(), panel.mass.given()) == (None, None) and "static" not in panel.height_said.text()


def test_a_trial_waiting_for_its_analysis_is_discarded_by_its_button_or_esc_confirmed_and_nothing_is_lost(
        dropped, qtbot, test_data):
    # Esc in the height box abandons the value typed there (the trial still waits, the value is not taken when the box
    # loses the focus); Esc elsewhere asks first (Cancel keeps the trial); the button discards it
    window, _, result = dropped
    doc, panel = window.document, window.matching
    panel.combos["r_toe"].setCurrentText(NONE)                  # an edit of the shown trial, not analysed yet
    shown_before = (doc.model, doc.trial, doc.result, doc.frame)
    other = test_data / "c3d" / "Sample28" / "dynamic.C3D"
    buttons = QMessageBox.StandardButton

    def esc_confirmed():
        QTest.keyClick(panel.run, Qt.Key.Key_Escape)            # outside an editor: asked
        box = window.discard_question
        assert box.isVisible() and "dynamic.C3D" in box.text() and box.defaultButton() is box.button(buttons.Cancel)
        box.button(buttons.Cancel).click()
        assert trial_alone.waiting(window) is not None and panel.discard.isVisibleTo(panel)
        QTest.keyClick(panel.run, Qt.Key.Key_Escape)
        assert window.discard_question is not box
        window.discard_question.button(buttons.Discard).click()

    for discard in (esc_confirmed, panel.discard.click):
        _drop(window, [other])
        assert window.last_error is None, window.reported
        alone = trial_alone.waiting(window)
        assert alone is not None and panel.discard.isVisibleTo(panel)
        assert [r.label for r in panel.rows] != list(doc.trial.markers.names)       # the dropped trial's labels
        with qtbot.waitActive(window):                         # keys reach the active window's shortcuts
            window.activateWindow()
        height = panel.height.value()
        panel.height.setFocus()                                 # Esc where the user checks the values
        panel.height.selectAll()
        QTest.keyClicks(panel.height, "1.62")
        QTest.keyClick(panel.height, Qt.Key.Key_Escape)         # the typed value abandoned, not the trial
        assert trial_alone.waiting(window) is alone and window.discard_question is None
        assert panel.height.value() == height and panel.height.text() == panel.height.textFromValue(height) + " m"
        panel.run.setFocus()                                    # leaving the box takes nothing
        assert alone.body == {"height": None, "mass": None} and panel.height.value() == height
        discard()
        assert window.trial_waiting is None and trial_alone.waiting(window) is None
        assert "dynamic.C3D discarded" in window.statusBar().currentMessage()
        assert (doc.model, doc.trial, doc.result, doc.frame) == shown_before and doc.result is result
        # the panel shows the shown trial again, with its edit
        assert [r.label for r in panel.rows] == list(doc.trial.markers.names) and not panel.discard.isVisibleTo(panel)
        assert panel.status_of("r_toe") == EDITED and panel.run.isEnabled()
        assert panel.run.text() == "Analyse again with these matches" and "Not analysed yet" not in panel.summary.text()
        window.discard_question = None
    assert not trial_alone.run_waiting(window) and not window.runner.running
