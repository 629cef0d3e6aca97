"""A scene's run frame by frame, for showing it (the application's Simulation panel): the deformed skin (eq. 3 at the
recorded ``q``), its contact pressure in kPa and the devices' surfaces at the recorded times; and a built-in scene
built and run as one step generator (``engine.progress``) for a worker thread."""
from __future__ import annotations

import numpy as np

from engine.data import Data
from engine.progress import Progress

from .scene import Scene
from .scenes import scene as built_in
from .simulation import SimulationResult, simulation_steps


def scene_run_steps(name: str, spacing: float, duration: float | None = None, record_every: int = 10):
    """Build the built-in scene ``name`` with a skin sampled every ``spacing`` m, then run it for ``duration`` s
    (default the scene's), recording every ``record_every`` steps. Yields ``Progress`` (building first, then
    :func:`~skin.simulation.simulation_steps`'s) and returns :class:`Playback`; closing it stops the run."""
    yield Progress("building the scene", 0.0, f"{name}: skin every {spacing * 100:g} cm")
    sc = built_in(name, spacing=spacing)
    result = yield from simulation_steps(sc, duration, record_every)
    return Playback(sc, result)


class Playback:
    """``scene``'s run ``result`` by recorded frame (0 .. ``n_frames`` - 1)."""

    def __init__(self, scene: Scene, result: SimulationResult):
        self.scene, self.result = scene, result
        self._data = Data(scene.model)

    @property
    def n_frames(self) -> int:
        return len(self.result.time)

    @property
    def time(self) -> np.ndarray:
        """Recorded times (T,) s."""
        return self.result.time

    @property
    def triangles(self) -> np.ndarray:
        """The skin's triangles (t, 3), indices into :meth:`skin_vertices`."""
        return self.scene.skin.mesh.triangles

    def skin_vertices(self, frame: int) -> np.ndarray:
        """Eq. 3 at the recorded ``q`` of ``frame``: skin vertices (n, 3) m, world frame."""
        return self.scene.skin.vertices(self.scene.model, self._data, self.result.q[frame])

    def pressure_kpa(self, frame: int) -> np.ndarray:
        """Contact pressure (n,) kPa per skin vertex at ``frame`` (normal contact force over the vertex's area)."""
        return self.result.pressure[frame].astype(float) * 1e-3

    def peak_pressure_kpa(self) -> float:
        """The highest vertex pressure of the whole run, kPa (0 when nothing touched)."""
        return float(self.result.pressure.max(initial=0.0)) * 1e-3

    def pressure_scale_kpa(self, share: float = 0.01) -> float:
        """A colour scale's top, kPa: the pressure that only ``share`` of the loaded vertex samples of the run exceed
        (penalty contact puts single vertices far above the rest; 0 when nothing touched)."""
        loaded = self.result.pressure[self.result.pressure > 0]
        return float(np.quantile(loaded, 1.0 - share)) * 1e-3 if loaded.size else 0.0

    def device_surfaces(self, frame: int) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """``[(name, vertices (N, 3) m world frame, triangles (t, 3))]`` of the rigid devices (at their prescribed
        motion at the frame's time) and the sheets (their recorded positions)."""
        t = float(self.result.time[frame])
        out = [(d.name, d.vertices(t)[0], d.mesh.triangles) for d in self.scene.devices]
        out += [(s.name, self.result.sheets[s.name][frame].astype(float), s.mesh.triangles) for s in self.scene.sheets]
        return out
