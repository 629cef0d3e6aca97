"""Activation dynamics from neural excitation (seed eqs. 41-43) and the EMG-driven force of eq. 40.

Eqs. 41-42: ``da/dt = (u - a) / tau*`` with ``tau* = tau_ac`` while ``u >= a`` (activating) and
``tau_da`` while ``u < a`` (deactivating). Holding ``u`` constant over each sample
interval ``dt`` (as sampled EMG is), the exact solution over the interval is

    a[k+1] = u[k] + (a[k] - u[k]) exp(-dt / tau*),   tau* chosen by u[k] >= a[k],

and ``a`` never crosses ``u`` within the interval, so the choice of ``tau*`` holds
throughout it: the update is exact (a step response is the exact exponential at
every sample), for any ``dt``.

Eq. 40 as written in the seed, ``f = -a F_l(l) F_v(l-dot) F_max``, counts tension as
negative. Here tension is positive and acts along the tendon:
``f_ref = a F_max f_l f_v cos(alpha)`` = ``a * f_active_max`` of the rigid-tendon Hill
model (:mod:`engine.muscles.forces.hill`), which equals the seed's magnitude for an
unpennated muscle. The passive fibre force is not part of eq. 40 and is not added.
"""
from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from ...errors import SettingsError


@nb.njit(cache=True, nogil=True)
def _integrate(u, dt, tau_act, tau_deact, a0):
    n, k = u.shape
    a = np.empty((n, k))
    decay_act = np.exp(-dt / tau_act)
    decay_deact = np.exp(-dt / tau_deact)
    for j in range(k):
        a[0, j] = a0[j]
        for i in range(n - 1):
            d = decay_act[j] if u[i, j] >= a[i, j] else decay_deact[j]
            a[i + 1, j] = u[i, j] + (a[i, j] - u[i, j]) * d
    return a


def activation_dynamics(u, rate: float, tau_act, tau_deact, a0=None) -> np.ndarray:
    """Activation ``a`` (same shape as ``u``) from excitation ``u`` sampled at ``rate`` Hz (seed eqs. 41-42).

    ``u`` is (n,) or (n, k); ``tau_act``, ``tau_deact`` (s) are numbers or (k,) arrays (one per
    channel); ``a0`` is the activation at the first sample (default ``u`` there).
    """
    u = np.asarray(u, float)
    flat = u.ndim == 1
    u2 = u[:, None] if flat else u
    if u2.ndim != 2 or len(u2) == 0:
        raise SettingsError(f"excitation must be a non-empty (samples,) or (samples, channels) array, got {u.shape}")
    if not np.all(np.isfinite(u2)):
        raise SettingsError("excitation contains NaN or infinite values")
    k = u2.shape[1]
    if not (np.isfinite(rate) and rate > 0):
        raise SettingsError(f"the sampling rate must be positive, got {rate}")
    ta = np.broadcast_to(np.asarray(tau_act, float), (k,)).copy()
    td = np.broadcast_to(np.asarray(tau_deact, float), (k,)).copy()
    if np.any(~np.isfinite(ta) | (ta <= 0)) or np.any(~np.isfinite(td) | (td <= 0)):
        raise SettingsError("activation and deactivation time constants must be positive")
    start = u2[0].copy() if a0 is None else np.broadcast_to(np.asarray(a0, float), (k,)).copy()
    a = _integrate(np.ascontiguousarray(u2), 1.0 / rate, ta, td, start)
    return a[:, 0] if flat else a


@dataclass(frozen=True)
class MuscleActivity:
    """Activations of named muscles over time (e.g. from EMG through eqs. 41-43).

    ``names`` : muscle names (columns); ``time`` : (n,) s; ``activation`` : (n, k);
    ``description`` : how the activations were obtained (processing steps, normalisation).
    """

    names: tuple
    time: np.ndarray
    activation: np.ndarray
    description: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "names", tuple(self.names))
        t = np.asarray(self.time, float).reshape(-1)
        a = np.asarray(self.activation, float).reshape(len(t), -1)
        if a.shape[1] != len(self.names):
            raise SettingsError(f"{len(self.names)} muscle names for {a.shape[1]} activation columns")
        if len(t) > 1 and np.any(np.diff(t) <= 0):
            raise SettingsError("activation times must increase")
        object.__setattr__(self, "time", t)
        object.__setattr__(self, "activation", a)
        object.__setattr__(self, "description", tuple(self.description))

    def at(self, time) -> np.ndarray:
        """(T, k) activations linearly interpolated at ``time``; NaN outside the recorded span."""
        time = np.asarray(time, float).reshape(-1)
        out = np.full((len(time), len(self.names)), np.nan)
        inside = (time >= self.time[0]) & (time <= self.time[-1])
        for j in range(len(self.names)):
            out[inside, j] = np.interp(time[inside], self.time, self.activation[:, j])
        return out


def muscle_activity(processed, muscles, mapping=None) -> MuscleActivity:
    """Activations (eqs. 41-43) of ``muscles`` from processed EMG.

    ``processed`` : :class:`~engine.muscles.emg.processing.ProcessedEMG` (its ``excitation`` is ``u`` of eq. 43).
    ``muscles`` : the model's muscles; each channel uses its muscle's activation and deactivation
    time constants. ``mapping`` : ``{channel name: muscle name}`` (default: channels named as muscles).
    """
    by_name = {m.name: m for m in muscles}
    mapping = dict(mapping) if mapping is not None else {c: c for c in processed.names}
    unknown_channels = sorted(set(mapping) - set(processed.names))
    if unknown_channels:
        raise SettingsError(f"no EMG channel named {', '.join(map(repr, unknown_channels))}")
    unknown = sorted(set(mapping.values()) - set(by_name))
    if unknown:
        raise SettingsError(f"EMG mapped to muscles not in the model: {', '.join(map(repr, unknown))}")
    channels = list(mapping)
    cols = [processed.names.index(c) for c in channels]
    chosen = [by_name[mapping[c]] for c in channels]
    a = activation_dynamics(processed.excitation[:, cols], processed.rate,
                            [m.activation_time_constant for m in chosen],
                            [m.deactivation_time_constant for m in chosen])
    steps = tuple(processed.steps) + tuple(
        f"activation of {m.name} from channel {c}: eqs. 41-42, tau_ac {m.activation_time_constant * 1e3:g} ms, "
        f"tau_da {m.deactivation_time_constant * 1e3:g} ms" for c, m in zip(channels, chosen))
    return MuscleActivity(tuple(m.name for m in chosen), processed.time, a, steps)


def reference_forces(activity: MuscleActivity, time, hill) -> np.ndarray:
    """(T, m) N: eq. 40, ``f_ref = a f_active_max`` for the muscles of ``hill`` that have an activity
    (tension positive); NaN for the others and for frames outside the activity's time span."""
    names = list(hill.names)
    missing = sorted(set(activity.names) - set(names))
    if missing:
        raise SettingsError(f"activity given for muscles not in the model: {', '.join(map(repr, missing))}")
    a = activity.at(time)
    out = np.full(hill.active_max.shape, np.nan)
    for k, name in enumerate(activity.names):
        j = names.index(name)
        out[:, j] = a[:, k] * hill.active_max[:, j]
    return out
