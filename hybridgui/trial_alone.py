"""A C3D trial with nothing else, as ``hybrid analyze TRIAL.c3d``: dropped on the window, it is read and shown in
the Markers panel (``matching_panel``) before anything runs: the subject's height and body mass, prefilled with those
the trial records (else, when it records none, those of the patient's static trial, which its analyses use as
``--static``) and saying where each came from, and its labels matched to a protocol on the default model. The
user checks or changes them there (no dialog: the window stays as it was meanwhile) and starts the analysis with the
panel's button (or Analysis > Run): ``engine.demo.for_trial.trial_analysis_steps`` (the default model chosen, the
marker protocol matched, the model scaled and its markers placed, then the analysis) runs in the worker with progress
and Cancel, with the values shown, or discards it there (or Esc). Opening anything else first leaves the dropped
trial. The matching edits stay with the trial and the session and are used by the next analysis of that trial
(Analysis > Run, or the panel's button); so do the height and mass: a value other than the trial's is the user's (``hybrid analyze TRIAL.c3d --height M
--mass KG``, checked by the same engine functions; the notes say it was given in the application). Presentation
only."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from engine.analysis.pipeline import AnalysisSettings
from engine.child_process import Cancelled
from engine.demo.athlete import MASS
from engine.demo.for_trial import default_model, matching_table, trial_analysis_steps, trial_matching
from engine.protocols.fitting import marker_stature
from engine.trial.body_measures import Given, check_height, check_mass, subject_height, subject_mass

from . import patient


@dataclass
class TrialAlone:
    """The trial shown, as read (its own labels); the user's edits of its matching (``{label: marker or None}``);
    ``made`` the TrialModel of the shown result (None after a session opened); ``edits_run`` the edits it used;
    ``default`` the default model chosen for the trial, built once (when ``made`` is None); ``body`` the subject's
    height (m) and mass (kg) the user gave (``{'height': ..., 'mass': ...}``, None: the trial's), ``body_run`` those
    the shown result used; ``waiting`` the model and trial the window showed when the trial was read, whose first
    analysis waits for the user's go in the Markers panel while the window shows them (None: analysed, or from a
    session)."""

    trial: object
    path: str | None
    edits: dict = field(default_factory=dict)
    made: object = None
    edits_run: dict = field(default_factory=dict)
    default: object = None
    body: dict = field(default_factory=lambda: {"height": None, "mass": None})
    body_run: dict = field(default_factory=lambda: {"height": None, "mass": None})
    waiting: tuple | None = None

    def pending(self) -> bool:
        """Whether the trial waits for its first analysis, or the matching, height or mass were edited since the
        shown result."""
        return self.waiting is not None or self.edits != self.edits_run or self.body != self.body_run

    def given(self) -> Given:
        """The height and mass the user gave in the Markers panel, for the analysis."""
        return Given(self.body["height"], self.body["mass"], GIVEN_IN, GIVEN_IN)


GIVEN_IN = "in the application's Markers panel"
"""Where the application's height and mass are given, as the analysis notes say it."""


def connect(window) -> None:
    """Wire the Markers panel of ``window`` (a MainWindow)."""
    window.trial_alone = None
    window.trial_waiting = None
    window.discard_question = None       # Esc's question (ask_discard)
    panel = window.matching
    panel.edited.connect(lambda label, marker: window.attempt("Cannot change the marker matching", edit, window,
                                                              label, marker))
    panel.body_edited.connect(lambda key, value: window.attempt("Cannot take the subject's " + key, body_edit, window,
                                                                key, value))
    panel.rerun.connect(window.run_analysis)
    panel.discarded.connect(lambda: discard(window))
    window.document.static_changed.connect(lambda: window.attempt("Cannot show the marker matching", show, window))
    window.view.label_dropped.connect(lambda label, marker: window.attempt("Cannot change the marker matching",
                                                                          dropped, window, label, marker))


def active(window):
    """The TrialAlone the Markers panel shows: the trial dropped and waiting for its first analysis while the window
    shows what it showed then (:func:`waiting`), else that of the shown trial (:func:`shown`), or None."""
    return waiting(window) or shown(window)


def shown(window):
    """The TrialAlone of the shown trial, or None when the shown trial is not one."""
    alone = window.trial_alone
    return alone if alone is not None and window.document.trial is alone.trial else None


def waiting(window):
    """The trial dropped and waiting for its first analysis, while the window still shows the model and trial it
    showed when the trial was read (None: none, or something else was opened since)."""
    alone, doc = window.trial_waiting, window.document
    return alone if alone is not None and alone.waiting[0] is doc.model and alone.waiting[1] is doc.trial else None


def analyse_file(window, path) -> None:
    """Read ``path`` (off the GUI thread, with Cancel) and show it in the Markers panel, its analysis with the
    default model waiting for the user's go (:func:`run_waiting`)."""
    window._check_idle(path)
    try:
        trial = patient.read_trial(window, path)
    except Cancelled:
        window.statusBar().showMessage(f"Reading {Path(path).name} cancelled.", 8000)
        return
    doc = window.document
    window.trial_waiting = TrialAlone(trial, str(path), waiting=(doc.model, doc.trial))
    window.add_recent(path)
    show(window)
    window.docks["markers"].raise_()
    window.statusBar().showMessage(f"{Path(path).name} read: check the subject's height and body mass (and the marker "
                                   "matching) in the Markers panel, then analyse it there (or Analysis > Run), or "
                                   "discard it there.", 0)


def run_waiting(window) -> bool:
    """Start the first analysis of the trial waiting for it (:func:`waiting`) with ``hybrid analyze``'s settings (with
    the patient's static trial, as every later run of it: ``--static``) and the values the Markers panel shows; False
    when none waits."""
    alone = waiting(window)
    if alone is None:
        return False
    start(window, alone, patient.analysis_settings(window, AnalysisSettings()))
    return True


def ask_discard(window) -> QMessageBox | None:
    """Esc with nothing running: ask whether to discard the trial waiting for its first analysis (its matching edits
    and the height and mass given are lost), Cancel being the default; the question (window-modal, kept as
    ``window.discard_question``), or None when none waits."""
    alone = waiting(window)
    if alone is None:
        return None
    buttons = QMessageBox.StandardButton
    box = QMessageBox(QMessageBox.Icon.Question, "Discard the trial",
                      f"Discard {Path(alone.path or 'the trial').name} without analysing it? Its marker matching edits "
                      "and the height and mass given in the Markers panel are lost.",
                      buttons.Discard | buttons.Cancel, window)
    box.setDefaultButton(buttons.Cancel)
    box.buttonClicked.connect(lambda button: box.standardButton(button) == buttons.Discard and discard(window))
    window.discard_question = box
    box.open()
    return box


def discard(window) -> bool:
    """Leave the trial waiting for its first analysis (:func:`waiting`) unanalysed (the Markers panel's button, or
    Esc confirmed: :func:`ask_discard`): the window showed what it showed before it was dropped all along, and the panel shows it again (the shown
    trial's matching with its edits, or none); False when none waits."""
    alone = waiting(window)
    if alone is None:
        return False
    window.trial_waiting = None
    show(window)
    window.statusBar().showMessage(f"{Path(alone.path or 'the trial').name} discarded without being analysed.", 8000)
    return True


def start(window, alone: TrialAlone, settings) -> None:
    """Run the default model's analysis of ``alone`` with its edits in the worker."""
    window._check_idle(alone.path)
    window.start_prepared(trial_analysis_steps(alone.trial, settings, dict(alone.edits), given=alone.given()),
                          show_result, (alone, dict(alone.body)))
    window.statusBar().showMessage(f"{Path(alone.path or 'the trial').name}: matching its markers to a protocol, "
                                   "scaling the default model to it, then analysing (as `hybrid analyze TRIAL.c3d`; "
                                   "File > Open trial opens a trial with the open model)",
                                   15000)


def rerun(window, settings) -> None:
    """Analyse the shown trial again with the edits made since (Analysis > Run)."""
    start(window, shown(window), settings)


def show_result(window, what, value) -> None:
    """The analysis of ``what`` (TrialAlone, the height and mass it ran with) ended with ``value`` (TrialModel,
    settings, result): show it and its matching."""
    alone, body = what
    made, settings, result = value
    doc = window.document
    doc.set_inputs(model=result.model, model_path=None)    # made.model, with the contact candidates generated
    if alone.waiting is None and shown(window) is alone:            # analysed again: the same trial entry
        doc.settings = settings
        doc.reasons = list(made.notes)
        doc.set_result(result, settings)
    else:
        doc.add_trial(alone.trial, alone.path, settings, list(made.notes))
        doc.set_result(result, settings)
    alone.made, alone.edits_run, alone.body_run, alone.waiting = made, dict(alone.edits), body, None
    window.trial_alone = alone
    if window.trial_waiting is alone:
        window.trial_waiting = None
    show(window)
    window.docks["markers"].raise_()
    window.statusBar().showMessage(f"Analysis done with {made.model.name}: {result.ik.n_frames} frames; "
                                   f"{len(made.matching.labels)} of {len(alone.trial.markers.names)} labels matched "
                                   f"to protocol '{made.matching.protocol.name}' (Markers panel).", 15000)


def table(window):
    """The MatchingTable of the shown TrialAlone with its edits."""
    alone = active(window)
    if alone.made is not None:
        return matching_table(alone.made.matching, alone.made.model, alone.trial.markers.names, alone.edits)
    if alone.default is None:
        alone.default = default_model(alone.trial)[0]
    return trial_matching(alone.trial, alone.default, alone.edits)


def show(window) -> None:
    """The Markers panel for the trial it shows (:func:`active`)."""
    alone = active(window)
    if alone is None:
        window.matching.clear()
        return
    matched = table(window)
    window.matching.show_rows(f"'{matched.matching.protocol.name}' ({matched.matching.protocol.title})", matched.rows,
                              matched.options, alone.pending(), alone.waiting is not None)
    estimate = _estimate(alone, matched)
    height, mass = _recorded(window, alone, "height", estimate), _recorded(window, alone, "mass", estimate)
    given_height, given_mass = alone.body["height"], alone.body["mass"]
    window.matching.show_body(height.value if given_height is None else given_height,
                              mass.value if given_mass is None else given_mass,
                              _said(height, given_height, "no stature is estimated from the markers" if estimate is
                                    None else f"the analysis uses the stature the markers give: {estimate[1]}"),
                              _said(mass, given_mass, f"the analysis keeps the default athlete's {MASS:g} kg"))


def _estimate(alone: TrialAlone, matched):
    """The stature ``(m, where it comes from)`` the analysis of ``alone`` estimates without a measure: its model's
    height scaled by the geometry of ``matched`` (the MatchingTable shown), as ``hybrid analyze TRIAL.c3d`` does
    (``engine.protocols.fitting.marker_stature``); None: none."""
    return marker_stature(alone.made.model if alone.made is not None else alone.default, matched.matching)


def _recorded(window, alone: TrialAlone, key: str, estimate):
    """The subject's ``key`` ('height' or 'mass') that the analysis of ``alone`` takes when the user gives none, with
    where it comes from (a Recorded): the trial's, else the patient's static trial's (``patient.analysis_settings``),
    as ``hybrid analyze TRIAL.c3d --static S`` decides (``engine.protocols.fitting.body_mass``), a mass checked also
    by the stature the analysis uses: the height given in the panel, the trial's or the static trial's, else the
    ``estimate`` from the markers (:func:`_estimate`; ``engine.trial.body_measures.subject_mass``)."""
    static = window.document.static_trial
    if key == "height":
        return subject_height(alone.trial, static)
    return subject_mass(alone.trial, static, alone.given(), estimate)


def _said(read, given, without: str) -> str:
    """Where the panel's height or mass comes from: the trial or its static trial (``read``, a Recorded, in the words
    of the analysis's notes), the user (``given``), or, with none usable, why (the notes on the values refused) and
    what the analysis uses instead (``without``)."""
    if given is not None:
        return (f"given by you, instead of {read.source}" if read.value is not None else
                "given by you; " + ("; ".join(read.rejected) or "the trial records none"))
    if read.value is not None:
        return f"from {read.source}"
    return f"{'; '.join(read.rejected)}; {without}" if read.rejected else f"none recorded: {without}"


def body_edit(window, key: str, value) -> None:
    """The user gave the subject's ``key`` ('height', m, or 'mass', kg; None: not given): the trial's own when it is
    the value the trial (or its static trial) records; else checked as ``hybrid analyze --height/--mass`` checks it."""
    alone = active(window)
    recorded = _recorded(window, alone, key, _estimate(alone, table(window))).value
    step = 0.5 * 10.0 ** -(window.matching.height if key == "height" else window.matching.mass).decimals()
    if value is not None and (recorded is None or abs(value - recorded) > step):
        value = (check_height if key == "height" else check_mass)(value, "Markers panel", key)
    else:
        value = None
    alone.body[key] = value
    show(window)
    window.statusBar().showMessage(f"{key} {'given' if value is not None else 'from the trial'}: "
                                   + ("analyse the trial" if alone.waiting is not None else "run the analysis again")
                                   + " to use it", 10000)


def edit(window, label: str, marker) -> None:
    """Give ``label`` the protocol marker ``marker`` (None: clear it); a label that had that marker loses it."""
    alone = active(window)
    before = dict(alone.edits)
    shown = table(window)
    for other, full in shown.matching.labels.items():
        if marker is not None and full == marker and other != label:
            alone.edits[other] = None
    alone.edits[label] = marker
    try:
        show(window)
    except Exception:
        alone.edits = before
        show(window)
        raise
    moved = [o for o in alone.edits if o not in before and o != label]
    window.statusBar().showMessage(f"{label} -> {marker or 'none'}" + (f" ({', '.join(moved)} cleared)" if moved else "")
                                   + ": run the analysis again to use the matching", 10000)


def dropped(window, label: str, marker) -> None:
    """A label dragged from the Markers panel onto the model: it gets the model marker drawn there."""
    if active(window) is None:
        window.statusBar().showMessage("The marker matching is edited on a trial analysed with the default model "
                                       "(a C3D dropped on the window).", 10000)
    elif waiting(window) is not None:
        window.statusBar().showMessage("The model shown is not the dropped trial's yet: choose the label's marker in "
                                       "the Markers panel, or analyse the trial first.", 10000)
    elif marker is None:
        window.statusBar().showMessage(f"{label}: drop it onto a marker of the model (a small dot) to give it that "
                                       "marker.", 10000)
    elif window.matching.combos[label].findText(marker) < 0:
        window.statusBar().showMessage(f"{marker} is the model's own marker, not one of the protocol's: {label} is "
                                       "unchanged.", 10000)
    else:
        window.matching.combos[label].setCurrentText(marker)      # the combo box's edit, shown in the table


def session_field(window) -> dict:
    """The shown trial's matching edits, height and mass as kept in the session (``{}`` when it is not a trial
    alone)."""
    alone = shown(window)
    return {} if alone is None else {"edits": dict(alone.edits), "edits_run": dict(alone.edits_run),
                                     "body": dict(alone.body), "body_run": dict(alone.body_run)}


def restore(window, stored: dict) -> None:
    """The matching edits of an opened session's shown trial."""
    doc = window.document
    window.trial_alone = (TrialAlone(doc.trial, doc.trial_path, dict(stored.get("edits") or {}), None,
                                     dict(stored.get("edits_run") or {}), body=_body(stored.get("body")),
                                     body_run=_body(stored.get("body_run")))
                          if stored and doc.trial is not None else None)
    show(window)


def _body(stored) -> dict:
    """A session's height (m) and mass (kg) given by the user (None or absent: the trial's), which
    ``engine.io.session_file.load_session`` checked before the window changed."""
    stored = stored or {}
    height, mass = stored.get("height"), stored.get("mass")
    return {"height": None if height is None else float(height), "mass": None if mass is None else float(mass)}
