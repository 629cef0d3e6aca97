"""The marker matching of a trial analysed with the default model (a dropped C3D): trial label -> protocol marker ->
model landmark (and body), with each label's status: how it was matched (by its marker's name, an alias, by geometry
as a lab's computed point, or on an alternative marker's landmark), or unmatched, rejected by geometry, set by the
user. The protocol marker of a label is chosen in a combo box ('none' clears it), or by dragging the
label onto a marker of the model in the 3D view; every label of the trial is listed, matched or not. The rows are ``engine.protocols.edits.MatchRow``s; the edits are the window's, kept with the
session and used by the next analysis (Analysis > Run). Above the table, the subject's height (m) and body mass (kg),
prefilled with those the analysis would take (the trial's, else its static trial's: ``engine.trial.body_measures``) and
saying where each came from; another value
is the user's, as ``hybrid analyze TRIAL.c3d --height M --mass KG``. A trial just dropped is shown here before its
first analysis, which the button below starts with the values shown (or another discards the trial; Esc in the height
or mass box abandons the value typed there)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDoubleSpinBox, QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton,
                               QScrollArea, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from engine.protocols.edits import ALIAS, ALTERNATIVE, EDITED, GEOMETRY, NAME, REJECTED, UNMATCHED
from engine.trial.body_measures import MASS_RANGE, STATURE_RANGE

from .viewport.widget import LABEL_MIME

NONE = "(none)"
COLUMNS = ("Trial label", "Protocol marker", "Landmark (body)", "Status")
STATUS_COLOURS = {NAME: "#1b7f3b", ALIAS: "#1f5fa8", GEOMETRY: "#0f7a7a", ALTERNATIVE: "#7a6a0f",
                  UNMATCHED: "#b03030", REJECTED: "#b06000", EDITED: "#6a3fa0"}


class LabelTable(QTableWidget):
    """The table, whose rows drag their trial label (onto the model in the 3D view, which gives it the marker there)."""

    def mimeData(self, items):
        mime = QMimeData()
        if items:
            mime.setData(LABEL_MIME, self.item(items[0].row(), 0).text().encode())
        return mime

    def mimeTypes(self):
        return [LABEL_MIME]


class BodyBox(QDoubleSpinBox):
    """A height or mass within ``limits``, or, one step below them, 'not given' (None); Esc while a value is being
    typed abandons it (the box shows its value again); with nothing typed Esc is the window's (Analysis > Cancel)."""

    def __init__(self, limits, decimals: int, step: float, suffix: str, tip: str):
        super().__init__()
        self.setDecimals(decimals)
        self.setRange(limits[0] - 10.0 ** -decimals, limits[1])
        self.setSingleStep(step)
        self.setSuffix(suffix)
        self.setSpecialValueText("not given")
        self.setToolTip(tip)
        self.setKeyboardTracking(False)     # a value when typed out (Return or leaving the box), not at each key

    def given(self) -> float | None:
        return None if self.value() == self.minimum() else self.value()

    def typing(self) -> bool:
        """Whether text is typed that is not yet the box's value (keyboard tracking off: until Return or focus out)."""
        value = self.value()
        special = value == self.minimum() and self.specialValueText()
        return self.text() != (special or self.prefix() + self.textFromValue(value) + self.suffix())

    def event(self, event) -> bool:
        if (event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape
                and self.typing()):
            event.accept()                    # this Esc is the box's (keyPressEvent), not the window's (Cancel)
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.typing():
            self.show_value(self.given())     # typed text not yet a value (keyboard tracking off): shown again
            self.selectAll()
            return
        super().keyPressEvent(event)

    def show_value(self, value: float | None) -> None:
        self.blockSignals(True)
        self.setValue(self.minimum() if value is None else value)
        self.blockSignals(False)


class MatchingPanel(QWidget):
    """The subject's height and mass and the table; ``edited(label, marker or None)`` when the user picks another
    marker for a label, ``body_edited('height' or 'mass', value or None)`` when the user gives the subject's height
    (m) or mass (kg), ``rerun`` when asked to analyse again with the edits, ``discarded`` when asked to leave the trial
    waiting for its first analysis unanalysed."""

    edited = Signal(str, object)
    body_edited = Signal(str, object)
    rerun = Signal()
    discarded = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summary = QLabel("Drop a C3D file on the window: its labels are matched to a marker protocol here.")
        self.summary.setWordWrap(True)
        self.table = LabelTable(0, len(COLUMNS))
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.setToolTip("Choose a label's protocol marker, or drag the label onto a marker of the model in the "
                              "3D view")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.run = QPushButton("Analyse again with these matches")
        self.run.setEnabled(False)
        self.run.clicked.connect(self.rerun)
        self.discard = QPushButton("Discard this trial")
        self.discard.setToolTip("Leave this trial unanalysed (or Esc outside an editor, confirmed): the window and the "
                                "panel show again what they showed before it was dropped")
        self.discard.clicked.connect(self.discarded)
        self.discard.setVisible(False)
        self.height = BodyBox(STATURE_RANGE, 3, 0.01, " m", "the subject's height (hybrid analyze --height): the "
                              "stature that gives the knee and ankle widths the trial does not")
        self.mass = BodyBox(MASS_RANGE, 1, 0.5, " kg", "the subject's body mass (hybrid analyze --mass): the scaled "
                            "model's, by which moments (N m/kg) and ground reactions (%BW) are normalised")
        self.height_said, self.mass_said = QLabel(), QLabel()
        for key, box in (("height", self.height), ("mass", self.mass)):
            box.valueChanged.connect(lambda _, key=key, box=box: self.body_edited.emit(key, box.given()))
        body = QFormLayout()
        body.addRow("Height", self.height)
        body.addRow("", self.height_said)
        body.addRow("Body mass", self.mass)
        body.addRow("", self.mass_said)
        self.body = QWidget()
        self.body.setLayout(body)
        self.body.setEnabled(False)
        self.content = content = QWidget()
        layout = QVBoxLayout(content)
        layout.addWidget(self.summary)
        layout.addWidget(self.body)
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run, 1)
        buttons.addWidget(self.discard)
        layout.addLayout(buttons)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.rows: list = []
        self.combos: dict = {}

    def sizeHint(self) -> QSize:
        """The panel without the height and mass fields, which scroll: the results dock, where the panel is a tab,
        keeps the height it had before they were added, and the 3D view above it its size."""
        hint = self.content.sizeHint()
        return QSize(hint.width(), hint.height() - self.body.sizeHint().height())

    def clear(self) -> None:
        self.rows, self.combos = [], {}
        self.table.setRowCount(0)
        self.run.setEnabled(False)
        self.discard.setVisible(False)
        self.show_body(None, None, "", "")
        self.body.setEnabled(False)
        self.summary.setText("No marker matching: the trial shown was not matched to a protocol (drop a C3D file to "
                             "analyse it with the default model).")

    def show_rows(self, protocol: str, rows, options, pending: bool, first: bool = False) -> None:
        """Show ``rows`` (MatchRow per label) of ``protocol`` (its title), the markers a label can take
        (``options``, full names); ``pending`` when edits were made since the shown result; ``first`` when the trial
        waits for its first analysis (the button starts it, another discards it)."""
        self.rows, self.combos = list(rows), {}
        self.table.setRowCount(len(self.rows))
        matched = sum(r.marker is not None for r in self.rows)
        self.summary.setText(f"Protocol {protocol}: {matched} of {len(self.rows)} labels matched"
                             + (". Not analysed yet: check the subject's height and body mass and the matching, then "
                                "analyse" if first else " (edited: analyse again to use the edits)" if pending else ""))
        self.run.setText("Analyse with these values" if first else "Analyse again with these matches")
        self.discard.setVisible(first)
        for i, row in enumerate(self.rows):
            label = QTableWidgetItem(row.label)
            label.setFlags(label.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, 0, label)
            combo = QComboBox()
            combo.addItems([NONE, *options])
            combo.setCurrentText(row.marker or NONE)
            combo.currentTextChanged.connect(lambda text, name=row.label: self.edited.emit(
                name, None if text == NONE else text))
            self.table.setCellWidget(i, 1, combo)
            self.combos[row.label] = combo
            where = "" if row.landmark is None else (f"{row.landmark} ({row.body})" if row.body
                                                     else f"{row.landmark} (not on this model)")
            self.table.setItem(i, 2, QTableWidgetItem(where))
            status = QTableWidgetItem(row.status)
            status.setForeground(QColor(STATUS_COLOURS.get(row.status, "#000000")))
            status.setToolTip(row.why or row.status)
            self.table.setItem(i, 3, status)
        self.table.resizeColumnsToContents()
        self.run.setEnabled(pending)

    def show_body(self, height: float | None, mass: float | None, height_said: str, mass_said: str) -> None:
        """The subject's ``height`` (m) and ``mass`` (kg) shown (None: 'not given'), with where each comes from
        (``*_said``)."""
        self.height.show_value(height)
        self.mass.show_value(mass)
        self.height_said.setText(height_said)
        self.mass_said.setText(mass_said)
        self.body.setEnabled(True)

    def status_of(self, label: str) -> str:
        return next(r.status for r in self.rows if r.label == label)
