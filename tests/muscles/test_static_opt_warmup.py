"""The static optimisation's warm-up (a step of ``hybrid warm-up`` and of batch workers') compiles what an analysis with reserves
reaches and the demo's does not: after it, OpenSim's gait2354 static optimisation with its residual and reserve
actuators (point forces, torques, coordinate actuators) compiles nothing, with either objective."""
from dataclasses import replace
from engine.demo import demo_results
from engine.muscles.forces.static_optimization import estimate_muscle_forces
from engine.muscles.forces.warmup import warm_up
from engine.warmup import counting_compiles, warm_up_steps
from tests.muscles.test_static_opt_gait2354 import so_inputs


def test_the_warm_up_is_a_step_of_the_engines_own_warm_up(monkeypatch):
    """Not a plugin: a batch worker warms up without plugins and still reaches static optimisation's kernels."""
    import engine.muscles.forces.warmup as so_warmup
    called = []
    monkeypatch.setattr(so_warmup, "warm_up", lambda result: called.append(result.model.name))
    steps = warm_up_steps(plugins=False)
    while True:
        try:
            next(steps)
        except StopIteration:
            break
    assert called == [demo_results()[0].model.name]


def test_after_the_warm_up_a_static_optimisation_with_reserves_compiles_nothing(test_data):
    model, Q, V, tau, _, settings, _ = so_inputs(test_data)
    assert settings.reserves is not None and {a.kind for a in settings.reserves.actuators} == {"point", "torque",
                                                                                               "coordinate"}
    warm_up(demo_results()[0])
    with counting_compiles() as compiled:
        for objective in ("seed", "opensim"):
            estimate_muscle_forces(model, Q[:4], V[:4], tau[:4], replace(settings, objective=objective))
    assert compiled == [], compiled
