"""Mechanism files: :func:`load_parameters` and :func:`save_parameters`.

A YAML document that starts with ``format: hybridlab-hip-mechanism`` and ``version: 1`` (read and written like
our model files, ``engine.io.yaml_documents``) and declares its ``units``: length m or mm, angle rad or deg,
stiffness N/m or N/mm (mass kg, inertia kg m^2, force N); a file may be written by hand in the seed's mm and
degrees. Loading converts to SI (:class:`~hip_mechanism.parameters.MechanismParameters`); saving writes SI,
atomically, with full precision, so that a saved file loads back equal and saves again to the same text.
"""
from __future__ import annotations

import math

from engine.errors import ModelError
from engine.io.atomic import write_text
from engine.io.yaml_documents import dump_document, read_document

from .parameters import MechanismParameters

FORMAT = "hybridlab-hip-mechanism"
VERSION = 1
SI_UNITS = {"length": "m", "angle": "rad", "mass": "kg", "inertia": "kg m^2", "force": "N", "stiffness": "N/m"}
_ACCEPTED = {"length": {"m": 1.0, "mm": 1e-3}, "angle": {"rad": 1.0, "deg": math.pi / 180.0}, "mass": {"kg": 1.0},
             "inertia": {"kg m^2": 1.0}, "force": {"N": 1.0}, "stiffness": {"N/m": 1.0, "N/mm": 1e3}}
_COMMENT = "HybridLab 2-UPR/URR hip mechanism (seed 003), SI units"
_MM, _DEG, _KMM = "length", "angle", "stiffness"

# (section, key in the file, attribute, the kind of unit it is in (None: a fixed SI unit))
_SCALARS = [("geometry", n, n, _MM) for n in ("l1", "a1", "a2", "a3", "b1", "b2", "b3")] + [
    ("limits", "stroke_min", "stroke_min", _MM), ("limits", "stroke_max", "stroke_max", _MM),
    ("limits", "actuator_force_limit", "actuator_force_limit", None),
    ("stiffness", "k", "k", _KMM), ("stiffness", "characteristic_length", "characteristic_length", _MM),
    ("masses", "platform", "m_platform", None), ("masses", "lower_rod", "m_lower_rod", None),
    ("masses", "upper_rod", "m_upper_rod", None), ("masses", "cylinder", "m_cylinder", None),
    ("masses", "piston", "m_piston", None),
    ("centres_of_mass", "e11", "e11", _MM), ("centres_of_mass", "e12", "e12", _MM),
    ("centres_of_mass", "cylinder", "e_cylinder", _MM), ("centres_of_mass", "piston", "e_piston", _MM)]
_VECTORS = [("limits", "alpha", "alpha_range", _DEG), ("limits", "beta", "beta_range", _DEG),
            ("centres_of_mass", "platform", "platform_com", _MM)]
_MATRICES = [("inertias", n, f"I_{n}") for n in ("platform", "lower_rod", "upper_rod", "cylinder", "piston")]


def to_document(params: MechanismParameters) -> dict:
    """The file's body (without its header) for ``params``."""
    body = {"units": dict(SI_UNITS)}
    for section, key, attr, _ in _SCALARS:
        body.setdefault(section, {})[key] = float(getattr(params, attr))
    for section, key, attr, _ in _VECTORS:
        body.setdefault(section, {})[key] = [float(x) for x in getattr(params, attr)]
    for section, key, attr in _MATRICES:
        body.setdefault(section, {})[key] = [[float(x) for x in row] for row in getattr(params, attr)]
    return body


def _number(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelError(f"must be a finite number, not {value!r}", where)
    return float(value)


def _scaled(value: float, scale: float) -> float:
    return value if scale == 1.0 else value * scale


def from_document(body: dict) -> MechanismParameters:
    """Parameters from a file's body; every problem is a ModelError naming the element."""
    units = body.get("units")
    if not isinstance(units, dict) or set(units) != set(_ACCEPTED) or any(
            units[kind] not in _ACCEPTED[kind] for kind in _ACCEPTED):
        accepted = ", ".join(f"{kind}: {' or '.join(names)}" for kind, names in _ACCEPTED.items())
        raise ModelError(f"must give {accepted}, not {units!r}", "units")
    scales = {kind: _ACCEPTED[kind][units[kind]] for kind in _ACCEPTED}
    known = {"units"} | {s for s, *_ in _SCALARS + _VECTORS + _MATRICES}
    for section in body:
        if section not in known:
            raise ModelError(f"unknown section (expected one of {sorted(known)})", str(section))
    values = {}

    def get(section, key):
        block = body.get(section)
        if not isinstance(block, dict) or key not in block:
            raise ModelError("is missing", f"{section}.{key}")
        return block[key]

    for section, key, attr, kind in _SCALARS:
        values[attr] = _scaled(_number(get(section, key), f"{section}.{key}"), scales.get(kind, 1.0))
    for section, key, attr, kind in _VECTORS:
        raw = get(section, key)
        size = 3 if attr == "platform_com" else 2
        if not isinstance(raw, list) or len(raw) != size:
            raise ModelError(f"must be a list of {size} numbers", f"{section}.{key}")
        values[attr] = tuple(_scaled(_number(x, f"{section}.{key}"), scales[kind]) for x in raw)
    for section, key, attr in _MATRICES:
        raw = get(section, key)
        if not isinstance(raw, list) or len(raw) != 3 or any(not isinstance(r, list) or len(r) != 3 for r in raw):
            raise ModelError("must be a 3x3 matrix (three rows of three numbers)", f"{section}.{key}")
        values[attr] = tuple(tuple(_number(x, f"{section}.{key}") for x in row) for row in raw)
    return MechanismParameters(**values)


def load_parameters(path) -> MechanismParameters:
    """Read a mechanism file into SI parameters.

    Raises
    ------
    ModelError
        If the file cannot be read, is not a mechanism file of this version, lacks a value, or describes a
        mechanism that cannot close (the message names the file and the element).
    """
    body = read_document(path, FORMAT, VERSION, "HybridLab hip mechanism file")
    try:
        return from_document(body)
    except ModelError as exc:
        raise exc.in_file(path) from None


def save_parameters(params: MechanismParameters, path) -> None:
    """Write ``params`` atomically, in SI units."""
    write_text(path, dump_document(FORMAT, VERSION, to_document(params), _COMMENT))
