"""View > Socket pressure: the socket's interface pressure on the residual limb's skin in the main 3D view, following
the timeline (``viewport.socket_layer``). The map of the shown analysis is computed by ``skin.socket_map`` in a worker
thread behind a progress dialog that can cancel it, once per analysis result and liner; without a residual limb in a
socket (or without force plates or settings) the action is disabled and its tooltip says why. View > Socket liner
chooses the liner bonded to the skin or slipping on it (``hybrid socket-pressure --friction``) and the soft tissue under
it and the socket's pre-compression (``--tissue``, ``--tissue-modulus``, ``--fit``): the liner's keyword arguments
(``skin.liner_options``), which the report uses too (its section ``socket-pressure``'s options), saved with the
session."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject

from skin.liner_options import SECTION, checked
from skin.socket_site import unavailable

from .progress_dialog import export_dialog
from .viewport.scene import nearest_frames
from .viewport.socket_layer import SocketLayer
from .worker import StepsRunner

LAYER = "socket"
ABOUT = "the socket's pressure on the residual limb's skin at each frame (computed once per analysis and liner)"


def status_text(socket_map) -> str:
    """The status bar's line on a computed ``skin.socket_map.SocketMap``: its liner, its peak and when, and the frames
    flagged (not carried to tolerance, or outside the model's small displacements) named as the CLI and the report
    name them."""
    from skin.socket_map import flag_notes, liner_words
    m = socket_map
    notes = "".join(f" {note[0].upper()}{note[1:]}." for note in flag_notes(m))
    return (f"Socket pressure ({liner_words(m)}): peak {m.peak.max() * 1e-3:.1f} kPa over the trial, at "
            f"{m.time[m.peak.argmax()]:.3f} s.{notes}")


def saved_liner(report: dict) -> dict:
    """The liner's keyword arguments in a session's report options ``report`` (``Session.report``, which
    ``load_session`` checked: ``engine.io.report_sections.checked_options``; none: the bonded liner on a rigid limb),
    ``{"friction": None}`` at least."""
    return {"friction": None, **report.get(SECTION, {})}


class SocketPressure(QObject):
    """The toggle's state for ``window`` (a MainWindow whose View menu holds the checkable ``action``): the map of the
    shown result when computed (``map``, for ``result``), the ``layer`` drawing it, the ``runner`` computing it."""

    def __init__(self, window, action):
        super().__init__(window)
        self.window, self.action = window, action
        self.runner = StepsRunner(self)
        self.dialog = None
        self.result = self.map = self.layer = None
        self.liner = {"friction": None}     # the liner's keyword arguments (skin.liner_options); friction None: bonded
        self._computing = None              # (result, liner) whose map the runner computes
        self.runner.progress.connect(self._on_progress)
        self.runner.returned.connect(self._on_returned)
        self.runner.cancelled.connect(lambda: self._ended("Socket pressure cancelled."))
        self.runner.failed.connect(self._on_failed)
        self.refresh()

    def reason(self) -> str | None:
        """Why the shown content has no socket pressure map, in words (None: it can have one)."""
        doc = self.window.document
        if doc.result is None:
            return "no analysed trial: run the analysis first"
        why = unavailable(doc.result, doc.settings)
        return None if why is None else f"no socket pressure: {why}"

    def refresh(self) -> None:
        """Follow the document: the action enabled or not (its tooltip saying why), a map of another result dropped,
        the layer drawn again into the scene built anew."""
        doc = self.window.document
        why = self.reason()
        self.action.setEnabled(why is None)
        self.action.setToolTip(why or ABOUT)
        self.action.setStatusTip(why or ABOUT)
        if doc.result is not self.result:
            if self.runner.running:
                self.runner.cancel()
            self.result = self.map = None
            self._drop_layer()
            self.action.setChecked(False)
        elif self.layer is not None and self.action.isChecked():
            self._show_layer()

    def set_liner(self, liner: dict) -> None:
        """The liner of the keyword arguments ``liner`` (``skin.liner_options``: ``friction`` None, bonded to the skin,
        or Coulomb's coefficient slipping on it; the soft tissue's ``tissue`` and ``tissue_modulus``, the ``fit``
        pressure; SI), checked: a map of another liner is dropped, and computed again for this one when the map is
        shown (a computation of another one going on is cancelled)."""
        liner = {"friction": None, **checked(liner, "socket liner")}
        self.window.sync_socket_liner(liner)
        if liner == self.liner:
            return
        self.liner = liner
        self.map = None
        self._drop_layer()
        if self.runner.running:
            self.runner.cancel()
        elif self.action.isChecked():
            self._start()

    def report_options(self) -> dict:
        """The report's options for its socket section (``engine.io.report_sections``): this liner's."""
        return {SECTION: dict(self.liner)}

    def toggle(self, checked: bool) -> None:
        """Show the map (computing it first when the shown result has none yet) or hide it (its layer kept for showing
        it again)."""
        if not checked:
            self._hide_layer()
            self.window.view.request_render()
            return
        if self.map is not None:
            self._show_layer()
        elif not self.runner.running:
            self._start()

    def _start(self) -> None:
        from skin import socket_map       # the map's numerics (scipy, the skin's kernels, VTK's contour), not the window's
        doc = self.window.document
        shown = doc.Q if doc.Q is not None and doc.Q.shape == doc.result.motion.q.shape else None
        steps = socket_map.socket_map_steps(doc.result, doc.settings, shown=shown, spacing=socket_map.SPACING,
                                            **self.liner)
        self._computing = (doc.result, self.liner)
        self.dialog = export_dialog(self.window, "Socket pressure", "Computing the socket pressure", 1000,
                                    self.runner.cancel)
        self.dialog.show()
        self.runner.start_steps(steps)

    def _on_progress(self, progress) -> None:
        # the label before the value: a modal progress dialog's setValue processes events, which may deliver the run's
        # end (``_ended`` drops the dialog) before it returns
        self.dialog.setLabelText(f"Socket pressure: {progress.message or progress.stage}")
        self.dialog.setValue(int(1000 * progress.fraction))

    def _ended(self, text: str | None) -> None:
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.runner.cancel)
            self.dialog.reset()
            self.dialog.hide()
            self.dialog = None
        if self.map is None:
            self.action.setChecked(False)
        if text:
            self.window.statusBar().showMessage(text, 10000)

    def _on_failed(self, exc, details: str) -> None:
        self._ended(None)
        self.window.report(exc, "Cannot compute the socket pressure", details)

    def _on_returned(self, socket_map) -> None:
        result, liner = self._computing
        if result is self.window.document.result and liner == self.liner and self.action.isChecked():
            self.result, self.map = result, socket_map
            self._show_layer()
        self._ended(None if self.map is None else status_text(socket_map))

    def _show_layer(self) -> None:
        """The map drawn in the scene at its frame: its layer built once per map and display times, put back into the
        scene when the scene was built anew (its VTK objects kept), and moved to the frame."""
        from skin.socket_map import SCALE
        scene = self.window.scene
        frames = nearest_frames(self.map.time, scene.content.time)
        if self.layer is None or self.layer.map is not self.map or not np.array_equal(self.layer.frames, frames):
            self._drop_layer()
            self.layer = SocketLayer(self.map, frames, SCALE * 1e-3)
        if scene.layers.get(LAYER) is not self.layer:
            self.layer.attach(scene.renderer, scene.overlay.renderer)
            scene.layers[LAYER] = self.layer
        self.layer.show_frame(scene.frame)
        self.window.view.request_render()

    def _hide_layer(self) -> None:
        """The layer out of the scene, kept: shown again, the same map at the same display times puts it back."""
        if self.layer is not None:
            self.layer.detach()
            if self.window.scene.layers.get(LAYER) is self.layer:
                del self.window.scene.layers[LAYER]

    def _drop_layer(self) -> None:
        self._hide_layer()
        self.layer = None
