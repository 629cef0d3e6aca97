"""CSV tables of curves (:class:`~engine.analysis.series.Series`): the application's "Export curves as CSV"."""
from __future__ import annotations

import csv

import numpy as np

from ..errors import SettingsError
from .atomic import atomic_write


def write_series_csv(path, series) -> None:
    """A CSV table: ``time [s]`` then one column per series (``label [unit]``), atomically.

    Raises
    ------
    SettingsError
        If no series is given or they are not sampled at the same times.
    """
    series = list(series)
    if not series:
        raise SettingsError("no series selected for the CSV table")
    time = series[0].time
    for s in series[1:]:
        if s.time.shape != time.shape or not np.array_equal(s.time, time):
            raise SettingsError(f"series '{s.label}' is not sampled at the times of '{series[0].label}'")
    with atomic_write(path) as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["time [s]"] + [s.header for s in series])
        for f, t in enumerate(time):
            writer.writerow([repr(float(t))] + ["" if np.isnan(s.values[f]) else repr(float(s.values[f]))
                                                for s in series])
