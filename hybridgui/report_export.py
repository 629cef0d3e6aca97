"""File > Report...: the clinical report of the shown result, written by the engine function ``hybrid report`` uses
(``engine.io.report_file.report_steps``) in a worker thread behind a progress dialog that can cancel it. The file is
written whole at the end (``engine.io.atomic``) or not at all."""
from __future__ import annotations

from pathlib import Path

from engine.io.report_file import report_steps

from .progress_dialog import export_dialog
from .worker import StepsRunner


def report_events(document):
    """The events the report uses: the document's when the user edited them (as a saved session's), else None
    (found by the engine from the kinematics, the plates and the C3D's events, as for a results file)."""
    events = list(document.events)
    return events if events and events != list(document.result.trial.events) else None


def start_report(window, path) -> StepsRunner:
    """Write the report of ``window.document.result`` to ``path`` (.pdf or .html) in a worker thread, with a
    window-modal progress dialog whose Cancel stops it between pages (kept as ``window.report_runner`` and
    ``window.report_dialog``); the status bar says how it ended."""
    doc = window.document
    steps = report_steps(path, doc.result, doc.settings.forward, report_events(doc))
    runner = StepsRunner(window)
    dialog = export_dialog(window, "Report", f"Writing the report {Path(path).name}", 1000, runner.cancel)

    def report(progress) -> None:
        dialog.setValue(int(1000 * progress.fraction))
        dialog.setLabelText(f"Writing the report {Path(path).name}: {progress.message or progress.stage}")

    def ended(text: str | None) -> None:
        dialog.canceled.disconnect(runner.cancel)
        dialog.reset()
        dialog.hide()
        if text:
            window.statusBar().showMessage(text, 15000)

    runner.progress.connect(report)
    runner.returned.connect(lambda written: ended(f"Report written to {written}"))
    runner.cancelled.connect(lambda: ended(f"Report cancelled: {Path(path).name} not written."))
    runner.failed.connect(lambda exc, details: (ended(None), window.report(exc, "Cannot write the report", details)))
    dialog.show()
    runner.start_steps(steps)
    window.report_runner, window.report_dialog = runner, dialog
    return runner
