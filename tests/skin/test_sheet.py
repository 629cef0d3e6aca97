"""Mass-spring sheets (seed eqs. 4-5) by Liu et al.'s local/global solver."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from engine.errors import ModelError
from skin.mesh import grid_sheet
from skin.sheet import LocalGlobalSolver, MassSpringSheet, static_shape

G = np.array([0.0, -9.80665, 0.0])


def _corner_pinned(n):
    mesh = grid_sheet(1.0, 1.0, n, n)
    return MassSpringSheet("sheet", mesh, mass=10.0, stiffness=1000.0, pinned=(0, n - 1, n * (n - 1), n * n - 1))


def _reference_statics(sheet):
    """The same energy (springs of eq. 5 minus gravity's work) minimised by L-BFGS to a 1e-11 gradient."""
    x0 = sheet.mesh.vertices
    free = np.setdiff1d(np.arange(len(x0)), sheet.pinned)
    e, r, k = sheet.edges, sheet.rest_lengths, sheet.stiffness
    f = sheet.masses[:, None] * G

    def energy(z):
        x = x0.copy()
        x[free] = z.reshape(-1, 3)
        u = x[e[:, 0]] - x[e[:, 1]]
        length = np.linalg.norm(u, axis=1)
        g = np.zeros_like(x)
        fe = (k * (length - r) / length)[:, None] * u
        np.add.at(g, e[:, 0], fe)
        np.add.at(g, e[:, 1], -fe)
        return 0.5 * k * np.sum((length - r) ** 2) - np.sum(f * x), (g - f)[free].ravel()

    start = x0[free] - np.array([0.0, 0.1, 0.0])
    res = minimize(energy, start.ravel(), jac=True, method="L-BFGS-B",
                   options=dict(maxiter=100000, gtol=1e-11, ftol=0.0, maxcor=50))
    x = x0.copy()
    x[free] = res.x.reshape(-1, 3)
    return x


def test_static_sag_of_a_corner_pinned_sheet_matches_a_converged_minimiser():
    sheet = _corner_pinned(11)
    x, history = static_shape(sheet, iterations=20000, tol=1e-13, record=True)
    ref = _reference_statics(sheet)
    sag = -ref[:, 1].min()
    assert sag > 0.1                         # it hangs well below its corners
    assert abs(-x[:, 1].min() - sag) < 1e-6 * sag
    np.testing.assert_allclose(x, ref, atol=1e-6 * sag)
    assert np.all(np.diff(history) <= 1e-12 * abs(history[0]))


def test_local_global_energy_decreases_every_iteration(rng):
    """One implicit step from a disturbed state: g(x) never increases over the iterations."""
    sheet = _corner_pinned(9)
    dt = 1e-2
    solver = LocalGlobalSolver(sheet, 1.0 / dt ** 2)
    x = sheet.mesh.vertices + 0.02 * rng.standard_normal(sheet.mesh.vertices.shape)
    v = 0.5 * rng.standard_normal(x.shape)
    f = sheet.masses[:, None] * G
    _, history = solver.solve(x, x + dt * v, f, sheet.mesh.vertices[list(sheet.pinned)], iterations=50,
                              record=True)
    assert len(history) == 50
    assert np.all(np.diff(history) <= 1e-12 * abs(history[0]))
    assert history[-1] < history[0]


def _floor(sheet, height):
    """Every vertex's contact: a floor at ``height`` m whose outward normal is +y (the sheet stays above it)."""
    n = sheet.mesh.n_vertices
    anchor = np.zeros((n, 6))
    anchor[:, 1] = height
    anchor[:, 4] = 1.0
    return np.arange(n), anchor


def test_sag_onto_a_floor_matches_a_converged_minimiser():
    """The contact springs inside the local/global solve: a corner-pinned sheet sagging onto a floor 5 cm below its
    corners comes to the minimiser of eq. 5's energy plus k_c/2 max(0, depth)^2 less gravity's work (L-BFGS)."""
    sheet = _corner_pinned(9)
    idx, anchor = _floor(sheet, -0.05)
    k_c = 2e4
    solver = LocalGlobalSolver(sheet, 0.0)
    x0 = sheet.mesh.vertices
    f = sheet.masses[:, None] * G
    x, history = solver.solve(x0, x0, f, x0[list(sheet.pinned)], iterations=20000, tol=1e-13, record=True,
                              contact=(idx, anchor, k_c))
    free = np.setdiff1d(np.arange(len(x0)), sheet.pinned)
    e, r, k = sheet.edges, sheet.rest_lengths, sheet.stiffness

    def energy(z):
        y = x0.copy()
        y[free] = z.reshape(-1, 3)
        u = y[e[:, 0]] - y[e[:, 1]]
        length = np.linalg.norm(u, axis=1)
        g = np.zeros_like(y)
        fe = (k * (length - r) / length)[:, None] * u
        np.add.at(g, e[:, 0], fe)
        np.add.at(g, e[:, 1], -fe)
        depth = np.maximum(-0.05 - y[:, 1], 0.0)
        g[:, 1] -= k_c * depth
        return 0.5 * k * np.sum((length - r) ** 2) + 0.5 * k_c * np.sum(depth ** 2) - np.sum(f * y), (g - f)[free].ravel()

    res = minimize(energy, (x0[free] - [0.0, 0.04, 0.0]).ravel(), jac=True, method="L-BFGS-B",
                   options=dict(maxiter=100000, gtol=1e-11, ftol=0.0, maxcor=50))
    ref = x0.copy()
    ref[free] = res.x.reshape(-1, 3)
    assert ref[:, 1].min() < -0.05                                  # the floor carries part of the sheet
    np.testing.assert_allclose(x, ref, atol=1e-7)
    assert np.all(np.diff(history) <= 1e-12 * abs(history[0]))


def test_local_global_energy_with_contact_decreases_every_iteration(rng):
    sheet = _corner_pinned(9)
    idx, anchor = _floor(sheet, -0.01)
    idx[::3] = -1                                                   # some vertices without a contact
    dt = 1e-2
    solver = LocalGlobalSolver(sheet, 1.0 / dt ** 2)
    x = sheet.mesh.vertices + 0.02 * rng.standard_normal(sheet.mesh.vertices.shape)
    v = 0.5 * rng.standard_normal(x.shape) - [0.0, 2.0, 0.0]
    f = sheet.masses[:, None] * G
    _, history = solver.solve(x, x + dt * v, f, sheet.mesh.vertices[list(sheet.pinned)], iterations=50,
                              record=True, contact=(idx, anchor, 2e4))
    assert len(history) == 50
    assert np.all(np.diff(history) <= 1e-12 * abs(history[0]))
    assert history[-1] < history[0]


def test_pins_given_in_any_order_hold_their_own_vertices():
    """A sheet pinned at two corners named in reverse index order: each pinned vertex stays where it was (the solver
    lists the fixed vertices by index; positions handed in the sheet's own order once swapped the two corners)."""
    n = 6
    mesh = grid_sheet(1.0, 1.0, n, n)
    sheet = MassSpringSheet("sheet", mesh, mass=1.0, stiffness=1000.0, pinned=(n * n - 1, 0))
    x = static_shape(sheet, iterations=50)
    assert np.array_equal(x[[0, n * n - 1]], mesh.vertices[[0, n * n - 1]])
    assert x[:, 1].min() < -1e-3                                   # the rest sags between them


def test_pins_keep_the_order_given_and_a_repeated_or_fractional_pin_is_an_error():
    """``pinned`` and ``pinned_positions`` list the pins as the user named them (not sorted), and the solver holds
    each at its own position when the corners move (a pin given as 1.5 was truncated to 1, a repeated one dropped)."""
    n = 6
    mesh = grid_sheet(1.0, 1.0, n, n)
    order = (n * n - 1, 0, n - 1)
    sheet = MassSpringSheet("sheet", mesh, mass=1.0, stiffness=1000.0, pinned=order)
    assert sheet.pinned == order
    np.testing.assert_array_equal(sheet.pinned_positions(0.0), mesh.vertices[list(order)])
    moved = sheet.pinned_positions(0.0) + np.array([[0.0, 0.1, 0.0], [0.0, -0.1, 0.0], [0.05, 0.0, 0.0]])
    solver = LocalGlobalSolver(sheet, 0.0)
    x = solver.solve(mesh.vertices, mesh.vertices, np.zeros((n * n, 3)), moved, iterations=3)
    np.testing.assert_array_equal(x[list(order)], moved)
    for pins, problem in [((0, 5, 0), "pinned vertex 0 is named twice"),
                          ((0, 1.5), r"pinned vertex 1.5 is not a vertex index \(an integer\)"),
                          ((0, n * n), rf"pinned vertex {n * n} does not lie in \[0, {n * n}\)")]:
        with pytest.raises(ModelError, match=problem):
            MassSpringSheet("sheet", mesh, pinned=pins)
