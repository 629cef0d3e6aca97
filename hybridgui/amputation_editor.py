"""The amputation editor: remove muscles, transect them, or re-route them over the stump (the muscle edits of
``engine.edits.muscles``, the seed's section 2.4.2), see the change in 3D at once, undo, and save the edited
model as a new model file."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from engine.edits.muscles import RemoveMuscle, TransectMuscle, apply_edits, undo_edits
from engine.edits.transtibial import distal_bodies, transtibial_edits

ACTIONS = ("keep", "remove", "transect", "re-route over the stump")


class AmputationEditor(QWidget):
    """Edits the document's model; ``model_edited(model)`` after each change, ``save_requested`` for Save as,
    ``failed(exception)`` when an edit or an undo cannot be done. The undo history holds this editor's edits of
    the model open; it is cleared when another model is opened."""

    model_edited = Signal(object)
    save_requested = Signal()
    failed = Signal(object)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self._history: list = []     # the changes of each applied batch, of the model ``_edited``
        self._edited = document.model    # the model the history applies to
        self.stump = QComboBox()
        self.stump.setToolTip("the residual limb's body: muscles reaching below it are affected")
        self.attachment = [QDoubleSpinBox() for _ in range(3)]
        for box, value in zip(self.attachment, (0.03, -0.12, 0.0)):
            box.setRange(-1.0, 1.0)
            box.setDecimals(3)
            box.setSingleStep(0.005)
            box.setSuffix(" m")
            box.setValue(value)
        point = QHBoxLayout()
        for box in self.attachment:
            point.addWidget(box)
        preset = QPushButton("Seed's transtibial amputation")
        preset.setToolTip("anterior compartment removed; gastrocnemius and soleus secured to the stump; every other "
                          "muscle reaching below it transected")
        preset.clicked.connect(self.apply_preset)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["muscle", "action"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        apply_button = QPushButton("Apply")
        apply_button.clicked.connect(self.apply_actions)
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(self.undo)
        save = QPushButton("Save model as...")
        save.clicked.connect(self.save_requested)
        self.records = QListWidget()
        form = QFormLayout()
        form.addRow("Stump body", self.stump)
        form.addRow("Attachment (stump frame)", point)
        buttons = QHBoxLayout()
        for b in (apply_button, self.undo_button, save):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(form)
        layout.addWidget(preset)
        layout.addWidget(QLabel("Muscles crossing the stump:"))
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(QLabel("Edits recorded in the model:"))
        layout.addWidget(self.records)
        self.stump.currentTextChanged.connect(self._fill_table)
        document.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        model = self.document.model
        if model is not self._edited:       # another model: the edits of the previous one cannot be undone on it
            self._history.clear()
            self._edited = model
        bodies = [b.name for b in model.bodies] if model is not None else []
        current = self.stump.currentText()
        self.stump.blockSignals(True)
        self.stump.clear()
        self.stump.addItems(bodies)
        self.stump.setCurrentText(current if current in bodies else "tibia_r" if "tibia_r" in bodies
                                  else (bodies[0] if bodies else ""))
        self.stump.blockSignals(False)
        self._fill_table()
        self.records.clear()
        if model is not None:
            for r in model.metadata.get("muscle_edits", []):
                self.records.addItem(f"{r.get('edit')}: {r.get('muscle') or r.get('wrap_object')} "
                                     f"({r.get('reason', '')})")
        self.undo_button.setEnabled(bool(self._history))

    def _crossing(self) -> list[str]:
        """Muscles with a path point below the stump."""
        model, stump = self.document.model, self.stump.currentText()
        if model is None or not stump:
            return []
        below = distal_bodies(model, stump)
        return [m.name for m in model.muscles if any(model.resolve(p.parent)[0] in below for p in m.path.points)]

    def _fill_table(self) -> None:
        names = self._crossing()
        self.table.setRowCount(len(names))
        for r, name in enumerate(names):
            self.table.setItem(r, 0, QTableWidgetItem(name))
            combo = QComboBox()
            combo.addItems(ACTIONS)
            self.table.setCellWidget(r, 1, combo)

    def set_action(self, muscle: str, action: str) -> None:
        """Choose ``action`` (one of ACTIONS) for ``muscle`` in the table."""
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).text() == muscle:
                self.table.cellWidget(r, 1).setCurrentText(action)

    def _attachment(self):
        return tuple(box.value() for box in self.attachment)

    def _apply(self, edits) -> None:
        model = self.document.model
        try:
            edited, changes = apply_edits(model, edits)
        except Exception as exc:     # a HybridLabError names the muscle; anything else is reported too
            self.failed.emit(exc)
            return
        self._history.append(changes)
        self._edited = edited
        self.model_edited.emit(edited)

    def apply_preset(self) -> None:
        """The seed's transtibial amputation through the chosen stump."""
        try:
            edits = transtibial_edits(self.document.model, self.stump.currentText(), self._attachment())
        except Exception as exc:
            self.failed.emit(exc)
            return
        self._apply(edits)

    def apply_actions(self) -> None:
        """Apply the actions chosen in the table."""
        model, stump = self.document.model, self.stump.currentText()
        chosen = {self.table.item(r, 0).text(): self.table.cellWidget(r, 1).currentText()
                  for r in range(self.table.rowCount())}
        edits = []
        rerouted = [n for n, a in chosen.items() if a == ACTIONS[3]]
        if rerouted:
            try:
                plan = transtibial_edits(model, stump, self._attachment(), removed=[], reattached=rerouted)
            except Exception as exc:
                self.failed.emit(exc)
                return
            edits += [e for e in plan if getattr(e, "name", None) in rerouted]
        edits += [RemoveMuscle(n) for n, a in chosen.items() if a == "remove"]
        edits += [TransectMuscle(n) for n, a in chosen.items() if a == "transect"]
        if edits:
            self._apply(edits)

    def undo(self) -> None:
        """Undo the last applied edits (an error is reported through ``failed``; the history is then kept)."""
        if not self._history:
            return
        try:
            before = undo_edits(self.document.model, self._history[-1])
        except Exception as exc:      # a HybridLabError names the muscle; anything else is reported too
            self.failed.emit(exc)
            return
        self._history.pop()
        self._edited = before
        self.model_edited.emit(before)
