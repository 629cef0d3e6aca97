"""Points attached to the model: markers and contact candidates.

A point sits on a body (or frame) at ``offset`` (m, in that frame), or on a rod
at arclength ``s`` (m from the rod base) with ``offset`` in the rod's
cross-section frame at that arclength.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError
from . import _check


@dataclass(frozen=True, eq=False)
class Point:
    name: str
    parent: str
    offset: np.ndarray = field(default_factory=lambda: np.zeros(3))
    s: float | None = None

    kind = "point"

    def __post_init__(self):
        what = f"{self.kind} '{self.name}'"
        _check.name(self.name, self.kind)
        _check.name(self.parent, f"{what} parent")
        object.__setattr__(self, "offset", _check.vector(self.offset, what, "offset", 3))
        if self.s is not None:
            object.__setattr__(self, "s", _check.finite(self.s, what, "arclength s"))

    def _fields(self):
        return (self.name, self.parent, tuple(self.offset), self.s)

    def __eq__(self, other):
        return type(self) is type(other) and self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())


@dataclass(frozen=True, eq=False)
class Marker(Point):
    """A motion-capture marker. ``fixed`` as in OpenSim (kept for round trips)."""

    fixed: bool = False
    kind = "marker"

    def _fields(self):
        return super()._fields() + (self.fixed,)


@dataclass(frozen=True, eq=False)
class ContactPoint(Point):
    """A candidate ground-contact point; ``group`` names its contact group (e.g. 'foot_l', 'blade')."""

    group: str = "contact"
    kind = "contact point"

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.group, str) or not self.group:
            raise ModelError("group must be a non-empty name", f"contact point '{self.name}'")

    def _fields(self):
        return super()._fields() + (self.group,)
