"""Muscles: lines along their paths (engine ``MuscleGeometry``), coloured by activation green to red (the seed's
Fig. 16); muscles without an activation (no muscle result, or edited since) are drawn in a neutral colour."""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from . import style
from .vtk_util import cells, set_points, set_scalars


class MuscleLayer:
    """All muscle paths in one actor; ``activations`` (T, muscles of the model) with NaN where unknown."""

    def __init__(self, renderer, model, poses, activations=None):
        self.poses = poses
        self.names = [m.name for m in model.muscles]
        self.activations = activations
        self.polydata = vtkPolyData()
        self.mapper = vtkPolyDataMapper()
        self.mapper.SetInputData(self.polydata)
        self.mapper.SetLookupTable(style.activation_colours())
        self.mapper.UseLookupTableScalarRangeOn()
        self.mapper.SetScalarModeToUseCellData()
        self.actor = vtkActor()
        self.actor.SetMapper(self.mapper)
        prop = self.actor.GetProperty()
        prop.SetLineWidth(style.MUSCLE_WIDTH)
        prop.SetRenderLinesAsTubes(True)
        renderer.AddActor(self.actor)
        self._cell_muscle = np.zeros(0, int)
        self._sizes: list[int] | None = None

    def show_frame(self, frame: int) -> None:
        """The paths at ``frame``: their points and colours written into the arrays drawn, the lines rebuilt only
        when the number of points of a path changed (a wrap's arc sampled with more or fewer points)."""
        if not self.names or not self.actor.GetVisibility():
            return
        paths = self.poses.muscle_paths(frame)
        drawn = [i for i, p in enumerate(paths) if len(p) >= 2]
        sizes = [len(paths[i]) for i in drawn]
        set_points(self.polydata, np.concatenate([paths[i] for i in drawn]) if drawn else np.zeros((0, 3)))
        if sizes != self._sizes or len(drawn) != len(self._cell_muscle) or np.any(self._cell_muscle != drawn):
            self.polydata.SetLines(cells(np.arange(sum(sizes)), sizes))
            self._sizes, self._cell_muscle = sizes, np.asarray(drawn, int)
        values = (np.full(len(drawn), np.nan) if self.activations is None
                  else self.activations[frame, drawn])
        set_scalars(self.polydata.GetCellData(), values, "activation")
        self.polydata.Modified()

    def set_visible(self, visible: bool) -> None:
        self.actor.SetVisibility(visible)

    def muscle_of(self, actor, cell: int) -> str | None:
        """The muscle drawn by ``cell`` of ``actor`` (None if it is not this layer's)."""
        if actor is not self.actor or not 0 <= cell < len(self._cell_muscle):
            return None
        return self.names[self._cell_muscle[cell]]
