"""The main window: the 3D view and the timeline in the middle, dockable panels (analysis settings and progress,
amputation editor, curves, inspector, results, events) whose layout is remembered, the menus (``menus``), drag
and drop of files, and a status bar with the trial summary and the import warnings.

Every action that reads or writes files goes through :meth:`MainWindow.attempt`, which shows a HybridLab error
(or any other) as a message with expandable details instead of letting it escape.
"""
from __future__ import annotations

import traceback
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

from engine.analysis.failure_advice import failure_advice
from engine.analysis.gait_phases import side_of, stance_phases
from engine.child_process import Cancelled
from engine.display.mesh_files import geometry_folders
from engine.errors import HybridLabError
from engine.io.open import MODEL_SUFFIXES, open_model
from engine.model.import_notes import import_notes
from engine.model.summary import describe_model
from engine.trial.summary import describe_trial

from . import menus, opensim_setups, patient, trial_alone
from .amputation_editor import AmputationEditor
from .curves.view import CurvesView
from .document import Document
from .error_dialog import error_text, show_error
from .devices_panel import DevicesPanel
from .events_panel import EventsPanel
from .inspector import Inspector
from .matching_panel import MatchingPanel
from .progress_panel import ProgressPanel
from .results_table import ResultsTable
from engine.io.session_file import Session, load_session, save_session
from .settings_panel import SettingsPanel
from .simulation_panel import SimulationPanel
from .socket_pressure import SocketPressure, saved_liner
from .timeline import Timeline
from .viewport.scene import Content, Scene
from .viewport.widget import make_view
from .worker import AnalysisRunner

RECENT = 8
TRIAL_SUFFIXES = (".c3d", ".trc")
OPENED = {".hls": "sessions", ".hlr": "results", ".osim": "OpenSim models", ".yaml": "HybridLab models",
          ".yml": "HybridLab models", ".c3d": "trials", ".trc": "trials (with their .mot and .xml)",
          ".xml": "OpenSim setups (File > Open OpenSim setup...)", ".mot": "GRF or motion files with their .trc"}


def unsupported_drop(path: Path) -> str:
    """Why a dropped file opens nothing: what the window opens instead."""
    kinds = ", ".join(f"{suffix} ({what})" for suffix, what in OPENED.items())
    return (f"{path.name}: HybridLab does not open {path.suffix or 'files without a suffix'} files. It opens {kinds}. "
            "A C3D dropped alone is analysed with the default model, as `hybrid analyze TRIAL.c3d`.")


def lone_file_note(path: Path) -> str:
    """Why a .mot or .xml opened without its trial opens nothing, and what it holds."""
    if path.suffix.lower() == ".xml":
        what = "an OpenSim ExternalLoads file"
    else:
        from engine.io.storage import read_storage
        try:
            labels = read_storage(path).labels
        except HybridLabError as exc:
            return f"{path.name}: not readable as an OpenSim .mot ({exc})"
        what = ("ground reactions (GRF)" if any("force" in label for label in labels)
                else "a motion of coordinates (HybridLab computes the motion from markers)")
    return (f"{path.name} holds {what}: it is not a trial on its own. Open its .trc with File > Open trial (which "
            "asks for the GRF .mot and the ExternalLoads .xml), or drop the .trc, .mot and .xml together.")


LAYOUT = ("layout", "geometry")
"""The settings that remember the window's layout (its docks) and geometry: restored when it opens, saved when it
closes."""


def user_settings() -> QSettings:
    """The user's settings (on Linux ~/.config/HybridLab/HybridLab.conf): layout, recent files, preferences."""
    return QSettings("HybridLab", "HybridLab")


class AnalysisRunning(HybridLabError):
    """Opening something while the analysis runs (its result would belong to what was open before)."""


def _running(what: str, file=None) -> AnalysisRunning:
    return AnalysisRunning(f"the analysis is running: cancel it (Esc) or wait for it to end, then open {what} again",
                           file=file)


class MainWindow(QMainWindow):
    """HybridLab's window. ``store`` keeps the layout and recent files (default: the user's settings)."""

    def __init__(self, store: QSettings | None = None):
        super().__init__()
        self.store = store or user_settings()
        self.setWindowTitle("HybridLab")
        self.setAcceptDrops(True)
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)
        self.document = Document()
        self.runner = AnalysisRunner(self)
        self.session_path: str | None = None
        self._stance_notes: list[str] = []     # stances left out as too short, shown among the warnings
        self._analysed = None                 # (model, trial) of the running analysis
        self._settings_loaded = None          # (trial, result, settings, markers) the settings form last showed
        self.last_error = None
        self.reported: list[str] = []          # every error shown, as "title: sentence"
        self.blade_colouring = "bending moment"      # shown when the analysis gives it, else the plain blade
        # centre: the 3D view and the timeline
        self.scene = Scene()
        self.view = make_view(self.scene)
        self.view.picked.connect(self._on_picked)
        self.timeline = Timeline(self.document)
        centre = QWidget()
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.timeline)
        self.setCentralWidget(centre)
        # panels
        self.settings_panel = SettingsPanel()
        self.progress = ProgressPanel()
        analysis = QWidget()
        v = QVBoxLayout(analysis)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.progress)
        v.addWidget(self.settings_panel, 1)
        self.amputation = AmputationEditor(self.document)
        self.curves = CurvesView(self.document)
        self.inspector = Inspector(self.document, self.scene)
        self.results = ResultsTable(self.document)
        self.events = EventsPanel(self.document)
        self.devices = DevicesPanel(self.document, self.scene, self.view.request_render)
        self.matching = MatchingPanel()
        self.simulation = SimulationPanel()
        self.docks = {
            "analysis": self._dock("Analysis", analysis, Qt.DockWidgetArea.LeftDockWidgetArea),
            "amputation": self._dock("Amputation", self.amputation, Qt.DockWidgetArea.LeftDockWidgetArea),
            "curves": self._dock("Curves", self.curves, Qt.DockWidgetArea.RightDockWidgetArea),
            "inspector": self._dock("Inspector", self.inspector, Qt.DockWidgetArea.BottomDockWidgetArea),
            "results": self._dock("Results", self.results, Qt.DockWidgetArea.BottomDockWidgetArea),
            "events": self._dock("Events", self.events, Qt.DockWidgetArea.BottomDockWidgetArea),
            "devices": self._dock("Devices", self.devices, Qt.DockWidgetArea.RightDockWidgetArea),
            "markers": self._dock("Markers", self.matching, Qt.DockWidgetArea.BottomDockWidgetArea),
            "simulation": self._dock("Simulation", self.simulation, Qt.DockWidgetArea.RightDockWidgetArea),
        }
        self.tabifyDockWidget(self.docks["curves"], self.docks["devices"])
        self.docks["curves"].raise_()
        self.docks["devices"].hide()            # a device study, opened from View > Panels
        self.tabifyDockWidget(self.docks["curves"], self.docks["simulation"])
        self.docks["simulation"].hide()         # seed 002's scenes, opened from View > Panels
        self.tabifyDockWidget(self.docks["analysis"], self.docks["amputation"])
        self.tabifyDockWidget(self.docks["results"], self.docks["events"])
        self.tabifyDockWidget(self.docks["results"], self.docks["inspector"])
        self.tabifyDockWidget(self.docks["results"], self.docks["markers"])
        self.docks["analysis"].raise_()
        self.docks["results"].raise_()
        self.resizeDocks([self.docks["analysis"], self.docks["curves"]], [300, 560], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["results"]], [200], Qt.Orientation.Vertical)
        self.default_layout = self.saveState()
        # status bar
        self.status_summary = QLabel("")
        self.status_warnings = QLabel("")
        self.statusBar().addWidget(self.status_summary, 1)
        self.statusBar().addPermanentWidget(self.status_warnings)
        menus.build(self)
        # wiring
        self.document.changed.connect(self._on_content)
        self.document.frame_changed.connect(self._on_frame)
        self.progress.run.clicked.connect(self.run_analysis)
        self.progress.cancel.clicked.connect(self.cancel_running)
        self.runner.progress.connect(self.progress.report)
        self.runner.finished.connect(self._on_analysed)
        self.runner.prepared.connect(self._on_prepared)
        self.preparing = None                  # (show, what) of a run that also makes its model and trial
        self.setup_files: dict = {}            # trial path -> the SetupFiles of the OpenSim setups it came from
        self.trial_loads: dict = {}            # trial path -> the ExternalLoads .xml it was opened with
        self.runner.failed.connect(self._on_analysis_failed)
        self.runner.cancelled.connect(lambda: self.statusBar().showMessage("Analysis cancelled; the results shown "
                                                                           "are unchanged.", 8000))
        self.runner.cancelled.connect(self.progress.show_cancelled)
        self.runner.ended.connect(lambda: self.progress.set_running(False))
        self.runner.ended.connect(lambda: setattr(self, "preparing", None))     # a failed or cancelled one too
        self.amputation.model_edited.connect(
            lambda model: self.attempt("Cannot show the edited model", self.document.set_model, model))
        self.amputation.save_requested.connect(lambda: menus.save_model_dialog(self))
        self.amputation.failed.connect(lambda exc: self.report(exc, "Cannot edit the muscles"))
        self.events.failed.connect(lambda exc: self.report(exc, "Events"))
        self.simulation.failed.connect(lambda exc, details: self.report(exc, "The simulation failed", details))
        self.simulation.notice.connect(lambda text: self.statusBar().showMessage(text, 15000))
        # the timeline drives the simulation's run while its panel is shown, the trial otherwise
        self.docks["simulation"].visibilityChanged.connect(
            lambda shown: self.timeline.bind(self.simulation.clock if shown else self.document))
        self.devices.failed.connect(lambda exc: self.statusBar().showMessage(f"Devices: {exc}", 15000))
        self.settings_panel.notice.connect(lambda text: self.statusBar().showMessage(text, 20000))
        self.curves.notice.connect(lambda text: self.statusBar().showMessage(text, 15000))
        patient.connect(self)
        trial_alone.connect(self)
        self.socket_pressure = SocketPressure(self, self.actions_by["socket pressure"])
        self.restore_layout()
        self._on_content()

    def _dock(self, title: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # ---------------------------------------------------------------- errors
    def report(self, exc: BaseException, title: str, details: str | None = None):
        """Show ``exc`` as a message (details expandable); the message box is kept as ``last_error``, the
        sentence added to ``reported``."""
        self.reported.append(f"{title}: {error_text(exc)}")
        self.last_error = show_error(self, title, exc, details)
        return self.last_error

    def attempt(self, title: str, action, *args):
        """Run ``action(*args)``; on any error show a message and return None."""
        try:
            return action(*args)
        except Exception as exc:
            self.report(exc, title, traceback.format_exc())
            return None

    # ---------------------------------------------------------------- opening
    def busy(self) -> bool:
        """An analysis, or a study trial's results, is being computed in the background."""
        study = getattr(self, "study_runner", None)
        return self.runner.running or (study is not None and study.running)

    def cancel_running(self) -> None:
        """Cancel whatever runs in the background (the analysis or a study trial's results)."""
        for runner in (self.runner, getattr(self, "study_runner", None)):
            if runner is not None and runner.running:
                runner.cancel()

    def escape(self) -> None:
        """Esc (but in the height or mass box while a value is typed: ``matching_panel.BodyBox``): cancel what runs in the
        background; with nothing running, ask whether to discard the trial waiting in the Markers panel for its first
        analysis (``trial_alone.ask_discard``)."""
        if self.busy():
            self.cancel_running()
        else:
            trial_alone.ask_discard(self)

    def _check_idle(self, what) -> None:
        """Raise AnalysisRunning while an analysis runs: what it returns belongs to what is open now."""
        if self.busy():
            raise _running("it", file=what)

    def open_paths(self, paths) -> None:
        """Open files by their type: models, trials (a TRC with its loads .xml and GRF .mot), sessions, results.
        Nothing is opened while the analysis runs (one message says so)."""
        paths = [Path(p) for p in paths]
        if self.busy() and paths:
            self.report(_running(", ".join(p.name for p in paths)), "Cannot open")
            return
        by = {s: [p for p in paths if p.suffix.lower() == s] for s in {p.suffix.lower() for p in paths}}
        for p in by.get(".hls", []):
            self.attempt("Cannot open the session", self.open_session, p)
        for p in by.get(".hlr", []):
            self.attempt("Cannot open the results", self.open_results, p)
        for s in MODEL_SUFFIXES:
            for p in by.get(s, []):
                self.attempt("Cannot open the model", self.open_model_file, p)
        if by.get(".xml") and not any(s in by for s in TRIAL_SUFFIXES) and self.attempt(
                "Cannot open the OpenSim setups", opensim_setups.holds_tool, by[".xml"]):
            self.attempt("Cannot open the OpenSim setups", opensim_setups.open_setups, self, by[".xml"])
            return
        xml, mot = (by.get(".xml") or [None])[0], (by.get(".mot") or [None])[0]
        for s in TRIAL_SUFFIXES:
            for p in by.get(s, []):
                self.attempt("Cannot open the trial", self.open_trial_file, p, mot, xml)
        known = {".hls", ".hlr", ".xml", ".mot", *MODEL_SUFFIXES, *TRIAL_SUFFIXES}
        for p in paths:
            if p.suffix.lower() not in known:
                self.statusBar().showMessage(f"{p.name}: not a model, trial, session or results file", 8000)
        if not any(s in by for s in TRIAL_SUFFIXES):
            for p in by.get(".mot", []) + by.get(".xml", []):
                self.statusBar().showMessage(lone_file_note(p), 20000)

    def open_model_file(self, path) -> None:
        self._check_idle(path)
        model = open_model(path)
        self.document.set_inputs(model=model, model_path=str(path))
        self.add_recent(path)

    def c3d_timeout(self) -> float | None:
        """Seconds allowed to read a C3D file (File > Preferences); None for the reader's default."""
        value = float(self.store.value("c3d_timeout", 0.0) or 0.0)
        return value if value > 0 else None

    def open_trial_file(self, path, grf=None, external_loads=None) -> None:
        """Read a trial off the GUI thread (a progress dialog offers Cancel) and show it."""
        self._check_idle(path)
        try:
            trial = patient.read_trial(self, path, grf, external_loads)
        except Cancelled:
            self.statusBar().showMessage(f"Reading {Path(path).name} cancelled.", 8000)
            return
        patient.add_trial(self, trial, str(path), external_loads, grf)     # with the settings proposed from it
        if external_loads is not None:
            self.trial_loads[str(path)] = str(external_loads)
        self.add_recent(path)

    def open_results(self, path) -> None:
        from engine.io.results_file import load_result
        self._check_idle(path)
        result, settings = load_result(path)
        self.document.set_inputs(model=result.model, trial=result.trial)
        self.document.set_result(result, settings)
        self.add_recent(path)

    def open_demo(self, demo=None) -> None:
        """The bundled demo with its results already computed, in the middle of its longest stance on the blade;
        ``demo``: its ``(result, settings)`` when already read (by the first window's warm-up)."""
        from engine.demo import demo_files, demo_results
        self._check_idle(None)
        result, settings = demo if demo is not None else demo_results()
        self.document.set_inputs(model=result.model, trial=result.trial, model_path=str(demo_files().model),
                                 trial_path=str(demo_files().trial))
        self.document.set_result(result, settings)
        phases = stance_phases(result)          # start in the middle of the longest stance on the blade
        stances = [iv for group, ivs in phases.intervals.items() if "blade" in group for iv in ivs]
        if stances:
            start, end = max(stances, key=lambda iv: iv[1] - iv[0])
            self.document.set_time(0.5 * (start + end))

    def add_contacts_file(self, path) -> None:
        from engine.io.contacts_file import load_contacts
        self._check_idle(path)
        self.document.set_inputs(model=load_contacts(path, self.document.model), model_path=self.document.model_path)

    # ---------------------------------------------------------------- sessions
    def session(self) -> Session:
        """The current work as a Session (for saving)."""
        doc = self.document
        settings = self.current_settings()
        fields = patient.session_fields(self, settings)
        return Session(model=doc.model, trial=doc.trial, settings=doc.settings if settings else None,
                       result=doc.result, events=list(doc.events), time=doc.current_time, model_path=doc.model_path,
                       trial_path=doc.trial_path, channels=self.curves.selection(),
                       view={"layers": dict(self.scene.visible), "blade": self.blade_colouring,
                             "camera": self.scene.rig.state() if self.scene.rig else None,
                             "axis": self.curves.axis.currentIndex()},
                       layout=bytes(self.saveState()), marker_matching=trial_alone.session_field(self),
                       report=self.socket_pressure.report_options(), **fields)

    def save_session(self, path) -> None:
        save_session(path, self.session())
        self.session_path = str(path)
        self.add_recent(path)
        self.statusBar().showMessage(f"Session saved to {path}", 5000)

    def open_session(self, path) -> None:
        self._check_idle(path)
        s = load_session(path)
        liner = saved_liner(s.report)
        doc = self.document
        if s.settings is not None:
            doc.settings = s.settings
        if s.result is None:
            doc.set_inputs(model=s.model, trial=s.trial, model_path=s.model_path, trial_path=s.trial_path)
        else:       # the result with its own model, then the muscle edits made after the analysis, if any
            doc.set_inputs(model=s.result.model, trial=s.trial, model_path=s.model_path, trial_path=s.trial_path)
            doc.set_result(s.result, s.settings)
            if s.model is not None and s.model is not s.result.model:
                doc.set_model(s.model)
        doc.set_events(s.events)
        patient.restore(self, s)
        trial_alone.restore(self, s.marker_matching)
        self.socket_pressure.set_liner(liner)
        if s.layout:
            self.restoreState(s.layout)
        view = s.view or {}
        for name, visible in view.get("layers", {}).items():
            self.set_layer_visible(name, visible)
        self.set_blade_colouring(view.get("blade", "none"))
        self.curves.axis.setCurrentIndex(view.get("axis", 0))
        self.curves.restore_selection(s.channels)
        if view.get("camera"):
            self.scene.rig.restore(view["camera"])
            menus.sync_follow(self)
        doc.set_time(s.time)
        self.view.request_render()
        self.session_path = str(path)
        self.add_recent(path)

    # ---------------------------------------------------------------- analysis
    def current_settings(self):
        return self.attempt("Invalid settings", self.settings_panel.settings)

    def run_analysis(self) -> bool:
        """Start the analysis of the open model and trial in the worker thread; False if it cannot start."""
        doc = self.document
        if self.busy():
            return False
        if trial_alone.run_waiting(self):       # a trial dropped alone, read and shown in the Markers panel
            return True
        if doc.model is None or doc.trial is None:
            self.statusBar().showMessage("Open a model and a trial first.", 8000)
            return False
        settings = self.current_settings()
        if settings is None:
            return False
        doc.settings = settings                 # the shown trial's, as run
        if trial_alone.shown(self) is not None:        # its model is made for it, with the matching's edits
            trial_alone.rerun(self, patient.analysis_settings(self, settings))
            return True
        self.progress.reset()
        self.progress.set_running(True)
        self._analysed = (doc.model, doc.trial)
        self.runner.start(doc.model, doc.trial, patient.analysis_settings(self, settings))
        return True

    def _on_analysed(self, result, settings) -> None:
        doc = self.document
        model, trial = self._analysed
        if doc.model is not model or doc.trial is not trial:      # e.g. muscles edited while it ran
            changed = "model" if doc.model is not model else "trial"
            self.progress.message.setText(f"done, but the {changed} changed while it ran: its results are not shown")
            self.statusBar().showMessage(f"The analysis ended, but the {changed} was changed while it ran: its results "
                                         "are not shown; run it again.", 15000)
            return
        if result.generated_contacts and result.model is not model:
            doc.set_model(result.model)     # the open model with the contact candidates the analysis generated
        doc.set_result(result, patient.stored_settings(self, settings))
        self.statusBar().showMessage(f"Analysis done: {result.ik.n_frames} frames.", 8000)

    def start_prepared(self, steps, show, what) -> None:
        """Run ``steps``, an analysis that also makes its model and trial (OpenSim setups, a trial alone), in the
        worker; ``show(window, what, value)`` shows what it returns."""
        self.progress.reset()
        self.progress.set_running(True)
        self.preparing = (show, what)
        self.runner.start_with_inputs(steps)

    def _on_prepared(self, value) -> None:
        """A run that made its own model and trial ended: show it."""
        show, what = self.preparing
        self.preparing = None
        self.attempt("Cannot show the analysis", show, self, what, value)

    def _on_analysis_failed(self, exc, details: str) -> None:
        self.progress.message.setText("failed; the results shown are unchanged")
        box = self.report(exc, "The analysis failed", details)
        advice = failure_advice(exc, next(reversed(self.progress.bars), None), self.document.settings)
        if advice:          # a numerical failure: which setting to change, in words
            box.setInformativeText(advice)
            self.reported[-1] += f" {advice}"

    # ---------------------------------------------------------------- view
    def set_layer_visible(self, name: str, visible: bool) -> None:
        self.scene.set_layer_visible(name, visible)
        menus.sync_layer(self, name, visible)
        self.view.request_render()

    def set_blade_colouring(self, colouring: str) -> None:
        self.blade_colouring = colouring
        blade = self.scene.layers.get("blade")
        if blade is not None:
            blade.set_colouring(colouring if colouring in blade.available_colourings() else "none")
        menus.sync_blade(self, colouring)
        self.view.request_render()

    def sync_socket_liner(self, liner: dict) -> None:
        menus.sync_socket_liner(self, liner)

    def look(self, preset: str) -> None:
        if self.scene.content is not None:
            self.scene.look(preset)
            self.view.request_render()

    def set_follow(self, follow: bool) -> None:
        if self.scene.rig is not None:
            self.scene.rig.following = follow

    # ---------------------------------------------------------------- document changes
    def _on_content(self) -> None:
        """The document's content drawn again (a scene built anew), the socket pressure's layer put back into it."""
        self._show_content()
        self.socket_pressure.refresh()

    def _show_content(self) -> None:
        doc = self.document
        markers = [m.name for m in doc.model.markers] if doc.model else []
        loaded = (doc.trial, doc.result, doc.settings, markers)
        if self._settings_loaded is None or any(a is not b for a, b in zip(loaded[:3], self._settings_loaded[:3])) \
                or markers != self._settings_loaded[3]:      # a model edit alone keeps the form's edits not yet run
            self.settings_panel.set_settings(doc.settings, markers, (doc.trial.start_time, doc.trial.end_time)
                                             if doc.trial is not None else None)
            self._settings_loaded = loaded
        patient.sync_panel(self)
        self.attempt("Cannot show the marker matching", trial_alone.show, self)
        if doc.model is None:
            self.status_summary.setText("Open a model and a trial (File menu), or drop files here.")
            return
        folders = geometry_folders((doc.model_path, doc.model.metadata.get("source")), self.geometry_paths())
        content = Content(doc.model, doc.time, doc.Q, doc.display_trial, doc.result, doc.settings.forward, folders)
        previous = self.scene.content      # the camera stays for edits and re-analyses of the same motion
        keep = (previous is not None and previous.model.name == doc.model.name
                and (previous.result is None) == (doc.result is None) and len(previous.time) == len(doc.time))
        self.attempt("Cannot draw the model", self.scene.set_content, content, keep)
        self.set_blade_colouring(self.blade_colouring)
        self._update_stances()
        self._update_status()
        missing = self.scene.missing_meshes
        if missing and (previous is None or previous.model is not doc.model):
            self.statusBar().showMessage(f"{len(missing)} mesh file{'s' if len(missing) != 1 else ''} not found or "
                                         "not readable: those bodies are drawn as generated shapes (see the "
                                         "warnings at the right)", 15000)
        self.setWindowTitle("HybridLab - " + " / ".join(Path(p).name for p in (doc.model_path, doc.trial_path) if p))
        self.view.request_render()

    def _update_status(self) -> None:
        doc = self.document
        parts = [describe_model(doc.model).splitlines()[0]]
        warnings = import_notes(doc.model)
        if doc.trial is not None:
            lines = describe_trial(doc.trial).splitlines()
            parts.append(lines[1].strip())
            warnings += list(doc.trial.warnings)
        warnings += doc.notes
        warnings += self._stance_notes
        warnings += self.scene.missing_meshes
        warnings += [f"analysis settings: {u}; kept as loaded" for u in self.settings_panel.unshown]
        self.status_summary.setText("   |   ".join(parts))
        self.status_summary.setToolTip(describe_model(doc.model) + ("\n\n" + describe_trial(doc.trial)
                                                                    if doc.trial is not None else ""))
        self.status_warnings.setText(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else "")
        self.status_warnings.setToolTip("\n".join(warnings))

    def _update_stances(self) -> None:
        stances: dict = {}
        self._stance_notes = []
        if self.document.result is not None:
            phases = stance_phases(self.document.result)
            self._stance_notes = phases.notes()
            for name, intervals in phases.intervals.items():
                stances.setdefault(side_of(name), []).extend(intervals)
        self.timeline.set_stances(stances)
        self.curves.set_stances(stances)

    def _on_frame(self, frame: int) -> None:
        if self.scene.content is not None and frame < len(self.scene.content.time):
            self.scene.show_frame(frame)
            self.view.request_render()

    def _on_picked(self, picked) -> None:
        self.inspector.show_picked(picked)
        if picked is not None:
            self.docks["inspector"].raise_()
            self.statusBar().showMessage(f"{picked.kind}: {picked.name}", 5000)

    # ---------------------------------------------------------------- preferences
    def geometry_paths(self) -> list[str]:
        """The folders the user added to the search for mesh files (after the model's own folders)."""
        return [p for p in (self.store.value("geometry_paths", []) or []) if p]

    def set_geometry_paths(self, paths) -> None:
        """Search ``paths`` for mesh files (kept in the preferences) and draw the model again with them."""
        self.store.setValue("geometry_paths", [str(p) for p in paths])
        if self.document.model is not None:
            self._on_content()

    # ---------------------------------------------------------------- recent files, layout, drops, closing
    def recent_files(self) -> list[str]:
        return [p for p in (self.store.value("recent", []) or []) if p]

    def add_recent(self, path) -> None:
        path = str(Path(path).resolve())
        files = [path] + [p for p in self.recent_files() if p != path]
        self.store.setValue("recent", files[:RECENT])
        menus.fill_recent(self)

    def restore_layout(self) -> None:
        state, geometry = (self.store.value(key) for key in LAYOUT)
        if state is not None:
            self.restoreState(state)
        if geometry is not None:
            self.restoreGeometry(geometry)

    def reset_layout(self) -> None:
        self.restoreState(self.default_layout)

    def dragEnterEvent(self, event):
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event):
        """Dropped files open by their type; a C3D dropped alone is read and shown in the Markers panel, to be analysed
        as ``hybrid analyze TRIAL.c3d`` (the default model made for it) once the user confirms the subject's height
        and mass there; a file of a type the window does not open is explained."""
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        unknown = [p for p in paths if p.suffix.lower() not in OPENED]
        if unknown:
            self.report(HybridLabError(" ".join(unsupported_drop(p) for p in unknown)), "Cannot open the dropped file")
            paths = [p for p in paths if p not in unknown]
        if len(paths) == 1 and paths[0].suffix.lower() == ".c3d":
            if self.busy():
                self.report(_running(paths[0].name), "Cannot open")
                return
            self.attempt("Cannot analyse the trial", trial_alone.analyse_file, self, paths[0])
            return
        self.open_paths(paths)

    def closeEvent(self, event):
        self.timeline.pause()
        for runner in (self.runner, getattr(self, "report_runner", None), getattr(self, "study_runner", None),
                       self.socket_pressure.runner):
            if runner is not None and runner.running:
                runner.cancel()
                runner.wait()
        for key, value in zip(LAYOUT, (self.saveState(), self.saveGeometry())):
            self.store.setValue(key, value)
        self.simulation.shutdown()
        self.view.shutdown()
        super().closeEvent(event)
