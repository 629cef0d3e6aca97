"""One curve panel: the series of one group (``engine.analysis.series``) with a channel list, a plot with a
time cursor synced with the timeline (click or drag to seek), stance phases shaded, a table of the values at
the cursor, and optional normalisation to the gait cycle (mean and spread, ``engine.analysis.gait_phases``)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QGraphicsItem, QGraphicsTextItem, QHeaderView, QListWidget, QListWidgetItem,
                               QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from engine.analysis.gait_phases import gait_cycles, normalise_cycles
from engine.display.colours import SIDES, channel_side, series_colour, side_colour
from engine.errors import SettingsError
from engine.io.plot_figure import Curve, Plot

STYLES = {"measured": "solid", "": "solid", "estimated": "dashed", "emg": "dashdot", "scored": "dotted"}
"""Line style by where the values come from (``Series.kind``), in the plot and in exported figures."""
DASHES = {"solid": Qt.PenStyle.SolidLine, "dashed": Qt.PenStyle.DashLine, "dashdot": Qt.PenStyle.DashDotLine,
          "dotted": Qt.PenStyle.DotLine}
TITLES = {"grf": "ground reaction force", "angles": "joint angle", "torques": "joint moment",
          "blade strains": "blade bending", "blade forces": "blade load", "muscle forces": "muscle force",
          "activations": "activation", "ik errors": "marker error"}
ENGINE_TERMS = {"angles": "coordinates q", "torques": "generalized forces tau of the joints",
                "blade strains": "the rod's PCS strains (curvature 1/m, stretch and shear 1)",
                "blade forces": "generalized forces tau of the rod's strains", "ik errors": "IK marker residuals"}
"""The engine's words for each group, shown in the plot's tooltip beside the clinical title."""
STANCE_BRUSH = {side: QColor("#23" + colour[1:]) for side, colour in SIDES.items()}     # #AARRGGBB, alpha 35


class CurvePanel(QWidget):
    """The series of one group; ``seek(time)`` when the user clicks or drags in the plot, ``notice(text)`` when
    curves cannot be drawn as asked (the reason is also the plot's title, and ``problem``)."""

    seek = Signal(float)
    notice = Signal(str)

    def __init__(self, group: str, series: list, parent=None):
        super().__init__(parent)
        self.group = group
        self.series = list(series)
        self.channels = list(dict.fromkeys(s.channel for s in self.series))
        self.normalised: tuple | None = None       # (events, side) when normalised to the gait cycle
        self.problem = ""                           # why chosen curves are not drawn ("" when they all are)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        for channel in self.channels:
            item = QListWidgetItem(channel)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.itemChanged.connect(self._redraw)
        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        legend = self.plot.addLegend(offset=(-10, 10), labelTextSize="8pt", labelTextColor="#202020",
                                     brush=pg.mkBrush(255, 255, 255, 170), pen=pg.mkPen("#c0c0c0"))
        legend.setZValue(20)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).enableAutoSIPrefix(False)
        self.cursor = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#202020", width=1.5))
        self.cursor.sigDragged.connect(lambda line: self.seek.emit(float(line.value())))
        self.plot.addItem(self.cursor, ignoreBounds=True)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["series", "value", "unit"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._curves: dict = {}       # series label -> PlotDataItem (created once)
        self._bands: list = []
        self._stance_items: list = []
        self._stances: dict = {}
        self.normative: dict = {}     # channel -> (NormativeBand, lower, upper) drawn behind it on the gait cycle
        self._drawn: dict = {}        # series label -> (x, y, sd or None) as drawn
        self._frame = 0
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.plot)
        right.addWidget(self.table)
        right.setSizes([300, 110])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(right)
        split.setSizes([150, 450])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    # ---------------------------------------------------------------- selection
    def selected_channels(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]

    def select(self, channels) -> None:
        """Check exactly ``channels`` (names not in this panel are ignored)."""
        wanted = set(channels)
        self.list.blockSignals(True)
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.text() in wanted else Qt.CheckState.Unchecked)
        self.list.blockSignals(False)
        self._redraw()

    def selected_series(self) -> list:
        chosen = set(self.selected_channels())
        return [s for s in self.series if s.channel in chosen]

    def set_series(self, series: list) -> None:
        """New values for the same series (same labels, in the same order), e.g. from a new analysis."""
        self.series = list(series)
        self._redraw()

    # ---------------------------------------------------------------- drawing
    def set_normalised(self, normalised: tuple | None) -> None:
        """``(events, side)`` to plot mean and spread over the gait cycles of ``side``; None for time."""
        self.normalised = normalised
        self._redraw()

    def set_normative(self, normative: dict) -> None:
        """``{channel: (band, lower, upper)}`` (``engine.io.normative_file.coordinate_band``): able-bodied bands
        drawn in grey behind those channels' curves against the gait cycle."""
        changed = {c: v[0] for c, v in normative.items()} != {c: v[0] for c, v in self.normative.items()}
        self.normative = dict(normative)
        if changed:
            self._redraw()

    def set_stances(self, stances: dict) -> None:
        """Shade ``{side: [(start, end), ...]}`` s behind the curves (time plots only)."""
        for item in self._stance_items:
            self.plot.removeItem(item)
        self._stance_items = []
        self._stances = stances
        for side, intervals in stances.items():
            for a, b in intervals:
                region = pg.LinearRegionItem((a, b), movable=False, brush=STANCE_BRUSH.get(side, QColor(0, 0, 0, 20)),
                                             pen=pg.mkPen(None))
                region.setZValue(-10)
                self.plot.addItem(region, ignoreBounds=True)
                self._stance_items.append(region)
        self._show_stances()
        self._cache_drawings()

    def _show_stances(self) -> None:
        for item in self._stance_items:
            item.setVisible(self.normalised is None)

    def colours(self) -> dict:
        """``{channel: '#rrggbb'}`` of the channels chosen: left blue, right red (shades of them for a side's
        second and later channels, in the list's order), channels of no side neutral (``engine.display.colours``);
        where the values come from is the line's style (:data:`STYLES`)."""
        ranks: dict = {}
        out = {}
        for channel in self.selected_channels():
            side = channel_side(channel)
            out[channel] = series_colour(side, ranks.get(side, 0))
            ranks[side] = ranks.get(side, 0) + 1
        return out

    def _redraw(self, *_):
        colours = self.colours()
        chosen = set(colours)
        for band in self._bands:
            self.plot.removeItem(band)
        self._bands = []
        legend = self.plot.plotItem.legend
        legend.clear()
        failed: dict[str, list[str]] = {}        # reason -> series not drawn for it
        normative_drawn: set = set()
        self._drawn = {}
        for s in self.series:
            curve = self._curves.get(s.label)
            if s.channel not in chosen:
                if curve is not None:
                    curve.setVisible(False)
                continue
            if curve is None:
                curve = self.plot.plot()
                self._curves[s.label] = curve
            curve.setPen(pg.mkPen(colours[s.channel], width=2, style=DASHES[STYLES.get(s.kind, "solid")]))
            x, y, sd = s.time, s.values, None
            if self.normalised is not None:
                events, side = self.normalised
                try:
                    cycles = normalise_cycles(s.time, s.values, gait_cycles(events, side))
                except SettingsError as exc:
                    curve.setVisible(False)
                    failed.setdefault(exc.problem, []).append(s.label)
                    continue
                x, y, sd = cycles.percent, cycles.mean, cycles.sd
                self._add_band(cycles, curve.opts["pen"].color())
                if s.channel in self.normative and s.channel not in normative_drawn:
                    normative_drawn.add(s.channel)
                    self._add_normative(*self.normative[s.channel])
            curve.setData(x, y, connect="finite")
            self._drawn[s.label] = (x, y, sd)
            curve.setVisible(True)
            legend.addItem(curve, s.label)
        units = sorted({s.unit for s in self.series if s.channel in chosen})
        unit = f" ({units[0]})" if len(units) == 1 else ""
        self.plot.setLabel("left", TITLES.get(self.group, self.group) + unit)
        self.plot.setToolTip(f"engine: {ENGINE_TERMS[self.group]}" if self.group in ENGINE_TERMS else "")
        self.plot.setLabel("bottom", "gait cycle (%)" if self.normalised else "time (s)")
        self.cursor.setVisible(self.normalised is None)
        self._show_stances()
        self.plot.getViewBox().autoRange()       # fitted once per drawing, not re-fitted as the cursor moves
        self.plot.disableAutoRange()
        self._cache_drawings()
        self._fill_table()
        self._say(failed)

    def _cache_drawings(self) -> None:
        """Everything the plot draws but the cursor and text (curves, bands, stance shading, axes with their grid,
        legend) is kept as drawn in a pixmap by Qt, drawn again only when it changes or the view is scaled: moving the
        cursor repaints the strips it left and entered from those pixmaps instead of drawing the curves and grid again
        there. Text is drawn each time: a pixmap starts at a whole pixel, and text placed between two would move."""
        plot = self.plot.plotItem
        items = [i for i in plot.getViewBox().addedItems if i is not self.cursor]
        items += [plot.getAxis(side) for side in ("left", "bottom")] + [plot.legend]
        while items:
            item = items.pop()
            if not isinstance(item, QGraphicsTextItem):
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            items += item.childItems()

    def _say(self, failed: dict) -> None:
        """Say why chosen curves are not drawn against the gait cycle (title of the plot and ``notice``)."""
        problem = ""
        if failed:
            events, side = self.normalised
            strikes = sum(1 for e in events if e.label == "Foot Strike" and e.context == side)
            labels = [label for missing in failed.values() for label in missing]
            which = "No curve is" if len(labels) == len(self.selected_series()) else ", ".join(labels) + " not"
            problem = (f"{which} drawn against the {side} gait cycle: {'; '.join(failed)} ({strikes} {side} Foot "
                       f"Strike event{'s' if strikes != 1 else ''}; a cycle runs from one to the next)")
        changed = problem != self.problem
        self.problem = problem
        self.plot.setTitle(problem or None, color="#a02020", size="9pt")
        if problem and changed:
            self.notice.emit(f"{TITLES.get(self.group, self.group).capitalize()}: {problem}")

    def _add_band(self, cycles, colour) -> None:
        upper = pg.PlotDataItem(cycles.percent, cycles.mean + cycles.sd, pen=pg.mkPen(None))
        lower = pg.PlotDataItem(cycles.percent, cycles.mean - cycles.sd, pen=pg.mkPen(None))
        fill = QColor(colour)
        fill.setAlpha(50)
        band = pg.FillBetweenItem(upper, lower, brush=fill)
        for item in (upper, lower, band):
            self.plot.addItem(item)
            self._bands.append(item)

    def _add_normative(self, band, lower, upper) -> None:
        """A normative band (mean +/- SD, grey) behind the curves, named in the legend with its source."""
        edges = [pg.PlotDataItem(band.percent, bound, pen=pg.mkPen(None)) for bound in (upper, lower)]
        fill = pg.FillBetweenItem(*edges, brush=QColor(154, 154, 154, 90))
        fill.setZValue(-5)
        for item in (*edges, fill):
            self.plot.addItem(item)
            self._bands.append(item)
        self.plot.plotItem.legend.addItem(fill, f"{band.population} ({band.short_citation})")

    def figure_plot(self, subject: str, trial: str) -> Plot:
        """What the plot shows, for ``engine.io.plot_figure``: the curves drawn (their values, colours, dashes and
        bands), the stances behind a time plot, the axis labels, and a title naming ``subject`` and ``trial``."""
        curves = tuple(Curve(s.label, *self._drawn[s.label][:2], self._curves[s.label].opts["pen"].color().name(),
                             STYLES.get(s.kind, "solid"), self._drawn[s.label][2])
                       for s in self.selected_series() if s.label in self._drawn)
        spans = () if self.normalised else tuple((a, b, side_colour(side)) for side, intervals in self._stances.items()
                                                 for a, b in intervals)
        title = f"{TITLES.get(self.group, self.group).capitalize()}: {subject}, {trial}"
        if self.normalised:
            title += f" ({self.normalised[1]} gait cycle, mean +/- SD)"
        return Plot(title, self.plot.getAxis("bottom").labelText, self.plot.getAxis("left").labelText, curves, spans)

    # ---------------------------------------------------------------- time
    def set_frame(self, frame: int, time: float) -> None:
        """Move the cursor to ``time`` and show the values of ``frame``."""
        self._frame = frame
        self.cursor.setValue(time)
        self._fill_table()

    def cursor_time(self) -> float:
        return float(self.cursor.value())

    def _fill_table(self) -> None:
        rows = self.selected_series()
        self.table.setRowCount(len(rows))
        for r, s in enumerate(rows):
            value = s.values[self._frame] if self._frame < len(s.values) else np.nan
            shown = f"{value:.6g}" if not abs(value) < 1e-9 else "0"      # rounding noise shown as 0
            for c, text in enumerate((s.label, shown, s.unit)):
                item = self.table.item(r, c)
                if item is None:
                    self.table.setItem(r, c, QTableWidgetItem(text))
                else:
                    item.setText(text)

    def table_values(self) -> dict:
        """``{series label: value shown}`` of the values table (for checks and copy)."""
        return {self.table.item(r, 0).text(): float(self.table.item(r, 1).text())
                for r in range(self.table.rowCount())}

    def _clicked(self, event) -> None:
        if self.normalised is not None or event.button() != Qt.MouseButton.LeftButton:
            return
        view = self.plot.plotItem.vb
        if view.sceneBoundingRect().contains(event.scenePos()):
            self.seek.emit(float(view.mapSceneToView(event.scenePos()).x()))
