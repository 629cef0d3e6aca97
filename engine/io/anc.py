"""Motion Analysis ``.anc`` analog files (EMG and force-plate channels as A/D counts), read in volts.

Layout (tab separated; the keys end with a colon and may share lines)::

    File_Type:  Analog R/C ASCII   Generation#:  1
    Board_Type:  National Instruments   Polarity:  Bipolar
    Trial_Name:  walk1   Trial#:  1   Duration(Sec.):  2.00000   #Channels:  3
    BitsPerChannel:  16   PreciseRate:  1200.000
    <blank lines>
    Name   F1X    F1Y    EMG1
    Rate   1200   1200   1200
    Range  10000  10000  5000            <- full-scale input of each channel, mV
    0.00000    12    -3    130           <- time (s), then one whole A/D count per channel
    ...

Counts become volts as the OpenSim community's ``load_anc.m`` (UW Neuromuscular Biomechanics Lab) and BTK
convert them for a bipolar board: ``volts = count * Range / 1000 / 2**(BitsPerChannel - 1)`` (``BitDepth:``
is read as ``BitsPerChannel:``). OpenSim 4 itself has no ANC reader (its Python package has none).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import DataError
from ..trial.emg_names import is_emg_name
from ..trial.trial import AnalogChannel

_BIT_KEYS = ("BitsPerChannel", "BitDepth")


@dataclass(frozen=True)
class AncFile:
    """An ANC file's channels in volts (``kind`` 'emg' for channels named as EMG, else 'analog'), its
    header as written (``{key: value}``, keys without their colon), the rate (Hz) and what to check."""

    channels: tuple[AnalogChannel, ...]
    header: dict
    rate: float
    source: str
    warnings: list = field(default_factory=list)

    @property
    def emg(self) -> tuple[AnalogChannel, ...]:
        return tuple(c for c in self.channels if c.kind == "emg")


def _fields(line: str) -> list[str]:
    parts = line.split("\t") if "\t" in line else line.split()
    return [p.strip() for p in parts if p.strip()]


def _header_pairs(lines, path) -> dict:
    """``Key: value`` pairs of the header lines (a value may hold spaces; several pairs per line)."""
    header = {}
    for i, line in lines:
        key = None
        for token in _fields(line):
            if token.endswith(":"):
                key = token[:-1]
                if key in header:
                    raise DataError(f"the header key {key!r} appears twice", element=f"line {i}", file=path)
                header[key] = ""
            elif key is None:
                raise DataError(f"{token!r} is not a 'Key:' header field", element=f"line {i}", file=path)
            else:
                header[key] = f"{header[key]} {token}".strip()
    return header


def _header_number(header, keys, what, path, integer=False):
    key = next((k for k in keys if k in header), None)
    if key is None:
        raise DataError(f"the header has no {what} field", element="header", file=path)
    try:
        value = float(header[key])
    except ValueError:
        raise DataError(f"{key} is {header[key]!r}, not a number", element="header", file=path) from None
    if not np.isfinite(value) or value <= 0 or (integer and value != int(value)):
        raise DataError(f"{key} is {header[key]!r}, not a positive {'whole ' if integer else ''}number",
                        element="header", file=path)
    return int(value) if integer else value


def _channel_row(lines, label, n, path, numbers=True):
    """The ``Name``/``Rate``/``Range`` line: its label, then one entry per channel."""
    for i, line in lines:
        fields = _fields(line)
        if fields and fields[0].lower() == label.lower():
            values = fields[1:]
            if len(values) != n:
                raise DataError(f"{len(values)} entries on the {label} line, expected {n} (#Channels)",
                                element=f"line {i}", file=path)
            if not numbers:
                return values, i
            try:
                out = np.array([float(v) for v in values])
            except ValueError:
                raise DataError(f"the {label} line holds text where numbers are required", element=f"line {i}",
                                file=path) from None
            if not np.all(np.isfinite(out) & (out > 0)):
                raise DataError(f"every {label} must be a positive number", element=f"line {i}", file=path)
            return out, i
    raise DataError(f"no {label} line before the data", element="header", file=path)


def read_anc(path) -> AncFile:
    """Read a Motion Analysis ``.anc`` file (see the module docstring); channels in volts.

    Raises :class:`~engine.errors.DataError` naming the line for: no ``Name``/``Rate``/``Range`` lines,
    ``#Channels`` disagreeing with them, channels at different rates, a unipolar board (its offset is not
    in the file), text, fractions or counts beyond the bit depth where whole counts are required, a time
    column that does not advance at the rate.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
    name_at = next((k for k, (_, line) in enumerate(lines) if _fields(line)[:1] in (["Name"], ["name"])), None)
    if name_at is None or not lines or not lines[0][1].lstrip().startswith("File_Type:"):
        raise DataError("not an ANC file: it must start with 'File_Type:' and list its channels on a 'Name' line",
                        element="line 1", file=path)
    header = _header_pairs(lines[:name_at], path)
    n = _header_number(header, ("#Channels",), "#Channels", path, integer=True)
    bits = _header_number(header, _BIT_KEYS, "BitsPerChannel (or BitDepth)", path, integer=True)
    if bits > 32:
        raise DataError(f"{bits} bits per channel: not an A/D converter's depth", element="header", file=path)
    if header.get("Polarity", "Bipolar").lower() != "bipolar":
        raise DataError(f"Polarity is {header['Polarity']!r}: only bipolar boards can be converted to volts (a "
                        "unipolar board's zero offset is not in the file)", element="header", file=path)
    names, name_line = _channel_row(lines[name_at:name_at + 1], "Name", n, path, numbers=False)
    if len(set(names)) != n:
        raise DataError("channel names repeat", element=f"line {name_line}", file=path)
    rates, rate_line = _channel_row(lines[name_at + 1:name_at + 2], "Rate", n, path)
    ranges, range_line = _channel_row(lines[name_at + 2:name_at + 3], "Range", n, path)
    if np.any(rates != rates[0]):
        raise DataError("the channels are sampled at different rates; HybridLab reads ANC files whose channels "
                        "share one rate", element=f"line {rate_line}", file=path)
    rate = float(header["PreciseRate"]) if _is_rate(header.get("PreciseRate"), rates[0]) else float(rates[0])
    time, counts = _rows(lines[name_at + 3:], n, names, bits, rate, path)
    volts = counts * (ranges / 1000.0 / 2.0 ** (bits - 1))
    warnings = []
    duration = header.get("Duration(Sec.)")
    if duration is not None and _is_number(duration) and abs(float(duration) * rate - len(time)) > 1.5:
        warnings.append(f"Duration(Sec.) is {duration} s but the file holds {len(time)} samples at {rate:g} Hz")
    channels = tuple(AnalogChannel(name, rate, "V", volts[:, k], float(time[0]) if len(time) else 0.0,
                                   f"range {ranges[k]:g} mV, {bits} bits", "emg" if is_emg_name(name) else "analog")
                     for k, name in enumerate(names))
    return AncFile(channels, header, rate, str(path), warnings)


def _is_number(text) -> bool:
    try:
        return np.isfinite(float(text))
    except (TypeError, ValueError):
        return False


def _is_rate(precise, rounded) -> bool:
    """PreciseRate is used when it is a number that the Rate line rounds."""
    return _is_number(precise) and float(precise) > 0 and abs(float(precise) - rounded) <= 1.0


def _rows(lines, n, names, bits, rate, path):
    limit = 2 ** (bits - 1)
    time, rows = [], []
    for i, line in lines:
        fields = line.split()
        if len(fields) != n + 1:
            raise DataError(f"{len(fields)} values, expected {n + 1} (time and one count per channel)",
                            element=f"line {i}", file=path)
        try:
            values = [float(f) for f in fields]
        except ValueError:
            raise DataError("a value is not a number", element=f"line {i}", file=path) from None
        counts = np.array(values[1:])
        bad = np.flatnonzero(~np.isfinite(counts) | (counts != np.round(counts)) | (np.abs(counts) > limit))
        if bad.size:
            k = int(bad[0])
            raise DataError(f"{fields[k + 1]!r} is not a whole A/D count within +-{limit} ({bits} bits)",
                            element=f"line {i}, channel {names[k]}", file=path)
        if not np.isfinite(values[0]):
            raise DataError(f"the time is {fields[0]!r}", element=f"line {i}", file=path)
        if time and abs(values[0] - (time[0] + len(time) / rate)) > 0.5 / rate:
            raise DataError(f"the time {fields[0]} s does not follow the {rate:g} Hz rate from {time[0]:g} s "
                            f"(sample {len(time) + 1})", element=f"line {i}", file=path)
        time.append(values[0])
        rows.append(counts)
    if not rows:
        raise DataError("no samples after the Range line", element="data", file=path)
    return np.array(time), np.array(rows)
