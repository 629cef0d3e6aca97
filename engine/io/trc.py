"""OpenSim TRC marker files: read into a Trial (metres), write in the units asked for.

Layout (tab separated)::

    PathFileType  4  (X/Y/Z)  <file name>
    DataRate  CameraRate  NumFrames  NumMarkers  Units  OrigDataRate  OrigDataStartFrame  OrigNumFrames
    60.00     60.00       151        41          mm     60.00         1                   151
    Frame#  Time  R.ASIS        L.ASIS ...
                  X1  Y1  Z1    X2  Y2  Z2 ...
    <blank line>
    1       0.000 617.2 1055.3 170.8 ...

A missing marker has empty fields (``NaN`` is read too). :func:`read_trc` also takes the variants
labs and other programs write (see its docstring), as OpenSim's TRCFileAdapter and Mokka do. Unit conversion between
mm, cm and m is done on the decimal text (a shift of the exponent, then one
correctly rounded conversion), so writing a trial and reading it back gives the
same numbers bit for bit in any of these units, and reading a file in mm gives the
correctly rounded metre values.
"""
from __future__ import annotations

import math
import re
from decimal import Decimal
from pathlib import Path

import numpy as np

from ..errors import DataError, SettingsError
from ..trial.axes import LENGTH_UNITS, detect_length_unit, implausible_unit
from ..trial.trial import Markers, Trial
from .atomic import write_text

_EXPONENTS = {1e-3: -3, 1e-2: -2, 1.0: 0}


def _exponent(unit: str) -> int | None:
    scale = LENGTH_UNITS.get(unit.strip().lower())
    return None if scale is None else _EXPONENTS[scale]


def _shift_text(token: str, exponent: int) -> str:
    """The decimal text ``token`` times 10**exponent, as text (exact)."""
    if exponent == 0:
        return token
    mantissa, sep, power = token.replace("E", "e").partition("e")
    return f"{mantissa}e{int(power) + exponent}" if sep else f"{token}e{exponent}"


_MISSING_TEXT = re.compile(r"^[+-]?(nan(\(.*\))?|1\.#(qnan|ind|snan)\w*)$", re.IGNORECASE)
"""Texts of a missing coordinate besides an empty field: ``NaN`` in any case, C runtimes' ``-nan(ind)``,
and old Windows' ``1.#QNAN`` / ``-1.#IND``."""


def _parse_row(fields, exponent, line_no, columns, path):
    """Floats of one row's coordinate fields (empty or NaN -> NaN), scaled by 10**exponent. A text ``float`` reads
    as NaN is one of :data:`_MISSING_TEXT`'s; the regular expression is tried only on what ``float`` refuses."""
    values = []
    for k, f in enumerate(fields):
        f = f.strip()
        if not f:
            values.append(math.nan)
            continue
        try:
            value = float(f)
        except ValueError:
            if _MISSING_TEXT.match(f):
                values.append(math.nan)
                continue
            raise DataError(f"{f!r} is not a number", element=f"line {line_no}, {columns[k]}", file=path) from None
        if value != value:
            values.append(math.nan)
        elif math.isinf(value):
            raise DataError(f"{f!r} is not a finite coordinate", element=f"line {line_no}, {columns[k]}",
                            file=path)
        else:
            values.append(float(_shift_text(f, exponent)) if exponent else value)
    return values


_PLAIN_BOUND = 1e300


def _plain_row(fields, suffix: str) -> list[float]:
    """A row's coordinates when every field is a plain decimal (no exponent, no space after it) whose value is
    below 1e300 m: ``float(field + suffix)`` is :func:`_parse_row`'s one conversion of the shifted text, with the
    shift's exponent ``suffix`` (``e-3`` for mm) appended, and within that bound no field's text was infinite
    before its shift. ValueError for any other row (an empty field, NaN, an exponent already written, an
    infinity), which :func:`_parse_row` reads."""
    values = [float(f + suffix) for f in fields]
    if values and not (-_PLAIN_BOUND < min(values) and max(values) < _PLAIN_BOUND and sum(values) == sum(values)):
        raise ValueError("not a row of finite plain decimals")      # sum is NaN when a value is
    return values


def _number(text, what, line_no, path, integer=False):
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise DataError(f"{what} is {text!r}, not a number", element=f"line {line_no}", file=path) from None
    if not np.isfinite(value) or (integer and value != int(value)):
        raise DataError(f"{what} is {text!r}, not a finite {'whole ' if integer else ''}number",
                        element=f"line {line_no}", file=path)
    return int(value) if integer else value


def _header(lines, path) -> dict:
    """Line 2's keys with line 3's values. Both are split on runs of tabs and spaces (empty fields dropped),
    as OpenSim's TRCFileAdapter does, so ``100.0<TAB><TAB>100.0`` is two values."""
    keys, values = lines[1].split(), lines[2].split()
    if len(values) < len(keys):
        raise DataError(f"{len(keys)} header fields ({' '.join(keys)}) but {len(values)} values",
                        element="line 3", file=path)
    header = dict(zip(keys, values))
    for key in ("DataRate", "NumFrames", "NumMarkers", "Units"):
        if key not in header:
            raise DataError(f"the header has no {key} field", element="line 2", file=path)
    return header


def _marker_names(line, n_markers, path) -> list[str]:
    """Line 4's marker names: tab separated (a name may hold spaces or dots); a line without tabs is split on
    spaces. Frame# and Time come first."""
    fields = [f.strip() for f in line.split("\t")] if "\t" in line else line.split()
    fields = [f for f in fields if f]
    if len(fields) < 2 or [f.lower() for f in fields[:2]] != ["frame#", "time"]:
        raise DataError("the column labels must start with Frame# and Time", element="line 4", file=path)
    names = fields[2:]
    if len(names) != n_markers:
        raise DataError(f"NumMarkers is {n_markers} but {len(names)} marker names are given", element="line 4",
                        file=path)
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise DataError(f"marker names repeated: {', '.join(repeated)}", element="line 4", file=path)
    return names


def _row_fields(line, width, line_no, path, last, complete):
    """A data row's fields, padded to ``width`` when trailing markers are left out (a gap); returns
    ``(fields, padded)``. Rows are tab separated (empty fields are gaps); a row without tabs is split on
    spaces. Extra trailing empty fields are dropped."""
    fields = line.split("\t") if "\t" in line else line.split()
    while len(fields) > width and not fields[-1].strip():
        fields.pop()
    if len(fields) > width:
        raise DataError(f"{len(fields)} columns, more than the {width} of Frame#, Time and 3 per marker",
                        element=f"line {line_no}", file=path)
    if len(fields) < 2:
        raise DataError("a data row needs at least Frame# and Time", element=f"line {line_no}", file=path)
    if len(fields) == width:
        return fields, False
    if last and not complete:
        raise DataError(f"{len(fields)} columns of {width} on the last line, which has no line end: the file is "
                        "truncated", element=f"line {line_no}", file=path)
    return fields + [""] * (width - len(fields)), True


def read_trc_span(path) -> tuple[float, float, int]:
    """A TRC file's first frame's time (s: its first data row's Time), frame rate (Hz: DataRate) and frame count
    (NumFrames), read from its first lines only: the rest of the file is neither read nor checked (:func:`read_trc`
    does). A DataError naming the line when one is missing or not a number."""
    path = Path(path)
    lines = []
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            for line in fh:
                lines.append(line.rstrip("\r\n"))
                if len(lines) > 5 and line.strip():
                    break
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    if len(lines) < 6 or not lines[0].startswith("PathFileType") or not lines[-1].strip():
        raise DataError("not a TRC file with data: the first line must start with 'PathFileType', and five header "
                        "lines and a data row must follow", element="line 1", file=path)
    header = _header(lines, path)
    rate, frames = _rate_and_frames(header, path)
    row = lines[-1].split("\t") if "\t" in lines[-1] else lines[-1].split()
    if len(row) < 2:
        raise DataError("a data row needs at least Frame# and Time", element=f"line {len(lines)}", file=path)
    return _number(row[1].strip(), "the time", len(lines), path), rate, frames


def _rate_and_frames(header: dict, path: Path) -> tuple[float, int]:
    """The header's DataRate (Hz, positive, else DataError naming line 3 of ``path``) and NumFrames."""
    rate = _number(header["DataRate"], "DataRate", 3, path)
    if rate <= 0:
        raise DataError(f"DataRate is {rate}, not positive", element="line 3", file=path)
    return rate, _number(header["NumFrames"], "NumFrames", 3, path, integer=True)


def read_trc(path) -> Trial:
    """Read a TRC file into a :class:`~engine.trial.trial.Trial` with positions in metres.

    Accepts what OpenSim's and Mokka's readers accept: a UTF-8 byte-order mark, CRLF line ends, runs of
    tabs or spaces between the header's keys and values, marker names with spaces or dots, trailing tabs,
    empty Frame# fields, empty fields or NaN for a missing coordinate, and rows that stop before the last
    markers (those markers missing in that row, counted in ``warnings``). The Units field (mm, cm, m) is
    applied; when it is missing or not a length unit, the unit is inferred from the size of the marker
    set and the guess recorded in ``conversions`` and ``warnings``. Malformed files (missing header
    fields, text where numbers are required, rows longer than the markers, a last row cut short, fewer or
    more rows than NumFrames, time not increasing) raise :class:`~engine.errors.DataError` naming the line.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    lines = text.splitlines()
    if len(lines) < 5 or not lines[0].startswith("PathFileType"):
        raise DataError("not a TRC file: the first line must start with 'PathFileType' and five header lines "
                        "must follow", element="line 1", file=path)
    header = _header(lines, path)
    rate, n_frames = _rate_and_frames(header, path)
    n_markers = _number(header["NumMarkers"], "NumMarkers", 3, path, integer=True)
    if n_frames < 0 or n_markers < 0:
        raise DataError("NumFrames and NumMarkers must not be negative", element="line 3", file=path)
    names = _marker_names(lines[3], n_markers, path)
    columns = [f"marker {n} {axis}" for n in names for axis in "XYZ"]

    unit = header["Units"]
    exponent = _exponent(unit)
    width = 2 + 3 * n_markers
    time, rows, short_rows = [], [], 0
    numbered = [(k, line) for k, line in enumerate(lines[5:], start=6) if line.strip()]
    complete = text.endswith(("\n", "\r"))
    suffix = f"e{exponent}" if exponent else ""
    for i, (line_no, line) in enumerate(numbered):
        fields, padded = _row_fields(line, width, line_no, path, i == len(numbered) - 1, complete)
        short_rows += padded
        t = _number(fields[1].strip(), "the time", line_no, path)
        if time and t <= time[-1]:
            raise DataError(f"the time {t} does not increase (previous {time[-1]})", element=f"line {line_no}",
                            file=path)
        time.append(t)
        try:
            rows.append(_plain_row(fields[2:], suffix))
        except ValueError:
            rows.append(_parse_row(fields[2:], exponent or 0, line_no, columns, path))
    if len(rows) != n_frames:
        raise DataError(f"NumFrames is {n_frames} but the file holds {len(rows)} rows"
                        + (" (truncated?)" if len(rows) < n_frames else ""), element="data", file=path)
    positions = np.array(rows, dtype=float).reshape(n_frames, n_markers, 3)
    incomplete = np.isnan(positions).any(axis=2) & ~np.isnan(positions).all(axis=2)
    conversions, warnings = [], []
    if short_rows:
        warnings.append(f"{short_rows} rows stop before their last markers; those markers taken as missing there")
    if incomplete.any():
        warnings.append(f"{int(incomplete.sum())} marker samples have only some coordinates; taken as missing")
        positions[incomplete] = np.nan

    if exponent is None:
        detected = detect_length_unit(positions)
        if detected is None:
            raise DataError(f"Units is {unit!r}, not mm, cm or m, and the marker data fit no length unit",
                            element="line 3", file=path)
        name, scale, why = detected
        positions = positions * scale
        message = f"Units is {unit!r}: positions taken as {name} ({why})"
        conversions.append(message)
        warnings.append(message)
    elif implausible_unit(positions, 1.0):
        warnings.append(f"Units says {unit!r} but the markers are then implausibly sized for a person; "
                        "check the file")
    if exponent:
        conversions.append(f"positions converted from {unit} to m")
    if n_frames > 1:
        mean_rate = (n_frames - 1) / (time[-1] - time[0])
        if abs(mean_rate - rate) > 0.01 * rate:
            warnings.append(f"DataRate is {rate:g} Hz but the Time column advances at {mean_rate:g} Hz")
    markers = Markers(tuple(names), np.array(time), positions, rate)
    metadata = {"format": "TRC", "header": header}
    return Trial(markers=markers, metadata=metadata, source=str(path), conversions=conversions, warnings=warnings)


def _format(value: float, exponent: int) -> str:
    """Shortest text of ``value`` (m) times 10**exponent that reads back as exactly ``value``."""
    if not np.isfinite(value):
        return ""
    text = repr(float(value))
    if exponent == 0:
        return text
    shifted = Decimal(text).scaleb(exponent)
    return format(shifted, "f") if abs(shifted.adjusted()) < 20 else str(shifted)


def write_trc(path, trial: Trial, units: str = "mm") -> None:
    """Write the trial's markers to a TRC file in ``units`` (mm, cm or m); missing samples are empty fields.

    Numbers are written with enough digits that :func:`read_trc` returns exactly the
    trial's positions and times.
    """
    exponent = _exponent(units)
    if exponent is None:
        raise SettingsError(f"TRC units must be mm, cm or m, got {units!r}")
    exponent = -exponent
    m = trial.markers
    path = Path(path)
    rate = repr(float(m.rate))
    out = [f"PathFileType\t4\t(X/Y/Z)\t{path.name}",
           "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames",
           f"{rate}\t{rate}\t{m.n_frames}\t{len(m.names)}\t{units}\t{rate}\t1\t{m.n_frames}",
           "Frame#\tTime\t" + "".join(f"{n}\t\t\t" for n in m.names).rstrip("\t"),
           "\t\t" + "\t".join(f"{a}{k + 1}" for k in range(len(m.names)) for a in "XYZ"),
           ""]
    for f in range(m.n_frames):
        row = m.positions[f]
        missing = ~np.isfinite(row).all(axis=1)
        values = [_format(v, exponent) if not missing[k] else "" for k in range(len(m.names)) for v in row[k]]
        out.append("\t".join([str(f + 1), repr(float(m.time[f]))] + values))
    write_text(path, "\n".join(out) + "\n")
