"""The hip mechanism's part of ``hybrid warm-up`` (entry point ``hybridlab.warmup``): its numba kernels compiled,
or loaded from numba's cache, before the application's devices panel first calls them."""
from __future__ import annotations

from .display import world_points
from .maps import default_grid, performance_maps
from .parameters import SEED
from .trial import trial_demands


def warm_up(result) -> None:
    """What the devices panel computes for an analysis ``result`` (the demo's): the performance maps (on a coarse
    grid: kernels compile per argument type, not per size), the right hip's demands and the drawn points."""
    performance_maps(SEED, *default_grid(30.0))
    demands = trial_demands(SEED, result, "r")
    world_points(SEED, result.model, result.motion.q[:2], demands.q[:2], "r")
