"""The hip mechanism (seed 003) drawn at the hip: its three limbs from Ai to Bi, the actuated ones coloured by
their force (blue pulling, grey none, red pushing, full colour at the actuators' rating), and the platform."""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkFiltersSources import vtkLineSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

PASSIVE = (0.85, 0.85, 0.85)
PLATFORM = (0.95, 0.80, 0.30)
WIDTH = 6.0   # px


def force_colour(force: float, limit: float) -> tuple:
    """Blue (pulling) through grey to red (pushing), saturated at the rating."""
    x = float(np.clip(force / limit, -1.0, 1.0))
    grey = np.array([0.7, 0.7, 0.7])
    end = np.array([0.9, 0.15, 0.1]) if x > 0 else np.array([0.15, 0.35, 0.95])
    return tuple(grey + abs(x) * (end - grey))


class HipMechanismLayer:
    """``base`` (T, 3, 3) and ``platform`` (T, 3, 3) world points, ``forces`` (T, 2) N, ``limit`` N."""

    def __init__(self, renderer, base, platform, forces, limit):
        self.renderer = renderer
        self.base, self.platform, self.forces, self.limit = base, platform, forces, limit
        self.limbs, self.edges, self.actors = [], [], []
        for _ in range(3):
            self.limbs.append(self._line(PASSIVE))
        for _ in range(3):
            self.edges.append(self._line(PLATFORM))

    def _line(self, colour):
        source = vtkLineSource()
        mapper = vtkPolyDataMapper()
        mapper.SetInputConnection(source.GetOutputPort())
        actor = vtkActor()
        actor.SetMapper(mapper)
        actor.GetProperty().SetColor(*colour)
        actor.GetProperty().SetLineWidth(WIDTH)
        actor.GetProperty().SetRenderLinesAsTubes(True)
        self.renderer.AddActor(actor)
        self.actors.append(actor)
        return source, actor

    def show_frame(self, frame: int) -> None:
        frame = int(np.clip(frame, 0, len(self.base) - 1))
        for i, (source, actor) in enumerate(self.limbs):
            source.SetPoint1(*self.base[frame, i])
            source.SetPoint2(*self.platform[frame, i])
            if i > 0:
                actor.GetProperty().SetColor(*force_colour(self.forces[frame, i - 1], self.limit))
        for k, (source, _) in enumerate(self.edges):
            source.SetPoint1(*self.platform[frame, k])
            source.SetPoint2(*self.platform[frame, (k + 1) % 3])

    def remove(self) -> None:
        for actor in self.actors:
            self.renderer.RemoveActor(actor)
        self.actors = []
