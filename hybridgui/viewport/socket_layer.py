"""The socket's pressure on the residual limb in the main 3D view: the stump's skin coloured by the interface pressure
(kPa, a colour bar on the fixed scale ``skin.socket_map.SCALE``) and a readout of the frame's peak, mean and loaded
area. The numbers come from ``skin.socket_map.SocketMap``; this module only copies them into VTK objects: every display
frame's points and pressures are gathered once, and a frame shown writes them into the arrays VTK already holds."""
from __future__ import annotations

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkFiltersCore import vtkPolyDataNormals
from vtkmodules.vtkRenderingCore import vtkTextActor

from . import style
from .legend import colour_bar
from .simulation import surface
from .vtk_util import scalars, set_points, set_scalars

PRESSURE = "socket pressure (kPa)"


class SocketLayer:
    """``socket_map`` (a SocketMap) drawn at the display frames whose map frames are ``frames`` (one map frame per
    display frame); ``scale`` the colour scale's top, kPa. :meth:`attach` puts it into a renderer (again after the
    scene was built anew: its VTK objects are made at the first and kept), :meth:`show_frame` moves it."""

    def __init__(self, socket_map, frames, scale: float):
        frames = np.asarray(frames, int)
        self.map = socket_map
        self.frames = frames
        self.points = np.ascontiguousarray(socket_map.positions[frames], float)            # (T, k, 3) m
        self.kpa = np.ascontiguousarray(socket_map.pressure[frames], float) * 1e-3         # (T, k) kPa
        self.lut = style.pressure_colours(scale)
        self.renderer = self.annotations = None
        self.poly = self.actor = self.bar = None
        self.readout = vtkTextActor()
        self.readout.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
        self.readout.GetPositionCoordinate().SetValue(0.99, 0.97)      # the top right corner (the legend: top left)
        text = self.readout.GetTextProperty()
        text.SetJustificationToRight()
        text.SetVerticalJustificationToTop()
        text.SetFontSize(14)
        text.SetColor(1.0, 1.0, 1.0)
        text.SetBackgroundColor(*style.BACKGROUND)
        text.SetBackgroundOpacity(0.7)
        self.readout.PickableOff()
        self.frame = 0
        self.visible = True

    def attach(self, renderer, annotations) -> None:
        """Draw into ``renderer`` (its props were removed: the scene was built anew), the colour bar into
        ``annotations`` (the scene overlay's renderer: the bar does not change while the frames are scrubbed; the
        readout, which does, stays in ``renderer``). The surface and the bar are made at the first attach; later ones
        put the same objects back."""
        self.renderer, self.annotations = renderer, annotations
        if self.actor is None:
            self._build(renderer, annotations)
        else:
            renderer.AddViewProp(self.actor)
            annotations.AddViewProp(self.bar)
        renderer.AddViewProp(self.readout)
        self.set_visible(self.visible)

    def _build(self, renderer, annotations) -> None:
        self.poly, self.actor = surface(renderer, self.points[self.frame], self.map.triangles)
        self.poly.GetPointData().SetScalars(scalars(self.kpa[self.frame], PRESSURE))
        smooth = vtkPolyDataNormals()          # shaded smoothly: point normals, again whenever the points move
        smooth.SetInputData(self.poly)
        smooth.SplittingOff()
        mapper = self.actor.GetMapper()
        mapper.SetInputConnection(smooth.GetOutputPort())
        mapper.SetLookupTable(self.lut)
        mapper.UseLookupTableScalarRangeOn()          # the fixed scale, whatever the frame's pressures
        mapper.SetScalarModeToUsePointData()
        mapper.ScalarVisibilityOn()
        self.actor.PickableOff()
        self.bar = colour_bar(annotations, self.lut, f"{PRESSURE}, fixed 0-{self.lut.GetTableRange()[1]:g}", 0.55)
        self.bar.GetPositionCoordinate().SetValue(0.55, 0.22)       # above the blade's bar
        self.bar.DrawAboveRangeSwatchOn()
        self.bar.SetAboveRangeAnnotation("above")

    def detach(self) -> None:
        """Take the layer out of its renderer."""
        if self.renderer is not None:
            for prop in (self.actor, self.readout):
                self.renderer.RemoveViewProp(prop)
            self.annotations.RemoveViewProp(self.bar)
        self.renderer = self.annotations = None

    def show_frame(self, frame: int) -> None:
        """The stump's skin and its pressure at display ``frame``, copied into VTK's arrays in place."""
        self.frame = int(frame)
        if self.renderer is None or not self.visible:
            return
        set_points(self.poly, self.points[self.frame])
        set_scalars(self.poly.GetPointData(), self.kpa[self.frame], PRESSURE)
        m, f = self.map, self.frames[self.frame]
        self.readout.SetInput(f"socket at {m.time[f]:.3f} s\npeak {m.peak[f] * 1e-3:.1f} kPa\nmean "
                              f"{m.mean[f] * 1e-3:.1f} kPa\nloaded {m.area[f] * 1e4:.0f} cm^2")

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        for prop in (self.actor, self.bar, self.readout):
            if prop is not None:
                prop.SetVisibility(visible)

    def drawn(self) -> tuple[np.ndarray, np.ndarray]:
        """The stump's points (k, 3) m and pressure scalars (k,) kPa as drawn."""
        return (vtk_to_numpy(self.poly.GetPoints().GetData()).copy(),
                vtk_to_numpy(self.poly.GetPointData().GetScalars()).copy())
