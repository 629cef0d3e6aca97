"""EMG from a file beside the trial (.anc, .c3d, .mot/.sto, .csv), added to the trial as its EMG channels."""
from __future__ import annotations

from pathlib import Path

from ..errors import DataError
from ..trial.trial import AnalogChannel
from .emg import EMGSignals, emg_from_trial, read_emg_anc, read_emg_csv, read_emg_storage

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
        from ..io.c3d import read_c3d
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
