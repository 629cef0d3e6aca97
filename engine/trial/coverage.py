"""Whether the force plates and EMG cover the time the markers are analysed over.

Loads or EMG missing over part of the analysed range must not read as zero load or zero activity:
the range is cut to the time every signal covers (said in a note), and a signal that does not overlap
the markers at all is an error.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError


def covered_range(trial, start: float | None, end: float | None, channels=()):
    """``(start, end, notes)``: the analysed range ``start``-``end`` (s; None for the markers' first or last
    frame) cut to the time covered by every force plate of ``trial`` that is ever loaded and by the analog
    ``channels`` named (EMG used by the analysis). ``start``/``end`` come back unchanged (None included)
    where nothing cuts them. DataError when a signal leaves less than two marker frames."""
    t = trial.markers.time
    if not len(t):
        raise DataError("the trial has no marker frames", file=trial.source)
    lo = float(t[0]) if start is None else float(start)
    hi = float(t[-1]) if end is None else float(end)
    signals = [(f"force plate {p.name}", p.time) for p in trial.plates if p.n_samples and p.loaded.any()]
    by_name = {c.name: c for c in trial.analogs}
    signals += [(f"EMG channel {name}", by_name[name].time) for name in channels if name in by_name]
    tolerance = 0.5 / trial.markers.rate
    new_lo, new_hi, cut_by = lo, hi, []
    for what, time in signals:
        if time[0] > new_lo + tolerance or time[-1] < new_hi - tolerance:
            cut_by.append(f"{what} covers {time[0]:.4f}-{time[-1]:.4f} s")
            new_lo, new_hi = max(new_lo, float(time[0])), min(new_hi, float(time[-1]))
    if not cut_by:
        return start, end, []
    frames = np.count_nonzero((t >= new_lo - 1e-9) & (t <= new_hi + 1e-9))
    if new_hi <= new_lo or frames < 2:
        raise DataError(f"the force plates and EMG do not cover the markers' analysed range {lo:.4f}-{hi:.4f} s "
                        f"({'; '.join(cut_by)}): no time in common (a GRF or EMG file of another trial, or shifted "
                        "in time?)", file=trial.source)
    note = (f"analysed range cut from {lo:.4f}-{hi:.4f} s to {new_lo:.4f}-{new_hi:.4f} s ({frames} marker frames), "
            f"the time the loads and EMG cover: {'; '.join(cut_by)}")
    return new_lo, new_hi, [note]
