"""Markers: the trial's (experimental) markers, the model's markers (engine positions), residual lines from
each model marker to the experimental marker IK fitted it to, and the experimental markers whose sample the
robust loss of IK down-weighted, highlighted."""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkGlyph3DMapper, vtkPolyDataMapper

from . import style
from .vtk_util import cells, set_points


class _Dots:
    """Spheres at a set of points (NaN points are left out)."""

    def __init__(self, renderer, colour, radius):
        self.polydata = vtkPolyData()
        sphere = vtkSphereSource()
        sphere.SetRadius(radius)
        sphere.SetThetaResolution(10)       # a marker spans a few pixels: coarser spheres look the same and
        sphere.SetPhiResolution(6)          # halve its share of a software-rendered frame
        mapper = vtkGlyph3DMapper()
        mapper.SetInputData(self.polydata)
        mapper.SetSourceConnection(sphere.GetOutputPort())
        mapper.ScalingOff()
        self.actor = vtkActor()
        self.actor.SetMapper(mapper)
        self.actor.GetProperty().SetColor(*colour)
        self.actor.GetProperty().SetSpecular(0.4)
        self.actor.GetProperty().BackfaceCullingOn()      # closed spheres: their back halves are never seen
        renderer.AddActor(self.actor)
        self.shown = np.zeros(0, int)

    def update(self, xyz) -> None:
        self.shown = np.flatnonzero(np.isfinite(xyz).all(axis=1))
        set_points(self.polydata, xyz[self.shown])
        self.polydata.Modified()


class MarkerLayer:
    """``experimental`` (T, K, 3) at the display frames (NaN where missing) named ``experimental_names``;
    ``pairs`` are (model marker index, experimental marker index) fitted by IK; ``flagged`` (T, K) bool the
    experimental markers highlighted at each display frame."""

    def __init__(self, renderer, poses, experimental=None, experimental_names=(), pairs=(), flagged=None):
        self.poses = poses
        self.experimental = experimental
        self.experimental_names = list(experimental_names)
        self.pairs = np.asarray(pairs, int).reshape(-1, 2)
        self.model_dots = _Dots(renderer, style.MODEL_MARKER, 0.8 * style.MARKER_RADIUS)
        self.trial_dots = _Dots(renderer, style.EXPERIMENTAL_MARKER, style.MARKER_RADIUS)
        self.flagged = flagged
        self.flagged_dots = _Dots(renderer, style.FLAGGED_MARKER, 1.8 * style.MARKER_RADIUS)
        self.lines = vtkPolyData()
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(self.lines)
        self.line_actor = vtkActor()
        self.line_actor.SetMapper(mapper)
        self.line_actor.GetProperty().SetColor(*style.RESIDUAL)
        self.line_actor.GetProperty().SetLineWidth(2.0)
        renderer.AddActor(self.line_actor)

    def show_frame(self, frame: int) -> None:
        model = self.poses.markers[frame]
        self.model_dots.update(model)
        if self.experimental is None:
            return
        trial = self.experimental[frame]
        self.trial_dots.update(trial)
        if self.flagged is not None:
            self.flagged_dots.update(np.where(self.flagged[frame][:, None], trial, np.nan))
        a, b = model[self.pairs[:, 0]], trial[self.pairs[:, 1]]
        ok = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
        set_points(self.lines, np.concatenate([a[ok], b[ok]]))
        n = int(ok.sum())
        if self.lines.GetNumberOfLines() != n:        # the lines join point k and n + k: rebuilt when n changes
            self.lines.SetLines(cells(np.column_stack([np.arange(n), n + np.arange(n)]).ravel(), [2] * n))
        self.lines.Modified()

    def set_visible(self, visible: bool) -> None:
        for actor in (self.model_dots.actor, self.trial_dots.actor, self.flagged_dots.actor, self.line_actor):
            actor.SetVisibility(visible)

    def model_marker_near(self, position, within: float) -> str | None:
        """The model marker shown nearest to ``position`` (m), if within ``within`` m of it."""
        dots = self.model_dots
        if not len(dots.shown):
            return None
        xyz = np.array([dots.polydata.GetPoint(i) for i in range(len(dots.shown))])
        distance = np.linalg.norm(xyz - position, axis=1)
        nearest = int(np.argmin(distance))
        return self.poses.marker_names[dots.shown[nearest]] if distance[nearest] <= within else None

    def marker_at(self, actor, position) -> tuple[str, str] | None:
        """``(kind, name)`` of the marker of ``actor`` nearest to a picked ``position`` ('model' or 'experimental')."""
        for dots, kind, names in ((self.model_dots, "model", self.poses.marker_names),
                                  (self.trial_dots, "experimental", self.experimental_names)):
            if actor is dots.actor and len(dots.shown):
                xyz = np.array([dots.polydata.GetPoint(i) for i in range(len(dots.shown))])
                return kind, names[dots.shown[int(np.argmin(np.linalg.norm(xyz - position, axis=1)))]]
        return None
