"""EMG-like signals for the demo: the muscle activity behind the simulated motion, as a surface electrode shows it.

1. Muscle forces and activations: the seed's muscle-force estimation (eqs. 36-37) on the true
   motion and the true joint torques (``engine.muscles.forces.static_optimization``).
2. Neural excitation: the activation of each recorded muscle, smoothed (``SMOOTHING`` Hz, what a
   muscle's activation could follow), is inverted through the activation dynamics of eqs. 41-42
   exactly as :func:`engine.muscles.emg.activation.activation_dynamics` integrates them. Where the
   inversion asks for an excitation outside [0, 1] (the activation changes faster than the muscle
   can), it is limited to [0, 1]; the EMG then encodes the activation that excitation produces
   (returned, and stored in the truth as ``emg_activations``), and the number of limited samples
   is reported in the notes.
3. Signal: ``u(t) * MVC_AMPLITUDE * n(t) / sqrt(2 / pi)`` with ``n`` unit-variance Gaussian noise
   band-limited to ``BAND`` Hz, so that its full-wave-rectified mean is ``u * MVC_AMPLITUDE``, plus
   ``BASELINE_NOISE`` V of amplifier noise. ``MVC_AMPLITUDE`` is what the chain's envelope reads at
   maximal excitation: the analysis normalises by it (``EMGProcessing(mvc=...)``).
"""
from __future__ import annotations

import numpy as np
from scipy.signal import butter, sosfiltfilt

from ..muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces

RECORDED = {"semiten_r": "EMG semitendinosus, right (residual limb side)",
            "bifemlh_r": "EMG biceps femoris long head, right (residual limb side)"}
MVC_AMPLITUDE = 1.0e-3       # V, envelope of the raw EMG at maximal voluntary contraction
BASELINE_NOISE = 5.0e-6      # V, standard deviation
BAND = (20.0, 400.0)         # Hz, of the myoelectric noise carrier
SMOOTHING = 6.0              # Hz, low-pass of the activations before inversion


def muscle_truth(model, time, q, v, tau):
    """Forces and activations of every muscle for the true motion (seed objective, defaults)."""
    return estimate_muscle_forces(model, q, v, tau, MuscleForceSettings(), time=time)


def excitation_from_activation(a, rate: float, tau_act: float, tau_deact: float) -> tuple[np.ndarray, int]:
    """The excitation ``u`` (n,) whose activation dynamics (eqs. 41-42, exact per sample) give ``a``;
    returns ``u`` and the number of samples where it had to be limited to [0, 1]."""
    dt = 1.0 / rate
    d_act, d_deact = np.exp(-dt / tau_act), np.exp(-dt / tau_deact)
    u = np.empty_like(a)
    for k in range(len(a) - 1):
        d = d_act if a[k + 1] >= a[k] else d_deact
        u[k] = (a[k + 1] - a[k] * d) / (1.0 - d)
    u[-1] = u[-2]
    limited = int(np.sum((u < 0.0) | (u > 1.0)))
    return np.clip(u, 0.0, 1.0), limited


def emg_signals(model, muscles, rate: float, rng) -> tuple[dict, dict, dict, list]:
    """``(signals, excitations, activations, notes)`` for the muscles of :data:`RECORDED` from a
    :class:`~engine.muscles.forces.results.MuscleForceResult` sampled at ``rate`` Hz: ``signals[name] = (volts,
    description)``; ``excitations[name]`` the excitation ``u`` the signal encodes and ``activations[name]``
    the activation it produces (eqs. 41-42); ``notes`` what was limited."""
    from ..muscles.emg.activation import activation_dynamics
    sos_smooth = butter(2, SMOOTHING, fs=rate, output="sos")
    sos_band = butter(4, BAND, btype="bandpass", fs=rate, output="sos")
    signals, excitations, activations, notes = {}, {}, {}, []
    for name, description in RECORDED.items():
        j = list(muscles.muscle_names).index(name)
        m = model.muscle(name)
        smooth = sosfiltfilt(sos_smooth, muscles.activations[:, j])
        outside = int(np.sum((smooth < 0.0) | (smooth > 1.0)))
        a = np.clip(smooth, 0.0, 1.0)
        u, limited = excitation_from_activation(a, rate, m.activation_time_constant, m.deactivation_time_constant)
        carrier = sosfiltfilt(sos_band, rng.normal(0.0, 1.0, len(u)))
        carrier /= np.std(carrier)
        signal = u * MVC_AMPLITUDE * carrier / np.sqrt(2.0 / np.pi) + rng.normal(0.0, BASELINE_NOISE, len(u))
        signals[name] = (signal, description)
        excitations[name] = u
        activations[name] = activation_dynamics(u, rate, m.activation_time_constant, m.deactivation_time_constant,
                                                a0=a[0])
        notes.append(f"{name}: activation smoothed at {SMOOTHING:g} Hz ({outside} samples outside [0, 1] set to the "
                     f"bound); excitation limited to [0, 1] at {limited} of {len(u)} samples")
    return signals, excitations, activations, notes
