"""File > New patient...: one guided flow from a generic model to the patient's analysed trials (a QWizard).

Pages: the generic model; the static trial, the subject's mass and (optionally) an OpenSim ScaleTool setup, and
where the scaled model goes; the scaling, run by ``engine.io.scale_files.scale_steps`` (what ``hybrid scale``
runs) in the background worker with its progress and Cancel, then its residual per marker in a table and the
scaled model shown in the main window at the static pose, the static trial's markers over it; the trials.
Finish adds each trial with the settings proposed from its own data and analyses them all in turn. The session
keeps the whole patient (``Document.patient``, the static trial, the trials and their settings).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
                               QWizard, QWizardPage)

from engine.io.scale_files import scale_steps, write_scale_outputs
from engine.trial.body_measures import MASS_RANGE

from . import menus, patient
from .progress_panel import ProgressPanel
from .worker import AnalysisRunner

MODELS = "Models (*.osim *.yaml *.yml)"
STATIC = "Trials (*.trc *.c3d)"
SETUPS = "ScaleTool setup (*.xml)"


def _file_row(edit: QLineEdit, title: str, kinds: str, save: bool = False) -> QWidget:
    """``edit`` with a Browse... button that fills it."""
    def browse():
        ask = QFileDialog.getSaveFileName if save else QFileDialog.getOpenFileName
        path, _ = ask(edit.window(), title, edit.text(), kinds)
        if path:
            edit.setText(path)
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    button = QPushButton("Browse...")
    button.clicked.connect(browse)
    layout.addWidget(edit, 1)
    layout.addWidget(button)
    return row


class _ScalePage(QWizardPage):
    """Runs the scaling when shown; complete once a scaled model is written and shown."""

    def __init__(self, wizard):
        super().__init__()
        self.wizard_ = wizard
        self.setTitle("Scaling")
        self.setSubTitle("The generic model scaled to the patient, its markers placed on the static trial's.")
        self.progress = ProgressPanel()
        self.progress.run.setText("Scale again")
        self.residuals = QTableWidget(0, 4)
        self.residuals.setHorizontalHeaderLabels(["marker", "weight", "error before placement, mm", "moved, mm"])
        self.residuals.verticalHeader().setVisible(False)
        self.notes = QLabel("")
        self.notes.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.progress)
        layout.addWidget(self.residuals, 1)
        layout.addWidget(self.notes)

    def initializePage(self) -> None:
        self.wizard_.scale()

    def isComplete(self) -> bool:
        return self.wizard_.run is not None and not self.wizard_.runner.running


class NewPatientWizard(QWizard):
    """The New patient flow over ``window`` (a MainWindow); ``run`` the ScaleRun once scaled, ``written`` its
    files, ``trials`` the (path, grf, external_loads) to add."""

    def __init__(self, window):
        super().__init__(window)
        self.main = window
        self.setWindowTitle("New patient")
        self.runner = AnalysisRunner(self)
        self.run = self.setup = None
        self.written: list = []
        self.trials: list[tuple] = []
        # the generic model
        page = QWizardPage()
        page.setTitle("Generic model")
        page.setSubTitle("The model to scale to the patient (OpenSim .osim or HybridLab .yaml).")
        self.generic = QLineEdit()
        form = QFormLayout(page)
        form.addRow("Model", _file_row(self.generic, "Generic model", MODELS))
        page.registerField("generic*", self.generic)
        self.addPage(page)
        # the static trial
        page = QWizardPage()
        page.setTitle("Static trial")
        page.setSubTitle("The patient standing still, feet flat; an OpenSim ScaleTool setup is used as OpenSim "
                         "uses it (without one, segments are scaled between the markers nearest their joints).")
        self.static, self.setup_file, self.output = QLineEdit(), QLineEdit(), QLineEdit()
        self.mass = QDoubleSpinBox()
        self.mass.setDecimals(2)        # the minimum, one step below the engine's, shows "not given" (None)
        self.mass.setRange(MASS_RANGE[0] - self.mass.singleStep(), MASS_RANGE[1])
        self.mass.setValue(self.mass.minimum())
        self.mass.setSuffix(" kg")
        self.mass.setSpecialValueText("the setup's (or the model's)")
        self.static.textChanged.connect(self._default_output)
        self.generic.textChanged.connect(self._default_output)
        self.static.setText(window.document.static_trial_path or "")
        form = QFormLayout(page)
        form.addRow("Static trial", _file_row(self.static, "Static trial", STATIC))
        form.addRow("Mass", self.mass)
        form.addRow("Scale setup (optional)", _file_row(self.setup_file, "OpenSim ScaleTool setup", SETUPS))
        form.addRow("Scaled model", _file_row(self.output, "Scaled model", MODELS, save=True))
        page.registerField("static*", self.static)
        page.registerField("output*", self.output)
        self.addPage(page)
        # the scaling
        self.scale_page = _ScalePage(self)
        self.scale_page.progress.run.clicked.connect(self.scale)
        self.scale_page.progress.cancel.clicked.connect(self.runner.cancel)
        self.runner.progress.connect(self.scale_page.progress.report)
        self.runner.finished.connect(lambda outcome, _: self._scaled(outcome))
        self.runner.failed.connect(self._failed)
        self.runner.cancelled.connect(lambda: self.scale_page.progress.message.setText(
            "cancelled: nothing was written; press Scale again"))
        self.runner.ended.connect(lambda: (self.scale_page.progress.set_running(False),
                                           self.scale_page.completeChanged.emit()))
        self.addPage(self.scale_page)
        # the trials
        page = QWizardPage()
        page.setTitle("Trials")
        page.setSubTitle("The patient's walking or running trials: each gets the settings proposed from its own "
                         "data, and all are analysed when you press Finish.")
        self.trial_list = QListWidget()
        add, remove = QPushButton("Add trial..."), QPushButton("Remove")
        add.clicked.connect(self._ask_trial)
        remove.clicked.connect(self._remove_trial)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QVBoxLayout(page)
        layout.addWidget(self.trial_list, 1)
        layout.addLayout(buttons)
        self.addPage(page)

    def _default_output(self) -> None:
        """The scaled model beside the static trial, named after it, in the generic model's format."""
        if self.static.text() and self.generic.text() and not self.output.isModified():
            suffix = ".osim" if self.generic.text().lower().endswith(".osim") else ".yaml"
            static = Path(self.static.text())
            self.output.setText(str(static.with_name(f"{static.stem}_scaled{suffix}")))

    # ---------------------------------------------------------------- scaling
    def scale(self) -> None:
        """Start the scaling in the background worker (progress and Cancel on the scaling page)."""
        if self.runner.running:
            return
        self.run = None
        self.scale_page.completeChanged.emit()
        self.scale_page.progress.reset()
        self.scale_page.progress.set_running(True)
        self.scale_page.residuals.setRowCount(0)
        self.scale_page.notes.clear()
        self.runner.start_steps(scale_steps(self.setup_file.text() or None, self.generic.text(), self.static.text(),
                                            self.given_mass()))

    def given_mass(self) -> float | None:
        """The mass (kg) given on the static trial's page; None at the spin box's minimum, which says not given."""
        return None if self.mass.value() == self.mass.minimum() else self.mass.value()

    def _failed(self, exc, details: str) -> None:
        self.scale_page.progress.message.setText("failed: nothing was written")
        self.main.report(exc, "The scaling failed", details)

    def _scaled(self, outcome) -> None:
        run, setup = outcome
        result = run.result
        self.written = self.main.attempt("Cannot write the scaled model", write_scale_outputs, run, setup,
                                         self.output.text()) or []
        if not self.written:
            self.scale_page.progress.message.setText("scaled, but the scaled model could not be written")
            return
        static = self.main.attempt("Cannot open the static trial", patient.read_trial, self.main, self.static.text())
        if static is None:
            return
        self.run, self.setup = run, setup
        rows = [] if result.placement is None else result.placement.residuals
        table = self.scale_page.residuals
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate((row.name, f"{row.weight:g}", f"{row.error * 1e3:.1f}",
                                      f"{row.moved * 1e3:.1f}")):
                table.setItem(r, c, QTableWidgetItem(text))
        self.scale_page.notes.setText("\n".join(result.notes))
        doc = self.main.document
        mass = self.given_mass() or setup.mass
        doc.start_patient({"generic_model": self.generic.text(), "scale_setup": self.setup_file.text() or None,
                           "scaled_model": str(Path(self.output.text())), "mass": mass}, static, self.static.text())
        pose = None if result.placement is None else result.placement.q
        doc.show_static(result.model, str(Path(self.output.text())), pose)
        patient.sync_panel(self.main)

    # ---------------------------------------------------------------- trials
    def add_trial(self, path, grf=None, external_loads=None) -> None:
        self.trials.append((str(path), grf and str(grf), external_loads and str(external_loads)))
        self.trial_list.addItem(Path(path).name + (f" (loads: {Path(external_loads).name})" if external_loads
                                                   else ""))

    def _ask_trial(self) -> None:
        chosen = menus.ask_trial(self)
        if chosen:
            self.add_trial(*chosen)

    def _remove_trial(self) -> None:
        row = self.trial_list.currentRow()
        if row >= 0:
            self.trial_list.takeItem(row)
            del self.trials[row]

    def accept(self) -> None:
        """Add the trials to the patient (each with the settings proposed from it) and analyse them all."""
        for path, grf, loads in self.trials:
            self.main.attempt("Cannot open the trial", self.main.open_trial_file, path, grf, loads)
        super().accept()
        if self.main.document.trials:
            patient.analyse_all(self.main)

    def reject(self) -> None:
        self.runner.cancel()
        self.runner.wait()
        super().reject()
