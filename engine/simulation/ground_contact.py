"""Penalty ground contact with regularised Coulomb friction (seed 002, eqs. 6-7), on a horizontal floor.

For a contact point at world position ``p`` (m) moving at ``pd`` (m/s) over a floor of height
``floor`` along the world's up axis ``n`` (unit), with penetration ``d = floor - p.n``:

* normal force (eq. 6 plus a normal damper): ``f_n = k d + c (-pd.n) min(1, d / delta)`` for
  ``d > 0``, never negative (the floor only pushes); the damper fades in over the first
  ``delta`` metres of penetration, so the force is continuous at touch-down;
* friction (eq. 7, Martins and Oden): with ``V`` the tangential velocity and ``F_c = mu f_n``,
  ``f_t = -F_c V / eps`` if ``|V| <= eps``, else ``-F_c V / |V|``.

:func:`penalty_force` also returns the force's derivatives with respect to ``p`` and ``pd``,
which the implicit integrator needs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from ..errors import SettingsError


@dataclass(frozen=True)
class GroundContact:
    """Parameters of the penalty contact of every contact point with the floor.

    stiffness : N/m per point (k of eq. 6)
    damping : N s/m per point (normal damper)
    damping_depth : m over which the damper fades in (delta)
    friction : Coulomb coefficient mu
    slip_speed : m/s below which friction is viscous (eps of eq. 7)
    floor : m, floor height along ``up``
    up : unit vector, world frame
    """

    stiffness: float = 5.0e4
    damping: float = 400.0
    damping_depth: float = 1.0e-3
    friction: float = 0.8
    slip_speed: float = 0.01
    floor: float = 0.0
    up: tuple = (0.0, 1.0, 0.0)

    def __post_init__(self):
        for name in ("stiffness", "damping_depth", "slip_speed"):
            if not getattr(self, name) > 0:
                raise SettingsError(f"{name} must be positive, got {getattr(self, name)}", "ground contact")
        for name in ("damping", "friction"):
            if not getattr(self, name) >= 0:
                raise SettingsError(f"{name} must be zero or positive, got {getattr(self, name)}", "ground contact")
        up = np.asarray(self.up, float)
        if up.shape != (3,) or abs(np.linalg.norm(up) - 1.0) > 1e-12:
            raise SettingsError(f"up must be a unit 3-vector, got {self.up}", "ground contact")

    def parameters(self) -> np.ndarray:
        """Flat parameters for :func:`penalty_force`."""
        return np.array([self.stiffness, self.damping, self.damping_depth, self.friction, self.slip_speed,
                         self.floor, *self.up])


@nb.njit(cache=True, nogil=True)
def penalty_force(par, p, pd, f, dfdp, dfdv):
    """Force of the floor on a point (N, world) into ``f``; its Jacobians (3 x 3) into ``dfdp``
    (N/m) and ``dfdv`` (N s/m). Returns the penetration depth (m, negative when above the floor)."""
    k, c, delta, mu, eps, floor = par[0], par[1], par[2], par[3], par[4], par[5]
    n = par[6:9]
    for i in range(3):
        f[i] = 0.0
        for j in range(3):
            dfdp[i, j] = 0.0
            dfdv[i, j] = 0.0
    d = floor - (p[0] * n[0] + p[1] * n[1] + p[2] * n[2])
    if d <= 0.0:
        return d
    vn = pd[0] * n[0] + pd[1] * n[1] + pd[2] * n[2]
    ramp = d / delta if d < delta else 1.0
    fn = k * d - c * vn * ramp
    if fn <= 0.0:
        return d
    # d fn / d p = -(k - c vn d ramp/d d) n ; d fn / d pd = -c ramp n
    dramp = 1.0 / delta if d < delta else 0.0
    dfn_dd = k - c * vn * dramp
    vt = np.empty(3)
    for i in range(3):
        vt[i] = pd[i] - vn * n[i]
    speed = np.sqrt(vt[0] ** 2 + vt[1] ** 2 + vt[2] ** 2)
    # friction direction factor g (f_t = -mu fn g vt) and its derivative with respect to vt
    if speed <= eps:
        g = 1.0 / eps
    else:
        g = 1.0 / speed
    for i in range(3):
        f[i] = fn * n[i] - mu * fn * g * vt[i]
    # Jacobians: fn depends on p through d (dd/dp = -n) and on pd through vn (dvn/dpd = n)
    for i in range(3):
        coef = n[i] - mu * g * vt[i]
        for j in range(3):
            dfdp[i, j] = -coef * dfn_dd * n[j]
            dfdv[i, j] = coef * (-c * ramp) * n[j]
    # friction's own dependence on the tangential velocity: P = I - n n^T
    for i in range(3):
        for j in range(3):
            Pij = (1.0 if i == j else 0.0) - n[i] * n[j]
            if speed <= eps:
                dfdv[i, j] += -mu * fn * g * Pij
            else:
                dfdv[i, j] += -mu * fn * g * (Pij - vt[i] * vt[j] / (speed * speed))
    return d
