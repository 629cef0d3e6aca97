"""Gait events from the kinematics on gait2354 walk1 (a treadmill walk, 60 Hz) against the force plates'."""
import numpy as np

from engine.analysis.gait_phases import events_from_phases, side_of, stance_phases
from engine.clinical.events import gait_events, kinematic_phases
from tests.analysis.gait2354_result import analysed


def test_kinematic_events_within_two_frames_of_the_plates(test_data):
    result, _ = analysed(str(test_data))
    frame = float(np.median(np.diff(result.motion.time)))
    plates = events_from_phases(stance_phases(result, "measured"))
    kinematic = events_from_phases(kinematic_phases(result))
    assert len(plates) == len(kinematic) == 4
    for p in plates:
        match = [k for k in kinematic if k.label == p.label and k.context == side_of(p.context)]
        assert match, p
        assert min(abs(k.time - p.time) for k in match) <= 2 * frame + 1e-9, (p, match)
    events, notes = gait_events(result)          # auto: the plates name their sides here
    assert [e.time for e in events] == sorted(e.time for e in plates)
    assert all("force plates" in n for n in notes)
