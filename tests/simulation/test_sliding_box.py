"""A box on the floor pushed sideways in the simulator: Coulomb's law (seed 002 eq. 7) from outside.

A horizontal push P on a box of weight N resting on the floor (friction coefficient mu) holds it while P < mu N and
makes it slide with acceleration (P - mu N) / m once P > mu N (Newton's second law with kinetic friction mu N
opposing the motion). The penalty contact regularises friction below ``slip_speed`` (eps): held, the box creeps at
``eps P / (mu N)``, below eps.
"""
import numpy as np
import pytest

from engine.algorithms import neutral
from engine.model import Body, FreeJoint, Model
from engine.model.points import ContactPoint
from engine.simulation import GroundContact, Simulator

MASS = 2.0
G = 9.80665
MU = 0.5
EPS = 0.01
H = 5e-4


def box():
    contacts = [ContactPoint(f"c{i}", "box", (x, -0.05, z)) for i, (x, z) in
                enumerate(((0.1, 0.1), (0.1, -0.1), (-0.1, 0.1), (-0.1, -0.1)))]
    return Model("box", [Body("box", MASS, (0, 0, 0), np.diag([0.02, 0.03, 0.04]))],
                 [FreeJoint("free", "ground", "box")], contacts=contacts)


def pushed(fraction, seconds=0.6):
    """Settle the box, then push it along +x with ``fraction`` mu N; its x velocity (m/s) at each step of the push."""
    model = box()
    sim = Simulator(model, GroundContact(stiffness=2e4, damping=200.0, friction=MU, slip_speed=EPS))
    q, v = neutral(model), np.zeros(model.nv)
    q[1] = 0.05
    tau = np.zeros(model.nv)
    for _ in range(int(0.3 / H)):
        r = sim.step(q, v, tau, H)
        q, v = r.q, r.v
    tau[3] = fraction * MU * MASS * G         # body x = world x: the box does not turn (its push is at its centre)
    speeds = []
    for _ in range(int(seconds / H)):
        r = sim.step(q, v, tau, H)
        q, v = r.q, r.v
        speeds.append(v[3])
    return np.array(speeds), r


@pytest.mark.parametrize("fraction", [0.5, 0.95])
def test_a_push_below_mu_n_holds_the_box(fraction):
    speeds, r = pushed(fraction)
    assert np.abs(speeds[len(speeds) // 2:]).max() < EPS     # no sliding once the contact has taken the push
    assert speeds.sum() * H < EPS * len(speeds) * H          # moved less than at eps throughout
    assert speeds[-1] == pytest.approx(EPS * fraction, rel=0.05)     # the regularised creep eps P / (mu N)
    friction = r.forces[:, 0].sum()
    assert friction == pytest.approx(-fraction * MU * MASS * G, rel=1e-3)


@pytest.mark.parametrize("fraction", [1.05, 1.5])
def test_a_push_beyond_mu_n_slides_the_box_at_newtons_rate(fraction):
    speeds, r = pushed(fraction)
    t = np.arange(1, len(speeds) + 1) * H
    late = t > 0.2
    slope = np.polyfit(t[late], speeds[late], 1)[0]
    assert slope == pytest.approx((fraction - 1) * MU * G, rel=0.02)
    assert r.forces[:, 0].sum() == pytest.approx(-MU * r.forces[:, 1].sum(), rel=1e-3)   # kinetic friction mu N
