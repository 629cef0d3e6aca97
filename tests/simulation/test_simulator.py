"""Forward simulation on the ground: the discrete equations of motion hold exactly, the penalty contact and its
friction follow seed 002's eqs. 6-7, and the step stays stable and accurate with a stiff rod."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.model import Body, FreeJoint, Material, Model, Rod, RodSegment, Section
from engine.model.points import ContactPoint
from engine.simulation import GroundContact, JointSpring, Simulator
from engine.simulation.ground_contact import penalty_force
from engine.spatial import SE3


def box(mass=2.0, rods=False):
    I = np.diag([0.02, 0.03, 0.04])
    contacts = [ContactPoint(f"c{i}", "box", (x, -0.05, z)) for i, (x, z) in
                enumerate(((0.1, 0.1), (0.1, -0.1), (-0.1, 0.1), (-0.1, -0.1)))]
    rod = []
    if rods:
        section = Section.rectangle(0.01, 0.03)
        rod = [Rod("strip", "box", [RodSegment(0.1, section, Material("steel", 2e11, 8e10, 7800.0,
                                                                     extensional_viscosity=1e7, shear_viscosity=1e7))
                                    for _ in range(2)], offset=SE3(np.eye(3), (0.1, 0.0, 0.0)))]
    return Model("box", [Body("box", mass, (0, 0, 0), I)], [FreeJoint("free", "ground", "box")], rod,
                 contacts=contacts)


def test_penalty_force_and_its_jacobians():
    par = GroundContact(stiffness=1e4, damping=100.0, damping_depth=1e-3, friction=0.5, slip_speed=0.1).parameters()
    f, dp, dv = np.empty(3), np.empty((3, 3)), np.empty((3, 3))
    p, pd = np.array([0.0, -0.002, 0.0]), np.array([0.3, -0.1, 0.0])
    depth = penalty_force(par, p, pd, f, dp, dv)
    fn = 1e4 * 0.002 + 100.0 * 0.1            # eq. 6 plus the damper, fully faded in beyond 1 mm
    assert depth == pytest.approx(0.002) and f[1] == pytest.approx(fn)
    assert f[0] == pytest.approx(-0.5 * fn) and f[2] == 0.0        # eq. 7: sliding, |V| > eps
    f_slow = np.empty(3)
    penalty_force(par, p, np.array([0.05, -0.1, 0.0]), f_slow, dp, dv)
    assert f_slow[0] == pytest.approx(-0.5 * fn * 0.05 / 0.1)       # eq. 7: viscous below eps
    # Jacobians against central differences, in both friction regimes
    for pd in (pd, np.array([0.05, -0.1, 0.02])):
        check_jacobians(par, p, pd)
    assert penalty_force(par, np.array([0.0, 0.01, 0.0]), pd, f, dp, dv) < 0 and not f.any()


def check_jacobians(par, p, pd):
    f, dp, dv = np.empty(3), np.empty((3, 3)), np.empty((3, 3))
    penalty_force(par, p, pd, f, dp, dv)
    for x, J in ((p, dp), (pd, dv)):
        for j in range(3):
            e = np.zeros(3)
            e[j] = 1e-7
            fp, fm = np.empty(3), np.empty(3)
            args = (p + e, pd) if x is p else (p, pd + e)
            penalty_force(par, *args, fp, np.empty((3, 3)), np.empty((3, 3)))
            args = (p - e, pd) if x is p else (p, pd - e)
            penalty_force(par, *args, fm, np.empty((3, 3)), np.empty((3, 3)))
            assert np.allclose((fp - fm) / 2e-7, J[:, j], rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("rods", [False, True])
def test_each_step_satisfies_the_discrete_equations_of_motion_exactly(rods):
    model = box(rods=rods)
    springs = (JointSpring(model.rods[0].coordinate_names()[2], 5.0, 0.1),) if rods else ()
    sim = Simulator(model, GroundContact(), springs=springs)
    q = alg.neutral(model)
    q[1] = 0.049                               # the corners 1 mm into the floor
    v = np.zeros(model.nv)
    v[3:6] = (0.4, -0.3, 0.1)
    tau = np.zeros(model.nv)
    data = Data(model)
    for _ in range(20):
        r = sim.step(q, v, tau, 2e-4)
        M = alg.crba(model, data, q)
        h = alg.nle(model, data, q, v)
        J = alg.point_jacobians(model, data, q, sim.points)
        residual = M @ r.a + h - tau - r.tau_rod - r.tau_spring - sum(J[c].T @ r.forces[c] for c in range(4))
        assert np.abs(residual).max() < 1e-9 * max(1.0, np.abs(M @ r.a).max())
        q, v = r.q, r.v


def test_a_box_settles_on_the_floor_with_its_weight_on_the_contacts():
    model = box()
    sim = Simulator(model, GroundContact(stiffness=2e4, damping=200.0))
    q, v = alg.neutral(model), np.zeros(model.nv)
    q[1] = 0.06
    for _ in range(int(1.0 / 5e-4)):
        r = sim.step(q, v, np.zeros(model.nv), 5e-4)
        q, v = r.q, r.v
    weight = 2.0 * 9.80665
    assert r.forces[:, 1].sum() == pytest.approx(weight, rel=1e-3)
    assert q[1] - 0.05 == pytest.approx(-weight / 4 / 2e4, rel=1e-2)      # each corner sinks F / k
    assert np.abs(v).max() < 1e-3


def test_a_stiff_rod_stays_stable_at_steps_far_above_its_period():
    """The strip's first bending period is well under a millisecond; the linearly implicit step at 1 ms still
    brings it to rest at its static deflection under gravity."""
    model = box(rods=True)
    sim = Simulator(model, GroundContact(stiffness=2e4, damping=200.0))
    q, v = alg.neutral(model), np.zeros(model.nv)
    q[1] = 0.05
    for _ in range(1000):
        r = sim.step(q, v, np.zeros(model.nv), 1e-3)
        q, v = r.q, r.v
    assert np.all(np.isfinite(q)) and np.abs(v).max() < 1e-2
    static = alg.static_equilibrium(model, Data(model), q, coordinates=model.rods[0].coordinate_names())
    assert np.allclose(q, static.q, atol=1e-4)
