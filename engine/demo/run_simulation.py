"""Simulate the demo trial: the default athlete running in place under :class:`RunningController`."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..simulation import GroundContact, JointSpring, Simulator
from ..tree import compile_tree
from .controller import RunningController
from .reference import RunningInPlace

STEP = 2e-4            # s, integrator step; the controller runs at every step
RECORD_EVERY = 5       # steps between recorded samples (1 kHz)
ACTUATION_TIME = 0.004  # s: the joint torques follow the controller's through a first-order lag, as muscle
                        # force follows excitation (keeps the torques free of the plan's sample-to-sample buzz)
# the intact foot in a running shoe (40 kN/m per point, 240 kN/m over its six points, as a running shoe's
# midsole measures in impact tests), the blade's thin rubber sole much stiffer than the blade
CONTACT = {"foot_l": GroundContact(stiffness=4.0e4, damping=300.0, damping_depth=1e-3, friction=0.8, slip_speed=0.05),
           "blade": GroundContact(stiffness=5.0e4, damping=300.0, damping_depth=1e-3, friction=0.8, slip_speed=0.05)}
# passive stiffness of the shod intact foot's small joints (shoe sole and ligaments, assumed values): without it
# the toes, a few hundred grams, fold under the load the controller's plan does not foresee
SPRINGS = (JointSpring("mtp_angle_l", 50.0, 0.5), JointSpring("subtalar_angle_l", 80.0, 0.5))


@dataclass
class SimulatedMotion:
    """The simulation sampled every ``RECORD_EVERY`` steps. For each sample, the step that starts
    there satisfies exactly (``engine.simulation.Simulator``)::

        M(q) a + nle(q, v) = tau + tau_rod + sum_c J_c(q)^T forces_c

    time (s); q, v, a in the model's coordinates; tau the net joint forces (N m: the controller's
    plus the passive springs' of :data:`SPRINGS`; zero on the base and the blade); tau_rod the
    blade's passive generalized forces over the step (seed eq. 26); forces (T, K, 3) the floor's
    forces on ``contact_names`` (N, world)."""

    time: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray
    tau_rod: np.ndarray
    forces: np.ndarray
    contact_names: list


def _pose(model, reference: RunningInPlace, t: float):
    """The reference's joint angles and rates at ``t`` on the model (base at its neutral placement)."""
    tree = compile_tree(model)
    names = [c.name for c in model.all_coordinates if c.name in tree.coordinates and not c.name.startswith("blade")]
    qr, vr, _ = reference.joints(t, names)
    q = alg.neutral(model)
    v = np.zeros(model.nv)
    for n, x, xd in zip(names, qr, vr):
        q[tree.coordinates[n].qi] = x
        v[tree.coordinates[n].vi] = xd
    return q, v


def initial_state(model, reference: RunningInPlace, t0: float):
    """The reference's state at ``t0`` (s; 0 is a touch-down), the body placed so that at touch-down the
    intact foot's lowest point is on the floor; returns ``(q, v, com_mean)`` (see :class:`RunningController`)."""
    data = Data(model)
    mass = float(compile_tree(model).k.nodes["mass"].sum())
    # the height of the mean centre of mass: from the touch-down pose standing on the floor
    q, _ = _pose(model, reference, 0.0)
    alg.forward_kinematics(model, data, q)
    foot = [c.name for c in model.contacts if c.group == "foot_l"]
    q[1] -= min(alg.frame_placement(model, data, n).p[1] for n in foot)
    com_mean = alg.center_of_mass(model, data, q) - reference.com(0.0)[0]
    # the state at t0: its pose, raised or lowered so that the centre of mass is the reference's
    q, v = _pose(model, reference, t0)
    c_ref, cd_ref, _ = reference.com(t0)
    q[:3] += com_mean + c_ref - alg.center_of_mass(model, data, q)
    cd = alg.spatial_momentum(model, data, q, v)[3:] / mass
    v[3:6] += cd_ref - cd          # pelvis upright: body and world axes agree
    return q, v, com_mean


def simulate_running(model, duration: float, start: float = 0.0,
                     reference: RunningInPlace | None = None) -> SimulatedMotion:
    """Run the controller on the simulator for ``duration`` s from :func:`initial_state` at ``start`` (s of the
    reference; recorded times count from there)."""
    reference = reference or RunningInPlace()
    sim = Simulator(model, CONTACT, springs=SPRINGS)
    q, v, com_mean = initial_state(model, reference, start)
    controller = RunningController(model, reference, com_mean, SPRINGS)
    n = int(round(duration / (STEP * RECORD_EVERY)))
    nc = len(sim.points)
    out = SimulatedMotion(np.arange(n) * STEP * RECORD_EVERY, np.zeros((n, model.nq)), np.zeros((n, model.nv)),
                          np.zeros((n, model.nv)), np.zeros((n, model.nv)), np.zeros((n, model.nv)),
                          np.zeros((n, nc, 3)), list(sim.points))
    forces = {p: np.zeros(3) for p in sim.points}
    depths = {p: -1.0 for p in sim.points}
    tau = None
    lag = STEP / ACTUATION_TIME
    for k in range(n * RECORD_EVERY):
        command = controller(start + k * STEP, q, v, forces, depths)
        tau = command if tau is None else tau + lag * (command - tau)
        r = sim.step(q, v, tau, STEP)
        if k % RECORD_EVERY == 0:
            i = k // RECORD_EVERY
            out.q[i], out.v[i], out.a[i], out.tau_rod[i], out.forces[i] = q, v, r.a, r.tau_rod, r.forces
            out.tau[i] = tau + r.tau_spring
        q, v = r.q, r.v
        forces = dict(zip(sim.points, r.forces))
        depths = dict(zip(sim.points, r.depths))
    return out
