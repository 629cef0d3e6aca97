"""The analysis settings: IK marker weights, filter cut-off, lab axes, QP weights, friction, contact
thresholds and muscle options; edits an ``engine.analysis.pipeline.AnalysisSettings``."""
from __future__ import annotations

import copy
import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDoubleValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHeaderView, QLineEdit,
                               QScrollArea, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import SettingsError
from engine.muscles.pipeline import MusclePipelineSettings
from engine.muscles.static_optimization import OBJECTIVES


class FloatEdit(QLineEdit):
    """A number field accepting scientific notation (weights such as 1e-4)."""

    def __init__(self, value: float = 0.0, parent=None):
        super().__init__(parent)
        validator = QDoubleValidator(0.0, 1e12, 12, self)
        validator.setNotation(QDoubleValidator.Notation.ScientificNotation)
        self.setValidator(validator)
        self.set_value(value)

    def value(self) -> float:
        try:
            return float(self.text())
        except ValueError:
            raise SettingsError(f"{self.toolTip() or 'a setting'}: {self.text()!r} is not a number") from None

    def set_value(self, value: float) -> None:
        self.setText(f"{value:g}")


def _spin(lo, hi, step, decimals, suffix="", tip=""):
    box = QDoubleSpinBox()
    box.setRange(lo, hi)
    box.setSingleStep(step)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setToolTip(tip)
    return box


class SettingsPanel(QScrollArea):
    """A form over the analysis settings; ``edited`` when the user changes a field."""

    edited = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        body = QWidget()
        layout = QVBoxLayout(body)
        self._base = AnalysisSettings()
        # inverse kinematics
        ik = QGroupBox("Inverse kinematics")
        form = QFormLayout(ik)
        self.default_weight = FloatEdit(1.0)
        self.default_weight.setToolTip("weight of markers not listed below")
        self.weights = QTableWidget(0, 2)
        self.weights.setHorizontalHeaderLabels(["marker", "weight"])
        self.weights.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.weights.verticalHeader().setVisible(False)
        self.weights.setMinimumHeight(140)
        self.axes = QLineEdit()
        self.axes.setPlaceholderText("proposed from the data")
        self.axes.setToolTip("lab axes of the trial, e.g. 'Z-up, X-forward'")
        form.addRow("Lab axes", self.axes)
        form.addRow("Default marker weight", self.default_weight)
        form.addRow(self.weights)
        layout.addWidget(ik)
        # filtering
        motion = QGroupBox("Kinematic filter")
        form = QFormLayout(motion)
        self.cutoff = _spin(0.0, 100.0, 0.5, 1, " Hz", "zero-lag Butterworth low-pass cut-off (0: no filter)")
        self.order = QSpinBox()
        self.order.setRange(1, 8)
        form.addRow("Cut-off", self.cutoff)
        form.addRow("Order", self.order)
        layout.addWidget(motion)
        # QP inverse dynamics
        qp = QGroupBox("Ground reactions (QP inverse dynamics)")
        form = QFormLayout(qp)
        self.estimate_grf = QCheckBox("Estimate ground reactions")
        self.friction = _spin(0.01, 5.0, 0.05, 2, "", "friction coefficient mu")
        self.facets = QSpinBox()
        self.facets.setRange(3, 32)
        self.height = _spin(0.0, 0.5, 0.005, 3, " m", "a contact candidate may push below this height")
        self.speed = _spin(0.0, 10.0, 0.1, 2, " m/s", "... and slower than this")
        self.w_base, self.w_joint = FloatEdit(), FloatEdit()
        self.w_torque, self.w_force, self.w_rod = FloatEdit(), FloatEdit(), FloatEdit()
        self.rod_mode = QComboBox()
        self.rod_mode.addItems(["free", "elastic"])
        self.w_elastic = FloatEdit()
        for label, w in (("", self.estimate_grf), ("Friction", self.friction), ("Pyramid facets", self.facets),
                         ("Height threshold", self.height), ("Speed threshold", self.speed),
                         ("W1 floating base", self.w_base), ("W1 joints", self.w_joint), ("W2 torques", self.w_torque),
                         ("W2 contact forces", self.w_force), ("W2 rod forces", self.w_rod),
                         ("Rod forces", self.rod_mode), ("Elastic weight", self.w_elastic)):
            form.addRow(label, w)
        layout.addWidget(qp)
        # muscles
        muscles = QGroupBox("Muscles")
        form = QFormLayout(muscles)
        self.muscles = QCheckBox("Estimate muscle forces")
        self.objective = QComboBox()
        self.objective.addItems(list(OBJECTIVES))
        self.physiology = QCheckBox("Hill-model force bounds")
        self.emg_weight = FloatEdit()
        self.emg_weight.setToolTip("W2: weight of the EMG-driven reference force")
        for label, w in (("", self.muscles), ("Objective", self.objective), ("", self.physiology),
                         ("EMG reference weight", self.emg_weight)):
            form.addRow(label, w)
        layout.addWidget(muscles)
        layout.addStretch(1)
        self.setWidget(body)
        for w in body.findChildren(QLineEdit):
            w.editingFinished.connect(self.edited)
        for w in body.findChildren(QDoubleSpinBox) + body.findChildren(QSpinBox):
            w.valueChanged.connect(self.edited)
        for w in body.findChildren(QCheckBox):
            w.toggled.connect(self.edited)
        for w in body.findChildren(QComboBox):
            w.currentIndexChanged.connect(self.edited)
        self.weights.itemChanged.connect(self.edited)
        self.set_settings(self._base, [])

    def set_settings(self, settings: AnalysisSettings, markers) -> None:
        """Show ``settings``; ``markers`` are the model's marker names (rows of the weight table)."""
        self.blockSignals(True)
        s = self._base = copy.deepcopy(settings)
        self.axes.setText(s.axes or "")
        self.default_weight.set_value(s.ik.default_weight)
        self.weights.setRowCount(len(markers))
        for r, name in enumerate(markers):
            item = QTableWidgetItem(name)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.weights.setItem(r, 0, item)
            self.weights.setItem(r, 1, QTableWidgetItem(f"{s.ik.marker_weights.get(name, s.ik.default_weight):g}"))
        self.cutoff.setValue(s.cutoff or 0.0)
        self.order.setValue(s.order)
        q = s.qp
        self.estimate_grf.setChecked(s.estimate_grf)
        self.friction.setValue(q.friction)
        self.facets.setValue(q.facets)
        self.height.setValue(q.height)
        self.speed.setValue(q.speed)
        for edit, value in ((self.w_base, q.w_base), (self.w_joint, q.w_joint), (self.w_torque, q.w_torque),
                            (self.w_force, q.w_force), (self.w_rod, q.w_rod), (self.w_elastic, q.w_elastic)):
            edit.set_value(value)
        self.rod_mode.setCurrentText(q.rod_mode)
        m = s.muscle_settings if isinstance(s.muscle_settings, MusclePipelineSettings) else MusclePipelineSettings()
        self.muscles.setChecked(s.muscles)
        self.objective.setCurrentText(m.forces.objective)
        self.physiology.setChecked(m.forces.muscle_physiology)
        w = m.forces.reference_weight
        per_muscle = not isinstance(w, (int, float))
        self.emg_weight.set_value(0.0 if per_muscle else w)
        self.emg_weight.setEnabled(not per_muscle)      # per-muscle weights (from a session) are kept as they are
        self.blockSignals(False)

    def settings(self) -> AnalysisSettings:
        """The settings shown (fields this form does not show keep their values).

        Raises
        ------
        SettingsError
            If a field does not hold a number.
        """
        s = copy.deepcopy(self._base)
        s.axes = self.axes.text().strip() or None
        weights = {}
        default = self.default_weight.value()
        for r in range(self.weights.rowCount()):
            name, text = self.weights.item(r, 0).text(), self.weights.item(r, 1).text()
            try:
                value = float(text)
            except ValueError:
                raise SettingsError(f"marker '{name}': weight {text!r} is not a number") from None
            if value != default:
                weights[name] = value
        s.ik = dataclasses.replace(s.ik, default_weight=default, marker_weights=weights)
        s.cutoff = self.cutoff.value() or None
        s.order = self.order.value()
        s.estimate_grf = self.estimate_grf.isChecked()
        s.qp = dataclasses.replace(s.qp, friction=self.friction.value(), facets=self.facets.value(),
                                   height=self.height.value(), speed=self.speed.value(), w_base=self.w_base.value(),
                                   w_joint=self.w_joint.value(), w_torque=self.w_torque.value(),
                                   w_force=self.w_force.value(), w_rod=self.w_rod.value(),
                                   rod_mode=self.rod_mode.currentText(), w_elastic=self.w_elastic.value())
        s.muscles = self.muscles.isChecked()
        m = s.muscle_settings if isinstance(s.muscle_settings, MusclePipelineSettings) else MusclePipelineSettings()
        forces = dataclasses.replace(m.forces, objective=self.objective.currentText(),
                                     muscle_physiology=self.physiology.isChecked(),
                                     reference_weight=self.emg_weight.value() if self.emg_weight.isEnabled()
                                     else m.forces.reference_weight)
        s.muscle_settings = dataclasses.replace(m, forces=forces)
        return s
