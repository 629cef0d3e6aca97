"""The text summary lists what the user needs to judge a trial."""
from __future__ import annotations

import numpy as np

from engine.trial import AnalogChannel, Event, ForcePlate, Markers, Trial, describe_trial


def test_summary_contents():
    t = np.arange(200) / 100.0
    P = np.zeros((200, 2, 3))
    P[20:30, 1] = np.nan          # 10 of 200 frames: 5.0 % missing
    fz = np.where((np.arange(2000) >= 500) & (np.arange(2000) < 1200), 750.0, 0.0)
    F = np.column_stack([np.zeros(2000), np.zeros(2000), fz])
    plate = ForcePlate.from_loads(F, np.zeros_like(F), normal=[0, 0, 1], surface_point=[0, 0, 0], name="FP1",
                                  number=1, type=4, rate=1000.0, t0=0.0)
    trial = Trial(Markers(("LHEE", "RHEE"), t, P, 100.0), plates=(plate,),
                  analogs=(AnalogChannel("EMG1", 1000.0, "V", np.zeros(2000), kind="emg"),),
                  events=(Event("Foot Strike", "Left", 0.5),), source="walk.c3d",
                  conversions=["positions converted from mm to m"], warnings=["check this"])
    text = describe_trial(trial)
    assert "walk.c3d" in text and "duration 1.999 s" in text
    assert "markers 100 Hz (200 frames)" in text and "analog 1000 Hz" in text
    assert "LHEE:   0.0% missing" in text
    assert "RHEE:   5.0% missing, 1 gap, longest 10 frames" in text
    assert "FP1 (type 4, threshold 20 N): peak vertical force 750.0 N; loaded 0.500-1.199 s" in text
    assert "EMG1 [V, 1000 Hz]" in text
    assert "Foot Strike (Left) 0.500 s" in text
    assert "frame 'lab', as recorded" in text
    assert "- positions converted from mm to m" in text and "! check this" in text
    rotated = describe_trial(trial.transformed(np.array([[1.0, 0, 0], [0, 0, 1], [0, -1, 0]])))
    assert "frame 'model', rotation from the lab" in rotated and "rotated lab -> model" in rotated
