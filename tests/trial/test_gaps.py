"""Gap report and cubic-spline gap filling."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.trial import Markers, Trial, fill_gaps, gap_report


def cubic(t):
    """A cubic polynomial path: a not-a-knot cubic spline through its samples reproduces it exactly."""
    return np.column_stack([0.3 + 0.2 * t - 0.1 * t ** 3, 1.0 - t ** 2 + 0.05 * t ** 3, 0.5 * t])


def trial_with_gaps():
    t = np.arange(100) / 50.0
    P = np.stack([cubic(t), cubic(t) + 1.0], axis=1)
    P[10:13, 0] = np.nan        # 3-frame interior gap
    P[40:60, 0] = np.nan        # 20-frame interior gap
    P[0:4, 1] = np.nan          # edge gap at the start
    P[97:, 1] = np.nan          # edge gap at the end
    P[50, 1, 2] = np.nan        # one coordinate missing -> the sample is missing
    return Trial(Markers(("A", "B"), t, P, 50.0)), t


def test_gap_report():
    trial, _ = trial_with_gaps()
    a, b = gap_report(trial.markers)
    assert a.ranges == [(10, 12), (40, 59)] and a.n_gaps == 2 and a.longest == 20
    assert a.percent_missing == pytest.approx(23.0)
    assert [g.at_edge for g in a.gaps] == [False, False]
    assert b.ranges == [(0, 3), (50, 50), (97, 99)] and b.longest == 4
    assert [g.at_edge for g in b.gaps] == [True, False, True]
    assert b.percent_missing == pytest.approx(8.0)


def test_fill_short_interior_gaps_only():
    trial, t = trial_with_gaps()
    filled, report = fill_gaps(trial, max_gap=5)
    P = filled.markers.positions
    np.testing.assert_allclose(P[10:13, 0], cubic(t[10:13]), atol=1e-12)   # exact for a cubic path
    np.testing.assert_allclose(P[50, 1], cubic(t[50:51])[0] + 1.0, atol=1e-12)
    assert np.isnan(P[40:60, 0]).all()                                       # too long: stays missing
    assert np.isnan(P[0:4, 1]).all() and np.isnan(P[97:, 1]).all()          # edges: never extrapolated
    present = np.isfinite(trial.markers.positions).all(axis=2)
    np.testing.assert_array_equal(P[present], trial.markers.positions[present])   # present samples untouched
    assert [(n, g.start) for n, g in report.filled] == [("A", 10), ("B", 50)]
    assert sorted((n, g.start) for n, g in report.left) == [("A", 40), ("B", 0), ("B", 97)]
    assert "A frames 40-59" in filled.conversions[-1] and "(edge)" in filled.conversions[-1]


def test_max_gap_in_seconds():
    trial, _ = trial_with_gaps()
    filled, report = fill_gaps(trial, max_gap_s=0.4)     # 0.4 s at 50 Hz = 20 frames
    assert report.max_gap == 20
    assert not np.isnan(filled.markers.positions[40:60, 0]).any()


def test_marker_with_too_few_samples_is_reported_not_filled():
    t = np.arange(6) / 10.0
    P = np.full((6, 1, 3), np.nan)
    P[[0, 2, 5], 0] = 1.0
    filled, report = fill_gaps(Trial(Markers(("A",), t, P, 10.0)), max_gap=3)
    assert np.isnan(filled.markers.positions[[1, 3, 4], 0]).all()
    assert len(report.filled) == 0 and len(report.left) == 2


@pytest.mark.parametrize("kwargs", [{}, {"max_gap": 3, "max_gap_s": 0.1}, {"max_gap": -1}, {"max_gap": 2.5},
                                    {"max_gap_s": float("nan")}])
def test_bad_settings(kwargs):
    trial, _ = trial_with_gaps()
    with pytest.raises(SettingsError):
        fill_gaps(trial, **kwargs)
