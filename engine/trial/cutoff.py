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

from ..errors import DataError
from .intervals import runs

MIN_CUTOFF = 1.0         # Hz: the lowest cut-off looked at
NOISE_BAND = (0.6, 0.9)  # of the highest cut-off looked at: the stretch of R(fc) fitted as noise
MIN_SAMPLES = 30         # frames of a coordinate's longest gap-free run to take part


def _longest_span(x: np.ndarray) -> tuple[int, int] | None:
    """``(first, last)`` frames of the longest stretch of ``x`` without NaN (None when all are NaN)."""
    spans = runs(np.isfinite(x))
    return max(spans, key=lambda s: s[1] - s[0]) if spans else None


def residual_cutoff(signal: np.ndarray, rate: float, order: int = 2, steps: int = 60) -> float | None:
    """Winter's cut-off (Hz) for one sampled coordinate (its longest gap-free run), or None when the run is
    too short or shows no noise floor. ``order`` is the Butterworth order per pass (2: Winter's 4th-order
    zero-lag filter)."""
    x = np.asarray(signal, float)
    span = _longest_span(x)
    x = x[:0] if span is None else x[span[0]:span[1] + 1]
    if not _usable(x):
        return None
    cutoffs, residual = _residual_curves(x[:, None], rate, order, steps)
    found = _noise_crossing(cutoffs, residual[:, 0])
    return None if found is None else found[0]


def _usable(x: np.ndarray) -> bool:
    return len(x) >= MIN_SAMPLES and np.ptp(x) > 0


def _residual_curves(X: np.ndarray, rate: float, order: int, steps: int):
    """``(cutoffs (steps,), R (steps, m))``: the residual of each column of ``X`` (n, m) at each cut-off (Hz),
    one filter design per cut-off for all the columns."""
    from scipy.signal import butter, sosfiltfilt      # imported when used (see ``filtering``)
    cutoffs = np.linspace(MIN_CUTOFF, 0.45 * rate, steps)
    residual = np.empty((steps, X.shape[1]))
    for k, fc in enumerate(cutoffs):
        sos = butter(order, fc, fs=rate, output="sos")
        residual[k] = np.sqrt(np.mean((X - sosfiltfilt(sos, X, axis=0)) ** 2, axis=0))
    return cutoffs, residual


def _noise_crossing(cutoffs, residual):
    """``(cutoff Hz, noise level in the signal's unit)`` where the residual curve comes down to the noise line
    fitted over the top of the band, or None without a noise floor."""
    top = cutoffs[-1]
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


def _all_crossings(markers, order: int, steps: int = 60) -> list:
    """The noise crossing of every usable marker coordinate; coordinates whose longest gap-free run is the same
    stretch of frames are filtered together."""
    columns = markers.positions.reshape(markers.n_frames, -1)
    stretches: dict = {}
    for j in range(columns.shape[1]):
        span = _longest_span(columns[:, j])
        if span is not None and _usable(columns[span[0]:span[1] + 1, j]):
            stretches.setdefault(span, []).append(j)
    found = []
    for (first, last), js in stretches.items():
        cutoffs, residual = _residual_curves(columns[first:last + 1, js], markers.rate, order, steps)
        found += [r for i in range(len(js)) if (r := _noise_crossing(cutoffs, residual[:, i])) is not None]
    return found


def propose_cutoff(markers, order: int = 2) -> tuple[float, str]:
    """``(cutoff Hz, reason)``: the median of Winter's cut-offs over every marker coordinate of ``markers``
    (a :class:`~engine.trial.trial.Markers`).

    Raises
    ------
    DataError
        If no marker coordinate has a long enough gap-free run or a noise floor (too short a trial).
    """
    results = _all_crossings(markers, order)
    found = [fc for fc, _ in results]
    if not found:
        raise DataError(f"no marker has {MIN_SAMPLES} frames without gaps with a noise floor, so no filter cut-off "
                        "can be proposed from the trial: set one")
    cutoff = float(np.median(found))
    return cutoff, (f"filter cut-off {cutoff:.1f} Hz proposed by residual analysis (Winter) of the trial's markers: "
                    f"median over {len(found)} marker coordinates (quartiles {np.percentile(found, 25):.1f}-"
                    f"{np.percentile(found, 75):.1f} Hz; noise level {1000 * np.median([a for _, a in results]):.2f} mm), "
                    f"sampled at {markers.rate:g} Hz")
