"""Reading the fields of a model file: units, typed values, unknown-key and misspelling checks.

:class:`Fields` wraps one mapping of the file and hands out its values with the
declared units converted to SI; whatever it was not asked for is an unknown key
(rejected with a "did you mean" hint). Errors are ModelErrors naming the element.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass

from ..errors import ModelError
from ..model import ANGULAR_MODES
from ..model.coordinates import ROTATIONAL, TRANSLATIONAL

# Units a file may declare, with their SI factor (value in SI = value in file * factor); SI first.
UNITS = {
    "length": {"m": 1.0, "cm": 1e-2, "mm": 1e-3},
    "mass": {"kg": 1.0, "g": 1e-3},
    "angle": {"rad": 1.0, "deg": math.pi / 180.0},
    "modulus": {"Pa": 1.0, "kPa": 1e3, "MPa": 1e6, "GPa": 1e9},
    "density": {"kg/m^3": 1.0, "g/cm^3": 1e3},
}
SI_UNITS = {quantity: next(iter(table)) for quantity, table in UNITS.items()}

ABSENT = object()  # an optional field the file leaves out: the class default applies


@dataclass(frozen=True)
class Units:
    """SI factors of a file's units: ``value in SI = value in file * factor``."""

    length: float
    mass: float
    angle: float
    modulus: float
    density: float

    def of_coordinate(self, kind) -> float:
        """Factor of a coordinate's values: angle (rotational), length (translational), 1 (strain, kept SI)."""
        return self.angle if kind == ROTATIONAL else self.length if kind == TRANSLATIONAL else 1.0

    def of_mode(self, mode: str) -> float:
        """Factor of a strain mode: curvatures are 1/length, stretch and shears dimensionless."""
        return 1.0 / self.length if mode in ANGULAR_MODES else 1.0


# =================================================================== reading
class Fields:
    """One mapping of the file: typed access to its fields; :meth:`close` rejects the fields never asked for."""

    def __init__(self, data, where: str):
        if not isinstance(data, dict):
            raise ModelError(f"must be a mapping of fields, got {describe(data)}", where)
        self.data = data
        self.where = where
        self.asked: list = []

    def named(self, kind: str, within: str = "") -> str:
        """Read ``name`` and refer to this element as ``kind 'name'`` (inside ``within``) from now on."""
        name = self.text("name")
        self.where = f"{within}, {kind} '{name}'" if within else f"{kind} '{name}'"
        return name

    def kind(self, known: dict, what: str, default=ABSENT):
        """The class named by the ``type`` field among ``known`` (``type`` is required unless a default is given)."""
        name = self.text("type", default is ABSENT)
        cls = known.get(default if name is ABSENT else name)
        if cls is None:
            raise ModelError(f"unknown {what} type {name!r} (known: {', '.join(known)})", self.where)
        return cls

    def raw(self, key: str, required: bool = True):
        self.asked.append(key)
        if key in self.data:
            return self.data[key]
        if required:
            guess = difflib.get_close_matches(str(key), [str(k) for k in self.data if k not in self.asked], 1)
            hint = f" (is {guess[0]!r} a misspelling?)" if guess else ""
            raise ModelError(f"is missing the required field {key!r}{hint}", self.where)
        return ABSENT

    def close(self) -> None:
        for key in self.data:
            if key not in self.asked:
                guess = difflib.get_close_matches(str(key), self.asked, 1)
                hint = f"did you mean {guess[0]!r}?" if guess else f"expected: {', '.join(self.asked)}"
                raise ModelError(f"has an unknown field {key!r} ({hint})", self.where)

    def text(self, key: str, required: bool = True):
        value = self.raw(key, required)
        if value is not ABSENT and not isinstance(value, str):
            raise ModelError(f"{key} must be text, got {describe(value)}", self.where)
        return value

    def flag(self, key: str):
        """An optional true/false field."""
        value = self.raw(key, False)
        if value is not ABSENT and not isinstance(value, bool):
            raise ModelError(f"{key} must be true or false, got {describe(value)}", self.where)
        return value

    def integer(self, key: str):
        """An optional whole number."""
        value = self.raw(key, False)
        if value is not ABSENT and (isinstance(value, bool) or not isinstance(value, int)):
            raise ModelError(f"{key} must be a whole number, got {describe(value)}", self.where)
        return value

    def number(self, key: str, factor: float = 1.0, required: bool = True):
        value = self.raw(key, required)
        return value if value is ABSENT else number(value, self.where, key) * factor

    def numbers(self, key: str, size: int | None, factor=1.0, required: bool = False):
        """A list of ``size`` numbers (any length if None), each times ``factor`` (a number or one per value)."""
        value = self.raw(key, required)
        return value if value is ABSENT else numbers(value, size, self.where, key, factor)

    def mapping(self, key: str, required: bool = False):
        value = self.raw(key, required)
        return value if value is ABSENT else Fields(value, f"{self.where}, {key}")

    def items(self, key: str, required: bool = False) -> list:
        value = self.raw(key, required)
        if value is ABSENT:
            return []
        if not isinstance(value, list):
            raise ModelError(f"{key} must be a list, got {describe(value)}", self.where)
        return value

    def data_tree(self, key: str):
        """An optional free-form mapping (metadata, muscle curve parameters), kept as written."""
        value = self.raw(key, False)
        if value is ABSENT:
            return value
        if not isinstance(value, dict):
            raise ModelError(f"{key} must be a mapping, got {describe(value)}", self.where)
        return plain_data(value, self.where, key)


def describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, str):
        return f"{value!r} (text)"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return repr(value) if value is None or isinstance(value, (int, float)) else f"a {type(value).__name__}"


def number(value, where: str, label: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(f"{label} must be a number, got {describe(value)}", where)
    try:
        x = float(value)
    except OverflowError:
        raise ModelError(f"{label} is too large: {value}", where) from None
    if math.isnan(x):
        raise ModelError(f"{label} is NaN (not a number)", where)
    return x


def numbers(value, size, where: str, label: str, factor=1.0) -> list:
    if not isinstance(value, list) or (size is not None and len(value) != size) or not value:
        count = "at least one" if size is None else size
        raise ModelError(f"{label} must be a list of {count} numbers, got {describe(value)}"
                         + (f" of {len(value)}" if isinstance(value, list) else ""), where)
    factors = factor if isinstance(factor, (list, tuple)) else [factor] * len(value)
    return [number(v, where, label) * f for v, f in zip(value, factors)]


def plain_data(value, where: str, label: str):
    """Check that free-form data is what a YAML file stores exactly (mappings with text keys, lists,
    text, whole numbers, numbers other than NaN, true/false, null); numpy floats become floats."""
    if value is None or type(value) in (str, bool, int):
        return value
    if isinstance(value, float):
        return float(number(value, where, label))
    if type(value) is list:
        return [plain_data(v, where, f"{label}[{i}]") for i, v in enumerate(value)]
    if type(value) is dict:
        for k in value:
            if not isinstance(k, str):
                raise ModelError(f"{label} has the key {k!r}; keys must be text", where)
        return {k: plain_data(v, where, f"{label}.{k}") for k, v in value.items()}
    raise ModelError(f"{label} holds {describe(value)}, which a model file cannot store exactly (use mappings, "
                     "lists, text, numbers, true/false or null)", where)


def given(**kwargs) -> dict:
    return {k: v for k, v in kwargs.items() if v is not ABSENT}


def build(where: str, cls, *args, **kwargs):
    """``cls(*args, **kwargs)``, its ModelError located at ``where`` (keeping the class's own element)."""
    try:
        return cls(*args, **kwargs)
    except ModelError as exc:
        element = where if exc.element in (None, where) else f"{where} ({exc.element})"
        raise ModelError(exc.problem, element) from None


def read_units(f: Fields) -> Units:
    """The SI factors of the ``units`` mapping; all five quantities must be given."""
    factors = {}
    for quantity, table in UNITS.items():
        name = f.text(quantity)
        if name not in table:
            raise ModelError(f"unknown {quantity} unit {name!r} (use {', '.join(table)})", f.where)
        factors[quantity] = table[name]
    f.close()
    return Units(**factors)
