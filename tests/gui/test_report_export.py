"""File > Report...: the report of the shown result written in the background by the function `hybrid report` uses
(the same pages and text), cancelled from its progress dialog without leaving a file, refused without a result."""
import shutil
import subprocess

from PySide6.QtWidgets import QPushButton

from engine.io.report_file import trials_report_steps
from engine.progress import run
from hybridgui import menus, report_export
from hybridgui.report_export import report_events


def _text(pdf) -> str:
    assert shutil.which("pdftotext"), "pdftotext (Debian's poppler-utils) is needed; .ci/run installs it"
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout


def test_the_report_from_the_menu_is_the_command_line_s(shown, tmp_path, monkeypatch, qtbot):
    window, doc = shown, shown.document
    target = tmp_path / "patient"             # no suffix: the chosen filter's is added
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PDF document (*.pdf)"))
    shown_values = []                         # what the bar is set to, in order (its setValue runs the event loop,
    made = report_export.export_dialog        # so a listener connected after it would see progress out of order)

    def recorded(*args):
        dialog = made(*args)
        set_value = dialog.setValue
        dialog.setValue = lambda value: (shown_values.append(value), set_value(value))
        return dialog
    monkeypatch.setattr(report_export, "export_dialog", recorded)
    menus.report_dialog(window)
    runner, dialog = window.report_runner, window.report_dialog
    assert dialog.isVisible() and dialog.windowModality() == dialog.windowModality().WindowModal
    with qtbot.waitSignal(runner.ended, timeout=120_000):
        pass
    written = tmp_path / "patient.pdf"
    assert [p.name for p in tmp_path.iterdir()] == ["patient.pdf"]          # no temporary left
    assert window.statusBar().currentMessage() == f"Report written to {written}" and not dialog.isVisible()
    assert len(shown_values) > 10 and shown_values == sorted(shown_values) and shown_values[-1] == 1000
    reference = tmp_path / "reference" / "report.pdf"
    reference.parent.mkdir()
    run(trials_report_steps(reference, [(doc.result, doc.settings.forward, None)], settings=[doc.settings]))
    assert _text(written) == _text(reference)
    assert window.last_error is None


def test_a_cancelled_report_writes_nothing(shown, tmp_path, monkeypatch, qtbot):
    window = shown
    target = tmp_path / "report.html"
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    menus.report_dialog(window)
    runner, dialog = window.report_runner, window.report_dialog
    cancel = dialog.findChild(QPushButton)
    assert cancel.text() == "Cancel"
    runner.progress.connect(lambda p: cancel.click())
    with qtbot.waitSignal(runner.cancelled, timeout=120_000):
        pass
    qtbot.waitUntil(lambda: not runner.running)
    assert list(tmp_path.iterdir()) == []
    assert window.statusBar().currentMessage() == "Report cancelled: report.html not written."
    assert window.last_error is None and not dialog.isVisible()


def test_without_a_result_no_report_is_asked_for(make_window, monkeypatch):
    window = make_window()
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    menus.report_dialog(window)
    assert window.statusBar().currentMessage().startswith("No report to write: run the analysis first")


def test_edited_events_are_the_report_s(shown):
    doc = shown.document
    assert report_events(doc) is None                       # the trial's own: the engine combines them
    edited = doc.events[1:]
    doc.set_events(edited)
    assert report_events(doc) == sorted(edited, key=lambda e: e.time)


def test_the_report_pools_the_patient_s_trials_analysed_with_the_open_model(shown):
    import dataclasses
    from hybridgui.report_export import report_analyses
    doc = shown.document
    (only,) = report_analyses(doc)
    assert only[0] is doc.result
    entries = doc.all_trials()
    assert len(entries) == 1
    other_model = dataclasses.replace(doc.result, model=doc.result.model.replace())   # analysed with another model
    doc.trials.append(dataclasses.replace(entries[0], path="second.c3d"))
    doc.trials.append(dataclasses.replace(entries[0], path="third.c3d", result=other_model))
    pooled = report_analyses(doc)
    assert [r for r, _, _ in pooled] == [doc.result, doc.result]       # the third's model is not the open one
