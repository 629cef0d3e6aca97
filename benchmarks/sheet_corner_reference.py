"""The converged static sag of a sheet held at its corners by square patches (issue 23; docs/mass-spring-sheet.md).

The 1 m square sheet of Table I (10 kg, k = 1000 N/m per spring) held by the four ``corner_patches`` of side
``PATCH`` m, on ``grid_sheet`` meshes of 2^m + 1 vertices a side; each mesh's equilibrium is found by Newton's method
on the discrete energy (eq. 5's springs less gravity's work; the springs' exact Hessian, or its part in tension where
that is not a descent direction, backtracking on the energy) from the coarser mesh's equilibrium interpolated, to a
gradient of ``GTOL`` N: an independent minimiser, not the local/global solver the tests check. Prints the centre sag of
each mesh, the observed order of each three successive meshes and Richardson's extrapolation s* = s + (s - s_coarse) /
(2^p - 1), then one line ``RESULT``.

    .venv/bin/python benchmarks/sheet_corner_reference.py [finest vertices a side, default 257]
"""
from __future__ import annotations

import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from skin.mesh import grid_sheet
from skin.sheet import MassSpringSheet, corner_patches, static_shape

PATCH = 0.25                        # m, the side of each corner's square patch
GRAVITY = np.array([0.0, -9.80665, 0.0])
GTOL = 1e-10                        # N, the largest free gradient component at convergence


def corner_held(n: int) -> MassSpringSheet:
    mesh = grid_sheet(1.0, 1.0, n, n)
    return MassSpringSheet("corner-held", mesh, mass=10.0, stiffness=1000.0, regions=corner_patches(mesh, PATCH))


def _energy_gradient(sheet, x, f):
    e, r, k = sheet.edges, sheet.rest_lengths, sheet.stiffness
    u = x[e[:, 0]] - x[e[:, 1]]
    length = np.linalg.norm(u, axis=1)
    fe = (k * (length - r) / length)[:, None] * u
    g = np.zeros_like(x)
    np.add.at(g, e[:, 0], fe)
    np.add.at(g, e[:, 1], -fe)
    return 0.5 * k * np.sum((length - r) ** 2) - np.sum(f * x), g - f


def _hessian(sheet, x, dof, tension_only):
    """The springs' Hessian k [u u^T + (1 - r/l)(I - u u^T)] per spring, on the free coordinates ``dof``."""
    e, r, k = sheet.edges, sheet.rest_lengths, sheet.stiffness
    u = x[e[:, 0]] - x[e[:, 1]]
    length = np.linalg.norm(u, axis=1)
    u = u / length[:, None]
    c = 1.0 - r / length
    if tension_only:
        c = np.maximum(c, 0.0)
    K = k * (u[:, :, None] * u[:, None, :] * (1.0 - c)[:, None, None] + c[:, None, None] * np.eye(3))
    i3 = np.arange(3)
    rows, cols, vals = [], [], []
    for a, b, sign in ((0, 0, 1.0), (1, 1, 1.0), (0, 1, -1.0), (1, 0, -1.0)):
        rows.append(np.broadcast_to(e[:, a, None, None] * 3 + i3[None, :, None], K.shape).ravel())
        cols.append(np.broadcast_to(e[:, b, None, None] * 3 + i3[None, None, :], K.shape).ravel())
        vals.append((sign * K).ravel())
    n3 = 3 * sheet.mesh.n_vertices
    H = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n3, n3))
    return H[dof][:, dof].tocsc()


def newton(sheet: MassSpringSheet, x0: np.ndarray, max_iterations: int = 200):
    """The equilibrium from ``x0`` (n, 3): positions, iterations, the largest free gradient component (N)."""
    f = sheet.masses[:, None] * GRAVITY
    free = np.setdiff1d(np.arange(sheet.mesh.n_vertices), sheet.held)
    dof = (free[:, None] * 3 + np.arange(3)).ravel()
    x = x0.copy()
    E, g = _energy_gradient(sheet, x, f)
    for it in range(max_iterations):
        gf = g.ravel()[dof]
        if np.abs(gf).max() < GTOL:
            return x, it, np.abs(gf).max()
        for tension_only in (False, True):
            d = -spsolve(_hessian(sheet, x, dof, tension_only), gf)
            if np.all(np.isfinite(d)) and d @ gf < 0:
                break
        t = 1.0
        while True:
            y = x.copy()
            y.reshape(-1)[dof] += t * d
            E_new, g_new = _energy_gradient(sheet, y, f)
            if E_new <= E + 1e-4 * t * (d @ gf) or t < 1e-10:
                break
            t *= 0.5
        x, E, g = y, E_new, g_new
    raise RuntimeError(f"Newton did not converge on {sheet.mesh.n_vertices} vertices: |g| {np.abs(gf).max():.1e} N")


def prolong(x: np.ndarray, n: int) -> np.ndarray:
    """The equilibrium of the n x n grid interpolated (bilinearly) to the (2n - 1) x (2n - 1) grid."""
    X = x.reshape(n, n, 3)
    fine = np.zeros((2 * n - 1, 2 * n - 1, 3))
    fine[::2, ::2] = X
    fine[1::2, ::2] = 0.5 * (X[:-1] + X[1:])
    fine[:, 1::2] = 0.5 * (fine[:, :-1:2] + fine[:, 2::2])
    return fine.reshape(-1, 3)


def main(finest: int = 257) -> None:
    n = 9
    x = static_shape(corner_held(n), iterations=5000, tol=1e-12)     # a start for the coarsest mesh only
    sags = []
    while n <= finest:
        sheet = corner_held(n)
        start = time.perf_counter()
        x, iterations, gmax = newton(sheet, x)
        sags.append(-x[(n * n) // 2, 1])
        line = f"{n:4d} vertices a side  h = 1/{n - 1:<4d} centre sag {sags[-1]:.10f} m  ({iterations} Newton " \
               f"iterations, |g| {gmax:.1e} N, {time.perf_counter() - start:.1f} s)"
        if len(sags) >= 3:
            d1, d2 = sags[-2] - sags[-3], sags[-1] - sags[-2]
            p = np.log2(d1 / d2)
            line += f"  order {p:.3f}  Richardson s* {sags[-1] + d2 / (2 ** p - 1):.8f} m"
        print(line, flush=True)
        if n < finest:
            x = prolong(x, n)
        n = 2 * n - 1
    d1, d2 = sags[-2] - sags[-3], sags[-1] - sags[-2]
    p = np.log2(d1 / d2)
    print(f"RESULT patch_m={PATCH} finest={(n + 1) // 2} order={p:.4f} "
          f"s_star_m={sags[-1] + d2 / (2 ** p - 1):.8f} s_finest_m={sags[-1]:.8f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 257)
