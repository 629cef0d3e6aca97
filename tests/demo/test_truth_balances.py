"""The demo's truth (resources/demo/truth.npz) checked by routes other than the equations of motion that made it.

- Momentum: Newton's second law for the whole body, ``m (c'(t1) - c'(t0)) = int (sum f + m g) dt``, with the
  centre of mass's velocity ``c'`` by central differences of its positions (kinematics and masses only: no
  inertia matrix, no recursive dynamics) and standard gravity (9.80665 m/s^2, downwards). Its contact forces pass,
  and so do the force plates recorded in the demo's C3D file (the lab's route: the plates' impulse against the
  body's momentum change).
- Energy: the mechanical energy's change (kinetic ``0.5 v^T M v``, gravitational ``m g h`` of the centre of mass)
  equals the work of the joint torques, of the blade's elastic and viscous forces and of the floor's forces at the
  contact points' velocities.
The simulation steps are first-order implicit (``engine.simulation._step``): both balances hold to the order of
the step, measured here against the size of the terms they balance (when written: momentum within 2e-5 of the
weight's impulse, by the truth's contact forces and by the plates alike; energy within 0.3 % of the work done).
"""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.demo import demo_files, demo_inputs, demo_truth
from engine.demo.recording import LAB_FROM_MODEL
from engine.io.c3d import read_c3d
from engine.tree import compile_tree

G = 9.80665


@pytest.fixture(scope="module")
def shipped():
    model, _, _ = demo_inputs()
    return model, demo_truth()


def model_up(model):
    up = -np.asarray(model.gravity, float)
    return up / np.linalg.norm(up)


def com_velocity(model, truth):
    data = Data(model)
    c = np.array([alg.center_of_mass(model, data, q) for q in truth.q])
    h = np.diff(truth.time)
    assert np.allclose(h, h[0])
    return (c[2:] - c[:-2]) / (2 * h[0])           # at truth.time[1:-1]


def impulse(t, force, i0, i1):
    return np.trapezoid(force[i0:i1 + 1], t[i0:i1 + 1], axis=0)


def test_contact_impulse_and_weight_change_the_bodys_momentum(shipped):
    model, truth = shipped
    mass = compile_tree(model).k.nodes["mass"].sum()
    up = model_up(model)
    cdot = com_velocity(model, truth)
    t = truth.time
    force = truth.contact_forces.sum(axis=1) - mass * G * up
    weight_impulse = mass * G * (t[-2] - t[1])
    for i0, i1 in ((1, len(t) - 2), (1, len(t) // 2), (len(t) // 3, len(t) - 2)):
        change = mass * (cdot[i1 - 1] - cdot[i0 - 1])
        assert np.allclose(change, impulse(t, force, i0, i1), atol=2e-4 * weight_impulse), (i0, i1)


def test_the_plates_impulse_matches_the_bodys_vertical_momentum_change(shipped):
    """The recorded plates (lab frame, Z up; with their stated noise) over the whole recording."""
    model, truth = shipped
    mass = compile_tree(model).k.nodes["mass"].sum()
    up = model_up(model)
    assert np.allclose(LAB_FROM_MODEL @ up, (0.0, 0.0, 1.0))
    plates = read_c3d(demo_files().trial).plates
    assert len(plates) == 2
    cdot = com_velocity(model, truth)
    t0, t1 = truth.time[1], truth.time[-2]
    total = 0.0
    for p in plates:
        tp = p.t0 + np.arange(p.n_samples) / p.rate
        inside = (tp >= t0 - 1e-9) & (tp <= t1 + 1e-9)
        total += np.trapezoid(p.force[inside, 2], tp[inside])
    change = mass * (cdot[-1] - cdot[0]) @ up
    weight_impulse = mass * G * (t1 - t0)
    assert total - weight_impulse == pytest.approx(change, abs=3e-4 * weight_impulse)


def test_mechanical_energy_changes_by_the_work_done_on_the_body(shipped):
    model, truth = shipped
    data = Data(model)
    mass = compile_tree(model).k.nodes["mass"].sum()
    up = model_up(model)
    kinetic = np.array([alg.kinetic_energy(model, data, q, v) for q, v in zip(truth.q, truth.v)])
    height = np.array([alg.center_of_mass(model, data, q) @ up for q in truth.q])
    energy = kinetic + mass * G * height
    J = alg.point_jacobians_batch(model, data, truth.q, truth.contact_names)
    point_velocity = np.einsum("tkij,tj->tki", J, truth.v)
    power = (np.einsum("tj,tj->t", truth.tau + truth.tau_rod, truth.v)
             + np.einsum("tki,tki->t", truth.contact_forces, point_velocity))
    t = truth.time
    work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(t))])
    scale = np.trapezoid(np.abs(power), t)             # all the work done, in and out
    assert scale > 100.0
    assert np.abs((energy - energy[0]) - work).max() < 0.006 * scale
