"""Run and cancel the analysis, with a progress bar for the whole and one per stage (inverse kinematics,
derivatives, inverse dynamics, QP, muscles) fed by the engine's Progress reports."""
from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget


class ProgressPanel(QWidget):
    """Buttons ``run`` and ``cancel``; :meth:`report` shows a Progress, :meth:`reset` clears the stages."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.run = QPushButton("Run analysis")
        self.cancel = QPushButton("Cancel")
        self.cancel.setEnabled(False)
        self.overall = QProgressBar()
        self.overall.setRange(0, 1000)
        self.overall.setFormat("%p%")
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.stages = QGridLayout()
        self.bars: dict[str, QProgressBar] = {}
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.overall)
        layout.addLayout(self.stages)
        layout.addWidget(self.message)

    def reset(self) -> None:
        while self.stages.count():
            self.stages.takeAt(0).widget().deleteLater()
        self.bars = {}
        self.overall.setValue(0)
        self.message.clear()

    def set_running(self, running: bool) -> None:
        self.run.setEnabled(not running)
        self.cancel.setEnabled(running)

    def show_cancelled(self) -> None:
        """The run was cancelled: said in place of its last stage, whose bar stops."""
        for bar in self.bars.values():
            if bar.maximum() == 0:      # a busy bar would keep moving
                bar.setRange(0, 1000)
        self.message.setText("cancelled; the results shown are unchanged")

    def report(self, progress) -> None:
        """Show one engine Progress: the whole's fraction, the stage's own fraction, the message."""
        self.overall.setValue(int(1000 * progress.fraction))
        if progress.stage not in self.bars:
            for bar in self.bars.values():      # the stages before have ended
                bar.setRange(0, 1000)
                bar.setValue(1000)
            if progress.stage == "done":
                self.message.setText("done")
                return
            bar = QProgressBar()
            bar.setRange(0, 1000)
            row = self.stages.rowCount()
            self.stages.addWidget(QLabel(progress.stage), row, 0)
            self.stages.addWidget(bar, row, 1)
            self.bars[progress.stage] = bar
        bar = self.bars[progress.stage]
        if progress.stage_fraction is None:
            bar.setRange(0, 0)          # busy: the stage does not say how far it is
        else:
            bar.setRange(0, 1000)
            bar.setValue(int(1000 * progress.stage_fraction))
        self.message.setText(f"{progress.stage}: {progress.message}" if progress.message else progress.stage)
