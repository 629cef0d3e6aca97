"""The lab: the floor with a grid, the force plates' outlines, and the model frame's axes at its origin, each
labelled with its name and, when it lies along one, the direction it points to (up, forward, right...)."""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonDataModel import vtkPolyData
import vtkmodules.vtkRenderingFreeType  # noqa: F401  (renders the axes' labels)
from vtkmodules.vtkRenderingAnnotation import vtkAxesActor
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from . import style
from .vtk_util import cells, points

GRID_STEP = 0.5     # m
LIFT = 0.001        # m, plates and grid drawn this far above the floor so they are not hidden by it


def _grid_lines(values, margin) -> np.ndarray:
    """Grid positions (multiples of GRID_STEP) covering ``values`` with ``margin`` on both sides."""
    lo = np.floor((min(values) - margin) / GRID_STEP)
    hi = np.ceil((max(values) + margin) / GRID_STEP)
    return np.arange(lo, hi + 1) * GRID_STEP


DIRECTIONS = (("vertical", "up", "down"), ("ap", "forward", "backward"), ("ml", "right", "left"))


def axis_labels(axes) -> tuple[str, str, str]:
    """Labels of the model frame's X, Y and Z axes: the name, and the direction of ``axes`` (vertical, ap,
    ml as from ``engine.analysis.metrics.axes_of``; ml = ap x up points to the right) it lies along, if any."""
    labels = []
    for i, name in enumerate("XYZ"):
        word = next((plus if c > 0 else minus for key, plus, minus in DIRECTIONS
                     for c in [float(np.asarray(axes[key], float)[i])] if abs(abs(c) - 1.0) < 1e-9), None)
        labels.append(f"{name} {word}" if word else name)
    return tuple(labels)


def _actor(renderer, polydata, colour) -> vtkActor:
    mapper = vtkPolyDataMapper()
    mapper.SetInputData(polydata)
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(*colour)
    actor.PickableOff()
    renderer.AddActor(actor)
    return actor


class FloorLayer:
    """A floor at ``height`` along the vertical of ``axes`` (``engine.analysis.metrics.axes_of``) covering the
    points ``low`` and ``high`` (m) with a margin; ``plates`` are corner arrays (4, 3)."""

    def __init__(self, renderer, axes, height, low, high, plates=(), margin=1.5):
        up, ap, ml = axes["vertical"], axes["ap"], axes["ml"]
        origin = height * up
        a_lines = _grid_lines([low @ ap, high @ ap], margin)
        m_lines = _grid_lines([low @ ml, high @ ml], margin)
        a0, a1, m0, m1 = a_lines[0], a_lines[-1], m_lines[0], m_lines[-1]

        def at(a, m, lift=0.0):
            return origin + a * ap + m * ml + lift * up

        floor = vtkPolyData()
        floor.SetPoints(points([at(a0, m0), at(a1, m0), at(a1, m1), at(a0, m1)]))
        floor.SetPolys(cells([0, 1, 2, 3], [4]))
        self.floor = _actor(renderer, floor, style.FLOOR)
        self.floor.GetProperty().SetLighting(False)      # flat: it is most of the picture, and light costs per pixel
        ends = [at(a, m0, LIFT) for a in a_lines] + [at(a, m1, LIFT) for a in a_lines]
        ends += [at(a0, m, LIFT) for m in m_lines] + [at(a1, m, LIFT) for m in m_lines]
        na, nm = len(a_lines), len(m_lines)
        pairs = [(i, na + i) for i in range(na)] + [(2 * na + j, 2 * na + nm + j) for j in range(nm)]
        grid = vtkPolyData()
        grid.SetPoints(points(ends))
        grid.SetLines(cells(np.ravel(pairs), [2] * len(pairs)))
        self.grid = _actor(renderer, grid, style.GRID)
        self.grid.GetProperty().SetLighting(False)
        self.plates = []
        for corners in plates:
            lifted = np.asarray(corners, float) + 2 * LIFT * up
            surface = vtkPolyData()
            surface.SetPoints(points(lifted))
            surface.SetPolys(cells([0, 1, 2, 3], [4]))
            outline = vtkPolyData()
            outline.SetPoints(points(lifted + LIFT * up))
            outline.SetLines(cells([0, 1, 2, 3, 0], [5]))
            edge = _actor(renderer, outline, style.PLATE_EDGE)
            edge.GetProperty().SetLineWidth(2.0)
            edge.GetProperty().SetLighting(False)
            plate = _actor(renderer, surface, style.PLATE)
            plate.GetProperty().SetLighting(False)
            self.plates += [plate, edge]
        self.axes = vtkAxesActor()        # the model frame's axes (not the trial's lab axes), labelled so
        self.axes.SetTotalLength(0.3, 0.3, 0.3)
        self.axes.SetShaftTypeToCylinder()
        self.axes.SetCylinderRadius(0.02)
        self.labels = axis_labels(axes)
        for label, set_text, caption in zip(self.labels, (self.axes.SetXAxisLabelText, self.axes.SetYAxisLabelText,
                                                          self.axes.SetZAxisLabelText),
                                            (self.axes.GetXAxisCaptionActor2D(), self.axes.GetYAxisCaptionActor2D(),
                                             self.axes.GetZAxisCaptionActor2D())):
            set_text(label)
            text = caption.GetCaptionTextProperty()
            text.SetFontSize(13)
            text.SetBold(False)
            text.SetItalic(False)
            text.SetShadow(False)
            text.SetColor(1.0, 1.0, 1.0)
            text.SetBackgroundColor(*style.BACKGROUND)      # readable over the floor and over the background
            text.SetBackgroundOpacity(0.8)
            caption.GetTextActor().SetTextScaleModeToNone()
        for part in (self.axes.GetXAxisShaftProperty, self.axes.GetYAxisShaftProperty, self.axes.GetZAxisShaftProperty,
                     self.axes.GetXAxisTipProperty, self.axes.GetYAxisTipProperty, self.axes.GetZAxisTipProperty):
            part().SetColor(*style.AXES)        # named by their labels: red, green and blue mean sides and sources
        self.axes.AxisLabelsOn()
        self.axes.PickableOff()
        renderer.AddActor(self.axes)
