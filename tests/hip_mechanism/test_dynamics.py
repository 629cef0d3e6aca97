"""Seed 003's virtual-work dynamics (section 6) against Lagrange's equations derived independently
(lagrange_reference.py), forward dynamics reproducing a motion, and the energy balance."""
import numpy as np
import pytest

from hip_mechanism import dynamics
from hip_mechanism.parameters import SEED

from .lagrange_reference import build

RNG = np.random.default_rng(22)
FE = np.array([-35.0, 0.0, 50.0, 0.060, 0.050, 0.0])    # the seed's first mode (moments in N m)


def smooth_trajectory(rng, centre):
    """q(t) = centre + sum of two sines per coordinate, with its exact rates."""
    amp = rng.uniform(0.05, 0.25, size=(2, 2))
    omega = rng.uniform(2.0, 9.0, size=(2, 2))
    phase = rng.uniform(0, 2 * np.pi, size=(2, 2))

    def at(t):
        arg = omega * t + phase
        return (centre + (amp * np.sin(arg)).sum(1), (amp * omega * np.cos(arg)).sum(1),
                -(amp * omega ** 2 * np.sin(arg)).sum(1))
    return at


@pytest.fixture(scope="module")
def lagrange():
    return build(SEED)


def test_virtual_work_equals_lagrange_on_random_trajectories(lagrange):
    tau_lagrange, _ = lagrange
    centres = [np.radians(c) for c in ((30.0, -60.0), (-40.0, 0.0), (45.0, 20.0), (-20.0, -85.0))]
    for centre in centres:
        motion = smooth_trajectory(RNG, centre)
        for t in np.linspace(0.0, 1.0, 7):
            q, qd, qdd = motion(t)
            Fe = FE * RNG.uniform(-2, 2)
            expected = tau_lagrange(q, qd, qdd, Fe)
            got = dynamics.inverse_dynamics(SEED, q, qd, qdd, Fe)
            assert np.allclose(got, expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())
    _, energy = lagrange
    q, qd, _ = smooth_trajectory(RNG, centres[0])(0.3)
    assert np.allclose(dynamics.energies(SEED, q, qd), energy(q, qd), rtol=1e-12)


def test_forward_dynamics_of_the_inverse_dynamics_reproduces_the_motion_with_the_energy_balance():
    """Actuator forces from the inverse dynamics along a motion, fed to the forward dynamics from the motion's
    initial state: the integration retraces the motion, and the actuators' work plus the external wrench's work
    equals the change in kinetic plus potential energy."""
    motion = smooth_trajectory(RNG, np.radians([20.0, 10.0]))
    time = np.linspace(0.0, 0.6, 61)

    def forces(t, q, qd):
        return dynamics.inverse_dynamics(SEED, *motion(t), FE)

    q0, qd0, _ = motion(0.0)
    run = dynamics.simulate(SEED, q0, qd0, time, forces, FE)
    assert run.success
    expected = np.array([motion(t)[0] for t in time])
    assert np.abs(run.q - expected).max() < 1e-7
    energy = np.array([sum(dynamics.energies(SEED, q, qd)) for q, qd in zip(run.q, run.qd)])
    balance = energy - energy[0] - run.actuator_work - run.external_work
    assert np.abs(balance).max() < 1e-7 * max(1.0, np.abs(run.actuator_work).max())


def test_a_free_mechanism_conserves_energy():
    """No actuator force beyond the ones holding nothing: the mechanism falls under gravity with its actuators
    free (tau = 0), and kinetic plus potential energy stays constant."""
    time = np.linspace(0.0, 0.15, 31)
    run = dynamics.simulate(SEED, np.radians([10.0, -20.0]), [0.5, -0.3], time, lambda t, q, qd: np.zeros(2))
    energy = np.array([sum(dynamics.energies(SEED, q, qd)) for q, qd in zip(run.q, run.qd)])
    assert run.success
    assert np.ptp(energy) < 1e-8 * max(1.0, np.abs(energy).max())
    assert np.ptp(run.q[:, 1]) > 1e-3          # it did move


def test_mass_matrix_is_symmetric_positive_definite():
    for q in np.radians([[0.0, 0.0], [50.0, -80.0], [-30.0, 30.0]]):
        M = dynamics.mass_matrix(SEED, q)
        assert np.allclose(M, M.T, atol=1e-12)
        assert np.linalg.eigvalsh(M).min() > 0
