"""A body measure a C3D parameter writes as text with its unit: ``"1.75 m"``, ``"70.0 kg"`` (HybridLab's own demo
writes its SUBJECT:HEIGHT and SUBJECT:WEIGHT so; C3D has no unit field for them). The number is read in the unit
written (a height in m, cm or mm; a mass in kg or g), never by its size; text that is no number followed by one of
these units is refused with the reason (a unit not known, such as ``lb`` or ``ft``, is not converted: a pound figure
and a kilogram figure are both plausible masses, and a wrong one is silently wrong)."""
from __future__ import annotations

import re

UNITS = {"stature": {"m": 1.0, "cm": 0.01, "mm": 0.001}, "body mass": {"kg": 1.0, "g": 0.001}}
"""The units a measure (``stature`` or ``body mass``) may be written in, with each one's factor to SI (m, kg)."""

_WRITTEN = re.compile(r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\W\d_]+)?\s*$")


def written_measure(text: str, what: str) -> tuple:
    """``(number, unit, factor, None)`` of ``text``, a number and one of the units of ``what`` (:data:`UNITS`; e.g.
    ``(1.75, 'm', 1.0, None)`` for ``"1.75 m"``; ``unit`` and ``factor`` None for a number without one), else
    ``(None, None, None, why)`` saying why it is not read (a unit not known, or no number)."""
    units = UNITS[what]
    match = _WRITTEN.match(text)
    if match is None:
        return None, None, None, "it is not a number"
    number, unit = float(match.group(1)), match.group(2)
    if unit is None:
        return number, None, None, None
    factor = units.get(unit) or units.get(unit.lower())
    if factor is None:
        return None, None, None, f"its unit {unit!r} is not one of {', '.join(units)} (no other unit is converted)"
    return number, unit.lower(), factor, None
