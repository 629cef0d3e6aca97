"""Generalized coordinates: names, units, ranges, locks and couplers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from . import _check
from .functions import Function

ROTATIONAL = "rotational"
TRANSLATIONAL = "translational"
STRAIN = "strain"
KINDS = (ROTATIONAL, TRANSLATIONAL, STRAIN)


@dataclass(frozen=True)
class Coordinate:
    """A scalar generalized coordinate.

    Attributes
    ----------
    name : str
    kind : 'rotational' (rad), 'translational' (m) or 'strain' (1/m or -)
    range : (lo, hi) in SI units; IK keeps the coordinate inside it when ``clamped``. ``(-inf, inf)`` if free.
    default : float
        Value used to initialise poses.
    locked : bool
        IK holds the coordinate at ``default``.
    clamped : bool
        Whether IK keeps it within ``range``, as OpenSim's IK does with its clamped coordinates (the others may
        leave their ranges; ``engine.analysis.ik_bounds`` says where).
    coupled_to, coupler : str, Function
        If set, the coordinate is not a degree of freedom: its value is
        ``coupler(value of coupled_to)`` (OpenSim's CoordinateCouplerConstraint).
    """

    name: str
    kind: str = ROTATIONAL
    range: tuple = (-np.inf, np.inf)
    default: float = 0.0
    locked: bool = False
    clamped: bool = False
    coupled_to: str | None = None
    coupler: Function | None = None

    def __post_init__(self):
        what = f"coordinate '{self.name}'"
        _check.name(self.name, "coordinate")
        if self.kind not in KINDS:
            raise ModelError(f"kind must be one of {KINDS}, got {self.kind!r}", what)
        try:
            lo, hi = (float(v) for v in self.range)
        except (TypeError, ValueError):
            raise ModelError(f"range must be two numbers, got {self.range!r}", what) from None
        if np.isnan(lo) or np.isnan(hi) or lo > hi:
            raise ModelError(f"range must be (low, high) with low <= high, got ({lo}, {hi})", what)
        object.__setattr__(self, "range", (lo, hi))
        object.__setattr__(self, "default", _check.finite(self.default, what, "default"))
        object.__setattr__(self, "locked", _check.flag(self.locked, what, "locked"))
        object.__setattr__(self, "clamped", _check.flag(self.clamped, what, "clamped"))
        if (self.coupled_to is None) != (self.coupler is None):
            raise ModelError("a coupled coordinate needs both 'coupled_to' and 'coupler'", what)
        if self.coupled_to is not None:
            _check.name(self.coupled_to, f"{what} coupled_to")
        if self.coupler is not None and not isinstance(self.coupler, Function):
            raise ModelError("coupler must be a function", what)
        if self.coupled_to == self.name:
            raise ModelError("cannot be coupled to itself", what)

    @property
    def is_dependent(self) -> bool:
        return self.coupled_to is not None
