"""A trial without a model fitted in two threads at once (a threaded Dask client) under warnings-as-errors: no
warning escapes and the process-wide warnings filters are never changed by the engine (``warnings.catch_warnings``
is not thread-safe: one thread's exit restores filters under another still inside); each thread's model is the one
the same fit gives alone, to the last bit."""
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from engine.demo.for_trial import model_for_trial
from engine.io.c3d import read_c3d
from engine.trial.trial import Markers


def test_two_fits_in_threads_under_warnings_as_errors_touch_no_warning_filter(test_data, monkeypatch):
    trial = read_c3d(test_data / "c3d" / "Sample26" / "Capture0002.c3d")
    m = trial.markers
    positions = np.array(m.positions)
    positions[:, m.names.index("r_suppat")] = np.nan       # a marker never seen in the static: all-NaN means and spans
    static = replace(trial, markers=Markers(m.names, m.time, positions, m.rate))
    alone = model_for_trial(trial, static=static)
    entered = []
    real = warnings.catch_warnings

    def watched(*args, **kwargs):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("engine"):
            entered.append(caller)
        return real(*args, **kwargs)

    monkeypatch.setattr(warnings, "catch_warnings", watched)
    with real():
        warnings.simplefilter("error")
        with ThreadPoolExecutor(2) as pool:
            made = list(pool.map(lambda _: model_for_trial(trial, static=static), range(2)))
    assert entered == []
    assert any("RSUPPAT" in n and "never seen" in n for n in alone.notes)
    for fitted in made:
        assert fitted.notes == alone.notes
        assert [b.mass for b in fitted.model.bodies] == [b.mass for b in alone.model.bodies]
        assert np.array_equal(np.array([mk.offset for mk in fitted.model.markers]),
                              np.array([mk.offset for mk in alone.model.markers]))
