"""Simulation: seed 002's built-in scenes (``hybrid simulate SCENE``: the skinned athlete on a robotic lift, a sling or
a bed) built and run in a worker thread (``skin.playback.scene_run_steps`` driven by ``worker.StepsRunner``) with
progress and Cancel, then shown frame by frame in a 3D view of the panel's own: the skin coloured by contact
pressure (kPa, colour bar) and the devices. The run's frames are a ``FrameClock`` (``clock``) that the application's
timeline drives while the panel is shown (play, step, scrub, keys). A failed or cancelled run leaves the run shown
untouched. Every number comes from ``skin``; this panel only presents it. ``skin``'s simulation modules (with SciPy's
sparse solvers) are imported at the first run, not when the window is built."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QVBoxLayout, QWidget)

from skin.cli_simulate import SCENE_NAMES

from .frame_clock import FrameClock
from .viewport.simulation import SimulationScene
from .viewport.widget import make_view
from .worker import StepsRunner

SIZES = {"coarse: skin every 3 cm (interactive)": 0.03, "medium: skin every 2 cm": 0.02,
         "the seed's: skin every 1.2 cm (~14k vertices)": 0.012}
RECORD_EVERY = 10       # steps between recorded frames
STEPS = 1000            # the progress bar's resolution


class SimulationPanel(QWidget):
    """Run a scene, then scrub its frames. ``failed(exception, details)`` when a run fails; ``notice(text)`` for
    the status bar."""

    failed = Signal(object, str)
    notice = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.runner = StepsRunner(self)
        self.playback = None
        self.clock = FrameClock()
        self.scene_name = QComboBox()
        self.scene_name.addItems(list(SCENE_NAMES))
        self.size = QComboBox()
        self.size.addItems(list(SIZES))
        self.duration = QDoubleSpinBox()
        self.duration.setRange(0.0, 20.0)
        self.duration.setDecimals(3)
        self.duration.setSingleStep(0.1)
        self.duration.setSuffix(" s")
        self.duration.setSpecialValueText("the scene's")
        self.run = QPushButton("Run")
        self.cancel = QPushButton("Cancel")
        self.cancel.setEnabled(False)
        self.bar = QProgressBar()
        self.bar.setRange(0, STEPS)
        self.message = QLabel("Choose a scene and run it.")
        self.message.setWordWrap(True)
        self.time_label = QLabel("")
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.scene = SimulationScene()
        self.view = make_view(self.scene)
        form = QFormLayout()
        form.addRow("Scene", self.scene_name)
        form.addRow("Size", self.size)
        form.addRow("Duration", self.duration)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.cancel)
        buttons.addWidget(self.bar, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.time_label)
        layout.addWidget(self.summary)
        self.run.clicked.connect(self.start)
        self.cancel.clicked.connect(self.runner.cancel)
        self.runner.progress.connect(self._on_progress)
        self.runner.returned.connect(self._on_returned)
        self.runner.cancelled.connect(lambda: self._ended("cancelled; the run shown is unchanged"))
        self.runner.failed.connect(self._on_failed)
        self.clock.frame_changed.connect(self.show_frame)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.view.request_render()          # a run that ended while the panel was hidden was not drawn

    def start(self) -> bool:
        """Build and run the chosen scene in the worker thread; False if a run is already going on."""
        if self.runner.running:
            return False
        duration = self.duration.value() or None
        self.bar.setValue(0)
        self.run.setEnabled(False)
        self.cancel.setEnabled(True)
        self.message.setText("building the scene")
        from skin.playback import scene_run_steps
        self.runner.start_steps(scene_run_steps(self.scene_name.currentText(), SIZES[self.size.currentText()],
                                                duration, RECORD_EVERY))
        return True

    def _on_progress(self, progress) -> None:
        self.bar.setValue(round(STEPS * progress.fraction))
        self.message.setText(f"{progress.stage}: {progress.message}")

    def _ended(self, text: str) -> None:
        self.run.setEnabled(True)
        self.cancel.setEnabled(False)
        self.message.setText(text)
        self.notice.emit(f"Simulation {text}")

    def _on_failed(self, exc, details: str) -> None:
        self._ended("failed; the run shown is unchanged")
        self.failed.emit(exc, details)

    def _on_returned(self, playback) -> None:
        self.playback = playback
        result = playback.result
        self.scene.set_playback(playback)
        from skin.outcomes import body_held
        notes = " ".join(result.notes)
        if "board" in playback.scene.watch:         # the lifts: is the body still on the support at the end
            notes = f"At the end the support {'holds' if body_held(playback.scene, result) else 'loses'} the body. " + notes
        self._ended(f"{result.scene}: {result.time[-1]:.3f} s simulated in {result.wall_seconds:.1f} s, "
                    f"{playback.scene.skin.n_vertices} skin vertices, peak pressure "
                    f"{playback.peak_pressure_kpa():.1f} kPa. {notes}".strip())
        self.clock.set_times(playback.time)         # shows frame 0

    def show_frame(self, frame: int) -> None:
        """Show recorded ``frame`` of the run (the clock's current frame)."""
        if self.playback is None:
            return
        self.scene.show_frame(frame)
        self.time_label.setText(f"{self.playback.time[frame]:.3f} s")
        from skin.outcomes import pressure_summary
        groups = pressure_summary(self.playback.scene, self.playback.result, frame)
        self.summary.setText("; ".join(f"{name}: peak {peak / 1e3:.1f} kPa, 95th percentile {p95 / 1e3:.1f} kPa, "
                                       f"{count} vertices loaded" for name, (peak, p95, count) in groups.items()))
        self.view.request_render()

    def shutdown(self) -> None:
        """Stop a run and release the view (before the window closes)."""
        if self.runner.running:
            self.runner.cancel()
            self.runner.wait()
        self.view.shutdown()
