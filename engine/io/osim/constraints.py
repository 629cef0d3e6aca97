"""Constraints: CoordinateCouplerConstraint becomes a dependent coordinate; others are listed as not imported.

OpenSim's coupler makes ``dependent = scale_factor * f(independent)``.
"""
from __future__ import annotations

from ...model.functions import Multiplier
from .functions import function_element, read_function


def read_couplers(doc, paths) -> dict:
    """``{dependent coordinate: (independent coordinate, Function)}`` of the enforced couplers."""
    couplers = {}
    for element in doc.objects(doc.child(doc.model, "ConstraintSet")):
        what = f"constraint {paths.path_of(element)}"
        if element.tag != "CoordinateCouplerConstraint":
            doc.use_subtree(element)
            doc.warn(f"{what} ({element.tag}): not imported; HybridLab models only coordinate couplers, "
                     "so the model moves more freely than OpenSim's")
            continue
        doc.use(element)
        dependent = doc.text(element, "dependent_coordinate_name", what)
        independent = doc.text(element, "independent_coordinate_names", what).split()
        if len(independent) != 1:
            raise doc.error(f"couples '{dependent}' to {len(independent)} coordinates {independent}; "
                            "HybridLab couplers take exactly one independent coordinate", what)
        holder = doc.child(element, "coupled_coordinates_function")
        function = None if holder is None else function_element(doc, holder, what)
        if function is None:
            raise doc.error("is missing its <coupled_coordinates_function>", what)
        coupler = read_function(doc, function, what)
        scale = doc.number(element, "scale_factor", what, 1.0)
        if scale != 1.0:
            coupler = Multiplier(coupler, scale)
        if not doc.flag(element, "isEnforced", what, True):
            doc.warn(f"{what} is not enforced in the file (isEnforced false); not imported, so "
                     f"'{dependent}' stays a free coordinate")
            continue
        if dependent in couplers:
            raise doc.error(f"'{dependent}' is coupled by two constraints", what)
        couplers[dependent] = (independent[0], coupler)
    return couplers
