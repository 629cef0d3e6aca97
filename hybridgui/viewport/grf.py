"""Ground-reaction arrows at the centre of pressure: measured per force plate, estimated per contact group.

1 m of arrow per ``style.NEWTONS_PER_METRE`` newtons; an arrow is hidden while its centre of
pressure is undefined (the plate or group is unloaded). The arrows' placements are computed for every frame at once
when the layer is built; a frame only copies them.
"""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersSources import vtkArrowSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from . import style

WIDTH = 0.6   # scale of the arrow source's thickness (shaft radius 1.2 cm, tip radius 3.6 cm)


def _placements(force, cop) -> tuple[np.ndarray, np.ndarray]:
    """The arrow source's (along x from 0 to 1) placement at every frame, (T, 4, 4): from ``cop`` along ``force``,
    1 m per ``style.NEWTONS_PER_METRE`` N, ``WIDTH`` thick; and (T,) whether it is drawn (a defined centre of pressure
    and at least 1 N)."""
    force, cop = np.asarray(force, float), np.asarray(cop, float)
    magnitude = np.linalg.norm(force, axis=1)
    shown = np.isfinite(cop).all(axis=1) & (magnitude / style.NEWTONS_PER_METRE > 1e-3)
    x = np.where(shown[:, None], force, [1.0, 0.0, 0.0]) / np.where(shown, magnitude, 1.0)[:, None]
    other = np.where((np.abs(x[:, 2]) < 0.9)[:, None], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0])
    y = np.cross(x, other)
    y /= np.linalg.norm(y, axis=1)[:, None]
    M = np.zeros((len(force), 4, 4))
    M[:, :3, 0] = (magnitude / style.NEWTONS_PER_METRE)[:, None] * x
    M[:, :3, 1] = WIDTH * y
    M[:, :3, 2] = WIDTH * np.cross(x, y)
    M[:, :3, 3] = np.where(shown[:, None], cop, 0.0)
    M[:, 3, 3] = 1.0
    return M, shown


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
        self._placements = [_placements(force, cop) for _, _, force, cop in self.arrows]

    def show_frame(self, frame: int) -> None:
        for actor, (matrices, shown) in zip(self.actors, self._placements):
            visible = bool(self.visible and shown[frame])
            actor.SetVisibility(visible)
            if visible:
                actor.GetUserMatrix().DeepCopy(matrices[frame].ravel())

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        for actor in self.actors:
            actor.SetVisibility(visible and actor.GetVisibility())

    def arrow_of(self, actor) -> int | None:
        """Index in ``arrows`` of the arrow drawn by ``actor``."""
        return next((i for i, a in enumerate(self.actors) if a is actor), None)
