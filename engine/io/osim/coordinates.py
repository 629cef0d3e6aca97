"""Coordinates of a joint as written in the file (their kind and coupling come from the joint).

Values are OpenSim's internal units (radians, metres), as are ranges; OpenSim's
defaults apply to what the file omits (default 0, range -10..10, not clamped,
not locked).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...model import Coordinate

_DEFAULT_RANGE = (-10.0, 10.0)


@dataclass(frozen=True)
class CoordinateEntry:
    """A ``<Coordinate>`` as read; :meth:`build` makes the model coordinate."""

    name: str
    range: tuple
    default: float
    locked: bool
    clamped: bool

    def build(self, kind: str, couplers: dict) -> Coordinate:
        coupled_to, coupler = couplers.get(self.name, (None, None))
        return Coordinate(self.name, kind, self.range, self.default, self.locked, self.clamped, coupled_to, coupler)


def read_coordinates(doc, joint, what: str) -> list[CoordinateEntry]:
    """The coordinates listed in a joint's ``<coordinates>``, in file order."""
    holder = doc.child(joint, "coordinates")
    entries = []
    for element in [] if holder is None else list(holder):
        if element.tag != "Coordinate":
            raise doc.error(f"lists a <{element.tag}> among its coordinates", what)
        doc.use(element)
        name = doc.name(element, f"coordinate of {what}")
        where = f"coordinate '{name}'"
        lo, hi = doc.numbers(element, "range", where, 2, _DEFAULT_RANGE)
        entries.append(CoordinateEntry(
            name, (float(lo), float(hi)), doc.number(element, "default_value", where, 0.0),
            doc.flag(element, "locked", where, False), doc.flag(element, "clamped", where, False)))
        if doc.flag(element, "prescribed", where, False):
            doc.warn(f"{where} is prescribed by a function of time in the file; imported as a free coordinate "
                     "(prescribed motion is not part of a HybridLab model)")
    return entries
