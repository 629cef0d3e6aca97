"""What is open: model, trial, analysis settings and result, gait events, and the current frame.

Widgets read the document and listen to its signals; only the main window changes it. The
frames shown are the analysis frames when there is a result, else the trial's marker frames
(the model at its neutral pose), else the model alone at one frame.
"""
from __future__ import annotations

import copy

import numpy as np
from PySide6.QtCore import QObject, Signal

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import HybridLabError
from engine.trial.axes import to_model_axes


def same_coordinates(a, b) -> bool:
    """Whether models ``a`` and ``b`` have the same coordinates at the same places of ``q``."""
    return a is b or (a.nq == b.nq and {n: c.qi for n, c in a.tree.coordinates.items()}
                      == {n: c.qi for n, c in b.tree.coordinates.items()})


class Document(QObject):
    """The open work; ``changed`` when model, trial or result are replaced, ``events_changed``,
    ``frame_changed(frame)``."""

    changed = Signal()
    events_changed = Signal()
    frame_changed = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = None
        self.model_path: str | None = None
        self.trial = None
        self.trial_path: str | None = None
        self.settings = AnalysisSettings()
        self.result = None
        self.events: list = []
        self.frame = 0
        self.time = np.zeros(0)
        self.Q = None
        self.display_trial = None
        self.notes: list[str] = []

    # ---------------------------------------------------------------- replacing content
    def set_inputs(self, model=None, trial=None, model_path=None, trial_path=None) -> None:
        """Open a model and/or a trial (a result of other inputs is dropped)."""
        if model is not None:
            self.model, self.model_path = model, model_path
        if trial is not None:
            self.trial, self.trial_path = trial, trial_path
            self.events = list(trial.events)
        self.result = None
        self._refresh()

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
                self.display_trial = to_model_axes(self.trial, self.settings.axes)
            except HybridLabError as exc:
                self.display_trial = None
                self.notes.append(f"the trial is not shown: {exc}")
            times = self.trial.markers.time if self.trial.markers.n_frames else np.zeros(1)
            self.time, self.Q = times, np.tile(self.model.neutral(), (len(times), 1))
        elif self.model is not None:
            self.time, self.Q, self.display_trial = np.zeros(1), self.model.neutral()[None], None
        else:
            self.time, self.Q, self.display_trial = np.zeros(0), None, None
        self.frame = min(self.frame, max(len(self.time) - 1, 0))
        self.changed.emit()
        self.events_changed.emit()
        self.frame_changed.emit(self.frame)

    # ---------------------------------------------------------------- time
    @property
    def n_frames(self) -> int:
        return len(self.time)

    def frame_at(self, t: float) -> int:
        """The frame nearest to time ``t`` (s)."""
        if not len(self.time):
            return 0
        i = int(np.clip(np.searchsorted(self.time, t), 1, max(len(self.time) - 1, 1)))
        return i - 1 if i >= len(self.time) or t - self.time[i - 1] <= self.time[i] - t else i

    def set_frame(self, frame: int) -> None:
        frame = int(np.clip(frame, 0, max(len(self.time) - 1, 0)))
        if frame != self.frame:
            self.frame = frame
            self.frame_changed.emit(frame)

    def set_time(self, t: float) -> None:
        self.set_frame(self.frame_at(t))

    @property
    def current_time(self) -> float:
        return float(self.time[self.frame]) if len(self.time) else 0.0
