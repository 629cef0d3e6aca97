"""Where the model is at each frame: body placements, model markers and contact candidates for every frame (one engine batch
call each), rod surfaces and muscle paths for the frame being drawn (engine calls per frame)."""
from __future__ import annotations

import numpy as np

from engine.algorithms import frame_placements_batch, frame_positions_batch, marker_positions_batch
from engine.data import Data
from engine.display.rod_surface import RodSurfaces
from engine.muscles.path.geometry import MuscleGeometry

from ..muscle_kernels import PATHS


class Poses:
    """The placements of ``model`` at configurations ``Q`` (T, nq)."""

    def __init__(self, model, Q):
        self.model = model
        self.Q = np.ascontiguousarray(Q, dtype=float)
        self.data = Data(model)
        self.body_names = [b.name for b in model.bodies]
        self.body_R, self.body_p = frame_placements_batch(model, self.data, self.Q, self.body_names)
        self.marker_names = [m.name for m in model.markers]
        self.markers = (marker_positions_batch(model, self.data, self.Q) if model.markers
                        else np.zeros((len(self.Q), 0, 3)))
        self.contact_names = [c.name for c in model.contacts]
        self.contacts = (frame_positions_batch(model, self.data, self.Q, self.contact_names) if model.contacts
                         else np.zeros((len(self.Q), 0, 3)))
        self.geometry = MuscleGeometry(model, threads=1) if model.muscles else None
        self._rods = {r.name: RodSurfaces(model, r.name) for r in model.rods}

    def rod(self, rod: str, frame: int):
        """The :class:`~engine.display.rod_surface.RodSurface` of ``rod`` at ``frame``."""
        return self._rods[rod].at(self.data, self.Q[frame])

    def muscle_paths(self, frame: int) -> list[np.ndarray]:
        """Per muscle of the model, its path (k, 3) in the world at ``frame``, wrap surfaces sampled every 2 mm; none
        (empty paths) while a first launch compiles their kernels, or when they could not be compiled
        (``muscle_kernels``)."""
        if not PATHS.ready:
            return [np.zeros((0, 3))] * len(self.model.muscles)
        return self.geometry.polylines(self.Q[frame])
