"""The report's muscle content on the demo: each muscle group's force per side is the sum of its muscles' forces
resampled on that side's own cycles (interpolated here independently), and the EMG-driven activation drawn against
the estimate is the trial's EMG processed again through eqs. 41-43 (not the reference force the estimate used)."""
import numpy as np
import pytest

from engine.analysis.gait_phases import gait_cycles
from engine.clinical.conventions import body_weight
from engine.clinical.muscle_groups import muscle_group
from engine.clinical.summary import clinical_summary
from engine.demo import demo_results
from engine.muscles.emg.activation import muscle_activity
from engine.muscles.emg.processing import emg_from_trial, process_emg


@pytest.fixture(scope="module")
def demo():
    result, settings = demo_results()
    return result, settings, clinical_summary(result, settings.forward)


def test_group_forces_are_their_muscles_summed_on_each_side_s_cycles(demo):
    result, _, s = demo
    m = result.muscles.result
    bw = body_weight(result.model)
    checked = 0
    for side, suffix in (("Left", "_l"), ("Right", "_r")):
        cycles = [c for c in gait_cycles(s.events, side) if c[0] >= m.time[0] and c[1] <= m.time[-1]]
        curves = s.curves[("Muscle force", "hamstrings", "BW")][side]
        assert curves.curves.shape[0] == len(cycles) >= 1
        cols = [j for j, n in enumerate(m.muscle_names) if n in ("semimem" + suffix, "semiten" + suffix,
                                                                 "bifemlh" + suffix, "bifemsh" + suffix)]
        assert len(cols) == 4
        for (a, b), curve in zip(cycles, curves.curves):
            for pct in (0.0, 37.0, 81.0):
                t = a + (b - a) * pct / 100.0
                expected = sum(np.interp(t, m.time, m.forces[:, j]) for j in cols) / bw
                assert curve[int(pct)] == pytest.approx(expected, rel=1e-9, abs=1e-12)
                checked += 1
    assert checked >= 6
    # the transtibial side has no dorsiflexors: the group is drawn for the intact side only
    assert set(s.curves[("Muscle force", "dorsiflexors (tibialis anterior, toe extensors)", "BW")]) == {"Left"}
    assert muscle_group("tib_post_l") is None and muscle_group("glut_max2_r").startswith("hip extensors")


def test_emg_driven_activation_is_the_trial_s_emg_through_eqs_41_43(demo):
    result, settings, s = demo
    m = result.muscles.result
    assert set(s.emg) == {"semiten_r", "bifemlh_r"}
    processed = process_emg(emg_from_trial(result.trial, list(s.emg)), settings.muscle_settings.emg)
    activity = muscle_activity(processed, result.model.muscles, {n: n for n in s.emg})
    for k, name in enumerate(activity.names):
        a, b = gait_cycles(s.events, "Right")[0]
        curve = s.emg[name]["EMG"]["Right"].curves[0]
        t = a + (b - a) * np.arange(101) / 100.0
        # the activation at the analysis frames, then on the cycle (the report's path samples it the same way)
        at_frames = np.interp(m.time, activity.time, activity.activation[:, k])
        assert np.allclose(curve, np.interp(t, m.time, at_frames), atol=1e-9), name
        estimated = s.emg[name]["estimated"]["Right"].curves[0]
        assert np.allclose(estimated, np.interp(t, m.time, m.activations[:, m.muscle_names.index(name)]))
    assert s.emg_tables == [(s.trial, m.emg_comparison)] and m.emg_comparison.muscles == ("semiten_r", "bifemlh_r")
