"""Zero-lag Butterworth low-pass and resampling against the analytic filter response."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.trial import ForcePlate, Markers, Trial, lowpass, lowpass_markers, lowpass_plates, resample, resample_trial


def butterworth_gain(f, fc, order):
    """|H(f)| of an analog Butterworth prototype; forwards-backwards filtering squares it."""
    return 1.0 / np.sqrt(1.0 + (f / fc) ** (2 * order))


def test_lowpass_gain_and_zero_lag():
    rate, fc, order = 1000.0, 10.0, 4
    t = np.arange(20000) / rate
    slow, fast = np.sin(2 * np.pi * 2.0 * t), np.sin(2 * np.pi * 40.0 * t)
    out, short = lowpass(slow + fast, rate, fc, order)
    assert short == []
    core = slice(3000, -3000)                       # away from the edge transients
    resid = out[core] - slow[core]
    # the 40 Hz part is attenuated by about |H|^2 (bilinear warping makes the digital filter slightly steeper)
    assert np.max(np.abs(resid)) < 1.2 * butterworth_gain(40.0, fc, order) ** 2 + 2e-3
    # the 2 Hz part passes with gain |H(2)|^2 and no phase lag
    passed, _ = lowpass(slow, rate, fc, order)
    np.testing.assert_allclose(passed[core], slow[core] * butterworth_gain(2.0, fc, order) ** 2, atol=2e-4)


def test_lowpass_is_nan_aware_and_reports_short_stretches():
    rate = 100.0
    t = np.arange(300) / rate
    x = np.column_stack([np.sin(2 * np.pi * t), np.cos(2 * np.pi * t), t])
    x[100:110] = np.nan
    x[200:205] = np.nan
    x[207:210] = np.nan               # leaves a 2-sample stretch 205-206
    out, short = lowpass(x, rate, 6.0, 2)
    assert np.isnan(out[100:110]).all() and np.isnan(out[200:205]).all()
    assert (205, 207) in short
    np.testing.assert_array_equal(out[205:207], x[205:207])                  # left as recorded
    assert np.all(np.isfinite(out[:100])) and np.all(np.isfinite(out[110:200]))
    # no smearing of the gap: a stretch filtered alone equals the same stretch of the gappy signal
    alone, _ = lowpass(x[110:200], rate, 6.0, 2)
    np.testing.assert_allclose(out[110:200], alone)


@pytest.mark.parametrize("cutoff,order", [(0.0, 4), (50.0, 4), (60.0, 4), (10.0, 0), (10.0, 2.5)])
def test_bad_filter_settings(cutoff, order):
    with pytest.raises(SettingsError):
        lowpass(np.zeros(100), 100.0, cutoff, order)


def test_resample_up_and_down():
    rate = 100.0
    t = np.arange(201) / rate
    x = np.sin(2 * np.pi * 1.5 * t)[:, None]
    t_up, up, _ = resample(x, rate, 250.0)
    np.testing.assert_allclose(t_up[[0, -1]], [0.0, 2.0])
    np.testing.assert_allclose(up[:, 0], np.sin(2 * np.pi * 1.5 * t_up), atol=5e-5)   # cubic interpolation
    t_down, down, short = resample(x, rate, 20.0)
    assert len(t_down) == 41 and short == []
    gain = butterworth_gain(1.5, 0.4 * 20.0, 4) ** 2
    core = slice(5, -5)
    np.testing.assert_allclose(down[core, 0], gain * np.sin(2 * np.pi * 1.5 * t_down[core]), atol=2e-3)


def test_resample_keeps_gaps():
    x = np.arange(100, dtype=float)[:, None] * 0.01
    x[40:60] = np.nan
    t_new, y, _ = resample(x, 100.0, 200.0)
    inside_gap = (t_new > 0.39 + 1e-9) & (t_new < 0.60 - 1e-9)     # between the last and first present samples
    assert np.isnan(y[inside_gap]).all()
    np.testing.assert_allclose(y[~inside_gap, 0], t_new[~inside_gap], atol=1e-12)   # a line is reproduced


def test_trial_level_filter_and_resample(rng):
    frames, rate = 200, 100.0
    t = np.arange(frames) / rate
    P = np.stack([np.column_stack([np.sin(t), np.cos(t), t])] * 2, axis=1) + rng.normal(scale=1e-3,
                                                                                        size=(frames, 2, 3))
    n = frames * 10
    F = np.column_stack([np.zeros(n), np.zeros(n), 600 + 5 * rng.normal(size=n)])
    M = np.cross(np.array([0.1, 0.2, 0.0]), F)
    plate = ForcePlate.from_loads(F, M, normal=[0, 0, 1], surface_point=[0, 0, 0], name="FP1", number=1,
                                  type=2, rate=1000.0, t0=0.0)
    trial = Trial(Markers(("A", "B"), t, P, rate), plates=(plate,))
    smooth, report = lowpass_markers(trial, 6.0)
    assert "Butterworth order 4, cut-off 6 Hz" in smooth.conversions[-1]
    assert np.std(np.diff(smooth.markers.positions[:, 0, 2], 2)) < 0.2 * np.std(np.diff(P[:, 0, 2], 2))
    filtered, _ = lowpass_plates(trial, 20.0)
    np.testing.assert_allclose(filtered.plates[0].cop[50:-50], np.tile([0.1, 0.2, 0.0], (n - 100, 1)), atol=1e-9)
    resampled = resample_trial(trial, 50.0)
    assert resampled.markers.rate == 50.0 and resampled.markers.n_frames == 100
    assert resampled.plates[0].rate == 50.0 and resampled.plates[0].n_samples == 100
    np.testing.assert_allclose(resampled.plates[0].cop[5:-5], np.tile([0.1, 0.2, 0.0], (90, 1)), atol=1e-9)


def test_plates_are_filtered_with_the_chosen_ends():
    """A zero-lag low-pass shifts a parabola by one constant everywhere (its impulse response's second moment);
    'extrapolate' ends keep that constant up to the trial's first sample, 'odd' reflection bends them."""
    t = np.arange(0.0, 1.0, 0.001)
    Fz = 600.0 + 3000.0 * (t + 0.2) ** 2
    F = np.column_stack([np.zeros_like(t), np.zeros_like(t), Fz])
    M = np.cross(np.array([0.1, 0.2, 0.0]), F)
    plate = ForcePlate.from_loads(F, M, normal=[0, 0, 1], surface_point=[0, 0, 0], name="FP1", number=1,
                                  type=2, rate=1000.0, t0=0.0)
    trial = Trial(Markers(("A",), t[::10], np.zeros((100, 1, 3)), 100.0), plates=(plate,))
    shift = {}
    for edges in ("extrapolate", "odd"):
        filtered, _ = lowpass_plates(trial, 8.0, 3, edges)
        d = filtered.plates[0].force[:, 2] - Fz
        shift[edges] = abs(d[0] - d[500])
    assert shift["extrapolate"] < 0.1 < 1.0 < shift["odd"]
