"""EMG from files: a .mot/.sto or CSV table, a Motion Analysis .anc file, a C3D file's analog channels; and a
trial given the EMG of a file beside it (the muscle step reads ``trial.emg``)."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from ..errors import DataError
from ..muscles.emg.processing import EMGSignals, emg_from_trial
from ..trial.trial import AnalogChannel
from .anc import read_anc
from .c3d import read_c3d
from .storage import read_storage


def _uniform_rate(time, source):
    if len(time) < 2:
        raise DataError("an EMG file needs at least two samples", file=source)
    dt = np.diff(time)
    step = float(np.median(dt))
    if step <= 0 or np.max(np.abs(dt - step)) > 1e-6 * max(step, 1e-12) + 1e-9:
        raise DataError("EMG samples must be evenly spaced in time", file=source)
    return 1.0 / step


def _select(labels, data, columns, source):
    if columns is None:
        return tuple(labels), data
    missing = [c for c in columns if c not in labels]
    if missing:
        raise DataError(f"no column named {', '.join(map(repr, missing))}", file=source)
    return tuple(columns), data[:, [labels.index(c) for c in columns]]


def read_emg_storage(path, columns=None, units: str = "V") -> EMGSignals:
    """EMG columns of an OpenSim .mot/.sto file (time column first, evenly spaced)."""
    table = read_storage(path)
    names, data = _select(list(table.labels), table.data, columns, str(path))
    return EMGSignals(names, _uniform_rate(table.time, str(path)), data, float(table.time[0]), units, str(path))


def read_emg_csv(path, columns=None, time_column: str = "time", units: str = "V") -> EMGSignals:
    """EMG from a CSV file with a header row: a ``time_column`` (s, evenly spaced) and one column per channel."""
    path = Path(path)
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    rows = [r for r in rows if r and any(c.strip() for c in r)]
    if len(rows) < 3:
        raise DataError("a CSV EMG file needs a header row and at least two rows of samples", file=path)
    header = [h.strip() for h in rows[0]]
    if time_column not in header:
        raise DataError(f"no {time_column!r} column in the header", element="line 1", file=path)
    values = np.empty((len(rows) - 1, len(header)))
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise DataError(f"{len(row)} values, expected {len(header)}", element=f"line {i}", file=path)
        try:
            values[i - 2] = [float(c) for c in row]
        except ValueError:
            raise DataError("a value is not a number", element=f"line {i}", file=path) from None
    it = header.index(time_column)
    labels = [h for k, h in enumerate(header) if k != it]
    data = np.delete(values, it, axis=1)
    names, data = _select(labels, data, columns, str(path))
    return EMGSignals(names, _uniform_rate(values[:, it], str(path)), data, float(values[0, it]), units, str(path))


def read_emg_anc(path, columns=None) -> EMGSignals:
    """EMG channels of a Motion Analysis .anc file, in volts: ``columns`` by name, or else the channels named
    as EMG or muscles (see :func:`engine.trial.emg_names.is_emg_name`)."""
    anc = read_anc(path)
    chosen = anc.emg if columns is None else anc.channels
    if not chosen:
        raise DataError("no channel is named as EMG or a muscle (name the channels to use)", file=path)
    names, data = _select([c.name for c in chosen], np.column_stack([c.data for c in chosen]), columns, str(path))
    return EMGSignals(names, anc.rate, data, chosen[0].t0, "V", str(path))


EMG_SUFFIXES = (".anc", ".c3d", ".mot", ".sto", ".csv")


def read_emg_file(path, channels=None) -> EMGSignals:
    """The EMG of ``path`` by its extension: ``channels`` by name, or else those the file marks or names as EMG
    (.anc, .c3d) or all its columns (.mot/.sto, .csv). Values in volts where the file says so (.anc counts are
    converted, C3D analogs are scaled to SI); .mot/.sto and .csv values are taken as volts."""
    path = Path(path)
    suffix = path.suffix.lower()
    if not path.is_file():
        raise DataError("no such file", file=path)
    if suffix == ".anc":
        return read_emg_anc(path, channels)
    if suffix == ".c3d":
        return emg_from_trial(read_c3d(path, emg_channels=channels), channels)
    if suffix in (".mot", ".sto"):
        return read_emg_storage(path, channels)
    if suffix == ".csv":
        return read_emg_csv(path, channels)
    raise DataError(f"unknown EMG file type {suffix!r}; expected one of {', '.join(EMG_SUFFIXES)}", file=path)


def trial_with_emg(trial, emg: EMGSignals):
    """``trial`` whose EMG channels are ``emg``'s (the trial's own EMG channels become plain analogs)."""
    clash = sorted({c.name for c in trial.analogs} & set(emg.names))
    if clash:
        raise DataError(f"the trial already has analog channels named {', '.join(map(repr, clash))}; the EMG "
                        "file's channels must have other names", file=emg.source)
    own = tuple(AnalogChannel(c.name, c.rate, c.units, c.data, c.t0, c.description, "analog") if c.kind == "emg"
                else c for c in trial.analogs)
    added = tuple(AnalogChannel(name, emg.rate, emg.units, emg.data[:, k], emg.t0, f"from {emg.source}", "emg")
                  for k, name in enumerate(emg.names))
    note = (f"EMG channels {', '.join(emg.names)} ({emg.rate:g} Hz, {emg.units}) taken from {emg.source}"
            + ("; the trial's own EMG channels set aside" if any(c.kind == "emg" for c in trial.analogs) else ""))
    return trial.derived(note, analogs=own + added)
