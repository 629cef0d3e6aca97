"""The timeline: time in seconds and frame number, play/pause, step, speed, loop, a scrub slider, and a strip
with the stance phases shaded (right or blade, and left; seed Figs. 18-19) and the gait events."""
from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QLabel, QSlider, QStyle, QToolButton, QVBoxLayout,
                               QWidget)

from engine.display.colours import SIDES

SIDE_COLOURS = {side: QColor("#96" + colour[1:]) for side, colour in SIDES.items()}     # #AARRGGBB, alpha 150
OTHER_COLOUR = QColor(150, 150, 150, 150)
SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0)
TICK_MS = 16


class PhaseStrip(QWidget):
    """Stance intervals per side as coloured bands, events as ticks, the current time as a line; a click seeks."""

    seek = Signal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.span = (0.0, 1.0)
        self.stances: dict = {}
        self.events: list = []
        self.time = 0.0
        self.setFixedHeight(22)
        self.setToolTip("Stance phases (orange: right or blade, blue: left) and gait events; click to seek")

    def x_of(self, t: float) -> float:
        t0, t1 = self.span
        return (t - t0) / (t1 - t0) * (self.width() - 1) if t1 > t0 else 0.0

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(45, 48, 54))
        h = self.height()
        for row, (side, intervals) in enumerate(sorted(self.stances.items())):
            colour = SIDE_COLOURS.get(side, OTHER_COLOUR)
            for a, b in intervals:
                x0, x1 = self.x_of(a), self.x_of(b)
                p.fillRect(int(x0), 2 + row * (h - 4) // 2, max(int(x1 - x0), 1), (h - 4) // 2, colour)
        for e in self.events:
            p.setPen(QPen(SIDE_COLOURS.get(e.context, OTHER_COLOUR).darker(110), 2))
            x = int(self.x_of(e.time))
            p.drawLine(x, 0, x, h)
        p.setPen(QPen(QColor(255, 255, 255), 2))
        x = int(self.x_of(self.time))
        p.drawLine(x, 0, x, h)
        p.end()

    def mousePressEvent(self, event):
        t0, t1 = self.span
        self.seek.emit(t0 + event.position().x() / max(self.width() - 1, 1) * (t1 - t0))


class Timeline(QWidget):
    """Controls the current frame of a ``FrameClock``: the document's (the trial's frames), or another bound with
    :meth:`bind` (a simulation's run)."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.source = None
        self._stances: dict = {}
        style = self.style()
        self.play_button = QToolButton()
        self.play_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.setToolTip("Play / pause (Space)")
        self.play_button.clicked.connect(self.toggle_play)
        back, forward = QToolButton(), QToolButton()
        back.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekBackward))
        forward.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward))
        back.setToolTip("Previous frame (Left)")
        forward.setToolTip("Next frame (Right)")
        back.clicked.connect(lambda: self.step(-1))
        forward.clicked.connect(lambda: self.step(1))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.valueChanged.connect(lambda frame: self.source.set_frame(frame))
        self.label = QLabel()
        self.label.setMinimumWidth(190)
        self.speed = QComboBox()
        self.speed.addItems([f"{s:g}x" for s in SPEEDS])
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("Playback speed")
        self.loop = QCheckBox("Loop")
        self.loop.setChecked(True)
        self.strip = PhaseStrip()
        self.strip.seek.connect(lambda t: self.source.set_time(t))
        controls = QHBoxLayout()
        for w in (self.play_button, back, forward, self.slider, self.label, self.speed, self.loop):
            controls.addWidget(w)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 4)
        layout.setSpacing(2)
        layout.addWidget(self.strip)
        layout.addLayout(controls)
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self._start_time = 0.0
        self.bind(document)

    def bind(self, source) -> None:
        """Drive ``source`` (a ``FrameClock``) from now on; the stance phases are shaded for the document's only."""
        if source is self.source:
            return
        if self.source is not None:
            self.source.changed.disconnect(self._on_content)
            self.source.events_changed.disconnect(self._on_events)
            self.source.frame_changed.disconnect(self._on_frame)
        self.source = source
        source.changed.connect(self._on_content)
        source.events_changed.connect(self._on_events)
        source.frame_changed.connect(self._on_frame)
        self.strip.stances = self._stances if source is self.document else {}
        self._on_content()
        self._on_events()

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        elif self.source.n_frames > 1:
            if self.source.frame >= self.source.n_frames - 1:
                self.source.set_frame(0)
            self._start_time = self.source.current_time
            self._clock.start()
            self._timer.start()
            self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause))

    def pause(self) -> None:
        self._timer.stop()
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))

    def step(self, frames: int) -> None:
        self.pause()
        self.source.set_frame(self.source.frame + frames)

    def step_to_end(self, last: bool) -> None:
        """Go to the first frame, or the ``last``."""
        self.pause()
        self.source.set_frame(self.source.n_frames - 1 if last else 0)

    def _tick(self) -> None:
        doc = self.source
        t = self._start_time + self._clock.elapsed() / 1000.0 * SPEEDS[self.speed.currentIndex()]
        end = float(doc.time[-1])
        if t > end:
            if not self.loop.isChecked():
                doc.set_frame(doc.n_frames - 1)
                self.pause()
                return
            self._start_time = float(doc.time[0])
            self._clock.start()
            t = self._start_time
        doc.set_time(t)

    def set_stances(self, stances: dict) -> None:
        """``{side: [(start, end), ...]}`` s, from the engine's stance phases (the document's trial)."""
        self._stances = stances
        if self.source is self.document:
            self.strip.stances = stances
            self.strip.update()

    def _on_content(self) -> None:
        doc = self.source
        self.pause()
        n = doc.n_frames
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(n - 1, 0))
        self.slider.setValue(doc.frame)
        self.slider.blockSignals(False)
        self.strip.span = (float(doc.time[0]), float(doc.time[-1])) if n else (0.0, 1.0)
        self.setEnabled(n > 1)
        self._on_frame(doc.frame)

    def _on_events(self) -> None:
        self.strip.events = list(self.source.events)
        self.strip.update()

    def _on_frame(self, frame: int) -> None:
        doc = self.source
        self.slider.blockSignals(True)
        self.slider.setValue(frame)
        self.slider.blockSignals(False)
        self.strip.time = doc.current_time
        self.strip.update()
        self.label.setText(f"{doc.current_time:.3f} s   frame {frame + 1} / {doc.n_frames}" if doc.n_frames
                           else "no frames")
