"""Devices: seed 003's hip mechanism driven by the shown analysis's hip (``hip_mechanism.trial``): drawn at the
hip in the 3D view, its actuators' strokes and forces beside the hip's torque, and the workspace/dexterity map
with the trial's path on it. Numbers come from ``hip_mechanism``; this panel only presents them."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from engine.errors import HybridLabError
from hip_mechanism.display import world_points
from hip_mechanism.maps import SINGULAR, default_grid, performance_maps
from hip_mechanism.parameters import SEED
from hip_mechanism.trial import trial_demands

from .viewport.hip_mechanism import HipMechanismLayer

SIDES = {"right hip": "r", "left hip": "l"}


class DevicesPanel(QWidget):
    """Shows the mechanism for the document's result; ``render()`` is asked after the 3D view changes;
    ``failed(exception)`` when the result cannot drive the mechanism (no hip coordinates)."""

    failed = Signal(object)

    def __init__(self, document, scene, render, parent=None):
        super().__init__(parent)
        self.document, self.scene, self.render = document, scene, render
        self.params = SEED
        self.demands = None
        self.layer = None
        self.side = QComboBox()
        self.side.addItems(list(SIDES))
        self.show_3d = QCheckBox("Show at the hip")
        self.show_3d.setChecked(True)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(QLabel("Hip mechanism (seed 003), driven by the"))
        top.addWidget(self.side)
        top.addWidget(self.show_3d)
        top.addStretch(1)
        self.plots = pg.GraphicsLayoutWidget()
        self.strokes = self.plots.addPlot(row=0, col=0, title="strokes (mm)")
        self.forces = self.plots.addPlot(row=1, col=0, title="actuator forces (N)")
        self.torque = self.plots.addPlot(row=2, col=0, title="hip torque as load (N m)")
        self.map = self.plots.addPlot(row=0, col=1, rowspan=3, title="dexterity 1/kappa, workspace; trial path")
        for plot in (self.forces, self.torque):
            plot.setXLink(self.strokes)
        self.cursors = [pg.InfiniteLine(angle=90) for _ in range(3)]
        for plot, cursor in zip((self.strokes, self.forces, self.torque), self.cursors):
            plot.addItem(cursor)
            plot.addLegend(offset=(5, 5))
        self.image = pg.ImageItem()
        self.map.addItem(self.image)
        self.map.setLabel("bottom", "beta (deg)")
        self.map.setLabel("left", "alpha (deg)")
        self.path = pg.PlotDataItem(pen=pg.mkPen("w", width=2))
        self.marker = pg.ScatterPlotItem(size=10, brush=pg.mkBrush("y"))
        self.map.addItem(self.path)
        self.map.addItem(self.marker)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.plots, 1)
        self._map_drawn = False
        self.side.currentTextChanged.connect(lambda _: self.refresh())
        self.show_3d.toggled.connect(lambda _: self._update_layer())
        self._stale = True
        # after the window has rebuilt the scene for the new content (which clears the renderer)
        document.changed.connect(lambda: QTimer.singleShot(0, self._content_changed))
        document.frame_changed.connect(self.show_frame)

    def _content_changed(self) -> None:
        """Recompute now if the panel is shown, else when it is next shown (the demands take seconds)."""
        self._stale = True
        if self.layer is not None:
            self.layer.remove()     # the scene was rebuilt: the old drawing belongs to the old content
            self.layer = None
        if self.isVisible():
            self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _draw_map(self) -> None:
        self._map_drawn = True
        alphas, betas = default_grid(2.0)
        maps = performance_maps(self.params, alphas, betas)
        shown = np.where(maps.inside, maps.dexterity, 0.0)
        self.image.setImage(shown.T, levels=(0.0, float(shown.max())))
        self.image.setColorMap(pg.colormap.get("viridis"))
        b0, a0 = np.degrees(betas[0]), np.degrees(alphas[0])
        self.image.setRect(b0, a0, np.degrees(betas[-1]) - b0, np.degrees(alphas[-1]) - a0)

    def refresh(self) -> None:
        """Recompute the demands for the document's result (or clear when there is none)."""
        self._stale = False
        result = self.document.result
        self.demands = None
        for plot in (self.strokes, self.forces, self.torque):
            for item in list(plot.listDataItems()):
                plot.removeItem(item)
        self.path.setData([], [])
        if result is not None:
            try:
                self.demands = trial_demands(self.params, result, SIDES[self.side.currentText()])
            except HybridLabError as exc:
                self.summary.setText(f"The mechanism cannot be driven by this analysis: {exc.problem}")
                self.failed.emit(exc)
        if self.demands is None:
            if result is None:
                self.summary.setText("Run or open an analysis to drive the mechanism by its hip.")
            self._update_layer()
            return
        if not self._map_drawn:
            self._draw_map()
        d = self.demands
        t = d.time
        near_singular = (d.flags & SINGULAR) != 0          # forces there are unbounded: left as gaps
        for i, pen in enumerate(("c", "m")):
            self.strokes.plot(t, d.lengths[:, i] * 1e3, pen=pen, name=f"l{i + 2}")
            self.forces.plot(t, np.where(near_singular, np.nan, d.forces[:, i]), pen=pen, name=f"f{i + 2}",
                             connect="finite")
        self.torque.plot(t, d.load[:, 1], pen="y", name="flexion")
        self.torque.plot(t, d.load[:, 0], pen="g", name="adduction")
        self.path.setData(np.degrees(d.q[:, 1]), np.degrees(d.q[:, 0]))
        marked = int(np.count_nonzero(d.flags))
        self.summary.setText(f"{len(t)} frames; {marked} hit a limit; strokes {d.lengths.min() * 1e3:.0f} to "
                             f"{d.lengths.max() * 1e3:.0f} mm. " + " ".join(d.notes[2:]))
        self._update_layer()

    def _frame(self) -> int:
        if self.demands is None or not len(self.document.time):
            return 0
        t = self.document.time[min(self.document.frame, len(self.document.time) - 1)]
        return int(np.argmin(np.abs(self.demands.time - t)))

    def _update_layer(self) -> None:
        if self.layer is not None:
            self.layer.remove()
            self.layer = None
            self.render()
        d, result = self.demands, self.document.result
        if d is not None and self.show_3d.isChecked():
            base, platform = world_points(self.params, result.model, result.motion.q, d.q,
                                          SIDES[self.side.currentText()])
            self.layer = HipMechanismLayer(self.scene.renderer, base, platform, d.forces,
                                           self.params.actuator_force_limit)
        self.show_frame(self.document.frame)

    def show_frame(self, _frame: int) -> None:
        frame = self._frame()
        if self.demands is not None:
            t = self.demands.time[frame]
            for cursor in self.cursors:
                cursor.setValue(t)
            self.marker.setData([np.degrees(self.demands.q[frame, 1])], [np.degrees(self.demands.q[frame, 0])])
        if self.layer is not None:
            self.layer.show_frame(frame)
            self.render()
