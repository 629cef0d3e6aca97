"""The force-estimation QPs on small synthetic problems whose solutions are known in closed form.

Seed objective (eqs. 36-37): inactive bounds give the weighted least-squares solution; one active
bound gives that force at its bound and least squares for the others; W2 pulls towards f_ref as the
normal equations say. OpenSim objective: the minimum-norm activations meeting the equality. Then the
warm start (the same optima as cold quadprog solves) and infeasibility as a result.
"""
from __future__ import annotations

import numpy as np
import pytest
from qpsolvers import Problem, solve_problem

from engine.muscles.forces.hill import RigidTendonForces
from engine.errors import SettingsError
from engine.muscles.forces.qp import (INFEASIBLE, OPTIMAL_QUADPROG, OPTIMAL_WARM, CostNotPositiveDefinite,
                                        WarmStartedQP, cold_solve)
from engine.muscles.forces.static_optimization import MuscleForceSettings, solve_muscle_forces

F0 = 1000.0


def hill_of(active, passive=None):
    active = np.atleast_2d(np.asarray(active, float))
    passive = np.zeros_like(active) if passive is None else np.atleast_2d(np.asarray(passive, float))
    T, m = active.shape
    z = np.zeros((T, m))
    return RigidTendonForces(tuple(f"m{j}" for j in range(m)), z, z + 1, z + 1, z, z + 1, z + 1, z, active, passive,
                             np.full(m, F0), np.zeros((T, m), bool), ())


def seed(**kw):
    return MuscleForceSettings(objective="seed", **kw)


def least_squares_problem(rng):
    """A 3-muscle, 4-coordinate problem whose unconstrained least-squares forces are all positive."""
    while True:
        J = rng.normal(scale=0.05, size=(1, 3, 4))
        f_true = rng.uniform(200, 800, size=3)
        tau = -(J[0].T @ f_true) + rng.normal(scale=1.0, size=4)
        f_ls = -np.linalg.solve(J[0] @ J[0].T, J[0] @ tau)
        if np.all(f_ls > 50):
            return J, tau[None], f_ls


def test_seed_inactive_bounds_give_weighted_least_squares(rng):
    J, tau, _ = least_squares_problem(rng)
    w = np.array([1.0, 2.0, 0.5, 3.0])
    names = [f"v{i}" for i in range(4)]
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 3), 1e6)), seed(tracking_weight=dict(zip(names, w))),
                              coordinate_names=names)
    Jt = J[0]
    f_ls = -np.linalg.solve(Jt @ np.diag(w) @ Jt.T, Jt @ np.diag(w) @ tau[0])
    assert np.all(f_ls > 0)
    assert np.allclose(out.forces[0], f_ls, rtol=1e-6)
    assert out.success.all() and np.allclose(out.residual[0], tau[0] + Jt.T @ out.forces[0])


def test_seed_one_active_bound(rng):
    J, tau, f_ls = least_squares_problem(rng)
    cap = 0.5 * f_ls[0]
    active = np.array([[cap, 1e6, 1e6]])
    out = solve_muscle_forces(J, tau, hill_of(active), seed())
    Jr, j0 = J[0][1:], J[0][0]
    f_rest = -np.linalg.solve(Jr @ Jr.T, Jr @ (tau[0] + j0 * cap))
    grad0 = j0 @ (tau[0] + J[0].T @ np.concatenate([[cap], f_rest]))    # d cost / d f0 at the solution
    assert np.all(f_rest > 0) and grad0 < 0                               # KKT: f0 wants to grow, capped
    assert out.forces[0, 0] == pytest.approx(cap, rel=1e-12)
    assert np.allclose(out.forces[0, 1:], f_rest, rtol=1e-6)


def test_seed_passive_lower_bound_and_reference_weight(rng):
    J, tau, f_ls = least_squares_problem(rng)
    passive = np.array([[f_ls[0] + 100.0, 0.0, 0.0]])
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 3), 1e6), passive), seed())
    assert out.forces[0, 0] == pytest.approx(passive[0, 0], rel=1e-12)    # held at its passive force
    assert out.activations[0, 0] == pytest.approx(0.0, abs=1e-12)
    f_ref = f_ls[None] + np.array([[50.0, -30.0, 20.0]])
    w2 = 1e-3
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 3), 1e6)), seed(reference_weight=w2), f_ref=f_ref)
    Jt = J[0]
    expected = np.linalg.solve(Jt @ Jt.T + w2 * np.eye(3), w2 * f_ref[0] - Jt @ tau[0])
    assert np.allclose(out.forces[0], expected, rtol=1e-6)


def test_boxes_whose_bounds_meet_are_solved_where_quadprog_alone_fails(rng):
    """A muscle that can produce no active force has f_min = f_max (to round-off); quadprog alone reports some
    such problems infeasible. Every solution must meet the KKT conditions of the box-constrained problem, with
    and without an equality constraint."""
    quadprog_failed = 0
    for trial in range(200):
        n = 10
        A = rng.normal(size=(n, n))
        H, g = A @ A.T + 1e-3 * np.eye(n), 10.0 * rng.normal(size=n)
        lb, ub = np.zeros(n), np.full(n, 5.0)
        held = rng.choice(n, 2, replace=False)
        lb[held] = rng.uniform(0.0, 1.0, 2)
        ub[held] = lb[held] + np.array([0.0, 1e-15])[: len(held)]
        Aeq, beq = (None, None) if trial % 2 else (np.ones((1, n)), np.array([lb[held].sum() + 8.0]))
        problem = Problem(H, g, None, None, Aeq, beq, lb, ub)
        quadprog_failed += not solve_problem(problem, solver="quadprog").found
        if Aeq is None:
            x, status = WarmStartedQP().solve(H, g, lb, ub)
            assert status == OPTIMAL_QUADPROG
        else:
            x = cold_solve(H, g, lb, ub, Aeq, beq)
        assert np.all(x >= lb) and np.all(x <= ub) and np.allclose(x[held], lb[held], atol=1e-14)
        grad = H @ x + g
        if Aeq is not None:
            assert Aeq @ x == pytest.approx(beq, abs=1e-8)
            free = ~np.isin(np.arange(n), held) & (x > lb + 1e-9) & (x < ub - 1e-9)
            grad = grad - grad[free].mean()         # the equality's multiplier (its row is all ones)
        free = ~np.isin(np.arange(n), held)
        inside = free & (x > lb + 1e-9) & (x < ub - 1e-9)
        assert np.all(np.abs(grad[inside]) < 1e-6)
        assert np.all(grad[free & (x <= lb + 1e-9)] > -1e-6) and np.all(grad[free & (x >= ub - 1e-9)] < 1e-6)
    assert quadprog_failed > 0          # the case the held variables are for does occur here


def test_opensim_minimum_norm_activations(rng):
    m, nv = 6, 3
    J = rng.normal(scale=0.05, size=(1, m, nv))
    active = rng.uniform(500, 1500, size=(1, m))
    tau = rng.normal(scale=10.0, size=(1, nv))
    A = -J[0].T * active[0]
    a_min_norm = A.T @ np.linalg.solve(A @ A.T, tau[0])
    out = solve_muscle_forces(J, tau, hill_of(active), MuscleForceSettings(objective="opensim"),
                              muscle_bounds=(np.full(m, -10.0), np.full(m, 10.0)))
    assert np.allclose(out.activations[0], a_min_norm, rtol=1e-9, atol=1e-12)
    assert np.allclose(out.forces[0], a_min_norm * active[0], rtol=1e-9, atol=1e-9)
    assert np.abs(out.residual).max() < 1e-9
    # with OpenSim's bounds [0.01, 1] the negative activations sit at 0.01
    out = solve_muscle_forces(J, tau, hill_of(active), MuscleForceSettings(objective="opensim"))
    low = out.activations[0] <= 0.01 + 1e-12
    assert low.any() and np.all(out.activations[0] >= 0.01 - 1e-12)
    Ar, A0 = A[:, ~low], A[:, low]
    rest = Ar.T @ np.linalg.solve(Ar @ Ar.T, tau[0] - A0 @ np.full(low.sum(), 0.01))
    if np.all(rest >= 0.01):
        assert np.allclose(out.activations[0, ~low], rest, rtol=1e-8)


def test_reserves_in_both_objectives(rng):
    J = np.zeros((1, 2, 2))
    J[0, :, 0] = [-0.04, -0.03]            # both muscles act on coordinate 0 only
    tau = np.array([[30.0, 5.0]])          # coordinate 1 needs a reserve
    R = np.zeros((1, 2, 1))
    R[0, 1, 0] = 1.0
    kw = dict(reserve_matrix=R, reserve_optimal_force=np.array([2.0]), reserve_names=("c1_reserve",))
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 2), 1000.0)), MuscleForceSettings(objective="opensim"),
                              **kw)
    assert out.reserve_forces[0, 0] == pytest.approx(5.0, rel=1e-12)
    assert out.reserve_controls[0, 0] == pytest.approx(2.5, rel=1e-12)
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 2), 1e6)), seed(reserve_weight=1.0), **kw)
    # seed: minimise 1/2 (5 - 2 c)^2 + 1/2 c^2  ->  c = 10 / 5 = 2, force 4
    assert out.reserve_controls[0, 0] == pytest.approx(2.0, rel=1e-9)
    assert out.residual[0, 1] == pytest.approx(1.0, rel=1e-9)


def test_warm_start_reaches_the_same_optima_as_cold_solves(rng):
    T, m, nv = 60, 8, 4
    t = np.linspace(0, 1, T)[:, None, None]
    J = 0.05 * np.sin(2 * np.pi * t + rng.uniform(0, 6, size=(1, m, nv)))
    active = 800 + 300 * np.sin(2 * np.pi * t[:, :, 0] + rng.uniform(0, 6, size=(1, m)))
    tau = 3 * np.sin(2 * np.pi * t[:, 0, :] + rng.uniform(0, 6, size=(1, nv)))
    out = solve_muscle_forces(J, tau, hill_of(active), MuscleForceSettings(objective="opensim"))
    assert out.status.count(OPTIMAL_WARM) > T // 2 and out.status[0] == OPTIMAL_QUADPROG
    for k in range(T):
        A = -J[k].T * active[k]
        sol = solve_problem(Problem(2 * np.eye(m), np.zeros(m), None, None, A, tau[k], np.full(m, 0.01),
                                    np.ones(m)), solver="quadprog")
        if sol.found:
            assert np.allclose(out.activations[k], sol.x, atol=1e-8), k
        else:
            assert out.status[k] == INFEASIBLE


def test_infeasible_frames_are_results_not_exceptions(rng):
    J = rng.normal(scale=0.05, size=(3, 4, 2))
    tau = rng.normal(scale=1.0, size=(3, 2))
    tau[1] *= 1e5                               # far beyond what four muscles can produce
    out = solve_muscle_forces(J, tau, hill_of(np.full((3, 4), 500.0)), MuscleForceSettings(objective="opensim"),
                              muscle_bounds=(np.zeros(4), np.ones(4)))
    assert out.success.tolist() == [True, False, True]
    assert out.status[1] == INFEASIBLE and np.isnan(out.forces[1]).all()
    assert np.isfinite(out.forces[[0, 2]]).all()
    assert any("1 of 3 frames infeasible" in n for n in out.notes)


def test_frames_with_missing_inputs_are_reported(rng):
    J = rng.normal(scale=0.05, size=(3, 4, 2))
    tau = rng.normal(scale=1.0, size=(3, 2))
    tau[2, 0] = np.nan                           # e.g. inverse dynamics missing at that frame
    for objective in ("seed", "opensim"):
        out = solve_muscle_forces(J, tau, hill_of(np.full((3, 4), 500.0)), MuscleForceSettings(objective=objective),
                                  muscle_bounds=(np.full(4, -10.0), np.full(4, 10.0)))
        assert out.success.tolist() == [True, True, False] and np.isnan(out.forces[2]).all()
        assert out.status[2] == "not solved (NaN in its inputs)"
        assert any("1 of 3 frames not solved" in n for n in out.notes)


def test_a_cost_without_curvature_is_an_error_naming_the_reserve_not_an_infeasible_frame():
    """Seed objective with reserve_weight 0 and a reserve acting only on a coordinate whose generalized force is not
    tracked (locked): the cost does not depend on that reserve's control, so the QP has no unique minimum and quadprog
    cannot factor it. That is the settings' fault: an error naming the reserve, never frames marked 'infeasible'."""
    J = np.array([[[-0.05, 0.02]]])                 # one muscle, two coordinates
    tau = np.array([[10.0, 3.0]])
    R = np.zeros((1, 2, 2))
    R[0, 0, 0] = R[0, 1, 1] = 1.0                   # 'res_0' on coordinate 0 (tracked), 'res_1' on 1 (locked)
    kw = dict(reserve_matrix=R, reserve_optimal_force=np.ones(2), reserve_bounds=(np.full(2, -1e3), np.full(2, 1e3)),
              reserve_names=("res_0", "res_1"), matched=np.array([True, False]))
    with pytest.raises(SettingsError, match=r"flat in reserve 'res_1' .*reserve_weight > 0"):
        solve_muscle_forces(J, tau, hill_of(np.full((1, 1), 1e6)), seed(reserve_weight=0.0), **kw)
    out = solve_muscle_forces(J, tau, hill_of(np.full((1, 1), 1e6)), seed(reserve_weight=1e-6), **kw)
    assert out.success.all() and out.reserve_forces[0, 1] == pytest.approx(0.0, abs=1e-9)   # weighted: no use


def test_a_cost_flat_in_muscles_is_an_error_about_the_regularization_not_the_reserves():
    """Two muscles with the same moment arm: the tracking term sees only their sum, and a regularization too small
    to show beside it leaves the cost flat along their difference. The advice is about the muscles' term."""
    J = np.array([[[-0.05], [-0.05]]])
    with pytest.raises(SettingsError, match=r"flat in muscle 'm0', muscle 'm1' .*larger regularization: 1e-20") as error:
        solve_muscle_forces(J, np.array([[10.0]]), hill_of(np.full((1, 2), 1e3)), seed(regularization=1e-20))
    assert "reserve" not in str(error.value)
    out = solve_muscle_forces(J, np.array([[10.0]]), hill_of(np.full((1, 2), 1e3)), seed())
    assert out.success.all() and out.forces[0] == pytest.approx([100.0, 100.0], rel=1e-6)   # 0.05 * 200 N = 10 N m


def test_cold_solve_names_the_variables_a_cost_is_flat_in():
    H = np.diag([2.0, 0.0, 1.0])
    with pytest.raises(CostNotPositiveDefinite) as error:
        cold_solve(H, np.ones(3), np.zeros(3), np.ones(3), None, None)
    assert error.value.variables == (1,) and error.value.smallest_eigenvalue == 0.0
    # a variable held (its bounds meet) takes no part in the cost's factorisation: the rest is positive definite
    x = cold_solve(H, np.array([-1.0, 0.0, -0.5]), np.array([0.0, 0.3, 0.0]), np.array([1.0, 0.3, 1.0]), None, None)
    np.testing.assert_allclose(x, [0.5, 0.3, 0.5], rtol=0, atol=1e-12)
