"""A trial's filter cut-off proposed from its own markers (Winter's residual analysis) and the settings proposed
per trial."""
import numpy as np
import pytest

from engine.analysis.proposed_settings import proposed_settings
from engine.demo import CUTOFF, demo_inputs
from engine.io.open_trial import open_trial
from engine.trial.cutoff import propose_cutoff, residual_cutoff


@pytest.mark.parametrize("f_max", [3.0, 6.0, 10.0])
def test_the_cutoff_passes_a_signal_s_band_and_stops_short_of_its_noise(f_max):
    """Sums of sinusoids up to ``f_max`` with 1 mm white noise, sampled at 200 Hz: the cut-off lies above the
    signal's band and well below Nyquist, whatever the phases."""
    rng = np.random.default_rng(7)
    rate = 200.0
    t = np.arange(0.0, 4.0, 1.0 / rate)
    found = []
    for _ in range(10):
        x = 0.05 * sum(np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi)) / f for f in np.linspace(0.5, f_max, 6))
        found.append(residual_cutoff(x + rng.normal(0.0, 1e-3, t.size), rate))
    assert f_max < min(found) and max(found) < f_max + 8.0


def test_the_demo_s_proposal_is_the_cutoff_chosen_against_its_truth():
    """The demo's 9.5 Hz was chosen as the cut-off that best recovers the simulated truth (7-11 Hz tried); the
    proposal from its markers alone lands within 1 Hz of it."""
    _, trial, _ = demo_inputs()
    cutoff, reason = propose_cutoff(trial.markers)
    assert abs(cutoff - CUTOFF) < 1.0
    assert "residual analysis" in reason and "200 Hz" in reason


def test_settings_are_proposed_from_the_trial_itself(test_data):
    walk = open_trial(test_data / "opensim/gait2354/subject01_walk1.trc")
    settings, reasons = proposed_settings(walk)
    assert settings.axes is None and settings.ik.start is None and settings.ik.end is None
    assert 5.0 < settings.cutoff < 9.0         # walking at 60 Hz (OpenSim's example filters this trial at 6 Hz)
    assert any(r.startswith("up = ") for r in reasons) and any("whole trial" in r for r in reasons)
    short = walk.window(walk.start_time, walk.start_time + 0.2)     # 13 frames: too short to analyse noise
    settings, reasons = proposed_settings(short)
    assert settings.cutoff == 6.0 and any("no filter cut-off can be proposed" in r for r in reasons)
