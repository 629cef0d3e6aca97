"""The main window's menus (File, Analysis, View, Help), keyboard shortcuts, and the file dialogs behind them."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from engine.version import version_text
from engine.analysis.series import result_series
from engine.clinical.summary import names

from . import exports, opensim_setups, patient, study_browser
from .progress_dialog import export_dialog
from .report_export import start_report
from .screenshot import save_window
from .viewport.blade import COLOURINGS
from .viewport.camera import PRESETS
from .viewport.scene import LAYERS

MODELS = "Models (*.osim *.yaml *.yml)"
TRIALS = "Trials (*.c3d *.trc)"
SESSIONS = "HybridLab sessions (*.hls)"
RESULTS = "HybridLab results (*.hlr)"
REPORTS = "PDF document (*.pdf);;HTML page (*.html)"
FIGURES = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
SLIPPING = "Slipping on the skin..."
TISSUE = "Soft tissue and fit..."


def _action(window, menu, text, slot, shortcut=None, checkable=False, tip=None) -> QAction:
    action = QAction(text, window)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.setCheckable(checkable)
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def build(window) -> None:
    """Create the menus of ``window`` (a MainWindow); checkable actions are kept in ``window.actions_by``."""
    window.actions_by = {}
    bar = window.menuBar()
    file = bar.addMenu("&File")
    _action(window, file, "&New patient...", lambda: new_patient_dialog(window),
            tip="a generic model scaled to the patient from a static trial, then the patient's trials analysed")
    _action(window, file, "Open &model...", lambda: _open(window, "Open a model", MODELS), "Ctrl+M")
    _action(window, file, "Open &trial...", lambda: open_trial_dialog(window), "Ctrl+O")
    _action(window, file, "Open OpenSim setup...", lambda: open_setups_dialog(window),
            tip="IK, ID, static optimisation (AnalyzeTool), ExternalLoads and Scale setups run as one analysis")
    _action(window, file, "Add contact candidates...", lambda: _add_contacts(window),
            tip="a hybridlab-contacts file of candidate contact points for the ground-reaction estimate")
    file.addSeparator()
    _action(window, file, "Open &session...", lambda: _open(window, "Open a session", SESSIONS), "Ctrl+Shift+O")
    _action(window, file, "&Save session", lambda: save_session_dialog(window, window.session_path), "Ctrl+S")
    _action(window, file, "Save session &as...", lambda: save_session_dialog(window, None), "Ctrl+Shift+S")
    _action(window, file, "Open results...", lambda: _open(window, "Open analysis results", RESULTS))
    _action(window, file, "Open stud&y...", lambda: study_browser.open_study_dialog(window),
            tip="a study (study.yaml) or a batch output folder: its trials in a table; double-click one to open it")
    _action(window, file, "Save model as...", lambda: save_model_dialog(window))
    _action(window, file, "Save analysis as OpenSim setups...", lambda: save_setups_dialog(window),
            tip="the analysis's IK, ID and static optimisation setups, to run it again in OpenSim or `hybrid run`")
    window.recent_menu = file.addMenu("Recent files")
    fill_recent(window)
    export = file.addMenu("&Export")
    _action(window, export, "Curves shown as CSV...", lambda: export_csv_dialog(window, shown=True))
    _action(window, export, "All series as CSV...", lambda: export_csv_dialog(window, shown=False))
    _action(window, export, "OpenSim files...", lambda: export_opensim_dialog(window))
    _action(window, export, "Current plot as figure...", lambda: export_figure_dialog(window))
    _action(window, export, "3D view screenshot...", lambda: _save_image(window, "3D view", window.view.image))
    _action(window, export, "Window screenshot...", lambda: _save_image(window, "window", None))
    _action(window, export, "Video of the playback...", lambda: export_video_dialog(window))
    _action(window, file, "&Report...", lambda: report_dialog(window),
            tip="the clinical report of the analysis (PDF or HTML), as `hybrid report` writes it")
    file.addSeparator()
    _action(window, file, "&Preferences...", lambda: preferences_dialog(window))
    _action(window, file, "&Quit", window.close, "Ctrl+Q")

    analysis = bar.addMenu("&Analysis")
    _action(window, analysis, "&Run", window.run_analysis, "Ctrl+R")
    _action(window, analysis, "Run on &all trials", lambda: patient.analyse_all(window),
            tip="analyse every trial of the patient in turn, each with its own settings")
    _action(window, analysis, "&Cancel", window.escape, "Esc",
            tip="cancel the analysis running, or discard the trial waiting in the Markers panel (asked first); "
                "Esc in the Markers panel's height or mass box while a value is typed abandons the typing instead")
    _action(window, analysis, "Marker weights from an OpenSim IK setup...", lambda: _ik_setup(window))

    view = bar.addMenu("&View")
    layers = view.addMenu("Show")
    for name in LAYERS:
        action = _action(window, layers, name.replace("grf", "ground reactions"),
                         lambda checked, n=name: window.set_layer_visible(n, checked), checkable=True)
        action.setChecked(True)
        window.actions_by[f"layer {name}"] = action
    blade = view.addMenu("Colour the blade by")
    group = QActionGroup(window)
    for colouring in COLOURINGS:
        action = _action(window, blade, colouring, lambda _, c=colouring: window.set_blade_colouring(c),
                         checkable=True)
        group.addAction(action)
        window.actions_by[f"blade {colouring}"] = action
    window.actions_by["socket pressure"] = _action(window, view, "Socket pressure", lambda checked: window.socket_pressure
                                                   .toggle(checked), checkable=True)
    liner = view.addMenu("Socket liner")
    liner.setToolTipsVisible(True)
    group = QActionGroup(window)
    window.actions_by["socket bonded"] = _action(
        window, liner, "Bonded to the skin", lambda: _set_liner(window, friction=None), checkable=True,
        tip="the liner shears with the skin (the default; `hybrid socket-pressure` without --friction)")
    window.actions_by["socket slipping"] = _action(
        window, liner, SLIPPING, lambda: socket_liner_dialog(window), checkable=True,
        tip="the liner slips on the skin with Coulomb's friction (`hybrid socket-pressure --friction MU`)")
    for action in (window.actions_by["socket bonded"], window.actions_by["socket slipping"]):
        group.addAction(action)
    window.actions_by["socket bonded"].setChecked(True)
    liner.addSeparator()
    window.actions_by["socket tissue"] = _action(
        window, liner, TISSUE, lambda: socket_tissue_dialog(window),
        tip="soft tissue under the liner and the socket's pre-compression (`hybrid socket-pressure --tissue MM "
            "--tissue-modulus KPA --fit KPA`)")
    view.setToolTipsVisible(True)       # a disabled toggle's tooltip says why
    view.addSeparator()
    for i, preset in enumerate(PRESETS):
        _action(window, view, f"{preset.capitalize()} view", lambda _, p=preset: window.look(p), f"Ctrl+{i + 1}")
    window.actions_by["follow"] = _action(window, view, "Follow the subject", window.set_follow, "F",
                                          checkable=True)
    view.addSeparator()
    _action(window, view, "Play / pause", window.timeline.toggle_play, "Space")
    _action(window, view, "Previous frame", lambda: window.timeline.step(-1), "Left")
    _action(window, view, "Next frame", lambda: window.timeline.step(1), "Right")
    _action(window, view, "First frame", lambda: window.timeline.step_to_end(False), "Home")
    _action(window, view, "Last frame", lambda: window.timeline.step_to_end(True), "End")
    view.addSeparator()
    _action(window, view, "Add a mesh folder...", lambda: _add_geometry_path(window),
            tip="search this folder for the models' bone meshes (.vtp, .stl, .obj), as OpenSim's geometry path")
    _action(window, view, "Forget the mesh folders added", lambda: window.set_geometry_paths([]))
    panels = view.addMenu("Panels")
    for dock in window.docks.values():
        panels.addAction(dock.toggleViewAction())
    _action(window, view, "Reset layout", window.reset_layout)

    help_menu = bar.addMenu("&Help")
    _action(window, help_menu, "Open the demo", lambda: window.attempt("Cannot open the demo", window.open_demo))
    _action(window, help_menu, "About HybridLab", lambda: QMessageBox.about(
        window, "About HybridLab", f"<b>HybridLab {version_text()}</b><p>Motion analysis of athletes on flexible "
        "sport prostheses: a soft-rigid hybrid-link engine (PCS Cosserat rods in a rigid skeleton) with inverse "
        "kinematics, QP inverse dynamics, ground-reaction and muscle-force estimation.</p>"))


# ---------------------------------------------------------------- keeping checkable actions in step
def sync_layer(window, name: str, visible: bool) -> None:
    action = window.actions_by.get(f"layer {name}")
    if action is not None:
        action.setChecked(visible)


def sync_blade(window, colouring: str) -> None:
    action = window.actions_by.get(f"blade {colouring}")
    if action is not None:
        action.setChecked(True)


def sync_follow(window) -> None:
    window.actions_by["follow"].setChecked(window.scene.rig.following)


def sync_socket_liner(window, liner: dict) -> None:
    """The Socket liner menu's items naming ``liner`` (``SocketPressure.liner``)."""
    friction = liner["friction"]
    window.actions_by["socket bonded"].setChecked(friction is None)
    slipping = window.actions_by["socket slipping"]
    slipping.setChecked(friction is not None)
    slipping.setText(SLIPPING if friction is None else f"Slipping on the skin (mu {friction:g})...")
    tissue, fit = liner.get("tissue", 0.0), liner.get("fit", 0.0)
    words = [f"{tissue * 1e3:g} mm at {liner.get('tissue_modulus', 0.0) * 1e-3:g} kPa"] if tissue > 0 else []
    words += [f"fit {fit * 1e-3:g} kPa"] if fit > 0 else []
    window.actions_by["socket tissue"].setText(f"{TISSUE[:-3]} ({', '.join(words)})..." if words else TISSUE)


def fill_recent(window) -> None:
    menu = window.recent_menu
    menu.clear()
    for path in window.recent_files():
        menu.addAction(Path(path).name, lambda p=path: window.open_paths([p])).setToolTip(path)
    menu.setEnabled(bool(window.recent_files()))


# ---------------------------------------------------------------- dialogs
def new_patient_dialog(window) -> None:
    from .new_patient import NewPatientWizard
    if window.runner.running:
        _tell(window, "The analysis is running: cancel it (Esc) or wait for it to end, then start a new patient.")
        return
    window.new_patient = NewPatientWizard(window)
    window.new_patient.show()


def preferences_dialog(window) -> None:
    """The C3D read timeout (s; 0 for the reader's default, 60 s plus 2 s per MB), kept in the user's settings."""
    value, ok = QInputDialog.getDouble(window, "Preferences", "C3D read timeout, s (0: 60 s + 2 s per MB):",
                                       float(window.c3d_timeout() or 0.0), 0.0, 86400.0, 0)
    if ok:
        window.store.setValue("c3d_timeout", value)


def socket_liner_dialog(window) -> None:
    """The liner slipping on the skin: its Coulomb coefficient asked (silicone on skin by default); cancelled, the
    liner stays as it was."""
    from skin.socket_defaults import LINER_FRICTION
    current = window.socket_pressure.liner["friction"]
    value, ok = QInputDialog.getDouble(window, "Socket liner", "Coulomb friction of the liner on the skin (silicone "
                                       f"on skin: {LINER_FRICTION:g}, Zhang and Mak 1999):",
                                       LINER_FRICTION if current is None else current, *_limits("friction", 2), 2)
    _set_liner(window, friction=value if ok else current)


def socket_tissue_dialog(window) -> None:
    """The soft tissue under the liner (its thickness, and its modulus when it has one) and the socket's fit pressure,
    asked in turn (``hybrid socket-pressure --tissue MM --tissue-modulus KPA --fit KPA``); cancelled at any, the liner
    stays as it was."""
    from skin.socket_defaults import TISSUE_MODULUS
    liner = window.socket_pressure.liner
    tissue, ok = QInputDialog.getDouble(window, "Socket liner", "Soft tissue under the liner, mm (0: the limb rigid "
                                        "under the liner; a few mm over the tibia, centimetres behind):",
                                        liner.get("tissue", 0.0) * 1e3, *_limits("tissue", 1), 1)
    if not ok:
        return
    modulus = liner.get("tissue_modulus", TISSUE_MODULUS) * 1e-3
    if tissue > 0:
        modulus, ok = QInputDialog.getDouble(window, "Socket liner", f"The soft tissue's Young's modulus, kPa "
                                             f"({TISSUE_MODULUS * 1e-3:g} assumed; see docs/socket-pressure.md for the "
                                             "sources):", modulus, *_limits("tissue_modulus", 1), 1)
        if not ok:
            return
    fit, ok = QInputDialog.getDouble(window, "Socket liner", "Pre-compression: the socket's nominal fit pressure at "
                                     "zero load, kPa (0: moulded on the unloaded stump; not measured, tens of kPa "
                                     "assumed):", liner.get("fit", 0.0) * 1e-3, *_limits("fit", 1), 1)
    if ok:
        _set_liner(window, tissue=tissue * 1e-3, tissue_modulus=modulus * 1e3, fit=fit * 1e3)


def _limits(name: str, decimals: int) -> tuple[float, float]:
    """The dialog's range of the liner's option ``name`` in its command-line unit (``skin.liner_options.OPTIONS``): from
    0 (the smallest step of ``decimals`` when it must be positive) to its largest value."""
    from skin.liner_options import OPTIONS
    _, unit, positive, _, largest = OPTIONS[name]
    return (10.0 ** -decimals if positive else 0.0), largest / unit


def _set_liner(window, **changes) -> None:
    window.socket_pressure.set_liner({**window.socket_pressure.liner, **changes})


def _open(window, title: str, kinds: str) -> None:
    path, _ = QFileDialog.getOpenFileName(window, title, "", kinds)
    if path:
        window.open_paths([path])


def ask_trial(parent) -> tuple | None:
    """``(path, grf, external_loads)`` of a trial the user chooses: a C3D, or a TRC with (optionally) its OpenSim
    ExternalLoads .xml and GRF .mot; None if cancelled."""
    path, _ = QFileDialog.getOpenFileName(parent, "Open a trial", "", TRIALS)
    if not path:
        return None
    grf = loads = None
    if path.lower().endswith(".trc"):
        loads, _ = QFileDialog.getOpenFileName(parent, "Ground reactions: ExternalLoads .xml (Cancel for none)",
                                               str(Path(path).parent), "ExternalLoads (*.xml)")
        if loads:
            grf, _ = QFileDialog.getOpenFileName(parent, "GRF .mot (Cancel: the file the .xml names)",
                                                 str(Path(path).parent), "GRF (*.mot)")
    return path, grf or None, loads or None


def open_setups_dialog(window) -> None:
    paths, _ = QFileDialog.getOpenFileNames(window, "Open OpenSim setups (IK, ID, SO, ExternalLoads, Scale)", "",
                                            "OpenSim setups (*.xml)")
    if paths:
        window.attempt("Cannot open the OpenSim setups", opensim_setups.open_setups, window, paths)


def save_setups_dialog(window) -> None:
    if window.document.result is None:
        _tell(window, "No analysis to save as setups: run the analysis first.")
        return
    folder = QFileDialog.getExistingDirectory(window, "Folder for the OpenSim setups")
    if folder:
        window.attempt("Cannot write the OpenSim setups", opensim_setups.save_setups, window, folder)


def open_trial_dialog(window) -> None:
    chosen = ask_trial(window)
    if chosen:
        window.attempt("Cannot open the trial", window.open_trial_file, *chosen)


def _add_contacts(window) -> None:
    if window.document.model is None:
        window.statusBar().showMessage("Open a model first.", 8000)
        return
    path, _ = QFileDialog.getOpenFileName(window, "Contact candidates", "", "Contacts (*.yaml *.yml)")
    if path:
        window.attempt("Cannot add the contact candidates", window.add_contacts_file, path)


def _add_geometry_path(window) -> None:
    folder = QFileDialog.getExistingDirectory(window, "Folder of mesh files (e.g. OpenSim's Geometry)")
    if folder:
        window.set_geometry_paths(window.geometry_paths() + [folder])


def _tell(window, text: str) -> None:
    """Say in the status bar why a command does nothing."""
    window.statusBar().showMessage(text, 8000)


def _ik_setup(window) -> None:
    if window.document.model is None:
        _tell(window, "Open a model first: the IK setup's marker weights are matched to its markers.")
        return
    path, _ = QFileDialog.getOpenFileName(window, "OpenSim IK setup", "", "IK setup (*.xml)")
    if path:
        window.attempt("Cannot read the IK setup", patient.load_ik_setup, window, path)


def save_session_dialog(window, path) -> None:
    if not path:
        path, _ = QFileDialog.getSaveFileName(window, "Save the session", "", SESSIONS)
    if path:
        path = path if path.endswith(".hls") else path + ".hls"
        window.attempt("Cannot save the session", window.save_session, path)


def save_model_dialog(window) -> None:
    from engine.io.model_file import save_model
    if window.document.model is None:
        _tell(window, "No model to save: open a model first.")
        return
    path, _ = QFileDialog.getSaveFileName(window, "Save the model", "", "HybridLab model (*.yaml)")
    if path:
        window.attempt("Cannot save the model", save_model, window.document.model, path)


def export_csv_dialog(window, shown: bool) -> None:
    result = window.document.result
    if result is None:
        window.statusBar().showMessage("Nothing to export: run the analysis first.", 8000)
        return
    path, _ = QFileDialog.getSaveFileName(window, "Export CSV", "", "CSV table (*.csv)")
    if path:
        series = (window.curves.shown_series() if shown
                  else result_series(result, window.document.settings.forward))
        window.attempt("Cannot write the CSV table", exports.export_csv, path, series)


def export_opensim_dialog(window) -> None:
    if window.document.result is None:
        _tell(window, "Nothing to export: run the analysis first.")
        return
    folder = QFileDialog.getExistingDirectory(window, "Folder for the OpenSim files")
    if folder:
        window.attempt("Cannot write the OpenSim files", exports.export_opensim, folder, window.document.result)


def export_figure_dialog(window) -> None:
    panel = window.curves.current_panel()
    if panel is None:
        _tell(window, "No plot to export: run the analysis first (the plots show its results).")
        return
    path, _ = QFileDialog.getSaveFileName(window, "Export the plot", f"{panel.group}.png", FIGURES)
    if path:
        window.attempt("Cannot write the figure", exports.export_figure, path, panel, *names(window.document.result.trial))


def report_dialog(window) -> None:
    if window.document.result is None:
        _tell(window, "No report to write: run the analysis first (the report shows its results).")
        return
    path, chosen = QFileDialog.getSaveFileName(window, "Write the clinical report", "report.pdf", REPORTS)
    if path:
        if Path(path).suffix.lower() not in (".pdf", ".html", ".htm"):
            path += ".html" if "HTML" in chosen else ".pdf"
        window.attempt("Cannot write the report", start_report, window, path)


def _save_image(window, what: str, grab) -> None:
    path, _ = QFileDialog.getSaveFileName(window, f"Save a {what} screenshot", "", "PNG image (*.png)")
    if path:
        write = (lambda: save_window(window, path)) if grab is None else (lambda: exports.save_png(path, grab()))
        window.attempt("Cannot save the screenshot", write)


def export_video_dialog(window) -> None:
    doc = window.document
    if doc.n_frames < 2:
        _tell(window, "No playback to export: open a trial (a video needs at least two frames)." if doc.n_frames
              else "No playback to export: open a model and a trial first.")
        return
    path, _ = QFileDialog.getSaveFileName(window, "Export a video", "playback.mp4", "MP4 video (*.mp4)")
    if not path:
        return
    real = real_time_rate(doc.time)
    fps, ok = QInputDialog.getDouble(window, "Video frame rate", f"Frames per second (real time: {real:.6g}; "
                                     "fewer play it slower, more faster):", real, 1.0, 1000.0, 3)
    if ok:
        window.attempt("Cannot export the video", start_video, window, path, fps)


def real_time_rate(time) -> float:
    """Frames per second that play frames at ``time`` (s) in real time."""
    return (len(time) - 1) / max(float(time[-1] - time[0]), 1e-9)


def start_video(window, path, fps: float | None = None) -> exports.VideoExport:
    """Export the playback of every frame at its real rate (or ``fps``) with a progress dialog that can cancel
    it (kept as ``window.video_dialog``, window-modal so that nothing changes while it runs); returns the
    running export."""
    doc = window.document

    def grab(frame):
        doc.set_frame(frame)
        return window.view.image()

    rate = fps or real_time_rate(doc.time)
    video = exports.VideoExport(path, range(doc.n_frames), grab, rate, window)
    video.start()
    note = f" ({video.note})" if video.note else ""
    dialog = export_dialog(window, "Video export", f"Writing the video {Path(path).name}{note}", doc.n_frames,
                           video.cancel)
    dialog.show()

    def ended(text: str | None) -> None:
        dialog.canceled.disconnect(video.cancel)
        dialog.reset()
        dialog.hide()
        if text:
            window.statusBar().showMessage(text, 15000)

    video.progress.connect(lambda done, total: (dialog.setValue(done), window.statusBar().showMessage(
        f"Video: frame {done} of {total}{note}")))
    video.finished.connect(lambda where: ended(f"Video written to {where}{note}"))
    video.cancelled.connect(lambda done: ended(
        "Video export cancelled: no video written." if not video.note
        else f"Video export cancelled: {done} PNG frame{'s' if done != 1 else ''} written to {video.path.stem}_frames "
             "stay there."))
    video.failed.connect(lambda exc, details: (ended(None), window.report(exc, "The video export failed", details)))
    window.video_export, window.video_dialog = video, dialog
    return video
