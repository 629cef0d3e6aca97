"""The EMG envelope's low-pass against the analytic gain of a zero-lag Butterworth filter, and its lag.

A Butterworth low-pass of order n and cut-off fc, designed by the bilinear transform at sampling rate fs, has
``|H(f)|^2 = 1 / (1 + (tan(pi f / fs) / tan(pi fc / fs))^(2n))`` (Oppenheim and Schafer, Discrete-Time Signal
Processing, section 7.1; the analog prototype's ``1 / (1 + (f / fc)^(2n))`` with the bilinear frequency warping).
Run forwards and backwards (zero lag), the filter's gain is ``|H(f)|^2`` and its phase zero.

The probe is ``1 + A sin(2 pi f t)`` with A < 1: positive, so rectification leaves it unchanged, and with no
band-pass (``band_pass=None``) the envelope is this probe through the low-pass alone. Its sine and cosine
components over whole periods (away from the ends) give the gain and the phase.
"""
import numpy as np
import pytest

from engine.muscles.emg.processing import EMGProcessing, emg_from_arrays, process_emg

RATE = 1000.0
AMPLITUDE = 0.5


def butterworth_power_gain(f, fc, order, fs=RATE):
    return 1.0 / (1.0 + (np.tan(np.pi * f / fs) / np.tan(np.pi * fc / fs)) ** (2 * order))


def response(f, settings):
    """(gain, phase in radians, mean) of the envelope of ``1 + A sin(2 pi f t)`` over whole periods in its middle."""
    seconds = 20.0
    t = np.arange(int(seconds * RATE)) / RATE
    probe = 1.0 + AMPLITUDE * np.sin(2 * np.pi * f * t)
    env = process_emg(emg_from_arrays(["x"], probe, RATE), settings).envelope[:, 0]
    periods = int(np.floor(10.0 * f))                   # whole periods over the middle 10 s (or so)
    core = (t >= 5.0) & (t < 5.0 + periods / f)
    s, c = np.sin(2 * np.pi * f * t[core]), np.cos(2 * np.pi * f * t[core])
    basis = np.column_stack([np.ones(core.sum()), s, c])
    mean, a_sin, a_cos = np.linalg.lstsq(basis, env[core], rcond=None)[0]
    return np.hypot(a_sin, a_cos) / AMPLITUDE, np.arctan2(a_cos, a_sin), mean


@pytest.mark.parametrize("order", [2, 4, 6])
@pytest.mark.parametrize("ratio", [0.5, 1.0, 1.5, 2.0, 3.0])
def test_envelope_gain_is_the_zero_lag_butterworths(order, ratio):
    fc = 6.0
    gain, phase, mean = response(ratio * fc, EMGProcessing(band_pass=None, envelope_cutoff=fc, envelope_order=order))
    expected = butterworth_power_gain(ratio * fc, fc, order)
    assert gain == pytest.approx(expected, rel=1e-3, abs=1e-5)
    assert mean == pytest.approx(1.0, abs=1e-6)                         # unit gain at 0 Hz
    if expected > 1e-3:
        assert abs(phase) < 1e-4                                        # zero lag


def test_default_envelope_is_a_fourth_order_6_hz_low_pass():
    """The module's documented defaults (6 Hz, order 4; SENIAM practice, /work/shared/docs/model-facts.md): half
    power at 6 Hz, 1 / (1 + 2^8) at 12 Hz."""
    settings = EMGProcessing(band_pass=None)
    for f in (6.0, 12.0, 3.0):
        gain, phase, _ = response(f, settings)
        assert gain == pytest.approx(butterworth_power_gain(f, 6.0, 4), rel=1e-3, abs=1e-5)


def test_envelope_of_a_burst_is_not_delayed():
    """A symmetric burst keeps its centre: the zero-lag envelope's centroid and peak stay where the burst is."""
    t = np.arange(int(6 * RATE)) / RATE
    burst = np.exp(-0.5 * ((t - 3.0) / 0.15) ** 2)
    env = process_emg(emg_from_arrays(["x"], burst, RATE), EMGProcessing(band_pass=None)).envelope[:, 0]
    assert np.sum(t * env) / np.sum(env) == pytest.approx(3.0, abs=1e-6)
    assert abs(t[np.argmax(env)] - 3.0) <= 1.0 / RATE
