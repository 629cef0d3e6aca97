"""Frames where the muscles alone cannot balance the torques, against closed forms: one joint crossed by two
muscles with constant moment arms, whose torque range is the sum of each muscle's reach."""
from __future__ import annotations

import numpy as np
import scipy.optimize

from engine.muscles.forces.balance import crossed, muscles_alone_unbalanced


def test_torques_beyond_the_muscles_reach_are_unbalanced():
    # coordinate 0: a flexor (arm 0.05 m) and an extensor (-0.03 m); coordinate 1: no muscle crosses it
    J_l = np.zeros((5, 2, 2))
    J_l[:, 0, 0], J_l[:, 1, 0] = -0.05, 0.03           # tau = -J_l^T f: the flexor gives +0.05 f
    f_lo, f_hi = np.full((5, 2), 10.0), np.full((5, 2), 1000.0)
    # reach: from 0.05*10 - 0.03*1000 = -29.5 to 0.05*1000 - 0.03*10 = 49.7 N m
    tau = np.array([[0.0, 5.0], [49.6, 0.0], [49.8, 0.0], [-29.4, 0.0], [-29.6, 0.0]])
    rows = crossed(J_l)
    assert rows.tolist() == [True, False]
    assert muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, rows).tolist() == [False, False, True, False, True]
    tau[0, 0] = np.nan
    assert muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, rows)[0]


def test_guesses_never_change_the_answer(rng):
    """Guesses of Farkas certificates (here the torque itself, which proves torques beyond the reach unbalanced, its
    opposite, which proves nothing, and noise) and of balancing tensions only spare LPs: the frames found are those
    beyond the closed-form reach [-29.5, 49.7] N m of the two muscles above, whatever the guesses."""
    T = 57
    J_l = np.zeros((T, 2, 2))
    J_l[:, 0, 0], J_l[:, 1, 0] = -0.05, 0.03
    f_lo, f_hi = np.full((T, 2), 10.0), np.full((T, 2), 1000.0)
    tau = np.zeros((T, 2))
    tau[:, 0] = np.linspace(-60.0, 80.0, T) + 0.01          # no frame within 0.01 N m of either end of the reach
    expected = ((tau[:, 0] < -29.5) | (tau[:, 0] > 49.7)).tolist()
    rows = crossed(J_l)
    for guesses in (None, tau, -tau, rng.normal(size=(T, 2)), np.full((T, 2), np.nan)):
        assert muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, rows, guesses=guesses).tolist() == expected
    # tensions to start a balancing set from: inside the box, on its bounds (no room to move), outside it
    for forces in (rng.uniform(10.0, 1000.0, size=(T, 2)), f_lo, f_hi, f_lo - 5.0, np.full((T, 2), np.nan)):
        assert muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, rows, forces=forces).tolist() == expected


def test_the_residual_at_the_boxs_nearest_balance_proves_frames_unbalanced_without_their_lp(monkeypatch):
    """Without guesses, the residual of the tensions in the box nearest to balancing a frame (bounded least squares) is
    a Farkas certificate: no frame beyond the reach (by at least 0.3 N m here) is left to the LP, and the frames
    within it are still found balanced (by the LP: no balancing set is sought without tensions to start from)."""
    T = 40
    J_l = np.zeros((T, 2, 2))
    J_l[:, 0, 0], J_l[:, 1, 0] = -0.05, 0.03
    f_lo, f_hi = np.full((T, 2), 10.0), np.full((T, 2), 1000.0)
    tau = np.zeros((T, 2))
    tau[:, 0] = np.concatenate([np.linspace(-60.0, -29.8, 10), np.linspace(-29.0, 49.0, 20), np.linspace(50.0, 80, 10)])
    lp_found_unbalanced = []
    real_linprog = scipy.optimize.linprog          # balance imports it when it calls it

    def linprog(*args, **kwargs):
        solution = real_linprog(*args, **kwargs)
        lp_found_unbalanced.append(solution.status != 0)
        return solution

    monkeypatch.setattr(scipy.optimize, "linprog", linprog)
    out = muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, crossed(J_l))
    assert out.tolist() == ((tau[:, 0] < -29.5) | (tau[:, 0] > 49.7)).tolist()
    assert len(lp_found_unbalanced) == 20 and not any(lp_found_unbalanced)     # 40 LPs, 20 unbalanced, did before


def test_the_kernels_bounded_least_squares_finds_scipys_nearest_balance(rng):
    """The balance kernel's bounded-variable least squares (a port of scipy's ``lsq_linear(method="bvls")``) reaches
    the same residual ``b - A f`` (unique, even where ``f`` is not: fewer rows than tensions) as scipy, on boxes of
    the size of a leg's muscles over its coordinates, with balances inside and outside the box's reach."""
    from engine.kernels._balance import bounded_least_squares
    for _ in range(40):
        k, m = int(rng.integers(2, 16)), int(rng.integers(2, 50))
        A = rng.standard_normal((k, m)) * rng.uniform(0.01, 0.1, m)     # moment arms, m
        f_lo = rng.uniform(0.0, 10.0, m)
        f_hi = f_lo + rng.uniform(10.0, 2000.0, m)
        b = A @ rng.uniform(-500.0, 2500.0, m)                           # some within the reach, some beyond
        expected = b - A @ scipy.optimize.lsq_linear(A, b, bounds=(f_lo, f_hi), method="bvls", tol=1e-12).x
        f = bounded_least_squares(A, b, f_lo, f_hi, 1e-12)
        assert np.all(f >= f_lo - 1e-9 * f_hi) and np.all(f <= f_hi + 1e-9 * f_hi)     # (to round-off)
        assert np.allclose(b - A @ f, expected, rtol=0.0, atol=1e-9 * (1.0 + np.linalg.norm(b)))


def test_a_muscle_whose_bounds_meet_changes_nothing():
    """A muscle that can produce no tension (its bounds meet at 0: no active force, no passive force) adds nothing to
    the reach [-29.5, 49.7] N m of the two muscles above: the same frames are unbalanced (scipy's bounded least
    squares refused such a box; the balance kernel's takes it)."""
    T = 12
    J_l = np.zeros((T, 3, 1))
    J_l[:, 0, 0], J_l[:, 1, 0], J_l[:, 2, 0] = -0.05, 0.03, -0.04
    f_lo = np.tile([10.0, 10.0, 0.0], (T, 1))
    f_hi = np.tile([1000.0, 1000.0, 0.0], (T, 1))
    tau = np.linspace(-60.0, 80.0, T)[:, None] + 0.01
    out = muscles_alone_unbalanced(J_l, tau, f_lo, f_hi, crossed(J_l))
    assert out.tolist() == ((tau[:, 0] < -29.5) | (tau[:, 0] > 49.7)).tolist()
