"""File > Report...: the clinical report of the patient's analysed trials (each side's cycles of every trial analysed
with the open model pooled; the shown result alone when it is the only one), written by the engine function
``hybrid report`` uses (``engine.io.report_file.trials_report_steps``) in a worker thread behind a progress dialog
that can cancel it, with the application's report options (the socket's liner, View > Socket liner). The file is written whole at the end (``engine.io.atomic``) or not at all."""
from __future__ import annotations

from pathlib import Path

from .progress_dialog import export_dialog
from .worker import StepsRunner


def report_events(document):
    """The events the report uses: the document's when the user edited them (as a saved session's), else None
    (found by the engine from the kinematics, the plates and the C3D's events, as for a results file)."""
    return _edited(document.events, document.result)


def _edited(events, result):
    events = list(events)
    return events if events and events != list(result.trial.events) else None


def report_analyses(document) -> list:
    """``[(result, forward, events)]`` the report pools: every trial of the patient analysed with the open model, in
    the trials' order (the shown one's with the document's own settings and events)."""
    out = [(e.result, e.settings.forward, _edited(e.events, e.result)) for e in document.all_trials()
           if e.result is not None and e.result.model is document.model]
    if not any(result is document.result for result, _, _ in out):
        out = [(document.result, document.settings.forward, report_events(document))]
    return out


def report_settings(document, analyses) -> list:
    """The settings each of ``analyses`` (:func:`report_analyses`) was analysed with (the shown one's: the
    document's), which the report's sections of the packages beside the engine use (skin's socket pressure)."""
    by_result = {id(e.result): e.settings for e in document.all_trials() if e.result is not None}
    by_result[id(document.result)] = document.settings
    return [by_result.get(id(result)) for result, _, _ in analyses]


def start_report(window, path) -> StepsRunner:
    """Write the report of the patient's analysed trials (:func:`report_analyses`) to ``path`` (.pdf or .html) in a
    worker thread, with a window-modal progress dialog whose Cancel stops it between pages (kept as
    ``window.report_runner`` and ``window.report_dialog``); the status bar says how it ended."""
    doc = window.document
    from engine.io.report_file import trials_report_steps     # matplotlib: imported when a report is made
    analyses = report_analyses(doc)
    options = window.socket_pressure.report_options()          # the liner the 3D view's socket map uses
    steps = trials_report_steps(path, analyses, settings=report_settings(doc, analyses),
                                options=[options] * len(analyses))
    runner = StepsRunner(window)
    dialog = export_dialog(window, "Report", f"Writing the report {Path(path).name}", 1000, runner.cancel)

    def report(progress) -> None:      # the label first: a window-modal dialog's setValue runs the event loop, where
        dialog.setLabelText(f"Writing the report {Path(path).name}: {progress.message or progress.stage}")
        dialog.setValue(int(1000 * progress.fraction))     # the next progress may be shown, then not overwritten

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
