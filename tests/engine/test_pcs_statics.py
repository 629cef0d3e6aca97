"""PCS statics: a cantilever under a tip load against Euler-Bernoulli and the Kirchhoff elastica."""
import numpy as np
from scipy.integrate import solve_bvp

from engine import algorithms as alg
from engine.data import Data
from tests.engine.hybrid_models import cantilever

L = 1.0


def tip_under_load(n_segments: int, load: float):
    model = cantilever(n_segments, L)
    data = Data(model)
    res = alg.static_equilibrium(model, data, alg.neutral(model), forces={"tip": (0.0, -load, 0.0)}, gravity=False)
    assert res.success, res.message
    alg.forward_kinematics(model, data, res.q)
    EI = model.rods[0].segments[0].stiffness_diagonal()[2]
    return alg.frame_placement(model, data, "tip").p, EI


def test_small_load_converges_to_euler_bernoulli_with_second_order():
    EI = tip_under_load(1, 0.0)[1]
    load = 1e-6 * 3 * EI / L ** 3            # deflection of 1e-6 L: geometric nonlinearity ~1e-12
    exact = load * L ** 3 / (3 * EI)
    ns = [1, 2, 4, 8, 16]
    errors = []
    for n in ns:
        tip, _ = tip_under_load(n, load)
        errors.append((-tip[1] - exact) / exact)
    errors = np.array(errors)
    # Piecewise constant curvature is the segment average of M/EI, so the tip deflection is the
    # midpoint rule of int (L-s)^2 ds: relative error exactly -1/(4 n^2).
    assert np.allclose(errors, -1.0 / (4.0 * np.array(ns) ** 2), rtol=1e-4, atol=0)
    order = np.log2(errors[:-1] / errors[1:])
    assert np.all(np.abs(order - 2.0) < 0.01), order


def elastica_tip(load: float, EI: float):
    """Inextensible, unshearable planar Kirchhoff rod: EI theta'' = P cos(theta), theta(0)=0, theta'(L)=0."""
    def rhs(s, y):
        return np.vstack([y[1], load / EI * np.cos(y[0]), np.cos(y[0]), np.sin(y[0])])

    def bc(y0, yL):
        return np.array([y0[0], yL[1], y0[2], y0[3]])

    s = np.linspace(0, L, 201)
    guess = np.zeros((4, s.size))
    guess[2] = s
    sol = solve_bvp(rhs, bc, s, guess, tol=1e-10, max_nodes=100000)
    assert sol.success
    return sol.sol(L)[2:]


def test_large_load_matches_the_kirchhoff_elastica_within_one_percent_at_ten_segments():
    EI = tip_under_load(1, 0.0)[1]
    load = 3.0 * EI / L ** 2                  # PL^2/EI = 3: the tip drops by about 60% of L
    ref = elastica_tip(load, EI)
    assert -ref[1] > 0.5 * L                   # a genuinely large deflection
    errs = {}
    for n in (5, 10, 20):
        tip, _ = tip_under_load(n, load)
        errs[n] = np.linalg.norm(tip[:2] - ref) / np.linalg.norm([L - ref[0], ref[1]])
    assert errs[10] < 0.01, errs
    assert errs[20] < errs[10] < errs[5]
