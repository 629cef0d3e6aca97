"""Ground-reaction arrows at the centre of pressure: measured per force plate, estimated per contact group.

1 m of arrow per ``style.NEWTONS_PER_METRE`` newtons; an arrow is hidden while its centre of
pressure is undefined (the plate or group is unloaded).
"""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersSources import vtkArrowSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from . import style
from .vtk_util import set_matrix

WIDTH = 0.6   # scale of the arrow source's thickness (shaft radius 1.2 cm, tip radius 3.6 cm)


class GRFLayer:
    """``arrows``: (label, 'measured' | 'estimated', force (T, 3) N, centre of pressure (T, 3) m, NaN if unloaded)."""

    def __init__(self, renderer, arrows):
        self.arrows = list(arrows)
        source = vtkArrowSource()
        source.SetTipLength(0.2)
        source.SetTipRadius(0.06)
        source.SetShaftRadius(0.02)
        source.SetTipResolution(24)
        source.SetShaftResolution(24)
        self.actors = []
        for _, kind, _, _ in self.arrows:
            mapper = vtkPolyDataMapper()
            mapper.SetInputConnection(source.GetOutputPort())
            actor = vtkActor()
            actor.SetMapper(mapper)
            actor.GetProperty().SetColor(*(style.MEASURED if kind == "measured" else style.ESTIMATED))
            actor.GetProperty().SetSpecular(0.3)
            actor.GetProperty().BackfaceCullingOn()       # a closed arrow: its back faces are never seen
            actor.SetUserMatrix(vtkMatrix4x4())
            renderer.AddActor(actor)
            self.actors.append(actor)
        self.visible = True

    def show_frame(self, frame: int) -> None:
        for actor, (_, _, force, cop) in zip(self.actors, self.arrows):
            f, p = force[frame], cop[frame]
            length = np.linalg.norm(f) / style.NEWTONS_PER_METRE
            shown = bool(self.visible and np.isfinite(p).all() and length > 1e-3)
            actor.SetVisibility(shown)
            if shown:
                x = f / np.linalg.norm(f)
                y = np.cross(x, [0.0, 0.0, 1.0] if abs(x[2]) < 0.9 else [1.0, 0.0, 0.0])
                y /= np.linalg.norm(y)
                set_matrix(actor.GetUserMatrix(), np.column_stack([length * x, WIDTH * y, WIDTH * np.cross(x, y)]), p)

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        for actor in self.actors:
            actor.SetVisibility(visible and actor.GetVisibility())

    def arrow_of(self, actor) -> int | None:
        """Index in ``arrows`` of the arrow drawn by ``actor``."""
        return next((i for i, a in enumerate(self.actors) if a is actor), None)
