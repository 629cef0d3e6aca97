"""A low-pass cut-off proposed from a trial's own markers: Winter's residual analysis.

For a cut-off ``fc`` the residual ``R(fc)`` is the RMS difference between a trajectory and its zero-lag
Butterworth low-pass at ``fc``. Above the signal's band the residual is the noise's, which falls linearly
with ``fc`` towards the Nyquist frequency; that line, extrapolated to 0 Hz, gives the noise level ``a``. The
proposed cut-off is where the residual curve comes down to ``a``: filtering there passes as much noise as it
rejects signal (D. A. Winter, Biomechanics and Motor Control of Human Movement, 4th ed., 2009, section
3.4.4.3). Each marker coordinate gets its own cut-off; the proposal is their median, which one noisy or
slow marker cannot move.
"""
from __future__ import annotations

import numpy as np
from scipy.signal import butter, sosfiltfilt

from ..errors import DataError
from .intervals import runs

MIN_CUTOFF = 1.0         # Hz: the lowest cut-off looked at
NOISE_BAND = (0.6, 0.9)  # of the highest cut-off looked at: the stretch of R(fc) fitted as noise
MIN_SAMPLES = 30         # frames of a coordinate's longest gap-free run to take part


def _longest_run(x: np.ndarray) -> np.ndarray:
    """The longest stretch of ``x`` without NaN (empty when all are NaN)."""
    spans = runs(np.isfinite(x))
    if not spans:
        return x[:0]
    first, last = max(spans, key=lambda s: s[1] - s[0])
    return x[first:last + 1]


def residual_cutoff(signal: np.ndarray, rate: float, order: int = 2, steps: int = 60) -> float | None:
    """Winter's cut-off (Hz) for one sampled coordinate (its longest gap-free run), or None when the run is
    too short or shows no noise floor. ``order`` is the Butterworth order per pass (2: Winter's 4th-order
    zero-lag filter)."""
    found = _residual_analysis(signal, rate, order, steps)
    return None if found is None else found[0]


def _residual_analysis(signal, rate, order, steps):
    """``(cutoff Hz, noise level in the signal's unit)`` or None (see :func:`residual_cutoff`)."""
    x = _longest_run(np.asarray(signal, float))
    if len(x) < MIN_SAMPLES or np.ptp(x) == 0:
        return None
    top = 0.45 * rate
    cutoffs = np.linspace(MIN_CUTOFF, top, steps)
    residual = np.empty(steps)
    for k, fc in enumerate(cutoffs):
        sos = butter(order, fc, fs=rate, output="sos")
        residual[k] = np.sqrt(np.mean((x - sosfiltfilt(sos, x)) ** 2))
    band = (cutoffs >= NOISE_BAND[0] * top) & (cutoffs <= NOISE_BAND[1] * top)
    slope, intercept = np.polyfit(cutoffs[band], residual[band], 1)
    if intercept <= 0 or slope > 0:
        return None
    below = np.flatnonzero(residual <= intercept)
    if below.size == 0:
        return None
    k = below[0]
    if k == 0:
        return float(cutoffs[0]), float(intercept)
    # linear interpolation between the last cut-off above the noise level and the first at or below it
    f0, f1, r0, r1 = cutoffs[k - 1], cutoffs[k], residual[k - 1], residual[k]
    return float(f0 + (f1 - f0) * (r0 - intercept) / (r0 - r1)), float(intercept)


def propose_cutoff(markers, order: int = 2) -> tuple[float, str]:
    """``(cutoff Hz, reason)``: the median of Winter's cut-offs over every marker coordinate of ``markers``
    (a :class:`~engine.trial.trial.Markers`).

    Raises
    ------
    DataError
        If no marker coordinate has a long enough gap-free run or a noise floor (too short a trial).
    """
    results = [r for k in range(len(markers.names)) for axis in range(3)
               if (r := _residual_analysis(markers.positions[:, k, axis], markers.rate, order, 60)) is not None]
    found = [fc for fc, _ in results]
    if not found:
        raise DataError(f"no marker has {MIN_SAMPLES} frames without gaps with a noise floor, so no filter cut-off "
                        "can be proposed from the trial: set one")
    cutoff = float(np.median(found))
    return cutoff, (f"filter cut-off {cutoff:.1f} Hz proposed by residual analysis (Winter) of the trial's markers: "
                    f"median over {len(found)} marker coordinates (quartiles {np.percentile(found, 25):.1f}-"
                    f"{np.percentile(found, 75):.1f} Hz; noise level {1000 * np.median([a for _, a in results]):.2f} mm), "
                    f"sampled at {markers.rate:g} Hz")
