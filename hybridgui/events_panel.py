"""Gait events: those of the trial (C3D), or detected from the ground reactions (estimated or measured) or from
the kinematics (contact candidates near the floor), ``engine.analysis.gait_phases``; editable (time, label, side)."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from engine.analysis.gait_phases import events_from_phases, stance_phases
from engine.errors import SettingsError
from engine.trial.trial import Event

SOURCES = {"ground reactions": "auto", "force plates": "measured", "kinematics": "contacts"}
LABELS = ("Foot Strike", "Foot Off")
SIDES = ("Right", "Left")


class EventsPanel(QWidget):
    """The document's events in a table; ``failed(exception)`` when a detection is impossible."""

    failed = Signal(object)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["time (s)", "event", "side"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.itemChanged.connect(self._edited)
        self.table.cellDoubleClicked.connect(self._seek)
        self.label, self.side, self.source = QComboBox(), QComboBox(), QComboBox()
        self.label.addItems(LABELS)
        self.side.addItems(SIDES)
        self.source.addItems(list(SOURCES))
        add, delete, detect = QPushButton("Add at cursor"), QPushButton("Delete"), QPushButton("Detect from")
        add.clicked.connect(self.add_at_cursor)
        delete.clicked.connect(self.delete_selected)
        detect.clicked.connect(self.detect)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        for w in (add, self.label, self.side, delete):
            row1.addWidget(w)
        row2.addWidget(detect)
        row2.addWidget(self.source)
        row2.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addWidget(self.table)
        document.events_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.table.blockSignals(True)
        events = self.document.events
        self.table.setRowCount(len(events))
        for r, e in enumerate(events):
            self.table.setItem(r, 0, QTableWidgetItem(f"{e.time:.4f}"))
            self.table.setItem(r, 1, QTableWidgetItem(e.label))
            self.table.setItem(r, 2, QTableWidgetItem(e.context))
        self.table.blockSignals(False)

    def _edited(self, item) -> None:
        r = item.row()
        try:
            t = float(self.table.item(r, 0).text())
        except ValueError:
            self.failed.emit(SettingsError(f"event time {self.table.item(r, 0).text()!r} is not a number of seconds"))
            self.refresh()
            return
        events = list(self.document.events)
        events[r] = Event(self.table.item(r, 1).text(), self.table.item(r, 2).text(), t)
        self.document.set_events(events)

    def _seek(self, row: int, column: int) -> None:
        if column == 0:
            self.document.set_time(self.document.events[row].time)

    def add_at_cursor(self) -> None:
        event = Event(self.label.currentText(), self.side.currentText(), self.document.current_time)
        self.document.set_events(list(self.document.events) + [event])

    def delete_selected(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        self.document.set_events([e for r, e in enumerate(self.document.events) if r not in rows])

    def detect(self) -> None:
        """Replace the events by those detected from the chosen source."""
        result = self.document.result
        if result is None:
            self.failed.emit(SettingsError("events are detected from an analysis: run the analysis first"))
            return
        try:
            phases = stance_phases(result, SOURCES[self.source.currentText()])
        except SettingsError as exc:
            self.failed.emit(exc)
            return
        self.document.set_events(events_from_phases(phases))
