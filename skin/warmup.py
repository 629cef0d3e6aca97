"""The skin package's part of ``hybrid warm-up`` (entry point ``hybridlab.warmup``): its numba kernels (skinning,
contact, sheets, mesh normals) compiled, or loaded from numba's cache, before ``hybrid simulate``, ``hybrid
socket-pressure`` or the application's Simulation panel first call them. Kernels compile per argument type, not per
size, so a coarse skin and a few steps call every one of them."""
from __future__ import annotations

from dataclasses import replace

from engine.data import Data

from .playback import Playback
from .rest_pose import A_POSE_SPACING
from .scenes import scene, skinned_bodies
from .simulation import simulate
from .skinning import Skin
from .socket import Socket, pressure_over_trial
from .socket_load import socket_loads

SPACING = A_POSE_SPACING
"""m: the warm-up's skin spacing for the scene (under a thousand vertices, quick to build): the coarsest at which the
sling's skin, generated in the A-pose, holds together (``skin.rest_pose.A_POSE_SPACING``)."""
SOCKET_SPACING = 0.04
"""m: the skin spacing of the socket's stump (coarser, too few vertices carry the socket's shear: a singular system)."""
SCENE = "sling-lift"
"""The scene run: a mass-spring sheet and a rigid bed, so that the kernels of both kinds of device compile."""
STEPS = 2
"""Time steps of the scene simulated."""
FRAMES = slice(0, 3)
"""Frames of the demo's trial whose socket pressure is computed."""


def warm_up(result) -> None:
    """What the Simulation panel and ``hybrid simulate`` compute (a built-in scene run for ``STEPS`` steps by each
    integrator, its skin drawn; the skin's velocities and Jacobian and the sheet's energy besides) and what ``hybrid
    socket-pressure`` computes on the demo's analysis ``result`` (an ``AnalysisResult`` with force plates, the socket
    welded to ``tibia_r``) over ``FRAMES``."""
    sc = scene(SCENE, spacing=SPACING)
    simulate(replace(sc, integrator="rk4"), STEPS * sc.dt, record_every=1)    # the lifts' integrator
    run = simulate(sc, STEPS * sc.dt, record_every=1)                          # the sling's (linearly implicit)
    Playback(sc, run).skin_vertices(0)
    data = Data(sc.model)
    sc.skin.vertices_velocities(sc.model, data, run.q[-1], run.v[-1])
    sc.skin.jacobian(sc.model, data, run.q[-1])
    sc.sheets[0].energy(sc.sheets[0].mesh.vertices)
    from engine.demo import demo_results
    _, settings = demo_results()          # the settings the demo was analysed with (which plate loads which body)
    _, loads, _ = socket_loads(result, replace(settings, loads_cutoff=None), frames=FRAMES)   # 3 frames: no filter
    model = result.model
    skin = Skin.generate(model, spacing=SOCKET_SPACING, bodies=skinned_bodies(model))
    pressure_over_trial(model, Socket.from_stump(model, skin, "tibia_r"), result.motion.q[FRAMES], loads)
