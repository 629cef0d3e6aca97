"""The analysis settings: IK marker weights, filter cut-off, lab axes, QP weights, friction, contact
thresholds and muscle options, the time range; edits an ``engine.analysis.pipeline.AnalysisSettings``.

Above them, the patient's trials (which one is shown; why its settings were proposed; applying them to all
trials) and its static trial. The time range is checked against the shown trial's; a range from an OpenSim IK
setup is offered (a button), never applied by itself.

Every field shows the value it was given exactly (numbers with up to 12 decimals, weights as Python writes
them) over the range the engine accepts. A loaded value a field cannot show (more decimals, out of the field's
range, not one of its choices) is kept as it was, said in ``unshown`` and by ``notice``, until the user changes
that field.
"""
from __future__ import annotations

import copy
import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDoubleValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QPushButton, QScrollArea, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import SettingsError
from engine.muscles.pipeline import MusclePipelineSettings
from engine.muscles.forces.static_optimization import OBJECTIVES


class FloatEdit(QLineEdit):
    """A number field accepting scientific notation (weights such as 1e-4)."""

    def __init__(self, value: float = 0.0, parent=None):
        super().__init__(parent)
        validator = QDoubleValidator(self)       # any number of decimals
        validator.setBottom(0.0)
        validator.setNotation(QDoubleValidator.Notation.ScientificNotation)
        self.setValidator(validator)
        self.set_value(value)

    def value(self) -> float:
        try:
            return float(self.text())
        except ValueError:
            raise SettingsError(f"{self.toolTip() or 'a setting'}: {self.text()!r} is not a number") from None

    def set_value(self, value: float) -> None:
        """Show ``value`` exactly (the shortest text that reads back as the same number)."""
        self.setText(_text(value))


def _text(value) -> str:
    return repr(float(value))


LARGEST = 1e9
"""Upper end of the number fields whose values the engine does not bound above."""
MOST = 2 ** 31 - 1
"""Upper end of the whole-number fields (Qt's limit; the engine does not bound them above)."""


class NumberBox(QDoubleSpinBox):
    """A spin box showing its value with up to ``DECIMALS`` decimals, without trailing zeros."""

    DECIMALS = 12

    def __init__(self, lo, hi, step, suffix="", tip="", parent=None):
        super().__init__(parent)
        self.setDecimals(self.DECIMALS)
        self.setRange(lo, hi)
        self.setSingleStep(step)
        self.setSuffix(suffix)
        self.setToolTip(tip)

    def textFromValue(self, value: float) -> str:
        text = super().textFromValue(value)
        point = self.locale().decimalPoint()
        return text.rstrip("0").rstrip(point) if point in text else text


def _integral(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()


class SettingsPanel(QScrollArea):
    """A form over the analysis settings; ``edited`` when the user changes a field."""

    edited = Signal()
    notice = Signal(str)
    """What the form could not show of the settings it was given (after :meth:`set_settings`)."""
    trial_chosen = Signal(int)
    """The user chose the patient's trial at this index."""
    apply_to_all = Signal()
    static_requested = Signal()
    static_cleared = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self._kept: dict = {}           # field -> the loaded value it cannot show, until the user changes it
        self._loading = False
        self.unshown: list[str] = []
        body = QWidget()
        layout = QVBoxLayout(body)
        self._base = AnalysisSettings()
        self._range: tuple[float, float] | None = None      # the shown trial's (s)
        # time range
        span = QGroupBox("Time range")
        form = QFormLayout(span)
        self.start = NumberBox(-LARGEST, LARGEST, 0.01, " s", "first time analysed, within the trial")
        self.end = NumberBox(-LARGEST, LARGEST, 0.01, " s", "last time analysed, within the trial")
        self.whole = QLabel("")
        self.offered = QLabel("")
        self.offered.setWordWrap(True)
        self.use_offered = QPushButton("Use this range")
        self.use_offered.clicked.connect(self._use_offered)
        self._offer: tuple[float, float] | None = None
        form.addRow("Start", self.start)
        form.addRow("End", self.end)
        form.addRow(self.whole)
        form.addRow(self.offered)
        form.addRow(self.use_offered)
        self.offer_time_range(None)
        layout.addWidget(span)
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
        motion = QGroupBox("Filters")
        form = QFormLayout(motion)
        self.cutoff = NumberBox(0.0, LARGEST, 0.5, " Hz", "the coordinates' zero-lag Butterworth low-pass cut-off, "
                                "below 0.4 of the marker rate (checked when the analysis runs); 0: no filter")
        self.cutoff.setSpecialValueText("none")
        self.loads_cutoff = NumberBox(0.0, LARGEST, 0.5, " Hz", "low-pass of the estimated torques and forces after "
                                      "inverse dynamics, which is nonlinear in the coordinates: their filter alone "
                                      "leaves noise in the loads (the plates compared pass both filters); 0: none")
        self.loads_cutoff.setSpecialValueText("none")
        self.order = QSpinBox()
        self.order.setRange(1, MOST)
        self.order.setToolTip("Butterworth order of each pass (a positive whole number)")
        form.addRow("Coordinates cut-off", self.cutoff)
        form.addRow("Loads cut-off", self.loads_cutoff)
        form.addRow("Order", self.order)
        layout.addWidget(motion)
        # QP inverse dynamics
        qp = QGroupBox("Ground reactions (QP inverse dynamics)")
        form = QFormLayout(qp)
        self.estimate_grf = QCheckBox("Estimate ground reactions")
        self.estimate_grf.setToolTip("QP inverse dynamics from the motion alone (the seed's eq. 35), scored against "
                                     "the plates; with plates, the analysis's torques still come from their loads")
        self.estimate_unmeasured = QCheckBox("Estimate stances no plate measured")
        self.estimate_unmeasured.setToolTip("inverse dynamics with the measured loads: a contact group beside the "
                                            "plates gets the QP's estimate (listed in the notes); off: the plates' "
                                            "loads only, as OpenSim's ID tool")
        self.friction = NumberBox(10.0 ** -NumberBox.DECIMALS, LARGEST, 0.05, "",
                                  "friction coefficient mu (positive)")
        self.facets = QSpinBox()
        self.facets.setRange(3, MOST)
        self.facets.setToolTip("faces of the friction pyramid (at least 3)")
        self.height = NumberBox(0.0, LARGEST, 0.005, " m", "a contact candidate may push below this height")
        self.speed = NumberBox(0.0, LARGEST, 0.1, " m/s", "... and slower than this")
        self.w_base, self.w_joint = FloatEdit(), FloatEdit()
        self.w_torque, self.w_force, self.w_rod = FloatEdit(), FloatEdit(), FloatEdit()
        self.rod_mode = QComboBox()
        self.rod_mode.addItems(["free", "elastic"])
        self.w_elastic = FloatEdit()
        for w, term in ((self.w_base, "W1 on the floating base's rows: how closely the ground reactions explain the "
                                      "whole body's motion"), (self.w_joint, "W1 on the joint and rod rows"),
                        (self.w_torque, "W2 on the joint torques (generalized forces)"),
                        (self.w_force, "W2 on the contact forces"), (self.w_rod, "W2 on the rod's generalized forces")):
            w.setToolTip(f"{term} (seed eq. 35, QP inverse dynamics)")
        for label, w in (("", self.estimate_grf), ("", self.estimate_unmeasured), ("Friction", self.friction),
                         ("Pyramid facets", self.facets), ("Height threshold", self.height), ("Speed threshold", self.speed),
                         ("Whole-body balance weight", self.w_base), ("Joint motion weight", self.w_joint),
                         ("Joint moment penalty", self.w_torque), ("Ground reaction penalty", self.w_force),
                         ("Blade load penalty", self.w_rod),
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
        layout.insertWidget(0, self._patient_box())        # after the loops: choosing a trial is not an edit
        self._optional = (self.cutoff, self.loads_cutoff)      # cut-offs whose 0 shows None (no filter)
        self.labels = {self.start: "Start", self.end: "End", self.cutoff: "Coordinates cut-off", self.loads_cutoff: "Loads cut-off",
                       self.order: "Filter order", self.friction: "Friction", self.facets: "Pyramid facets",
                       self.height: "Height threshold", self.speed: "Speed threshold", self.rod_mode: "Rod forces",
                       self.objective: "Muscle objective"}
        for w in self.labels:
            if isinstance(w, QComboBox):
                w.currentIndexChanged.connect(lambda _, w=w: self._changed(w))
            else:
                w.valueChanged.connect(lambda _, w=w: self._changed(w))
        self.set_settings(self._base, [])

    def _patient_box(self) -> QGroupBox:
        box = QGroupBox("Trial")
        form = QFormLayout(box)
        self.trial_choice = QComboBox()
        self.trial_choice.setToolTip("the patient's trial shown and analysed; each keeps its own settings")
        self.trial_choice.activated.connect(self.trial_chosen)
        self.reasons = QLabel("")
        self.reasons.setWordWrap(True)
        self.apply_all = QPushButton("Apply these settings to all trials")
        self.apply_all.setToolTip("every trial of the patient gets these settings, except its own time range and "
                                  "force plates")
        self.apply_all.clicked.connect(self.apply_to_all)
        self.static_name = QLineEdit()
        self.static_name.setReadOnly(True)
        self.static_name.setPlaceholderText("none")
        self.static_name.setToolTip("the patient standing still, feet flat: calibrates the generated contact "
                                    "candidates (and scales the model, File > New patient)")
        choose, clear = QPushButton("Choose..."), QPushButton("Clear")
        choose.clicked.connect(self.static_requested)
        clear.clicked.connect(self.static_cleared)
        row = QHBoxLayout()
        row.addWidget(self.static_name, 1)
        row.addWidget(choose)
        row.addWidget(clear)
        form.addRow("Trial", self.trial_choice)
        form.addRow(self.reasons)
        form.addRow(self.apply_all)
        form.addRow("Static trial", row)
        self.set_trials([], 0)
        return box

    # ---------------------------------------------------------------- the patient's trials, the time range
    def set_trials(self, names, current: int) -> None:
        """The patient's trials (``names``) and which is shown."""
        self.trial_choice.clear()
        self.trial_choice.addItems(list(names))
        self.trial_choice.setCurrentIndex(current if names else -1)
        self.trial_choice.setEnabled(bool(names))
        self.apply_all.setEnabled(len(names) > 1)

    def set_reasons(self, reasons) -> None:
        """Why the shown trial's settings are what they are (one line each; none: hidden)."""
        self.reasons.setText("Proposed from this trial:\n" + "\n".join(f"- {r}" for r in reasons) if reasons else "")
        self.reasons.setVisible(bool(reasons))

    def set_static(self, name: str | None) -> None:
        self.static_name.setText(name or "")

    def offer_time_range(self, span, source: str = "") -> None:
        """Offer ``span`` ((start, end) s, from ``source``; None: nothing offered) with the "Use this range"
        button; the fields are not changed until it is pressed."""
        self._offer = None if span is None else (float(span[0]), float(span[1]))
        if span is not None:
            self.offered.setText(f"{source} analyses {span[0]:g} to {span[1]:g} s (not applied).")
        self.offered.setVisible(span is not None)
        self.use_offered.setVisible(span is not None)

    def _use_offered(self) -> None:
        start, end = self._offer
        self.start.setValue(start)
        self.end.setValue(end)
        self.offer_time_range(None)
        self.edited.emit()

    def _time_range(self, base) -> tuple:
        """(start, end) s of the fields, None where a field still shows the trial's own end it was given as None.

        Raises
        ------
        SettingsError
            If the range is empty or leaves the trial's, in words saying what to change.
        """
        if self._range is None:
            return base.start, base.end
        t0, t1 = self._range
        start = self._read(self.start, self.start.value())
        end = self._read(self.end, self.end.value())
        if not t0 - 1e-9 <= start <= t1 + 1e-9:
            raise SettingsError(f"Time range: the start, {start:g} s, is outside the trial, which runs from {t0:g} to "
                                f"{t1:g} s; set a start within it", element="Start")
        if not t0 - 1e-9 <= end <= t1 + 1e-9:
            raise SettingsError(f"Time range: the end, {end:g} s, is outside the trial, which runs from {t0:g} to "
                                f"{t1:g} s; set an end within it", element="End")
        if not end > start:
            raise SettingsError(f"Time range: the end ({end:g} s) must come after the start ({start:g} s); set a later "
                                "end or an earlier start", element="End")
        return (None if base.start is None and abs(start - t0) <= 1e-9 else start,
                None if base.end is None and abs(end - t1) <= 1e-9 else end)

    # ---------------------------------------------------------------- values a field cannot show
    def _changed(self, widget) -> None:
        """The user changed ``widget``: its kept value (if any) gives way to what it shows."""
        if not self._loading and widget in self._kept:
            del self._kept[widget]
            self._mark(widget, None)

    def _mark(self, widget, note: str | None) -> None:
        base = widget.toolTip().split("\n\nKept as loaded: ")[0]
        widget.setToolTip(base if note is None else f"{base}\n\nKept as loaded: {note}")
        widget.setStyleSheet("" if note is None else "background: #ffe9a8")

    def _load(self, widget, value) -> None:
        """Show ``value`` in ``widget``; a value it cannot show exactly is kept as loaded and said so."""
        if isinstance(widget, QComboBox):
            shown = widget.findText(str(value)) >= 0
            if shown:
                widget.setCurrentText(str(value))
        elif isinstance(widget, QSpinBox):
            shown = _integral(value) and widget.minimum() <= value <= widget.maximum()
            if shown:
                widget.setValue(int(value))
        elif widget in self._optional and value is None:
            widget.setValue(0.0)
            shown = True
        else:
            shown = isinstance(value, (int, float)) and not isinstance(value, bool)
            if shown:
                widget.setValue(float(value))
                shown = widget.value() == value and not (widget in self._optional and value == 0)
        if not shown:
            self._kept[widget] = value
            shows = widget.currentText() if isinstance(widget, QComboBox) else widget.text()
            note = f"{value!r} (the field shows {shows!r})"
            self.unshown.append(f"{self.labels[widget]}: {note}")
            self._mark(widget, note)
        else:
            self._mark(widget, None)

    def _read(self, widget, shown):
        return self._kept[widget] if widget in self._kept else shown

    def set_settings(self, settings: AnalysisSettings, markers, time_range=None) -> None:
        """Show ``settings``; ``markers`` are the model's marker names (rows of the weight table), ``time_range``
        the shown trial's (start, end) s (None: no trial; the time fields are then off)."""
        self.blockSignals(True)
        self._loading = True
        self._kept, self.unshown = {}, []
        s = self._base = copy.deepcopy(settings)
        if time_range != self._range:
            self.offer_time_range(None)
        self._range = None if time_range is None else (float(time_range[0]), float(time_range[1]))
        for field, value, end in ((self.start, s.ik.start, 0), (self.end, s.ik.end, 1)):
            field.setEnabled(self._range is not None)
            if value is None:       # the trial's own end (or no trial)
                field.setValue(0.0 if self._range is None else self._range[end])
                self._mark(field, None)
            else:
                self._load(field, value)
        self.whole.setText("" if self._range is None else f"the trial runs from {self._range[0]:g} to "
                                                          f"{self._range[1]:g} s")
        self.axes.setText(s.axes or "")
        self.default_weight.set_value(s.ik.default_weight)
        self.weights.setRowCount(len(markers))
        for r, name in enumerate(markers):
            item = QTableWidgetItem(name)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.weights.setItem(r, 0, item)
            self.weights.setItem(r, 1, QTableWidgetItem(_text(s.ik.marker_weights.get(name, s.ik.default_weight))))
        self._load(self.cutoff, s.cutoff)
        self._load(self.loads_cutoff, s.loads_cutoff)
        self._load(self.order, s.order)
        q = s.qp
        self.estimate_grf.setChecked(s.estimate_grf)
        self.estimate_unmeasured.setChecked(s.estimate_unmeasured)
        for widget, value in ((self.friction, q.friction), (self.facets, q.facets), (self.height, q.height),
                              (self.speed, q.speed), (self.rod_mode, q.rod_mode)):
            self._load(widget, value)
        for edit, value in ((self.w_base, q.w_base), (self.w_joint, q.w_joint), (self.w_torque, q.w_torque),
                            (self.w_force, q.w_force), (self.w_rod, q.w_rod), (self.w_elastic, q.w_elastic)):
            edit.set_value(value)
        m = s.muscle_settings if isinstance(s.muscle_settings, MusclePipelineSettings) else MusclePipelineSettings()
        self.muscles.setChecked(s.muscles)
        self._load(self.objective, m.forces.objective)
        self.physiology.setChecked(m.forces.muscle_physiology)
        w = m.forces.reference_weight
        per_muscle = not isinstance(w, (int, float))
        if per_muscle:      # per-muscle weights (from a session) are kept as they are
            self.emg_weight.setText("per muscle")
        else:
            self.emg_weight.set_value(w)
        self.emg_weight.setEnabled(not per_muscle)
        self._loading = False
        self.blockSignals(False)
        if self.unshown:
            self.notice.emit("Settings this form cannot show exactly are kept as loaded until you change them: "
                             + "; ".join(self.unshown))

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
        start, end = self._time_range(s.ik)
        s.ik = dataclasses.replace(s.ik, default_weight=default, marker_weights=weights, start=start, end=end)
        s.cutoff = self._read(self.cutoff, self.cutoff.value() or None)
        s.loads_cutoff = self._read(self.loads_cutoff, self.loads_cutoff.value() or None)
        s.order = self._read(self.order, self.order.value())
        s.estimate_grf = self.estimate_grf.isChecked()
        s.estimate_unmeasured = self.estimate_unmeasured.isChecked()
        s.qp = dataclasses.replace(s.qp, friction=self._read(self.friction, self.friction.value()),
                                   facets=self._read(self.facets, self.facets.value()),
                                   height=self._read(self.height, self.height.value()),
                                   speed=self._read(self.speed, self.speed.value()), w_base=self.w_base.value(),
                                   w_joint=self.w_joint.value(), w_torque=self.w_torque.value(),
                                   w_force=self.w_force.value(), w_rod=self.w_rod.value(),
                                   rod_mode=self._read(self.rod_mode, self.rod_mode.currentText()),
                                   w_elastic=self.w_elastic.value())
        s.muscles = self.muscles.isChecked()
        m = s.muscle_settings if isinstance(s.muscle_settings, MusclePipelineSettings) else MusclePipelineSettings()
        forces = dataclasses.replace(m.forces, objective=self._read(self.objective, self.objective.currentText()),
                                     muscle_physiology=self.physiology.isChecked(),
                                     reference_weight=self.emg_weight.value() if self.emg_weight.isEnabled()
                                     else m.forces.reference_weight)
        muscle_settings = dataclasses.replace(m, forces=forces)
        if not (s.muscle_settings is None and muscle_settings == MusclePipelineSettings()):    # None: the defaults
            s.muscle_settings = muscle_settings
        return s
