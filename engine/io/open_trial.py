"""Open a trial file by its extension: C3D, or OpenSim TRC (markers) with optional GRF files."""
from __future__ import annotations

from pathlib import Path

from ..errors import DataError

TRIAL_SUFFIXES = (".c3d", ".trc")


def open_trial(path, grf=None, external_loads=None, emg_channels=None, *, c3d_timeout: float | None = None,
               cancel=None):
    """A :class:`~engine.trial.trial.Trial` from a .c3d or .trc file, in the file's own frame.

    ``c3d_timeout`` (s; None for the reader's default) and ``cancel`` (a ``threading.Event``) are passed to
    :func:`~engine.io.c3d.read_c3d`.

    For a .trc, ``external_loads`` (an OpenSim ExternalLoads .xml) adds its ground reactions
    as force plates, read from ``grf`` (a .mot) or from the data file the .xml names.
    ``emg_channels`` names a C3D trial's analog channels that hold EMG (default: recognised by name).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if not path.is_file():
        raise DataError("no such file", file=path)
    if suffix == ".c3d":
        from .c3d import read_c3d
        if grf or external_loads:
            raise DataError("a C3D file carries its own force plates; --grf and --external-loads are for TRC "
                            "trials", file=path)
        return read_c3d(path, emg_channels=emg_channels, timeout=c3d_timeout, cancel=cancel)
    if suffix == ".trc":
        if emg_channels:
            raise DataError("a TRC file holds no analog channels; give the EMG file with --emg", file=path)
        from .trc import read_trc
        trial = read_trc(path)
        if external_loads is not None:
            from .external_loads import load_external_loads, with_ground_reactions
            trial = with_ground_reactions(trial, load_external_loads(external_loads, grf))
        elif grf is not None:
            raise DataError("a GRF .mot needs the ExternalLoads .xml that says which columns act on which body "
                            "(--external-loads)", file=grf)
        return trial
    raise DataError(f"unknown trial file type {suffix!r}; expected one of {', '.join(TRIAL_SUFFIXES)}", file=path)
