"""Dynamics of hybrid systems: M SPD, dM/dt - 2C skew, energy and momentum conservation."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.model import MODES
from tests.engine.hybrid_models import general_joint_model, hybrid_chain


@pytest.mark.parametrize("build", [hybrid_chain, lambda: hybrid_chain(floating=True, modes=MODES),
                                   general_joint_model], ids=["hybrid", "floating-6modes", "general-joints"])
def test_mass_matrix_is_symmetric_positive_definite_and_consistent_with_rnea(build, rng):
    model = build()
    data = Data(model)
    for _ in range(5):
        q = alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv) * 0.5)
        M = alg.crba(model, data, q)
        assert np.abs(M - M.T).max() < 1e-13 * np.abs(M).max()
        assert np.linalg.eigvalsh(M).min() > 0
        v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
        tau = alg.rnea(model, data, q, v, a)
        assert np.abs(tau - (M @ a + alg.nle(model, data, q, v))).max() < 1e-10 * np.abs(tau).max()


@pytest.mark.parametrize("build", [lambda: hybrid_chain(modes=MODES, shoulder="universal"), general_joint_model],
                         ids=["hybrid-6modes", "general-joints"])
def test_mdot_minus_two_c_is_skew_symmetric(build, rng):
    """Holonomic coordinates (revolute, general joints, rod strains): dM/dt by central differences."""
    model = build()
    data = Data(model)
    h = 1e-6
    for _ in range(3):
        q = alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv) * 0.5)
        v = rng.normal(size=model.nv)
        Mdot = (alg.crba(model, data, alg.integrate(model, q, v, h))
                - alg.crba(model, data, alg.integrate(model, q, v, -h))) / (2 * h)
        C = alg.coriolis_matrix(model, data, q, v)
        N = Mdot - 2 * C
        assert np.abs(N + N.T).max() < 1e-6 * np.abs(Mdot).max()
        # and C v is the velocity part of nle
        g = alg.generalized_gravity(model, data, q)
        assert np.abs(C @ v - (alg.nle(model, data, q, v) - g)).max() < 1e-10 * max(1.0, np.abs(C @ v).max())


def total_energy(model, data, q, v):
    return alg.kinetic_energy(model, data, q, v) + alg.potential_energy(model, data, q)


def test_undamped_hybrid_pendulum_conserves_energy():
    """Rigid links plus a curved rod under gravity, 2 s at a fine step (RKMK4)."""
    model = hybrid_chain()
    data = Data(model)
    q0 = alg.neutral(model)
    q0 = alg.integrate(model, q0, np.full(model.nv, 0.3))
    v0 = np.linspace(-1.0, 1.0, model.nv)
    t, Q, V = alg.simulate(model, data, q0, v0, duration=2.0, dt=2e-4)
    E = np.array([total_energy(model, data, q, v) for q, v in zip(Q[::50], V[::50])])
    scale = alg.kinetic_energy(model, data, q0, v0) + abs(alg.potential_energy(model, data, q0))
    assert np.abs(E - E[0]).max() < 1e-6 * scale
    # it really moved: the rod bent and the pendulum swung
    assert np.abs(Q[-1] - Q[0]).max() > 0.1


def test_damped_rod_loses_energy_monotonically():
    model = hybrid_chain(gravity=(0, 0, 0), damping=3e4)
    data = Data(model)
    q0 = alg.integrate(model, alg.neutral(model), np.full(model.nv, 0.2))
    t, Q, V = alg.simulate(model, data, q0, np.zeros(model.nv), duration=0.3, dt=2e-4)
    E = np.array([total_energy(model, data, q, v) for q, v in zip(Q[::25], V[::25])])
    assert np.all(np.diff(E) <= 1e-9 * E[0])
    assert E[-1] < 0.9 * E[0]


def test_free_floating_hybrid_conserves_momentum():
    """Angular-strain rod as in the seed (stretch and shear modes are too stiff for this explicit step)."""
    model = hybrid_chain(floating=True, gravity=(0, 0, 0))
    data = Data(model)
    q0 = alg.integrate(model, alg.neutral(model), np.linspace(-0.3, 0.4, model.nv))
    v0 = np.linspace(1.0, -1.5, model.nv) * 0.5
    t, Q, V = alg.simulate(model, data, q0, v0, duration=0.5, dt=1e-4)
    h = np.array([alg.spatial_momentum(model, data, q, v) for q, v in zip(Q[::100], V[::100])])
    assert np.abs(h - h[0]).max() < 1e-8 * np.abs(h[0]).max()
    assert np.abs(Q[-1, :3] - Q[0, :3]).max() > 1e-3  # the base moved


def test_free_body_follows_the_exact_torque_free_motion(rng):
    """A free body with isotropic inertia and its centre of mass at the origin: the origin moves in a
    straight line at constant world velocity and the body spins at constant body rate."""
    from engine.model import Body, FreeJoint, Model
    from engine.spatial import axis_angle, quat_to_matrix
    model = Model("ball", [Body("b", 2.0, inertia=np.eye(3) * 0.1)], [FreeJoint("j", "ground", "b")],
                  gravity=(0, 0, 0))
    data = Data(model)
    q0 = alg.integrate(model, alg.neutral(model), rng.normal(size=6))
    w, u = rng.normal(size=3), rng.normal(size=3)
    R0 = quat_to_matrix(q0[3:7])
    R1 = R0 @ axis_angle(w, np.linalg.norm(w))
    errors = []
    for dt in (2e-2, 1e-2, 5e-3):
        t, Q, V = alg.simulate(model, data, q0, np.concatenate([w, u]), duration=1.0, dt=dt)
        errors.append(max(np.abs(Q[-1, :3] - (q0[:3] + R0 @ u)).max(),
                          np.abs(quat_to_matrix(Q[-1, 3:7]) - R1).max()))
        assert abs(np.linalg.norm(Q[-1, 3:7]) - 1.0) < 1e-14
    order = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(order > 3.7), order   # RKMK4 is fourth order on SE(3)
    assert errors[-1] < 2e-9
