"""The hip mechanism's warm-up (an entry point of ``hybrid warm-up``) compiles what the devices panel computes."""
from importlib.metadata import entry_points

from engine.demo import demo_results
from engine.warmup import PLUGINS, counting_compiles
from hip_mechanism.display import world_points
from hip_mechanism.maps import default_grid, performance_maps
from hip_mechanism.parameters import SEED
from hip_mechanism.trial import trial_demands
from hip_mechanism.warmup import warm_up


def test_the_warm_up_is_an_entry_point_of_the_engines_warm_up():
    assert [ep.load() for ep in entry_points(group=PLUGINS) if ep.name == "hip-mechanism"] == [warm_up]


def test_after_the_warm_up_the_devices_panel_compiles_nothing():
    result, _ = demo_results()
    warm_up(result)
    with counting_compiles() as compiled:     # the panel's own grid, the other side, every frame
        performance_maps(SEED, *default_grid(2.0))
        demands = trial_demands(SEED, result, "l")
        world_points(SEED, result.model, result.motion.q, demands.q, "l")
    assert compiled == [], compiled
