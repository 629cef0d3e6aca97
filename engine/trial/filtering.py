"""Zero-lag Butterworth low-pass filtering and resampling, aware of missing samples.

Signals with NaN (missing markers) are split into contiguous stretches of valid
samples; each stretch is filtered (or resampled) on its own, so a gap never
smears into its neighbours. Stretches too short for the filter's edge padding are
left unfiltered and reported.

Filtering runs a Butterworth filter of the given order forwards and backwards
(scipy ``sosfiltfilt``): no phase lag, the amplitude response squared, so at the
cut-off frequency the gain is 1/2 (-6 dB) instead of 1/sqrt(2). ``scipy.signal`` (which imports ``scipy.stats``,
most of a second) is imported at the first filter, not with this module: the application's window and the
readers import this module and may never filter.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import SettingsError


LOWEST_CUTOFF = 1e-5
"""The lowest cut-off accepted, as a fraction of the sampling rate. Lower, the Butterworth poles crowd the unit
circle (an order-8 design keeps them 1.2e-5 inside it here; near 1e-9 they leave it and the design is singular)
and the padding of each end (a period of the cut-off) grows without bound: a 1e-9 Hz cut-off would pad with
1e11 samples."""
ANALYSIS_HIGHEST_CUTOFF = 0.4
"""The highest cut-off an analysis accepts, as a fraction of the sampling rate (80% of the Nyquist frequency):
a zero-lag filter closer to it hardly filters, and the motion's second derivative would amplify what is left."""


def check_cutoff(cutoff, rate, what: str = "the cut-off", highest: float = 0.5) -> None:
    """Raise SettingsError unless ``cutoff`` (Hz) is a finite number between ``LOWEST_CUTOFF * rate`` and
    ``highest * rate`` (below it; ``rate`` Hz the sampling rate). ``what`` names the setting in the message."""
    if not (np.isfinite(rate) and rate > 0):
        raise SettingsError(f"the sampling rate must be positive, got {rate} Hz")
    lo, hi = LOWEST_CUTOFF * rate, highest * rate
    number = isinstance(cutoff, (int, float, np.number)) and not isinstance(cutoff, bool)
    if not (number and np.isfinite(cutoff) and lo <= cutoff < hi):
        raise SettingsError(f"{what} must be a number of Hz from {lo:g} up to (not including) {hi:g} Hz at a "
                            f"sampling rate of {rate:g} Hz, got {f'{cutoff:g}' if number else repr(cutoff)}")


def _design(rate, cutoff, order):
    check_cutoff(cutoff, rate)
    if int(order) != order or order < 1:
        raise SettingsError(f"the filter order must be a positive whole number, got {order}")
    from scipy.signal import butter
    sos = butter(int(order), cutoff, btype="low", fs=rate, output="sos")
    return sos


def _min_length(sos) -> int:
    """Shortest stretch ``sosfiltfilt`` accepts with its default padding."""
    zeros = min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    return 3 * (2 * len(sos) + 1 - int(zeros)) + 1


def _stretches(valid: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) half-open index ranges of the runs of True in ``valid``."""
    edges = np.diff(np.concatenate(([0], valid.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def _extend(x, pad: int, fit: int):
    """``x`` (n, ...) with ``pad`` samples added at each end by a quadratic fitted to ``fit`` samples there."""
    n = len(x)
    fit = min(fit, n)
    k = np.arange(fit, dtype=float)
    flat = x.reshape(n, -1)
    head = np.polynomial.polynomial.polyfit(k, flat[:fit], 2)
    tail = np.polynomial.polynomial.polyfit(k, flat[n - fit:], 2)
    before = np.polynomial.polynomial.polyval(np.arange(-pad, 0, dtype=float), head).T
    after = np.polynomial.polynomial.polyval(np.arange(fit, fit + pad, dtype=float), tail).T
    return np.concatenate([before, flat, after]).reshape((n + 2 * pad,) + x.shape[1:])


def lowpass(data, rate: float, cutoff: float, order: int = 4, edges: str = "odd"):
    """Zero-lag Butterworth low-pass of ``data`` along axis 0, NaN-aware.

    Parameters
    ----------
    data : (n, ...) array sampled at ``rate`` Hz; a sample is missing when any of
        its values is NaN.
    cutoff : Hz, below ``rate / 2``.  order : Butterworth order of each pass.
    edges : how each stretch is extended beyond its ends before filtering: ``'odd'``
        (scipy's odd reflection about the end value, which keeps value and slope but mirrors
        the curvature), or ``'extrapolate'``, a quadratic fitted to the samples of the last half
        period of the cut-off at each end and continued over one period: it keeps the
        acceleration at the ends (a ballistic flight stays ballistic), which matters when the
        filtered signal is differentiated twice.

    Returns
    -------
    filtered : array like ``data`` (missing samples stay NaN).
    short : list of (start, stop) sample ranges left unfiltered because they are
        shorter than the filter needs.
    """
    if edges not in ("odd", "extrapolate"):
        raise SettingsError(f"edges must be 'odd' or 'extrapolate', got {edges!r}")
    from scipy.signal import sosfiltfilt
    sos = _design(rate, cutoff, order)
    x = np.asarray(data, dtype=float)
    out = np.array(x)
    valid = np.isfinite(x.reshape(len(x), -1)).all(axis=1)
    short = []
    pad = max(_min_length(sos), int(np.ceil(rate / cutoff)))
    fit = max(5, int(np.ceil(0.5 * rate / cutoff)))
    for a, b in _stretches(valid):
        if b - a < _min_length(sos):
            short.append((int(a), int(b)))
        elif edges == "odd":
            out[a:b] = sosfiltfilt(sos, x[a:b], axis=0)
        else:
            out[a:b] = sosfiltfilt(sos, _extend(x[a:b], pad, fit), axis=0)[pad:pad + b - a]
    return out, short


def _resample_stretches(t_old, x, t_new):
    """Cubic interpolation of ``x`` (n, ...) at ``t_new`` inside each valid stretch; NaN elsewhere."""
    out = np.full((len(t_new),) + x.shape[1:], np.nan)
    valid = np.isfinite(x.reshape(len(x), -1)).all(axis=1)
    for a, b in _stretches(valid):
        inside = (t_new >= t_old[a] - 1e-9) & (t_new <= t_old[b - 1] + 1e-9)
        if not inside.any():
            continue
        if b - a == 1:
            out[inside] = x[a]
        else:
            from scipy.interpolate import CubicSpline
            out[inside] = CubicSpline(t_old[a:b], x[a:b], axis=0)(np.clip(t_new[inside], t_old[a], t_old[b - 1]))
    return out


def resample(data, rate: float, new_rate: float, t0: float = 0.0):
    """Resample ``data`` (n, ...) from ``rate`` to ``new_rate`` Hz, NaN-aware.

    When downsampling, the data are first low-passed (zero-lag Butterworth, order 4)
    at 0.8 times the new Nyquist frequency to avoid aliasing; then each valid
    stretch is interpolated by a cubic spline at the new sample times
    ``t0 + k / new_rate``. New samples outside every valid stretch are NaN.

    Returns ``(time, resampled, short)`` with ``short`` the stretches too short to
    anti-alias (interpolated unfiltered).
    """
    if not (np.isfinite(new_rate) and new_rate > 0):
        raise SettingsError(f"the new rate must be positive, got {new_rate} Hz")
    x = np.asarray(data, dtype=float)
    n = len(x)
    t_old = t0 + np.arange(n) / rate
    short = []
    if new_rate < rate:
        x, short = lowpass(x, rate, 0.4 * new_rate, order=4)
    duration = (n - 1) / rate if n else 0.0
    t_new = t0 + np.arange(int(np.floor(duration * new_rate + 1e-9)) + 1) / new_rate if n else np.zeros(0)
    return t_new, _resample_stretches(t_old, x, t_new), short


@dataclass(frozen=True)
class FilterReport:
    """Stretches left unfiltered because they were too short: (signal name, start, stop) sample ranges."""

    cutoff: float
    order: int
    short: tuple[tuple[str, int, int], ...]

    def describe(self, what: str) -> str:
        text = f"{what} low-passed: Butterworth order {self.order}, cut-off {self.cutoff:g} Hz, zero lag"
        if self.short:
            listed = ", ".join(f"{name} samples {a}-{b - 1}" for name, a, b in self.short)
            text += f"; too short to filter (left as recorded): {listed}"
        return text


def lowpass_markers(trial, cutoff: float, order: int = 4):
    """The trial with its markers low-passed (see :func:`lowpass`), and a :class:`FilterReport`."""
    m = trial.markers
    positions = np.array(m.positions)
    short = []
    for k, name in enumerate(m.names):
        positions[:, k], stretches = lowpass(m.positions[:, k], m.rate, cutoff, order)
        short += [(name, a, b) for a, b in stretches]
    report = FilterReport(cutoff, order, tuple(short))
    return trial.derived(report.describe("markers"), markers=replace(m, positions=positions)), report


def lowpass_plates(trial, cutoff: float, order: int = 4, edges: str = "odd"):
    """The trial with each plate's force and moment low-passed (``edges`` as :func:`lowpass`); COP and free
    moment recomputed."""
    plates, short = [], []
    for p in trial.plates:
        loads = np.concatenate([p.force, p.moment], axis=1)
        filtered, stretches = lowpass(loads, p.rate, cutoff, order, edges)
        plates.append(p.with_loads(filtered[:, :3], filtered[:, 3:], p.rate, p.t0))
        short += [(p.name, a, b) for a, b in stretches]
    report = FilterReport(cutoff, order, tuple(short))
    return trial.derived(report.describe("force plates"), plates=tuple(plates)), report


def resample_trial(trial, rate: float, *, markers: bool = True, plates: bool = True):
    """The trial with its markers and/or force plates resampled to ``rate`` Hz (see :func:`resample`).

    Plate forces and moments are resampled and the COP and free moment recomputed.
    """
    changes, notes = {}, []
    if markers:
        m = trial.markers
        t0 = float(m.time[0]) if m.n_frames else 0.0
        time, positions, short = resample(m.positions, m.rate, rate, t0)
        changes["markers"] = replace(m, time=time, positions=positions, rate=rate)
        notes.append(f"markers resampled from {m.rate:g} to {rate:g} Hz"
                     + (f" ({len(short)} stretches too short to anti-alias)" if short else ""))
    if plates and trial.plates:
        new = []
        for p in trial.plates:
            _, loads, short = resample(np.concatenate([p.force, p.moment], axis=1), p.rate, rate, p.t0)
            new.append(p.with_loads(loads[:, :3], loads[:, 3:], rate, p.t0))
            notes.append(f"plate {p.name} resampled from {p.rate:g} to {rate:g} Hz")
        changes["plates"] = tuple(new)
    if not notes:
        raise SettingsError("nothing to resample: choose markers and/or plates")
    return trial.derived("; ".join(notes), **changes)
