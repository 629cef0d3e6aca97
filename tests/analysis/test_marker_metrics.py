"""IK errors per marker: RMS and max over the frames each marker was present."""
from types import SimpleNamespace

import numpy as np

from engine.analysis.metrics import marker_metrics


def test_rms_and_max_over_present_frames():
    errors = np.array([[0.003, np.nan], [0.004, np.nan], [np.nan, np.nan]])
    ik = SimpleNamespace(marker_names=["LASI", "RASI"], errors=errors)
    a, b = marker_metrics(ik)
    assert (a.marker, a.frames) == ("LASI", 2)
    assert np.isclose(a.rms, np.sqrt((0.003 ** 2 + 0.004 ** 2) / 2)) and a.max == 0.004
    assert (b.marker, b.frames) == ("RASI", 0) and np.isnan(b.rms) and np.isnan(b.max)
