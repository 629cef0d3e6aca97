"""Static optimisation's part of ``hybrid warm-up`` (a step of ``engine.warmup.warm_up_steps``, batch workers' too): the kernels an analysis with
residual and reserve actuators reaches, which the demo's analysis (its muscles without reserves, the seed's objective
with EMG) does not: the balance check and bounded least squares (``engine.kernels._balance``) and OpenSim's objective
(``engine.kernels._qp_so.activation_frames``), about 20 CPU-seconds of compiling at a first such analysis."""
from __future__ import annotations

from .reserves import Actuator, ReserveActuators, coordinate_reserves
from .static_optimization import MuscleForceSettings, estimate_muscle_forces

FRAMES = 3
"""frames of the demo's analysis solved: kernels are compiled per argument type, not per size."""


def warm_up(result) -> None:
    """The static optimisation of ``result``'s (the demo's analysis) first ``FRAMES`` frames with a reserve on each
    of its model's independent coordinates and a residual force and torque on its first body (OpenSim's residual
    actuators: their generalized forces change with the pose, a (T, nv, r) array where coordinate actuators give one
    matrix repeated), for both objectives (the seed's, OpenSim's)."""
    model, motion = result.model, result.motion
    root = model.bodies[0].name
    reserves = ReserveActuators(coordinate_reserves(model).actuators
                                + (Actuator("FX", "point", 1.0, body=root), Actuator("MX", "torque", 1.0, body=root)))
    for objective in ("seed", "opensim"):
        estimate_muscle_forces(model, motion.q[:FRAMES], motion.v[:FRAMES], result.dynamics.tau[:FRAMES],
                               MuscleForceSettings(objective=objective, reserves=reserves))
