"""OpenSim storage files (.mot, .sto): a header, ``endheader``, column labels, rows of numbers.

::

    subject01_walk1_grf.mot          <- optional name line
    version=1
    nRows=1501
    nColumns=19
    inDegrees=yes
    endheader
    time  ground_force_vx  ...       <- tab separated labels, time first
    0     101.5119767      ...       <- rows (tabs or spaces)

Values are kept as written (no unit conversion: the header's ``inDegrees`` flag says
whether angles are in degrees). Numbers are written in the shortest form that reads
back to the same double, so a table written and read again is identical.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import DataError, SettingsError
from .atomic import write_text


def _readonly(array):
    out = np.array(array, dtype=float)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class Table:
    """The contents of a .mot/.sto file.

    Parameters
    ----------
    name : the first header line when it is not a ``key=value`` pair ('' otherwise).
    labels : the data column labels (the time column excluded).
    time : (rows,) s.
    data : (rows, len(labels)).
    in_degrees : the header's ``inDegrees`` flag, None when the header does not state it.
    header : the other ``key=value`` header pairs, in order (e.g. ``version``, ``DataType``);
        ``version`` is written as 1 when absent.
    comments : the other header lines (free text), in order.
    time_label : the label of the time column as written.
    source : the file the table was read from.
    """

    name: str
    labels: tuple[str, ...]
    time: np.ndarray
    data: np.ndarray
    in_degrees: bool | None = None
    header: dict = field(default_factory=lambda: {"version": "1"})
    comments: tuple[str, ...] = ()
    time_label: str = "time"
    source: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "time", _readonly(self.time).reshape(-1))
        data = _readonly(self.data)
        if data.size == 0:
            data = data.reshape(len(self.time), len(self.labels))
        if data.shape != (len(self.time), len(self.labels)):
            raise ValueError(f"table data have shape {data.shape}, expected ({len(self.time)}, {len(self.labels)})")
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "comments", tuple(self.comments))
        object.__setattr__(self, "header", dict(self.header))

    def column(self, label: str) -> np.ndarray:
        """(rows,) the column named ``label``."""
        try:
            return self.data[:, self.labels.index(label)]
        except ValueError:
            raise KeyError(f"no column named {label!r}") from None


# SIMM's motion files (which OpenSim's Storage reads too) say "datarows 1501" for "nRows=1501".
_SIMM_KEYS = {"datarows": "nRows", "datacolumns": "nColumns"}


def _parse_header(lines, path):
    name, header, comments, in_degrees = "", {}, [], None
    for i, line in enumerate(lines):
        text = line.strip()
        words = text.split()
        if len(words) == 2 and words[0].lower() in _SIMM_KEYS:
            text = f"{_SIMM_KEYS[words[0].lower()]}={words[1]}"
        if "=" in text:
            key, value = (s.strip() for s in text.split("=", 1))
            if key in header or (key == "inDegrees" and in_degrees is not None):
                raise DataError(f"the header key {key!r} appears twice", element=f"line {i + 1}", file=path)
            if key == "inDegrees":
                if value.lower() not in ("yes", "no"):
                    raise DataError(f"inDegrees must be yes or no, got {value!r}", element=f"line {i + 1}", file=path)
                in_degrees = value.lower() == "yes"
            else:
                header[key] = value
        elif i == 0:
            name = text
        elif text:
            comments.append(text)
    for key in ("nRows", "nColumns"):
        if key in header:
            try:
                value = int(header[key])
            except ValueError:
                raise DataError(f"{key} is {header[key]!r}, not a whole number", element="header", file=path) from None
            if value < 0:
                raise DataError(f"{key} is negative", element="header", file=path)
    return name, header, tuple(comments), in_degrees


def read_storage(path) -> Table:
    """Read a .mot or .sto file into a :class:`Table`.

    Reads the headers of OpenSim 3 (a name line, ``version=1``, ``nRows``, ``nColumns``,
    ``inDegrees``) and OpenSim 4 (``DataType=``, ``version=3``, ``OpenSimVersion=``, any of the
    counts missing), SIMM's ``datarows``/``datacolumns``, CRLF line ends, a UTF-8 byte-order
    mark, and tab or space separated labels (tab separated labels may hold spaces).

    Raises :class:`~engine.errors.DataError` (naming the line) for a missing
    ``endheader``, a first column that is not time, a row with the wrong number of
    values, text or a non-finite time where a number is required, time going
    backwards, or row and column counts that disagree with ``nRows`` / ``nColumns``.
    NaN is accepted in data columns (missing values).
    """
    path = Path(path)
    try:
        lines = path.read_bytes().decode("utf-8-sig", errors="replace").splitlines()
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    end = next((i for i, line in enumerate(lines) if line.strip().lower() == "endheader"), None)
    if end is None:
        raise DataError("no 'endheader' line: not an OpenSim storage file", element="header", file=path)
    name, header, comments, in_degrees = _parse_header(lines[:end], path)
    rest = [(i + 1, line) for i, line in enumerate(lines[end + 1:], start=end + 1) if line.strip()]
    if not rest:
        raise DataError("no column labels after 'endheader'", element=f"line {end + 2}", file=path)
    label_line, label_text = rest[0]
    labels = [s.strip() for s in label_text.rstrip("\r\n").split("\t")]
    if len(labels) == 1:
        labels = label_text.split()
    while labels and not labels[-1]:
        labels.pop()
    if not labels or labels[0].lower() != "time":
        raise DataError(f"the first column must be time, got {labels[0] if labels else ''!r}",
                        element=f"line {label_line}", file=path)
    if any(not label for label in labels):
        raise DataError("a column label is empty", element=f"line {label_line}", file=path)
    if "nColumns" in header and int(header["nColumns"]) != len(labels):
        raise DataError(f"nColumns is {header['nColumns']} but {len(labels)} column labels are given",
                        element=f"line {label_line}", file=path)
    rows = []
    for line_no, line in rest[1:]:
        fields = line.split()
        if len(fields) != len(labels):
            raise DataError(f"{len(fields)} values, expected {len(labels)}", element=f"line {line_no}", file=path)
        try:
            values = [float(f) for f in fields]
        except ValueError:
            bad = next(k for k, f in enumerate(fields) if not _is_number(f))
            raise DataError(f"{fields[bad]!r} is not a number", element=f"line {line_no}, column {labels[bad]!r}",
                            file=path) from None
        if not np.isfinite(values[0]):
            raise DataError(f"the time is {fields[0]!r}", element=f"line {line_no}", file=path)
        if rows and values[0] < rows[-1][0]:
            raise DataError(f"the time {values[0]} goes backwards (previous {rows[-1][0]})",
                            element=f"line {line_no}", file=path)
        rows.append(values)
    if "nRows" in header and int(header["nRows"]) != len(rows):
        raise DataError(f"nRows is {header['nRows']} but the file holds {len(rows)} rows"
                        + (" (truncated?)" if len(rows) < int(header["nRows"]) else ""), element="data", file=path)
    data = np.array(rows, dtype=float).reshape(len(rows), len(labels))
    header = {k: v for k, v in header.items() if k not in ("nRows", "nColumns")}
    return Table(name=name, labels=tuple(labels[1:]), time=data[:, 0], data=data[:, 1:], in_degrees=in_degrees,
                 header=header, comments=comments, time_label=labels[0], source=str(path))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _format(value: float) -> str:
    if np.isnan(value):
        return "NaN"
    if np.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return repr(float(value))


def write_storage(path, table: Table) -> None:
    """Write ``table`` as a .mot/.sto file (tab separated, shortest exact numbers)."""
    for text in (table.time_label,) + table.labels:
        if not text or any(c in text for c in "\t\r\n") or text != text.strip():
            raise SettingsError(f"the column label {text!r} cannot be written (empty, or with tabs, line "
                                "breaks or surrounding spaces)")
    out = [table.name] if table.name else []
    header = dict(table.header)
    out.append(f"version={header.pop('version', '1')}")
    out += [f"nRows={len(table.time)}", f"nColumns={len(table.labels) + 1}"]
    if table.in_degrees is not None:
        out.append(f"inDegrees={'yes' if table.in_degrees else 'no'}")
    out += [f"{key}={value}" for key, value in header.items()]
    out += list(table.comments)
    out += ["endheader", "\t".join((table.time_label,) + table.labels)]
    for t, row in zip(table.time, table.data):
        out.append("\t".join([_format(t)] + [_format(v) for v in row]))
    write_text(path, "\n".join(out) + "\n")
