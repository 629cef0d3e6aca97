"""The Simulation panel's 3D scene: a renderer of its own holding the skin of a ``skin`` run (coloured by contact
pressure, kPa, with its colour bar) and the devices, moved to a recorded frame. The numbers drawn come from
``skin.playback.Playback``; this module only copies them into VTK objects (on the GUI thread)."""
from __future__ import annotations

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper, vtkRenderer

from . import style
from .legend import colour_bar
from .overlay import Overlay
from .vtk_util import cells, points, scalars

PRESSURE = "contact pressure (kPa)"


def surface(renderer, vertices, triangles, colour=None):
    """A triangle surface actor in ``renderer``; returns its polydata and actor."""
    poly = vtkPolyData()
    poly.SetPoints(points(vertices))
    poly.SetPolys(cells(np.asarray(triangles).ravel(), np.full(len(triangles), 3)))
    mapper = vtkPolyDataMapper()
    mapper.SetInputData(poly)
    actor = vtkActor()
    actor.SetMapper(mapper)
    if colour is not None:
        mapper.ScalarVisibilityOff()
        actor.GetProperty().SetColor(*colour)
    renderer.AddActor(actor)
    return poly, actor


class SimulationScene:
    """The renderer and the run shown (:meth:`set_playback`), moved by :meth:`show_frame`. ``pick`` and
    ``model_marker_at`` answer None (nothing to pick): the 3D view widgets ask them."""

    def __init__(self):
        self.renderer = vtkRenderer()
        self.renderer.SetBackground(*style.BACKGROUND)
        for light in style.lights():
            self.renderer.AddLight(light)
        self.overlay = Overlay(self.renderer)      # the colour bar, drawn from its picture
        self.playback = None
        self.frame = 0
        self.skin = None          # (polydata, actor)
        self.devices = []         # [(name, polydata, actor)]
        self.bar = None

    def set_playback(self, playback) -> None:
        """Show ``playback`` (a ``skin.playback.Playback``) at its first frame, the camera over the whole scene."""
        self.renderer.RemoveAllViewProps()
        self.overlay.clear()
        self.playback = playback
        high = playback.pressure_scale_kpa()          # the top 1 % of the loaded samples drawn above the range
        lut = style.pressure_colours(high)
        poly, actor = surface(self.renderer, playback.skin_vertices(0), playback.triangles)
        poly.GetPointData().SetScalars(scalars(playback.pressure_kpa(0), PRESSURE))
        mapper = actor.GetMapper()
        mapper.SetLookupTable(lut)
        mapper.SetScalarRange(0.0, max(high, 1e-12))
        mapper.SetScalarModeToUsePointData()
        mapper.ScalarVisibilityOn()
        self.skin = (poly, actor)
        self.devices = []
        for name, vertices, triangles in playback.device_surfaces(0):
            device_poly, device_actor = surface(self.renderer, vertices, triangles, style.DEVICE)
            device_actor.GetProperty().SetOpacity(style.DEVICE_OPACITY)       # the skin's loaded side shows through
            self.devices.append((name, device_poly, device_actor))
        self.bar = colour_bar(self.overlay.renderer, lut, PRESSURE, 0.3)
        self.bar.DrawAboveRangeSwatchOn()
        self.bar.SetAboveRangeAnnotation(f"up to {playback.peak_pressure_kpa():.3g}")
        self.frame = 0
        self.renderer.ResetCamera()
        camera = self.renderer.GetActiveCamera()
        camera.Elevation(-40.0)         # from below: the body lies on its devices
        camera.Azimuth(30.0)
        camera.OrthogonalizeViewUp()
        self.renderer.ResetCameraClippingRange()

    def show_frame(self, frame: int) -> None:
        """Move the skin, its pressure colours and the devices to recorded ``frame``."""
        if self.playback is None:
            return
        self.frame = int(frame)
        poly = self.skin[0]
        poly.GetPoints().SetData(numpy_to_vtk(np.ascontiguousarray(self.playback.skin_vertices(self.frame)), deep=True))
        poly.GetPointData().SetScalars(scalars(self.playback.pressure_kpa(self.frame), PRESSURE))
        poly.Modified()
        for (_, device_poly, _), (_, vertices, _) in zip(self.devices, self.playback.device_surfaces(self.frame)):
            device_poly.GetPoints().SetData(numpy_to_vtk(np.ascontiguousarray(vertices), deep=True))
            device_poly.Modified()
        self.renderer.ResetCameraClippingRange()

    def skin_points(self) -> np.ndarray:
        """The skin's points as drawn (n, 3)."""
        return vtk_to_numpy(self.skin[0].GetPoints().GetData()).copy()

    def skin_pressure(self) -> np.ndarray:
        """The skin's pressure scalars as drawn (n,) kPa."""
        return vtk_to_numpy(self.skin[0].GetPointData().GetScalars()).copy()

    def pick(self, x: float, y: float):
        return None

    def model_marker_at(self, x: float, y: float, within: float = 0.05):
        return None
