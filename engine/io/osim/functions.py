"""OpenSim functions of one coordinate -> :mod:`engine.model.functions`.

Semantics checked against OpenSim's sources (opensim-core, OpenSim/Common):

- ``LinearFunction`` coefficients are ``slope intercept``.
- ``PolynomialFunction`` coefficients go from the highest power to the constant.
- ``SimmSpline``, ``NaturalCubicSpline`` and ``PiecewiseLinearFunction`` extend
  linearly beyond their knots with the end slopes.
- OpenSim's ``NaturalCubicSpline`` is *not* a natural spline: its
  ``calcCoefficients`` is the same Forsythe-Malcolm-Moler fit as ``SimmSpline``
  (end third derivatives from divided differences), so it is read as a
  :class:`~engine.model.SimmSpline`, which reproduces OpenSim's values.
- ``MultiplierFunction`` is ``scale * function(x)``.
"""
from __future__ import annotations

from ...model.functions import Constant, Function, Linear, Multiplier, PiecewiseLinear, Polynomial, SimmSpline

FUNCTION_TAGS = ("Constant", "LinearFunction", "PolynomialFunction", "SimmSpline", "NaturalCubicSpline",
                 "PiecewiseLinearFunction", "MultiplierFunction")


def function_element(doc, holder, what: str, properties: tuple = ()):
    """The one function element held by ``holder``, or None if it holds none.

    OpenSim writes a function as a child of its owner, next to the owner's
    other ``properties`` (e.g. ``<LinearFunction name="function">`` beside
    ``<coordinates>`` and ``<axis>`` in a TransformAxis), or inside a
    ``<function>`` wrapper; ``<x_location>`` or ``<coupled_coordinates_function>``
    hold nothing but the function.
    """
    wrapper = doc.child(holder, "function")
    if wrapper is not None:
        holder, properties = wrapper, ()
    doc.use(holder)
    candidates = [c for c in holder if c.tag not in properties]
    if len(candidates) > 1:
        tags = ", ".join(f"<{c.tag}>" for c in candidates)
        raise doc.error(f"holds {tags} where one function is expected", what)
    return candidates[0] if candidates else None


def read_function(doc, element, what: str) -> Function:
    """The :class:`~engine.model.functions.Function` of an OpenSim function element."""
    doc.use(element)
    tag = element.tag
    where = f"{what} ({tag})"
    if tag == "Constant":
        return Constant(doc.number(element, "value", where, 0.0))
    if tag == "LinearFunction":
        slope, intercept = doc.numbers(element, "coefficients", where, 2, [1.0, 0.0])
        return Linear(slope, intercept)
    if tag == "PolynomialFunction":
        return Polynomial(tuple(doc.numbers(element, "coefficients", where, None, [1.0])))
    if tag in ("SimmSpline", "NaturalCubicSpline"):
        return SimmSpline(tuple(doc.numbers(element, "x", where)), tuple(doc.numbers(element, "y", where)))
    if tag == "PiecewiseLinearFunction":
        return PiecewiseLinear(tuple(doc.numbers(element, "x", where)), tuple(doc.numbers(element, "y", where)))
    if tag == "MultiplierFunction":
        inner = function_element(doc, element, where, ("scale",))
        if inner is None:
            raise doc.error("has no function to multiply", where)
        return Multiplier(read_function(doc, inner, where), doc.number(element, "scale", where, 1.0))
    known = ", ".join(FUNCTION_TAGS)
    raise doc.error(f"uses the function type {tag}, which HybridLab cannot represent (supported: {known})", what)
