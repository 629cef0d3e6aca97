"""Recorded frames in time and the one shown: what the timeline drives (the document's trial, or a simulation's run
in the Simulation panel). Plain Python with psygnal's signals, as the document it underlies (no Qt); a listener's
error does not keep the other listeners from hearing (``signals``)."""
from __future__ import annotations

import numpy as np

from .signals import signal


class FrameClock:
    """Frames at ``time`` (s, ascending) and the current ``frame``; ``events`` the gait events drawn on the timeline.
    ``changed`` when the frames are replaced, ``events_changed``, ``frame_changed(frame)``."""

    changed = signal()
    events_changed = signal()
    frame_changed = signal(int)

    def __init__(self):
        self.frame = 0
        self.time = np.zeros(0)
        self.events: list = []

    def set_times(self, time) -> None:
        """Replace the frames by ``time`` (s), showing the first."""
        self.time = np.asarray(time, float)
        self.frame = 0
        self.changed.emit()
        self.frame_changed.emit(0)

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
