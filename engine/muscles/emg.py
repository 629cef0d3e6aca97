"""EMG channels (from a trial's C3D analogs, a Motion Analysis .anc file, a .mot/.sto file, a CSV file or
arrays) and their processing.

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

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.signal import butter, sosfiltfilt

from ..errors import DataError, SettingsError


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


def _uniform_rate(time, source):
    if len(time) < 2:
        raise DataError("an EMG file needs at least two samples", file=source)
    dt = np.diff(time)
    step = float(np.median(dt))
    if step <= 0 or np.max(np.abs(dt - step)) > 1e-6 * max(step, 1e-12) + 1e-9:
        raise DataError("EMG samples must be evenly spaced in time", file=source)
    return 1.0 / step


def _select(labels, data, columns, source):
    if columns is None:
        return tuple(labels), data
    missing = [c for c in columns if c not in labels]
    if missing:
        raise DataError(f"no column named {', '.join(map(repr, missing))}", file=source)
    return tuple(columns), data[:, [labels.index(c) for c in columns]]


def read_emg_storage(path, columns=None, units: str = "V") -> EMGSignals:
    """EMG columns of an OpenSim .mot/.sto file (time column first, evenly spaced)."""
    from ..io.storage import read_storage
    table = read_storage(path)
    names, data = _select(list(table.labels), table.data, columns, str(path))
    return EMGSignals(names, _uniform_rate(table.time, str(path)), data, float(table.time[0]), units, str(path))


def read_emg_csv(path, columns=None, time_column: str = "time", units: str = "V") -> EMGSignals:
    """EMG from a CSV file with a header row: a ``time_column`` (s, evenly spaced) and one column per channel."""
    path = Path(path)
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    rows = [r for r in rows if r and any(c.strip() for c in r)]
    if len(rows) < 3:
        raise DataError("a CSV EMG file needs a header row and at least two rows of samples", file=path)
    header = [h.strip() for h in rows[0]]
    if time_column not in header:
        raise DataError(f"no {time_column!r} column in the header", element="line 1", file=path)
    values = np.empty((len(rows) - 1, len(header)))
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise DataError(f"{len(row)} values, expected {len(header)}", element=f"line {i}", file=path)
        try:
            values[i - 2] = [float(c) for c in row]
        except ValueError:
            raise DataError("a value is not a number", element=f"line {i}", file=path) from None
    it = header.index(time_column)
    labels = [h for k, h in enumerate(header) if k != it]
    data = np.delete(values, it, axis=1)
    names, data = _select(labels, data, columns, str(path))
    return EMGSignals(names, _uniform_rate(values[:, it], str(path)), data, float(values[0, it]), units, str(path))


def read_emg_anc(path, columns=None) -> EMGSignals:
    """EMG channels of a Motion Analysis .anc file, in volts: ``columns`` by name, or else the channels named
    as EMG or muscles (see :func:`engine.trial.emg_names.is_emg_name`)."""
    from ..io.anc import read_anc
    anc = read_anc(path)
    chosen = anc.emg if columns is None else anc.channels
    if not chosen:
        raise DataError("no channel is named as EMG or a muscle (name the channels to use)", file=path)
    names, data = _select([c.name for c in chosen], np.column_stack([c.data for c in chosen]), columns, str(path))
    return EMGSignals(names, anc.rate, data, chosen[0].t0, "V", str(path))
