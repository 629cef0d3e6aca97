"""File > Open study: a study's table of trials in a dock (``study.browse.open_study``: subjects, trials, status,
key results per gait cycle), sorted by a column's values when its header is clicked (numbers as numbers, names with
their digits as numbers, empty cells last either way; the selected trial stays selected) and filtered by subject,
trial or status; double-clicking a trial opens its results in the main window, computed again in a worker thread by
``study.browse.trial_result_steps`` exactly as the batch computed them."""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDockWidget, QFileDialog, QLabel, QLineEdit, QTableView,
                               QVBoxLayout, QWidget)

from study.browse import open_study, trial_result_steps

from .worker import StepsRunner

STUDIES = "Studies (*.yaml *.yml study-manifest.json)"
VALUE = Qt.ItemDataRole.UserRole
"""The role of a cell's value as the study table holds it (a number, a name, or None for an empty cell)."""
FILTERED = ("subject", "trial", "status")
"""The columns the filter box matches."""


def sort_key(value) -> tuple:
    """The order of a column's cells: numbers by value, then texts with their runs of digits as numbers ('walk2'
    before 'walk10'); empty cells (None, '') have no key of their own: :class:`TrialRows` puts them last."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0, float(value)
    return 1, tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                    for part in re.split(r"(\d+)", str(value)) if part)


def _empty(value) -> bool:
    return value is None or value == ""


class StudyRows(QAbstractTableModel):
    """The study table's rows and columns as Qt shows them: the text shown (4 significant digits), the value
    (:data:`VALUE`), numbers aligned right, a failed trial's error as its cell's tip."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows, self.columns = [], []

    def show(self, rows: list, columns: list) -> None:
        self.beginResetModel()
        self.rows, self.columns = rows, columns
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].replace("_", " ")
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        name = self.columns[index.column()]
        value = self.rows[index.row()].get(name)
        if role == VALUE:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        if role == Qt.ItemDataRole.ToolTipRole and name == "error" and value:
            return value
        return None


class TrialRows(QSortFilterProxyModel):
    """The rows shown: sorted by :func:`sort_key` with the empty cells last in either order, and those whose subject,
    trial or status hold every word of the filter (any case)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.words: list[str] = []

    def set_filter(self, text: str) -> None:
        self.words = text.casefold().split()
        self.setFilterFixedString(text)         # Qt filters the rows again, by filterAcceptsRow

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:
        row = self.sourceModel().rows[source_row]
        fields = [str(row.get(name) or "").casefold() for name in FILTERED]
        return all(any(word in field for field in fields) for word in self.words)

    def lessThan(self, left, right) -> bool:
        a, b = left.data(VALUE), right.data(VALUE)
        if _empty(a) or _empty(b):        # empty last: 'less' than a value only when the order is reversed
            return not _empty(a) if self.sortOrder() == Qt.SortOrder.AscendingOrder else not _empty(b)
        return sort_key(a) < sort_key(b)


class StudyBrowser(QWidget):
    """The open study's table (one row per trial and cycle) and its filter box; ``opened(row)`` when a trial is
    double-clicked, ``row`` its row in ``study.rows`` whatever the order shown."""

    opened = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.study = None
        self.summary = QLabel("No study open.")
        self.summary.setWordWrap(True)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by subject, trial or status (every word must match)")
        self.filter.setClearButtonEnabled(True)
        self.rows = StudyRows(self)
        self.shown = TrialRows(self)
        self.shown.setSourceModel(self.rows)
        self.table = QTableView()
        self.table.setModel(self.shown)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)   # the study's order first
        self.table.setSortingEnabled(True)
        self.table.setToolTip("Double-click a trial to open its results; click a column's header to sort by it")
        self.table.doubleClicked.connect(lambda index: self.opened.emit(self.shown.mapToSource(index).row()))
        self.filter.textChanged.connect(self.shown.set_filter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)

    def show_study(self, study) -> None:
        self.study = study
        where = f"results in {study.out}" if study.out else "not run yet (no batch output folder beside it)"
        trials = len({(r["subject"], r["trial"]) for r in study.rows})
        self.summary.setText(f"<b>{study.name}</b>: {trials} trials, {study.count('done')} done, "
                             f"{study.count('failed')} failed; {where}")
        self.rows.show(study.rows, study.columns)
        self.table.resizeColumnsToContents()

    def trial_at(self, row: int) -> tuple[str, str]:
        """(subject, trial) of ``study.rows[row]``."""
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
        window.study_browser.opened.connect(lambda row: open_trial(window, row))
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
    """Start computing the results of the trial of ``study.rows[row]``; False when it cannot start."""
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
