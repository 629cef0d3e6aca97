"""What is open: model, trial, analysis settings and result, gait events, and the current frame; the patient's
trials, each with its own settings, result and events (the shown one's are the document's own fields), and its
static trial.

Widgets read the document and listen to its signals; only the main window changes it, on the GUI thread. The
document is plain Python, as napari's components are: its signals are psygnal's (``connect``/``emit`` as Qt's,
callbacks called at once in the emitting thread), and it imports no Qt (an import-linter contract), so it is
built, changed and tested without a ``QApplication``. The frames shown are the analysis frames when there is a result, else the trial's marker frames
(the model at its neutral pose, or at ``pose``: the static pose of a scaling), else the model alone at one frame.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from engine.algorithms import neutral
from engine.analysis.pipeline import AnalysisSettings
from engine.errors import HybridLabError
from engine.tree import compile_tree
from engine.trial.axes import to_model_axes

from .frame_clock import FrameClock
from .signals import signal


def same_coordinates(a, b) -> bool:
    """Whether models ``a`` and ``b`` have the same coordinates at the same places of ``q``."""
    return a is b or (a.nq == b.nq and {n: c.qi for n, c in compile_tree(a).coordinates.items()}
                      == {n: c.qi for n, c in compile_tree(b).coordinates.items()})


@dataclass
class TrialEntry:
    """One trial of the patient: its file, the trial as opened (lab axes), its own settings and why they were
    proposed (``reasons``), its result and gait events."""

    path: str | None
    trial: object
    settings: AnalysisSettings
    reasons: list = field(default_factory=list)
    result: object = None
    events: list = field(default_factory=list)


class Document(FrameClock):
    """The open work; ``changed`` when model, trial or result are replaced, ``events_changed``,
    ``frame_changed(frame)`` (its frames are the trial's, see ``FrameClock``), ``static_changed`` when the patient's
    static trial is."""

    static_changed = signal()

    def __init__(self):
        super().__init__()
        self.model = None
        self.model_path: str | None = None
        self.trial = None
        self.trial_path: str | None = None
        self.settings = AnalysisSettings()
        self.result = None
        self.Q = None
        self.display_trial = None
        self.notes: list[str] = []
        self.trials: list[TrialEntry] = []      # the patient's trials; the shown one is trials[current]
        self.current = 0
        self.reasons: list[str] = []            # why the shown trial's settings are what they are
        self.static_trial = None                # the patient's static trial (contacts' calibration, scaling)
        self.static_trial_path: str | None = None
        self.patient: dict = {}                 # how the model was scaled: engine.io.session_file.PATIENT_PATHS, mass
        self.pose = None                        # q shown without a result (None: the model's neutral pose)

    # ---------------------------------------------------------------- replacing content
    def set_inputs(self, model=None, trial=None, model_path=None, trial_path=None) -> None:
        """Open a model and/or a trial in place of the shown one, with the document's settings (a result of other
        inputs is dropped)."""
        if model is not None:
            self.model, self.model_path = model, model_path
        if trial is not None:
            self.trial, self.trial_path = trial, trial_path
            self.events, self.reasons = list(trial.events), []      # its settings are the document's, not proposed
            entry = TrialEntry(trial_path, trial, copy.deepcopy(self.settings))
            if self.trials and self.current < len(self.trials):
                self.trials[self.current] = entry
            else:
                self.trials, self.current = [entry], 0
        self.pose = None
        self.result = None
        self._refresh()

    def show_static(self, model, model_path, pose) -> None:
        """Show ``model`` (a scaled model) at ``pose`` (q) with the patient's static trial's markers; the patient's
        trials are kept (none of them is shown)."""
        self._store_shown()
        self.model, self.model_path = model, model_path
        self.trial, self.trial_path = self.static_trial, self.static_trial_path
        self.events, self.result, self.pose = [], None, pose
        self._refresh()

    # ---------------------------------------------------------------- the patient's trials
    def _store_shown(self) -> None:
        """Keep the shown trial's settings, result and events in its entry (unless the static trial is shown)."""
        if self.trials and self.trial is not None and self.trials[self.current].trial is self.trial:
            entry = self.trials[self.current]
            entry.path, entry.settings = self.trial_path, copy.deepcopy(self.settings)
            entry.reasons, entry.result, entry.events = list(self.reasons), self.result, list(self.events)

    def add_trial(self, trial, path, settings, reasons) -> None:
        """Add ``trial`` to the patient's trials with its own ``settings`` (and the ``reasons`` for them), and show
        it; the trial shown before keeps its settings, result and events."""
        self._store_shown()
        self.trials.append(TrialEntry(path, trial, copy.deepcopy(settings), list(reasons), None, list(trial.events)))
        self.show_trial(len(self.trials) - 1, store=False)

    def show_trial(self, index: int, store: bool = True) -> None:
        """Show the patient's trial ``index`` with its own settings, result (if computed with the open model) and
        events."""
        if store:
            self._store_shown()
        entry = self.trials[index]
        self.current = index
        self.trial, self.trial_path = entry.trial, entry.path
        self.settings, self.reasons = copy.deepcopy(entry.settings), list(entry.reasons)
        self.result = entry.result if entry.result is not None and entry.result.model is self.model else None
        self.events, self.pose = list(entry.events), None
        self._refresh()

    def set_trials(self, entries, current: int) -> None:
        """Replace the patient's trials (a session opened) and show ``current``."""
        self.trials = list(entries)
        if self.trials:
            self.show_trial(current, store=False)

    def all_trials(self) -> list[TrialEntry]:
        """The patient's trials, the shown one's entry brought up to date."""
        self._store_shown()
        return list(self.trials)

    def start_patient(self, patient: dict, static_trial, static_trial_path) -> None:
        """A new patient: no trials yet, its static trial, and how its model was scaled."""
        self._store_shown()
        self.trials, self.current, self.reasons, self.patient = [], 0, [], dict(patient)
        self.set_static_trial(static_trial, static_trial_path)

    def set_static_trial(self, trial, path) -> None:
        """The patient's static trial (None: none)."""
        self.static_trial, self.static_trial_path = trial, path
        self.static_changed.emit()

    def set_model(self, model) -> None:
        """Replace the model by an edited one with the same coordinates (e.g. muscles edited); the result is kept.

        Raises
        ------
        ValueError
            If a result is shown and ``model`` does not have its coordinates (the result's motion would not
            fit it).
        """
        if self.result is not None and not same_coordinates(model, self.result.model):
            raise ValueError(f"the model '{model.name}' does not have the coordinates of the model "
                             f"'{self.result.model.name}' the shown result was computed with")
        self.model = model
        self._refresh()

    def set_result(self, result, settings=None) -> None:
        """Show an analysis result (and the settings that produced it) of the open model: ``result.model``
        must be the open model itself (open the result's model and trial with :meth:`set_inputs` first).

        Raises
        ------
        ValueError
            If ``result`` was computed with another model than the open one, or no trial is open.
        """
        if result.model is not self.model:
            raise ValueError(f"the result of the model '{result.model.name}' cannot be shown with "
                             + (f"the model '{self.model.name}'" if self.model is not None else "no model") + " open")
        if self.trial is None:
            raise ValueError("a result cannot be shown without its trial open")
        self.result = result
        if settings is not None:
            self.settings = copy.deepcopy(settings)
        if not self.events:
            self.events = list(result.trial.events)
        self._refresh()

    def set_events(self, events) -> None:
        self.events = sorted(events, key=lambda e: e.time)
        self.events_changed.emit()

    def _refresh(self) -> None:
        self.notes = []
        if self.result is not None:
            self.time, self.Q = self.result.ik.time, self.result.ik.q
            self.display_trial = self.result.trial
        elif self.model is not None and self.trial is not None:
            try:
                # a static pose was solved on the markers as recorded (OpenSim's ground frame is the lab's)
                axes = self.settings.axes if self.pose is None else "Y-up, X-forward"
                self.display_trial = to_model_axes(self.trial, axes)
            except HybridLabError as exc:
                self.display_trial = None
                self.notes.append(f"the trial is not shown: {exc}")
            times = self.trial.markers.time if self.trial.markers.n_frames else np.zeros(1)
            shown = neutral(self.model) if self.pose is None else np.asarray(self.pose, float)
            self.time, self.Q = times, np.tile(shown, (len(times), 1))
        elif self.model is not None:
            self.time, self.Q, self.display_trial = np.zeros(1), neutral(self.model)[None], None
        else:
            self.time, self.Q, self.display_trial = np.zeros(0), None, None
        self.frame = min(self.frame, max(len(self.time) - 1, 0))
        self.changed.emit()
        self.events_changed.emit()
        self.frame_changed.emit(self.frame)

