"""Activation dynamics (seed eqs. 41-42): step responses are the exact exponentials of the activation
and deactivation time constants at every sample, for any sampling interval."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.muscles.emg.activation import MuscleActivity, activation_dynamics

TAU_ACT, TAU_DEACT = 0.010, 0.040


@pytest.mark.parametrize("rate", [2000.0, 100.0, 7.0])
def test_step_up_and_down_are_exact_exponentials(rate):
    n_on, n = int(0.3 * rate), int(0.6 * rate)
    u = np.zeros(n)
    u[:n_on] = 1.0
    a = activation_dynamics(u, rate, TAU_ACT, TAU_DEACT, a0=0.0)
    t = np.arange(n) / rate
    rise = 1.0 - np.exp(-t[:n_on + 1] / TAU_ACT)
    assert np.abs(a[:n_on + 1] - rise).max() < 1e-14
    fall = a[n_on] * np.exp(-(t[n_on:] - t[n_on]) / TAU_DEACT)
    assert np.abs(a[n_on:] - fall).max() < 1e-14


def test_partial_steps_and_time_constants_per_channel():
    rate = 1000.0
    u = np.column_stack([np.full(200, 0.6), np.full(200, 0.2)])
    a = activation_dynamics(u, rate, [0.01, 0.02], [0.04, 0.08], a0=[0.1, 0.9])
    t = np.arange(200) / rate
    assert np.allclose(a[:, 0], 0.6 + (0.1 - 0.6) * np.exp(-t / 0.01), atol=1e-14, rtol=0)   # activating
    assert np.allclose(a[:, 1], 0.2 + (0.9 - 0.2) * np.exp(-t / 0.08), atol=1e-14, rtol=0)   # deactivating
    assert np.all(np.diff(a[:, 0]) > 0) and np.all(np.diff(a[:, 1]) < 0)


def test_the_faster_constant_is_used_while_activating():
    rate = 1000.0
    u = np.r_[np.zeros(50), np.ones(30), np.zeros(100)]
    a = activation_dynamics(u, rate, TAU_ACT, TAU_DEACT, a0=0.0)
    # after 30 ms of activation the level is 1 - e^-3; it then decays 4x more slowly
    assert a[80] == pytest.approx(1 - np.exp(-3), rel=1e-13)
    assert a[120] == pytest.approx((1 - np.exp(-3)) * np.exp(-1), rel=1e-13)


def test_invalid_inputs():
    with pytest.raises(SettingsError, match="time constants"):
        activation_dynamics(np.ones(5), 100.0, 0.0, 0.04)
    with pytest.raises(SettingsError, match="NaN"):
        activation_dynamics(np.array([0.1, np.nan]), 100.0, 0.01, 0.04)


def test_muscle_activity_interpolates_and_is_nan_outside_its_span():
    act = MuscleActivity(("a",), np.array([0.0, 1.0]), np.array([[0.0], [1.0]]))
    out = act.at([-0.5, 0.25, 1.0, 1.5])[:, 0]
    assert np.isnan(out[0]) and np.isnan(out[3]) and out[1:3].tolist() == [0.25, 1.0]
