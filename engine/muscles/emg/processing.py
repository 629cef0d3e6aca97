"""EMG channels (from a trial's analog channels or arrays; from files: :mod:`engine.io.emg_files`) and their
processing.

Processing chain (:class:`EMGProcessing`, each step recorded in ``ProcessedEMG.steps``):

1. band-pass, zero-lag Butterworth (``sosfiltfilt``): 20-450 Hz by default (SENIAM/ISEK
   practice); the upper edge is lowered to 0.95 x the Nyquist frequency when the sampling
   rate does not allow 450 Hz (said in the steps). ``band_pass=None`` skips it (for
   signals already filtered).
2. full-wave rectification, ``|x|``.
3. low-pass envelope, zero-lag Butterworth at ``envelope_cutoff`` (6 Hz by default).
   Filter ringing can make the envelope dip below 0; such samples are set to 0 and counted.
4. normalisation by a given MVC value per channel (the envelope's value at maximum
   voluntary contraction, in the signal's units) or, for channels without one, by the
   channel's maximum over the trial (``u = u_EMG / u_MVC``, seed eq. 43). Which one was
   used, and its value, is kept in ``ProcessedEMG.normalisers``. Values above 1 are kept
   (and counted in the steps).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import DataError, SettingsError


@dataclass(frozen=True)
class EMGSignals:
    """Raw EMG: ``data`` (n, k) in ``units`` sampled at ``rate`` Hz from ``t0`` s; ``names`` the channels."""

    names: tuple
    rate: float
    data: np.ndarray
    t0: float = 0.0
    units: str = "V"
    source: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "names", tuple(self.names))
        data = np.asarray(self.data, float)
        data = data.reshape(len(data), -1) if data.ndim == 1 else data
        if data.ndim != 2 or data.shape[1] != len(self.names):
            raise SettingsError(f"EMG data must be (samples, {len(self.names)} channels), got {data.shape}")
        if len(set(self.names)) != len(self.names):
            raise SettingsError("EMG channel names repeat")
        if not (np.isfinite(self.rate) and self.rate > 0):
            raise SettingsError(f"the EMG sampling rate must be positive, got {self.rate}")
        object.__setattr__(self, "data", data)

    @property
    def time(self) -> np.ndarray:
        return self.t0 + np.arange(len(self.data)) / self.rate


@dataclass(frozen=True)
class EMGProcessing:
    """EMG processing settings (defaults in brackets).

    band_pass : (low, high) Hz [(20, 450)], or None to skip.  band_pass_order : Butterworth order of
    each pass [4].  envelope_cutoff : Hz [6].  envelope_order : [4].  mvc : ``{channel: MVC envelope
    value}`` [empty: every channel normalised by its trial maximum].
    """

    band_pass: tuple | None = (20.0, 450.0)
    band_pass_order: int = 4
    envelope_cutoff: float = 6.0
    envelope_order: int = 4
    mvc: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.band_pass is not None:
            lo, hi = (float(v) for v in self.band_pass)
            if not (0 < lo < hi):
                raise SettingsError(f"band_pass must be (low, high) with 0 < low < high Hz, got {self.band_pass}")
        if not (np.isfinite(self.envelope_cutoff) and self.envelope_cutoff > 0):
            raise SettingsError(f"envelope_cutoff must be positive, got {self.envelope_cutoff}")
        for name in ("band_pass_order", "envelope_order"):
            value = getattr(self, name)
            if int(value) != value or value < 1:
                raise SettingsError(f"{name} must be a positive whole number, got {value}")
        for channel, value in self.mvc.items():
            if not (np.isfinite(value) and value > 0):
                raise SettingsError(f"the MVC value of {channel!r} must be positive, got {value}")


@dataclass(frozen=True)
class ProcessedEMG:
    """Processed EMG: ``excitation`` (n, k), ``u`` of seed eq. 43; ``envelope`` (n, k) before normalisation
    (signal units); ``normalisers`` ``{channel: ('MVC' or 'trial maximum', value)}``; ``steps`` what was done."""

    names: tuple
    rate: float
    t0: float
    excitation: np.ndarray
    envelope: np.ndarray
    normalisers: dict
    steps: tuple

    @property
    def time(self) -> np.ndarray:
        return self.t0 + np.arange(len(self.excitation)) / self.rate


def process_emg(signals: EMGSignals, settings: EMGProcessing | None = None) -> ProcessedEMG:
    """Band-pass, rectify, low-pass and normalise every channel (see the module docstring)."""
    settings = settings or EMGProcessing()
    unknown = sorted(set(settings.mvc) - set(signals.names))
    if unknown:
        raise SettingsError(f"MVC values given for channels that are not in the EMG: {', '.join(map(repr, unknown))}")
    x = signals.data
    if not np.all(np.isfinite(x)):
        bad = [n for n, ok in zip(signals.names, np.isfinite(x).all(axis=0)) if not ok]
        raise DataError(f"EMG channels with missing (NaN) samples: {', '.join(bad)}", file=signals.source)
    nyquist = signals.rate / 2
    steps = []
    if settings.band_pass is not None:
        lo, hi = settings.band_pass
        high = min(hi, 0.95 * nyquist)
        if lo >= high:
            raise SettingsError(f"a {signals.rate:g} Hz sampling rate is too low for a {lo:g} Hz high-pass "
                                "(the band-pass needs low < 0.95 x Nyquist); give band_pass=None for an "
                                "already filtered signal")
        from scipy.signal import butter       # imported when used (see ``engine.trial.filtering``)
        sos = butter(settings.band_pass_order, (lo, high), btype="bandpass", fs=signals.rate, output="sos")
        x = _filtfilt(sos, x, signals)
        limited = f" (upper edge lowered from {hi:g} Hz: the {signals.rate:g} Hz rate allows at most " \
                  f"{0.95 * nyquist:g})" if high < hi else ""
        steps.append(f"band-pass {lo:g}-{high:g} Hz, Butterworth order {settings.band_pass_order}, zero lag{limited}")
    else:
        steps.append("no band-pass (band_pass=None)")
    x = np.abs(x)
    steps.append("full-wave rectification")
    if settings.envelope_cutoff >= nyquist:
        raise SettingsError(f"envelope_cutoff {settings.envelope_cutoff:g} Hz must be below the Nyquist frequency "
                            f"{nyquist:g} Hz")
    from scipy.signal import butter
    sos = butter(settings.envelope_order, settings.envelope_cutoff, btype="low", fs=signals.rate, output="sos")
    env = _filtfilt(sos, x, signals)
    negative = int((env < 0).sum())
    env = np.maximum(env, 0.0)
    steps.append(f"low-pass envelope {settings.envelope_cutoff:g} Hz, Butterworth order {settings.envelope_order}, "
                 f"zero lag" + (f"; {negative} samples below 0 (filter ringing) set to 0" if negative else ""))
    normalisers = {}
    u = np.empty_like(env)
    for j, name in enumerate(signals.names):
        if name in settings.mvc:
            normalisers[name] = ("MVC", float(settings.mvc[name]))
        else:
            peak = float(env[:, j].max())
            if peak <= 0:
                raise DataError(f"EMG channel {name!r} is flat (zero envelope): it cannot be normalised",
                                file=signals.source)
            normalisers[name] = ("trial maximum", peak)
        u[:, j] = env[:, j] / normalisers[name][1]
        above = int((u[:, j] > 1).sum())
        steps.append(f"{name}: normalised by its {normalisers[name][0]} {normalisers[name][1]:.6g} {signals.units}"
                     + (f"; above 1 in {above} samples (kept)" if above else ""))
    return ProcessedEMG(signals.names, signals.rate, signals.t0, u, env, normalisers, tuple(steps))


def _filtfilt(sos, x, signals):
    from scipy.signal import sosfiltfilt
    try:
        return sosfiltfilt(sos, x, axis=0)
    except ValueError:
        raise DataError(f"the EMG is too short to filter ({len(x)} samples)", file=signals.source) from None


def emg_from_arrays(names, data, rate: float, t0: float = 0.0, units: str = "V") -> EMGSignals:
    """EMG from plain arrays: ``data`` (samples, channels) sampled at ``rate`` Hz."""
    return EMGSignals(tuple(names), float(rate), data, float(t0), units)


def emg_from_trial(trial, channels=None) -> EMGSignals:
    """The EMG channels of a :class:`~engine.trial.Trial` (analog channels of kind ``'emg'``, or the
    analog channels named in ``channels``). They must share rate, start and length."""
    if channels is None:
        chosen = list(trial.emg)
        if not chosen:
            raise DataError("the trial has no EMG channels (name the analog channels to use)", file=trial.source)
    else:
        by_name = {c.name: c for c in trial.analogs}
        missing = [c for c in channels if c not in by_name]
        if missing:
            raise DataError(f"no analog channel named {', '.join(map(repr, missing))}", file=trial.source)
        chosen = [by_name[c] for c in channels]
    first = chosen[0]
    for c in chosen[1:]:
        if c.rate != first.rate or c.t0 != first.t0 or len(c.data) != len(first.data):
            raise DataError(f"EMG channels {first.name!r} and {c.name!r} differ in rate, start or length",
                            file=trial.source)
    units = {c.units for c in chosen}
    return EMGSignals(tuple(c.name for c in chosen), first.rate, np.column_stack([c.data for c in chosen]),
                      first.t0, units.pop() if len(units) == 1 else "mixed units", trial.source)
