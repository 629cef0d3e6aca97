"""Static equilibrium of rods under gravity and dead loads (e.g. a blade compression test)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from ..tree import compile_tree
from . import _args
from .dynamics import generalized_gravity, rod_forces
from .energy import elastic_energy, potential_energy, rod_stiffness
from .jacobians import point_jacobians
from .kinematics import forward_kinematics, frame_positions, frame_id


@dataclass
class StaticResult:
    """``q`` at equilibrium; ``residual`` is the largest generalized-force imbalance (N or N m) on the
    solved coordinates, ``success`` whether it is below ``tol`` times the largest generalized force
    the loads produce at the start."""
    q: np.ndarray
    success: bool
    message: str
    iterations: int
    residual: float


def static_equilibrium(model, data, q0, forces=None, gravity: bool = True, coordinates=None,
                       tol: float = 1e-9, max_iterations: int = 2000) -> StaticResult:
    """Minimise the total potential energy over ``coordinates`` (default: every rod strain).

    ``forces`` maps frame/point names to constant world-frame forces (N) at their origins (dead loads).
    The other coordinates stay at their values in ``q0``. The gradient is analytic:
    ``K (q - q_rest) + g(q) - sum J_k^T F_k`` (seed eq. 26 plus gravity and loads).
    """
    q0 = _args.q(model, q0)
    tree = compile_tree(model)
    if coordinates is None:
        coordinates = [n for r in model.rods for n in r.coordinate_names()]
    if not coordinates:
        raise ModelError("has no coordinates to solve for (no rods and none given)", f"model '{model.name}'")
    slots = [tree.coordinates[c] for c in coordinates]
    qi = np.array([s.qi for s in slots])
    vi = np.array([s.vi for s in slots])
    names = list((forces or {}).keys())
    F = np.array([np.asarray(forces[n], float).reshape(3) for n in names]) if names else np.zeros((0, 3))
    ids = [frame_id(model, n) for n in names]
    zero = np.zeros(model.nv)
    # Precondition with the rods' stiffness so that the Hessian is close to identity for small loads.
    stiffness = rod_stiffness(model)
    scale = np.array([1.0 / np.sqrt(stiffness.get(int(i), 1.0)) for i in qi])

    def unpack(y):
        q = q0.copy()
        q[qi] = q0[qi] + y * scale
        return q

    def energy_and_gradient(y):
        q = unpack(y)
        e = potential_energy(model, data, q) if gravity else elastic_energy(model, q)
        g = -rod_forces(model, q, zero)
        if gravity:
            g += generalized_gravity(model, data, q)
        if names:
            forward_kinematics(model, data, q)
            x = frame_positions(model, data, ids)
            e -= float(np.sum(F * x))
            J = point_jacobians(model, data, q, names)
            g -= np.einsum("kij,ki->j", J, F)
        return e, g[vi] * scale

    start = float(np.abs(energy_and_gradient(np.zeros(len(qi)))[1] / scale).max())
    # Energy descent finds the stable equilibrium; solving the gradient equations then polishes it
    # below the energy's own rounding level.
    from scipy.optimize import minimize, root     # imported when used: the engine's import stays light
    res = minimize(energy_and_gradient, np.zeros(len(qi)), jac=True, method="BFGS",
                   options={"gtol": tol * max(start, 1e-300) * float(scale.min()), "maxiter": max_iterations})
    polish = root(lambda y: energy_and_gradient(y)[1], res.x, method="hybr", options={"xtol": 1e-14})
    y = polish.x if _residual(energy_and_gradient, polish.x, scale) < _residual(energy_and_gradient, res.x, scale) \
        else res.x
    residual = _residual(energy_and_gradient, y, scale)
    return StaticResult(unpack(y), residual <= tol * start, f"{res.message} / {polish.message}",
                        int(res.nit) + int(polish.nfev), residual)


def _residual(energy_and_gradient, y, scale) -> float:
    return float(np.abs(energy_and_gradient(y)[1] / scale).max())

