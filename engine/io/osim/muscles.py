"""Muscles of the ForceSet (Thelen2003Muscle, Millard2012EquilibriumMuscle) and their parameters.

``Muscle.parameters`` holds every property of the muscle element but its path
and the dataclass fields, under OpenSim's names: numbers, flags, strings, and
nested objects (Millard's curves, ...) as nested dicts ``{"type": tag,
"name": ..., property: value}``. ``parameters["opensim_type"]`` is the muscle
class. Scalar properties the file omits take OpenSim 4's defaults (listed in
``parameters["defaults_used"]``); curve properties the file omits are absent,
meaning OpenSim's curve defaults. Other forces are listed as not imported.
"""
from __future__ import annotations

import math

from ...model.muscles import Muscle
from ...muscles.forces.hill.thelen import PARAMETERS as THELEN_PARAMETERS
from .muscle_paths import UnsupportedPath, read_path

MUSCLE_TYPES = {"Thelen2003Muscle": "thelen2003", "Millard2012EquilibriumMuscle": "millard2012"}

# Muscle dataclass field <- OpenSim property.
_FIELDS = {
    "max_isometric_force": "max_isometric_force", "optimal_fiber_length": "optimal_fiber_length",
    "tendon_slack_length": "tendon_slack_length", "pennation_angle": "pennation_angle_at_optimal",
    "max_contraction_velocity": "max_contraction_velocity",
    "activation_time_constant": "activation_time_constant",
    "deactivation_time_constant": "deactivation_time_constant",
}

# OpenSim 4 defaults (Muscle, Thelen2003Muscle and Millard2012EquilibriumMuscle constructProperties).
_MUSCLE_DEFAULTS = {
    "max_isometric_force": 1000.0, "optimal_fiber_length": 0.1, "tendon_slack_length": 0.2,
    "pennation_angle_at_optimal": 0.0, "max_contraction_velocity": 10.0, "ignore_tendon_compliance": False,
    "ignore_activation_dynamics": False, "appliesForce": True,
}
_TYPE_DEFAULTS = {
    "Thelen2003Muscle": {"activation_time_constant": 0.015, "deactivation_time_constant": 0.05, **THELEN_PARAMETERS},
    "Millard2012EquilibriumMuscle": {
        "activation_time_constant": 0.01, "deactivation_time_constant": 0.04, "minimum_activation": 0.01,
        "fiber_damping": 0.1, "default_activation": 0.05, "maximum_pennation_angle": math.acos(0.1),
    },
}
# Where older Millard files keep the activation time constants.
_ACTIVATION_MODEL = "MuscleFirstOrderActivationDynamicModel"


def read_muscles(doc, paths, frames, wrap_names: set) -> list[Muscle]:
    muscles = []
    for element in doc.objects(doc.child(doc.model, "ForceSet")):
        what = f"force {paths.path_of(element)}"
        if element.tag not in MUSCLE_TYPES:
            doc.use_subtree(element)
            doc.warn(f"{what} ({element.tag}): not imported; HybridLab imports the muscles "
                     f"{' and '.join(MUSCLE_TYPES)} from the ForceSet")
            continue
        doc.use(element)
        name = doc.name(element, "muscle")
        what = f"muscle '{name}'"
        try:
            path = read_path(doc, paths, frames, element, what, wrap_names)
        except UnsupportedPath as exc:
            doc.use_subtree(element)
            doc.warn(f"{what} ({element.tag}): not imported; {exc}")
            continue
        muscles.append(_muscle(doc, element, name, what, path))
    return muscles


def _muscle(doc, element, name, what, path) -> Muscle:
    params = _properties(doc, [c for c in element if c.tag != "GeometryPath"], what)
    defaults = {**_MUSCLE_DEFAULTS, **_TYPE_DEFAULTS[element.tag]}
    used = [k for k in defaults if k not in params and k not in params.get(_ACTIVATION_MODEL, {})]
    for key in used:
        params[key] = defaults[key]
    fields = {}
    for field, prop in _FIELDS.items():
        value = params.pop(prop) if prop in params else params.get(_ACTIVATION_MODEL, {}).get(prop)
        if isinstance(value, bool) or not isinstance(value, float):
            raise doc.error(f"<{prop}> must be one number, got {value!r}", what)
        fields[field] = value
    if params["appliesForce"] is False:
        doc.warn(f"{what} is disabled in the file (appliesForce false); imported with "
                 "parameters['appliesForce'] = False")
    params["opensim_type"] = element.tag
    params["defaults_used"] = used
    return Muscle(name, path, MUSCLE_TYPES[element.tag], parameters=params, **fields)


def _properties(doc, elements, what) -> dict:
    out = {}
    for element in elements:
        if element.tag in out:
            raise doc.error(f"the property <{element.tag}> appears twice", what)
        out[element.tag] = _value(doc, element, what)
    return out


def _value(doc, element, what):
    """A property as a Python value: an object (with children, a name, or an empty class-named
    element such as ``<FiberForceLengthCurve/>``) as a dict, else bool, float, list of floats or string."""
    doc.use(element)
    text = (element.text or "").strip()
    if len(element) or element.get("name") is not None or (not text and element.tag[:1].isupper()):
        head = {"type": element.tag, **({"name": element.get("name")} if element.get("name") else {})}
        return {**head, **_properties(doc, list(element), f"{what} <{element.tag}>")}
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        numbers = [float(t) for t in text.split()]
    except ValueError:
        return text
    return numbers[0] if len(numbers) == 1 else (numbers if numbers else "")
