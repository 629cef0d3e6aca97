"""The results table: ground reactions estimated against the force plates per plate and axis (RMSE, rRMSE,
correlation; the seed's Tables 1-2), IK marker errors overall and per marker, the worst marker samples (those the
robust loss down-weighted first), and the analysis' notes."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QLabel, QListWidget, QSplitter, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from engine.analysis.metrics import marker_metrics, worst_samples
from engine.io.analysis_outputs import metrics_document

AXIS_NAMES = {"vertical": "vertical", "ap": "anterior-posterior", "ml": "medio-lateral"}


def _table(headers) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.horizontalHeader().setStretchLastSection(True)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSortingEnabled(False)
    return table


def _fill(table: QTableWidget, rows) -> None:
    table.setUpdatesEnabled(False)
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(value if isinstance(value, str) else f"{value:.4g}")
            if not isinstance(value, str):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()         # once, not after every item
    table.setUpdatesEnabled(True)


class ResultsTable(QWidget):
    """Validation and IK tables of the document's result."""

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.summary = QLabel("No analysis yet.")
        self.summary.setWordWrap(True)
        self.grf = _table(["plate", "contact group", "axis", "RMSE (N)", "rRMSE (%)", "r", "frames"])
        self.markers = _table(["marker", "RMS (mm)", "max (mm)", "frames"])
        self.worst = _table(["marker", "time (s)", "residual (mm)", "weight factor"])
        self.notes = QListWidget()
        split = QSplitter(Qt.Orientation.Horizontal)
        for title, widget in (("Ground reactions against the force plates", self.grf),
                              ("IK marker errors", self.markers), ("Worst marker samples", self.worst),
                              ("Notes", self.notes)):
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(QLabel(f"<b>{title}</b>"))
            v.addWidget(widget)
            split.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.summary)
        layout.addWidget(split)
        document.changed.connect(self.refresh)

    def refresh(self) -> None:
        result = self.document.result
        if result is None:
            self.summary.setText("No analysis yet: run it from the Analysis menu.")
            for table in (self.grf, self.markers, self.worst):
                table.setRowCount(0)
            self.notes.clear()
            return
        doc = metrics_document(result)
        ik, dynamics = doc["ik"], doc["id"]
        self.summary.setText(
            f"IK: {ik['frames']} frames, marker RMS mean {1000 * ik['marker_rms_mean_m']:.2f} mm, max "
            f"{1000 * ik['marker_rms_max_m']:.2f} mm ({ik['converged_frames']} frames converged).  "
            f"Inverse dynamics: {dynamics['mode']}, {dynamics['frames']} frames, filter "
            f"{dynamics['filter_hz'] or 'none'} Hz, loads filter {dynamics['loads_filter_hz'] or 'none'} Hz.")
        _fill(self.grf, [(m.plate, m.group, AXIS_NAMES.get(m.axis, m.axis), m.rmse, m.rrmse, m.r, m.frames)
                         for m in result.metrics])
        _fill(self.markers, [(m.marker, 1000 * m.rms, 1000 * m.max, m.frames) for m in marker_metrics(result.ik)])
        _fill(self.worst, [(w.marker, w.time, 1000 * w.residual, w.factor) for w in worst_samples(result.ik)])
        self.notes.clear()
        self.notes.addItems([str(n) for n in result.notes])
