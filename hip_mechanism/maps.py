"""Performance maps over (alpha, beta) (seed section 5): workspace, stiffness, dexterity, bearing capacity.

* Workspace (5.1): a pose is inside when the passive limb's universal joint is within its limits (its angles
  are (beta, -alpha)) and both actuators' lengths within their strokes, and J is not singular; ``flags`` says
  which limit a pose breaks (``ALPHA_LIMIT``, ``BETA_LIMIT``, ``STROKE_SHORT``, ``STROKE_LONG``, ``SINGULAR``).
* Stiffness (5.2): K = k J^T J (eq. 16a, SI: J's moment rows in m); its smallest and largest eigenvalues (mixed
  units N/m and N m/rad), and those of the translational stiffness at o (the inverse of K^-1's translational
  block: the stiffness a force at o meets with the moments free), N/m.
* Dexterity (5.4): 1/kappa(J) in (0, 1] (eq. 19: the seed plots the inverse condition number, "0 to 1"), J's
  moment columns divided by ``characteristic_length`` first.
* Bearing capacity (5.3 by statics): the vertical load (N, along -Z at the platform's centre of mass) at which
  the more loaded actuator reaches ``actuator_force_limit``. The seed's 1376 N is a finite-element buckling
  load of its physical design (Table 4, not in its text), which a rigid-body model does not give.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import _maps
from .parameters import MechanismParameters

ALPHA_LIMIT, BETA_LIMIT, STROKE_SHORT, STROKE_LONG, SINGULAR = (
    _maps.ALPHA_LIMIT, _maps.BETA_LIMIT, _maps.STROKE_SHORT, _maps.STROKE_LONG, _maps.SINGULAR)
FLAG_NAMES = {ALPHA_LIMIT: "alpha limit", BETA_LIMIT: "beta limit", STROKE_SHORT: "stroke too short",
              STROKE_LONG: "stroke too long", SINGULAR: "singular"}
FIELDS = ("l2", "l3", "flags", "dexterity", "stiffness_min", "stiffness_max", "translational_stiffness_min",
          "translational_stiffness_max", "bearing_capacity", "stroke_margin", "joint_margin")


def flag_text(flags: int) -> str:
    """The limits a pose breaks, in words ('' inside the workspace)."""
    return "; ".join(name for bit, name in FLAG_NAMES.items() if int(flags) & bit)


@dataclasses.dataclass(frozen=True)
class PerformanceMaps:
    """Measures over the grid ``alpha`` (na,) x ``beta`` (nb,) (rad); each field (na, nb) in SI (m, N/m, N,
    rad). ``inside`` is the workspace; the measures are computed everywhere J is regular (0 where singular)."""

    alpha: np.ndarray
    beta: np.ndarray
    l2: np.ndarray
    l3: np.ndarray
    flags: np.ndarray
    dexterity: np.ndarray
    stiffness_min: np.ndarray
    stiffness_max: np.ndarray
    translational_stiffness_min: np.ndarray
    translational_stiffness_max: np.ndarray
    bearing_capacity: np.ndarray
    stroke_margin: np.ndarray
    joint_margin: np.ndarray

    @property
    def inside(self) -> np.ndarray:
        return self.flags == 0


def _kernel_args(params):
    return (params.geometry, params.limits, float(params.k), float(params.characteristic_length),
            np.asarray(params.platform_com, dtype=float), float(params.actuator_force_limit))


def performance_maps(params: MechanismParameters, alpha, beta) -> PerformanceMaps:
    """Every measure over the grid alpha x beta (rad, 1-D arrays)."""
    alpha = np.asarray(alpha, dtype=float).ravel()
    beta = np.asarray(beta, dtype=float).ravel()
    out = np.empty((len(alpha), len(beta), len(FIELDS)))
    _maps.grid_measures(*_kernel_args(params), alpha, beta, out)
    fields = {name: out[..., i] for i, name in enumerate(FIELDS)}
    fields["flags"] = fields["flags"].astype(np.int64)
    return PerformanceMaps(alpha, beta, **fields)


def path_measures(params: MechanismParameters, Q) -> dict[str, np.ndarray]:
    """The same measures along poses Q (T, 2): ``{field: (T,)}``."""
    Q = np.ascontiguousarray(np.asarray(Q, dtype=float).reshape(-1, 2))
    out = np.empty((len(Q), len(FIELDS)))
    _maps.path_measures(*_kernel_args(params), Q, out)
    fields = {name: out[:, i] for i, name in enumerate(FIELDS)}
    fields["flags"] = fields["flags"].astype(np.int64)
    return fields


def default_grid(step_deg: float = 1.0):
    """The grid of the seed's figures: alpha in [-90, 90], beta in [-120, 60] degrees (rad arrays)."""
    return (np.radians(np.arange(-90.0 + step_deg, 90.0, step_deg)),
            np.radians(np.arange(-120.0, 60.0 + 0.5 * step_deg, step_deg)))
