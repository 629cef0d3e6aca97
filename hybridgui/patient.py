"""The patient in the main window: its trials, each opened with the settings proposed from its own data
(``engine.analysis.proposed_settings``) and kept with it, shown one at a time; one trial's settings applied to all
of them on request; the static trial; the whole patient in the session. Presentation only.

Nothing carries over from the trial shown before (the demo's lab axes, filters or weights) unless the user asks.
"""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

from engine.analysis.proposed_settings import proposed_settings
from engine.errors import HybridLabError

from .document import TrialEntry

KEPT_PER_TRIAL = "its own time range and force plates"
"""What "apply these settings to all trials" leaves each trial (it belongs to that trial's recording)."""


def connect(window) -> None:
    """Wire the settings panel's trial and static-trial controls to ``window`` (a MainWindow)."""
    panel = window.settings_panel
    panel.edited.connect(lambda: keep_edits(window))
    panel.trial_chosen.connect(lambda i: window.attempt("Cannot show the trial", show_trial, window, i))
    panel.apply_to_all.connect(lambda: window.attempt("Cannot apply the settings", apply_to_all, window))
    panel.static_cleared.connect(lambda: set_static_trial(window, None, None))
    panel.static_requested.connect(lambda: static_trial_dialog(window))
    window.analysis_queue = []
    window.runner.finished.connect(lambda *_: _analyse_next(window))     # after the result is shown
    window.runner.failed.connect(lambda *_: window.analysis_queue.clear())
    window.runner.cancelled.connect(window.analysis_queue.clear)


def keep_edits(window) -> None:
    """The settings edited in the panel become the shown trial's (while they are valid: an invalid field is
    reported when the analysis is asked to run)."""
    try:
        window.document.settings = window.settings_panel.settings()
    except HybridLabError:
        pass


def proposed(trial, external_loads=None, grf=None):
    """``(settings, reasons)`` for a trial just read: proposed from its own data, with the bodies its
    ExternalLoads file applies the plates to."""
    settings, reasons = proposed_settings(trial)
    if external_loads is not None:
        from engine.io.external_loads import load_external_loads
        loads = load_external_loads(external_loads, grf).loads
        settings.plate_bodies = {load.name: load.body for load in loads}
        reasons.append(f"force plates applied to the bodies {Path(external_loads).name} names")
    return settings, reasons


def add_trial(window, trial, path, external_loads=None, grf=None) -> None:
    """Add ``trial`` to the patient with its proposed settings, and show it."""
    keep_edits(window)
    settings, reasons = proposed(trial, external_loads, grf)
    window.document.add_trial(trial, path, settings, reasons)


def show_trial(window, index: int) -> bool:
    """Show the patient's trial ``index`` (the shown one keeps the settings edited); True when done."""
    window._check_idle(None)
    keep_edits(window)
    window.document.show_trial(index)
    return True


def trial_names(document) -> list[str]:
    return [Path(e.path).name if e.path else f"trial {i + 1}" for i, e in enumerate(document.trials)]


def apply_to_all(window) -> None:
    """The shown trial's settings given to every other trial, each keeping its time range and plates."""
    doc = window.document
    settings = window.settings_panel.settings()
    doc.settings = settings
    name = trial_names(doc)[doc.current]
    for i, entry in enumerate(doc.all_trials()):
        if i == doc.current:
            continue
        own = entry.settings
        entry.settings = dataclasses.replace(copy.deepcopy(settings), plate_bodies=dict(own.plate_bodies),
                                             ik=dataclasses.replace(settings.ik, start=own.ik.start, end=own.ik.end))
        entry.reasons = [f"the settings of {name}, applied to all trials (each keeps {KEPT_PER_TRIAL})"]
    window.statusBar().showMessage(f"The settings of {name} were given to all {len(doc.trials)} trials; each keeps "
                                   f"{KEPT_PER_TRIAL}.", 15000)


def analyse_all(window) -> None:
    """Analyse every trial of the patient in turn, each shown while it runs with its own settings; a failure or
    a cancel stops the rest."""
    if window.runner.running:
        return
    window.analysis_queue[:] = range(len(window.document.trials))
    _analyse_next(window)


def _analyse_next(window) -> None:
    if window.analysis_queue:
        index = window.analysis_queue.pop(0)
        if window.attempt("Cannot show the trial", show_trial, window, index) and window.run_analysis():
            return
        window.analysis_queue.clear()


def set_static_trial(window, trial, path) -> None:
    """The patient's static trial (None: none): the generated contact candidates are calibrated on it."""
    window.document.set_static_trial(trial, path)
    sync_panel(window)


def read_trial(window, path, grf=None, external_loads=None):
    """A trial read off the GUI thread behind a progress dialog that offers Cancel (raises Cancelled)."""
    from engine.io.open_trial import open_trial

    from .background import call_with_cancel
    return call_with_cancel(window, f"Reading {Path(path).name}...", open_trial, path, grf=grf,
                            external_loads=external_loads, c3d_timeout=window.c3d_timeout())


def open_static_trial(window, path) -> None:
    """Read ``path`` as the patient's static trial."""
    set_static_trial(window, read_trial(window, path), str(path))


def static_trial_dialog(window) -> None:
    from PySide6.QtWidgets import QFileDialog
    path, _ = QFileDialog.getOpenFileName(window, "Static trial (standing still, feet flat)", "",
                                          "Trials (*.c3d *.trc)")
    if path:
        window.attempt("Cannot open the static trial", open_static_trial, window, path)


def load_ik_setup(window, path) -> None:
    """An OpenSim IK setup's marker weights and coordinate tasks for the shown trial; its time range is offered
    beside the time fields, not applied."""
    from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
    doc, panel = window.document, window.settings_panel
    settings = panel.settings()
    setup = read_ik_setup(path)
    ik = ik_settings_from_setup(doc.model, setup)
    settings.ik = dataclasses.replace(ik, start=settings.ik.start, end=settings.ik.end)
    doc.settings = settings
    panel.set_settings(settings, [m.name for m in doc.model.markers],
                       None if doc.trial is None else (doc.trial.start_time, doc.trial.end_time))
    if setup.time_range is not None:
        panel.offer_time_range(setup.time_range, f"The IK setup {Path(path).name}")


def sync_panel(window) -> None:
    """Show the patient's trials, the reasons for the shown trial's settings and the static trial."""
    doc, panel = window.document, window.settings_panel
    panel.set_trials(trial_names(doc), doc.current)
    panel.set_reasons(doc.reasons if doc.trial is not None and doc.pose is None else [])
    panel.set_static(Path(doc.static_trial_path).name if doc.static_trial_path else
                     ("(from the session)" if doc.static_trial is not None else None))


def analysis_settings(window, settings):
    """The settings a run uses: the patient's static trial calibrates the generated contact candidates."""
    static = window.document.static_trial
    return settings if static is None else dataclasses.replace(settings, static_trial=static)


def stored_settings(window, settings):
    """The settings kept with a trial: without the patient's static trial (kept once, with the patient)."""
    return settings if window.document.static_trial is None else dataclasses.replace(settings, static_trial=None)


def session_fields(window, settings) -> dict:
    """The Session fields of the whole patient; ``settings`` the shown trial's (from the panel)."""
    doc = window.document
    if settings is not None:
        doc.settings = stored_settings(window, settings)
    entries = [{"path": e.path, "trial": e.trial, "settings": stored_settings(window, e.settings),
                "result": e.result, "events": list(e.events), "reasons": list(e.reasons)}
               for e in doc.all_trials()]
    return {"trials": entries, "current": doc.current if entries else 0, "static_trial": doc.static_trial,
            "static_trial_path": doc.static_trial_path, "patient": dict(doc.patient)}


def restore(window, session) -> None:
    """The patient of an opened session (its shown trial already open in the document)."""
    doc = window.document
    entries = [TrialEntry(e["path"], e["trial"], e["settings"] or copy.deepcopy(doc.settings), e["reasons"],
                          e["result"], list(e["events"] or [])) for e in session.trials]
    doc.trials, doc.current = entries, session.current
    doc.reasons = list(entries[session.current].reasons) if entries else []
    doc.static_trial, doc.static_trial_path = session.static_trial, session.static_trial_path
    doc.patient = dict(session.patient)
    sync_panel(window)
