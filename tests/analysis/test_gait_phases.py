"""Stance phases, events and gait-cycle normalisation: synthetic closed forms and the gait2354 trial."""
import numpy as np
import pytest

from engine.analysis.gait_phases import (Phases, events_from_phases, gait_cycles,
                                         normalise_cycles, side_of, stance_phases)
from engine.errors import SettingsError
from engine.trial.intervals import intervals_where
from engine.trial.trial import Event

from .gait2354_result import analysed


def test_intervals_and_events_of_a_synthetic_walk():
    t = np.arange(0.0, 2.0, 0.01)
    right = (t % 1.0) < 0.6            # stance 60 % of a 1 s cycle, from strikes at 0 and 1 s
    left = ((t + 0.5) % 1.0) < 0.6     # strikes at 0.5 and 1.5 s
    assert intervals_where(t, right) == [(0.0, 0.59), (1.0, 1.59)]
    phases = Phases("estimated", {"foot_r": intervals_where(t, right), "foot_l": intervals_where(t, left)},
                    (0.0, 1.99))
    events = events_from_phases(phases)
    strikes = [(e.context, round(e.time, 6)) for e in events if e.label == "Foot Strike"]
    assert strikes == [("Left", 0.5), ("Right", 1.0), ("Left", 1.5)]          # none at the data's start
    offs = [(e.context, round(e.time, 6)) for e in events if e.label == "Foot Off"]
    assert offs == [("Left", 0.09), ("Right", 0.59), ("Left", 1.09), ("Right", 1.59)]
    assert gait_cycles(events, "Left") == [(0.5, 1.5)]
    assert side_of("blade") == "Right" and side_of("calcn_l") == "Left" and side_of("FP1") == "FP1"


def test_cycle_normalisation_mean_and_spread():
    t = np.linspace(0.0, 3.0, 3001)
    y = np.sin(2 * np.pi * t) * (1 + 0.1 * np.floor(t))      # amplitude 1, 1.1, 1.2 in the three cycles
    events = [Event("Foot Strike", "Right", float(x)) for x in (0.0, 1.0, 2.0, 3.0)]
    c = normalise_cycles(t, y, gait_cycles(events, "Right"), points=5)
    assert np.allclose(c.percent, [0, 25, 50, 75, 100])
    assert c.curves.shape == (3, 5)
    assert np.allclose(c.mean[1], 1.1, atol=1e-6) and np.allclose(c.sd[1], 0.1, atol=1e-6)
    with pytest.raises(SettingsError, match="no complete gait cycle"):
        normalise_cycles(t, y, [(5.0, 6.0)])


def test_stance_from_the_estimate_agrees_with_the_plates(test_data):
    result, _ = analysed(str(test_data))
    estimated = stance_phases(result)
    measured = stance_phases(result, "measured")
    assert estimated.source == "estimated" and set(estimated.intervals) == {"foot_r", "foot_l"}
    # the right plate's loaded interval is covered by foot_r's estimated stance within two frames
    (a, b), = [iv for iv in measured.intervals["right"] if iv[1] - iv[0] > 0.2]
    dt = result.motion.time[1] - result.motion.time[0]
    assert any(abs(a - s) <= 2 * dt + 1e-9 or a == result.motion.time[0] for s, _ in estimated.intervals["foot_r"])
    assert stance_phases(result, "contacts").source == "contacts"
    assert {e.context for e in events_from_phases(estimated)} <= {"Right", "Left"}


def test_stances_too_short_to_be_steps_are_left_out_and_listed():
    """A force that crosses the threshold for a frame or two inside the trial is not a stance; one cut by
    the trial's start is kept (it is a truncated step)."""
    t = np.arange(0.0, 1.0, 0.005)
    force = np.where((t < 0.01) | ((t >= 0.3) & (t < 0.5)) | ((t >= 0.7) & (t < 0.715)), 500.0, 0.0)

    class Estimate:
        def __init__(self, f):
            self.force = f

    class Result:     # what stance_phases reads of an AnalysisResult
        pass
    result = Result()
    result.model = type("M", (), {"up": np.array([0.0, 1.0, 0.0])})()
    result.motion = type("Mo", (), {"time": t})()
    result.qp = type("Q", (), {"groups": {"foot_l": Estimate(np.column_stack([0 * t, force, 0 * t]))}})()
    result.trial = type("T", (), {"plates": ()})()
    phases = stance_phases(result)
    assert np.allclose(phases.intervals["foot_l"], [(0.0, 0.005), (0.3, 0.495)])
    assert list(phases.dropped) == ["foot_l"] and np.allclose(phases.dropped["foot_l"], [(0.7, 0.71)])
    assert phases.notes() == ["foot_l: 1 stance shorter than 30 ms left out (0.700-0.710 s)"]
    assert stance_phases(result, min_duration=0.005).dropped == {}
    assert stance_phases(result, min_duration=0.5).notes() == [
        "foot_l: 2 stances shorter than 500 ms left out (0.300-0.495 s, 0.700-0.710 s)"]


def test_a_word_in_capitals_names_no_side_a_short_marker_name_does():
    """Plug-in Gait's and Visual3D's short names begin with their side (RHEE, LTOE, RFT); a longer name in capitals is
    a word whose first letter is no side (RADIUS, LUMBAR, REC_FEM, LAT_DORSI)."""
    from engine.analysis.gait_phases import named_side
    assert [named_side(n) for n in ("RHEE", "LTOE", "RFT", "LASI")] == ["Right", "Left", "Right", "Left"]
    assert [named_side(n) for n in ("RADIUS", "LUMBAR", "REC_FEM", "LAT_DORSI", "rect_fem", "lumbar")] == [None] * 6
