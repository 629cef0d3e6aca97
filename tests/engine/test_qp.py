"""engine.qp.solve_qp, the engine's cold QP solve, against closed forms (a projection onto a box, onto a half-space, onto
a box cut by a hyperplane), against qpsolvers (whose folding of the bounds it copies, so its solutions are the same to
the bit), and its refusals with quadprog's reason."""
import numpy as np
import pytest
from qpsolvers import solve_qp as qpsolvers_solve_qp
from scipy.optimize import brentq

from engine.qp import solve_qp


@pytest.fixture
def rng():
    return np.random.default_rng(16)


def test_a_separable_qp_in_a_box_is_the_clipped_unconstrained_minimum(rng):
    for _ in range(20):
        n = 7
        h, c = rng.uniform(0.5, 3.0, n), rng.normal(size=n)
        lb, ub = -rng.uniform(0.0, 0.5, n), rng.uniform(0.0, 0.5, n)
        lb[0], ub[1] = -np.inf, np.inf                  # infinite bounds are bounds not there
        x, reason = solve_qp(np.diag(h), c, lb=lb, ub=ub)
        assert reason is None
        np.testing.assert_allclose(x, np.clip(-c / h, lb, ub), rtol=0, atol=1e-12)


def test_a_projection_onto_a_half_space(rng):
    for _ in range(20):
        p, a, beta = rng.normal(size=5), rng.normal(size=5), rng.normal()
        x, reason = solve_qp(np.eye(5), -p, G=a[None], h=np.array([beta]))
        expected = p - max(0.0, a @ p - beta) / (a @ a) * a
        assert reason is None
        np.testing.assert_allclose(x, expected, rtol=0, atol=1e-12)


def test_a_projection_onto_a_box_cut_by_a_hyperplane(rng):
    # min 1/2 |x - p|^2 with sum x = s, lb <= x <= ub: x = clip(p - lam, lb, ub) with lam where the sum is s
    for _ in range(20):
        n = 6
        p, lb = rng.normal(size=n), -rng.uniform(0.1, 1.0, n)
        ub = rng.uniform(0.1, 1.0, n)
        s = rng.uniform(lb.sum(), ub.sum())
        lam = brentq(lambda m: np.clip(p - m, lb, ub).sum() - s, -10.0, 10.0, xtol=1e-15)
        x, reason = solve_qp(np.eye(n), -p, A=np.ones((1, n)), b=np.array([s]), lb=lb, ub=ub)
        assert reason is None
        np.testing.assert_allclose(x, np.clip(p - lam, lb, ub), rtol=0, atol=1e-9)
        assert np.all(x >= lb) and np.all(x <= ub)


def test_the_solutions_are_qpsolvers_quadprog_solutions(rng):
    for _ in range(30):
        n, m, e = 8, 4, 2
        R = rng.normal(size=(n, n))
        P, c = R @ R.T + 0.1 * np.eye(n), rng.normal(size=n)
        G, A = rng.normal(size=(m, n)), rng.normal(size=(e, n))
        x0 = rng.uniform(-0.5, 0.5, n)                  # a feasible point: every constraint holds there
        h, b = G @ x0 + rng.uniform(0.0, 0.3, m), A @ x0
        lb, ub = x0 - rng.uniform(0.0, 1.0, n), x0 + rng.uniform(0.0, 1.0, n)
        reference = qpsolvers_solve_qp(P, c, G, h, A, b, lb, ub, solver="quadprog")
        x, reason = solve_qp(P, c, G, h, A, b, lb, ub)
        assert reason is None
        np.testing.assert_array_equal(x, np.clip(reference, lb, ub))


def test_no_solution_is_none_with_quadprogs_reason():
    x, reason = solve_qp(np.eye(2), np.zeros(2), A=np.ones((1, 2)), b=np.array([3.0]), lb=np.zeros(2), ub=np.ones(2))
    assert x is None and "inconsistent" in reason
    x, reason = solve_qp(np.array([[1.0, 0.0], [0.0, -1.0]]), np.zeros(2))
    assert x is None and "positive definite" in reason
