"""The skin's warm-up (an entry point of ``hybrid warm-up``) compiles what ``hybrid simulate``, the Simulation panel
and ``hybrid socket-pressure`` compute: after it, another scene and other frames compile nothing."""
from dataclasses import replace
from importlib.metadata import entry_points

from engine.demo import demo_results
from engine.warmup import PLUGINS, counting_compiles
from skin.playback import Playback
from skin.scenes import scene, skinned_bodies
from skin.simulation import simulate
from skin.skinning import Skin
from skin.socket import Socket, pressure_over_trial
from skin.socket_load import socket_loads
from skin.warmup import warm_up


def test_the_warm_up_is_an_entry_point_of_the_engines_warm_up():
    assert [ep.load() for ep in entry_points(group=PLUGINS) if ep.name == "skin"] == [warm_up]


def test_after_the_warm_up_simulating_and_the_socket_pressure_compile_nothing():
    result, settings = demo_results()
    warm_up(result)
    with counting_compiles() as compiled:     # a lift without a sheet, a finer skin, other frames of the trial
        sc = scene("robotic-lift-flat", spacing=0.06)
        run = simulate(sc, 2 * sc.dt, record_every=1)
        Playback(sc, run).skin_vertices(1)
        frames = slice(100, 102)
        _, loads, _ = socket_loads(result, replace(settings, loads_cutoff=None), frames=frames)
        model = result.model
        skin = Skin.generate(model, spacing=0.03, bodies=skinned_bodies(model))
        pressure_over_trial(model, Socket.from_stump(model, skin, "tibia_r"), result.motion.q[frames], loads)
    assert compiled == [], compiled
