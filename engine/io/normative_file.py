"""Normative bands of able-bodied gait: one quantity's mean +/- 1 SD over the gait cycle, from a published table,
shipped as CSV files (``resources/normative/*.csv``) that carry their citation.

A file: comment lines ``# key: value`` with at least ``quantity`` (the report's curve name, e.g. 'ankle
dorsiflexion'), ``unit``, ``gait`` ('walking' or 'running'), ``citation`` (the published table) and ``obtained
from`` (where the numbers were read); then the header ``percent,mean_minus_sd,mean_plus_sd`` and one row per
point, percent increasing from 0 to 100. The bounds are stored as published (or as the cited copy stores them).
When that copy's unit or sign is not HybridLab's, a ``factor`` line (a nonzero number) says what multiplies the
stored values into ``unit`` with HybridLab's sign (``engine.clinical.conventions``), and a ``sign`` line says why:
the band's bounds are the stored ones times the factor (swapped for a negative factor); nothing else is
recomputed.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np

from ..clinical.conventions import JOINTS
from ..errors import DataError

COLUMNS = ["percent", "mean_minus_sd", "mean_plus_sd"]
REQUIRED = ("quantity", "unit", "gait", "citation", "obtained from")
GAITS = ("walking", "running")


@dataclass(frozen=True, eq=False)
class NormativeBand:
    """``lower`` and ``upper`` (n,) (mean -/+ 1 SD, in ``unit``) at ``percent`` (n,) of the gait cycle."""

    quantity: str
    unit: str
    gait: str
    citation: str
    source: str
    percent: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    meta: dict

    @property
    def mean(self) -> np.ndarray:
        return 0.5 * (self.lower + self.upper)

    @property
    def sd(self) -> np.ndarray:
        return 0.5 * (self.upper - self.lower)

    @property
    def population(self) -> str:
        """Whom the band describes (the file's ``population`` line; 'able-bodied' and the gait when it has none)."""
        return self.meta.get("population") or f"able-bodied {self.gait}"

    @property
    def short_citation(self) -> str:
        """'Schwartz et al. 2008' style: the first author's surname and the year in parentheses."""
        author = self.citation.split(",")[0].split()[0]
        year = next((w.strip("().") for w in self.citation.split() if w.strip("().").isdigit()
                     and len(w.strip("().")) == 4), "")
        return f"{author} et al. {year}".strip()


def read_band(path) -> NormativeBand:
    """The band in ``path``; DataError naming the file and the line when it is not as the module describes."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot be read as UTF-8 text ({exc})", file=path) from None
    meta, body, first = {}, [], None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#"):
            key, colon, value = line[1:].partition(":")
            if colon and body == [] and first is None:
                meta[key.strip().lower()] = value.strip()
            continue
        if line.strip():
            first = number if first is None else first
            body.append((number, line))
    missing = [k for k in REQUIRED if not meta.get(k)]
    if missing:
        raise DataError(f"no '# {missing[0]}: ...' line (a normative band names {', '.join(REQUIRED)})", file=path)
    if meta["gait"] not in GAITS:
        raise DataError(f"gait is '{meta['gait']}', not one of {', '.join(GAITS)}", element="# gait", file=path)
    if not body or next(csv.reader(io.StringIO(body[0][1]))) != COLUMNS:
        raise DataError(f"the header must be {','.join(COLUMNS)}", element=f"line {first}", file=path)
    rows = []
    for number, line in body[1:]:
        cells = next(csv.reader(io.StringIO(line)))
        try:
            values = [float(c) for c in cells]
        except ValueError:
            raise DataError(f"'{line}' is not three numbers", element=f"line {number}", file=path) from None
        if len(values) != 3 or not np.all(np.isfinite(values)):
            raise DataError(f"'{line}' is not three finite numbers", element=f"line {number}", file=path)
        if values[1] > values[2]:
            raise DataError(f"mean - SD {values[1]} is above mean + SD {values[2]}", element=f"line {number}",
                            file=path)
        rows.append(values)
    data = np.array(rows, float).reshape(-1, 3)
    p = data[:, 0]
    if len(p) < 2 or p[0] != 0.0 or p[-1] != 100.0 or np.any(np.diff(p) <= 0):
        raise DataError("the percentages must increase from 0 to 100", element="percent column", file=path)
    factor = _factor(meta, path)
    a, b = factor * data[:, 1], factor * data[:, 2]
    return NormativeBand(meta["quantity"], meta["unit"], meta["gait"], meta["citation"], meta["obtained from"],
                         p, np.minimum(a, b), np.maximum(a, b), meta)


def _factor(meta, path) -> float:
    """The file's ``factor`` (1 without one); DataError for one that is not a finite nonzero number."""
    text = meta.get("factor", "1")
    try:
        factor = float(text)
    except ValueError:
        factor = float("nan")
    if not np.isfinite(factor) or factor == 0.0:
        raise DataError(f"factor '{text}' is not a finite nonzero number", element="# factor", file=path)
    return factor


def builtin_bands() -> list[NormativeBand]:
    """The bands shipped in ``resources/normative`` (installed as ``hybridlab_resources``)."""
    folder = Path(str(files("hybridlab_resources"))) / "normative"
    return [read_band(p) for p in sorted(folder.glob("*.csv"))]


def band_for(bands, name: str, unit: str, gait: str = "walking") -> NormativeBand | None:
    """The band of quantity ``name`` in ``unit`` for ``gait``, or None."""
    return next((b for b in bands if b.quantity == name and b.unit == unit and b.gait == gait), None)


def coordinate_band(bands, coordinate: str, gait: str) -> tuple | None:
    """``(band, lower, upper)`` of a model coordinate in degrees with the model's own sign (the application plots
    coordinates as the model defines them): the band of its clinical quantity (``engine.clinical.conventions``),
    its bounds multiplied by the convention's sign (and so swapped for a flipped coordinate); None without one."""
    for prefix, (name, sign) in JOINTS.items():
        if coordinate.startswith(prefix):
            band = band_for(bands, name, "deg", gait)
            if band is None:
                return None
            a, b = sign * band.lower, sign * band.upper
            return band, np.minimum(a, b), np.maximum(a, b)
    return None
