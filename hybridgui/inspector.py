"""The inspector: name and values, at the current frame, of what was picked in the viewport (a body, the blade,
a muscle, a marker or a ground-reaction arrow)."""
from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)


def _xyz(name: str, v, unit: str, scale: float = 1.0) -> list:
    return [(f"{name} {axis}", scale * float(x), unit) for axis, x in zip("xyz", v)]


class Inspector(QWidget):
    """Shows ``picked`` (a :class:`~hybridgui.viewport.scene.Picked`) against the scene's data at each frame."""

    def __init__(self, document, scene, parent=None):
        super().__init__(parent)
        self.document = document
        self.scene = scene
        self.picked = None
        self.title = QLabel("Click a body, muscle, marker or arrow in the 3D view.")
        self.title.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["quantity", "value", "unit"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.table)
        document.frame_changed.connect(lambda _: self.refresh())
        document.changed.connect(lambda: self.show_picked(None))

    def show_picked(self, picked) -> None:
        self.picked = picked
        self.refresh()

    def rows(self) -> list:
        """``(quantity, value, unit)`` of the picked item at the current frame."""
        p, scene, f = self.picked, self.scene, self.document.frame
        if p is None or scene.poses is None:
            return []
        result = self.document.result
        if p.kind == "body":
            i = scene.poses.body_names.index(p.name)
            return _xyz("origin", scene.poses.body_p[f, i], "m")
        if p.kind == "rod":
            tip = scene.poses.rod(p.name, f).centreline[-1]
            return _xyz("tip", tip, "m")
        if p.kind == "muscle":
            if result is None or result.muscles is None or p.name not in result.muscles.result.muscle_names:
                return [("activation", float("nan"), "1")]
            m = result.muscles.result
            j = m.muscle_names.index(p.name)
            rows = [("activation", float(m.activations[f, j]), "1"), ("force", float(m.forces[f, j]), "N")]
            if m.f_ref is not None and np.isfinite(m.f_ref[f, j]):
                rows.append(("force from EMG", float(m.f_ref[f, j]), "N"))
            return rows
        if p.kind == "model marker":
            rows = _xyz("position", scene.poses.markers[f, scene.poses.marker_names.index(p.name)], "m")
            if result is not None and p.name in result.ik.marker_names:
                rows.append(("IK error", 1000.0 * float(result.ik.errors[f, result.ik.marker_names.index(p.name)]),
                             "mm"))
            return rows
        if p.kind == "experimental marker":
            layer = scene.layers["markers"]
            return _xyz("position", layer.experimental[f, layer.experimental_names.index(p.name)], "m")
        if p.kind.endswith("ground reaction"):
            _, _, force, cop = next(a for a in scene.layers["grf"].arrows if a[0] == p.name)
            return _xyz("force", force[f], "N") + _xyz("centre of pressure", cop[f], "m")
        return []

    def refresh(self) -> None:
        p = self.picked
        self.title.setText("Click a body, muscle, marker or arrow in the 3D view." if p is None
                           else f"<b>{p.name}</b> ({p.kind}) at {self.document.current_time:.3f} s")
        rows = self.rows()
        self.table.setRowCount(len(rows))
        for r, (quantity, value, unit) in enumerate(rows):
            for c, text in enumerate((quantity, f"{value:.5g}", unit)):
                self.table.setItem(r, c, QTableWidgetItem(text))
