"""File > Open study: a study's table of trials in a dock (``study.browse.open_study``: subjects, trials, status,
key results per gait cycle); double-clicking a trial opens its results in the main window, computed again in a
worker thread by ``study.browse.trial_result_steps`` exactly as the batch computed them."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QDockWidget, QFileDialog, QLabel, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from study.browse import open_study, trial_result_steps

from .worker import StepsRunner

STUDIES = "Studies (*.yaml *.yml study-manifest.json)"


class StudyBrowser(QWidget):
    """The open study's table (one row per trial and cycle); ``table`` the engine's StudyTable."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.study = None
        self.summary = QLabel("No study open.")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setToolTip("Double-click a trial to open its results")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

    def show_study(self, study) -> None:
        self.study = study
        where = f"results in {study.out}" if study.out else "not run yet (no batch output folder beside it)"
        trials = len({(r["subject"], r["trial"]) for r in study.rows})
        self.summary.setText(f"<b>{study.name}</b>: {trials} trials, {study.count('done')} done, "
                             f"{study.count('failed')} failed; {where}")
        t = self.table
        t.setUpdatesEnabled(False)
        t.clear()
        t.setColumnCount(len(study.columns))
        t.setHorizontalHeaderLabels([c.replace("_", " ") for c in study.columns])
        t.setRowCount(len(study.rows))
        for r, row in enumerate(study.rows):
            for c, name in enumerate(study.columns):
                value = row.get(name)
                text = "" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)
                item = QTableWidgetItem(text)
                if isinstance(value, (int, float)):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if name == "error" and value:
                    item.setToolTip(value)
                t.setItem(r, c, item)
        t.resizeColumnsToContents()
        t.setUpdatesEnabled(True)

    def trial_at(self, row: int) -> tuple[str, str]:
        """(subject, trial) of the table's ``row``."""
        found = self.study.rows[row]
        return found["subject"], found["trial"]


def _browser(window) -> StudyBrowser:
    """The window's study dock (made at the first study opened), shown."""
    if getattr(window, "study_browser", None) is None:
        window.study_browser = StudyBrowser()
        window.study_runner = StepsRunner(window)
        window.study_runner.progress.connect(window.progress.report)
        window.study_runner.returned.connect(lambda value: _show_result(window, *value))
        window.study_runner.failed.connect(lambda exc, details: window.report(exc, "Cannot open the trial", details))
        window.study_runner.ended.connect(lambda: window.progress.set_running(False))
        window.study_browser.table.cellDoubleClicked.connect(lambda row, _: open_trial(window, row))
        dock = QDockWidget("Study", window)
        dock.setObjectName("dock_study")
        dock.setWidget(window.study_browser)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        window.docks["study"] = dock
    window.docks["study"].show()
    window.docks["study"].raise_()
    return window.study_browser


def open_study_file(window, path) -> None:
    """Show the study at ``path`` (a study.yaml, a batch output folder or its study-manifest.json) in the dock."""
    study = open_study(path)
    _browser(window).show_study(study)
    window.statusBar().showMessage(f"Study {study.name}: double-click a trial to open its results.", 10000)


def open_study_dialog(window) -> None:
    path, _ = QFileDialog.getOpenFileName(window, "Open a study (study.yaml, or a batch folder's study-manifest.json)",
                                          "", STUDIES)
    if path:
        window.attempt("Cannot open the study", open_study_file, window, path)


def open_trial(window, row: int) -> bool:
    """Start computing the results of the trial on ``row`` of the study's table; False when it cannot start."""
    if window.busy():
        window.statusBar().showMessage("An analysis is running: wait for it to end, or cancel it (Esc).", 8000)
        return False
    subject, trial = window.study_browser.trial_at(row)
    window.study_trial = f"{subject}/{trial}"
    window.progress.reset()
    window.progress.set_running(True)
    window.study_runner.start_steps(trial_result_steps(window.study_browser.study, subject, trial))
    return True


def _show_result(window, result, settings) -> None:
    doc = window.document
    doc.set_inputs(model=result.model, trial=result.trial, trial_path=str(result.trial.source or "") or None)
    doc.set_result(result, settings)
    window.statusBar().showMessage(f"Study trial {window.study_trial}: {result.ik.n_frames} frames, as the batch "
                                   f"analysed it ({Path(window.study_browser.study.source).name}).", 10000)
