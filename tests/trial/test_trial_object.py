"""Trial: rotation of every vector, time windows, provenance, validation."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.trial import AnalogChannel, Event, ForcePlate, Markers, Trial


def make_trial(rng, frames=100, rate=100.0, analog_rate=1000.0):
    time = np.arange(frames) / rate
    positions = rng.normal(size=(frames, 3, 3))
    positions[5:8, 1] = np.nan
    markers = Markers(("A", "B", "C"), time, positions, rate)
    n = int(frames * analog_rate / rate)
    F = np.column_stack([np.zeros(n), np.zeros(n), np.full(n, 600.0)])
    M = rng.normal(size=(n, 3))
    corners = np.array([[0.2, 0.3, 0], [-0.2, 0.3, 0], [-0.2, -0.3, 0], [0.2, -0.3, 0]])
    plate = ForcePlate.from_loads(F, M, normal=[0, 0, 1], surface_point=[0, 0, 0], corners=corners,
                                  origin=[0, 0, -0.04], name="FP1", number=1, type=2, rate=analog_rate, t0=0.0)
    emg = AnalogChannel("EMG1", analog_rate, "V", rng.normal(size=n), kind="emg")
    other = AnalogChannel("Trigger", analog_rate, "V", np.zeros(n))
    return Trial(markers, analogs=(emg, other), plates=(plate,), events=(Event("Foot Strike", "Left", 0.25),
                                                                         Event("Foot Off", "Left", 0.75)),
                 source="synthetic.c3d", conversions=["positions converted from mm to m"])


def test_transformed_rotates_every_vector_and_records_it(rng):
    trial = make_trial(rng)
    R = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], dtype=float)   # Z-up lab -> Y-up model
    out = trial.transformed(R, frame="model", reason="test")
    np.testing.assert_allclose(out.markers.positions, trial.markers.positions @ R.T)
    assert np.isnan(out.markers.positions[5:8, 1]).all()
    p, q = trial.plates[0], out.plates[0]
    for name in ("force", "moment", "cop", "free_moment"):
        np.testing.assert_allclose(getattr(q, name), getattr(p, name) @ R.T)
    np.testing.assert_allclose(q.corners, p.corners @ R.T)
    np.testing.assert_allclose(q.origin, R @ p.origin)
    np.testing.assert_allclose(q.normal, [0, 1, 0])            # the plate now faces model +Y
    np.testing.assert_allclose(q.normal_force, p.normal_force)  # a scalar: unchanged
    assert out.frame == "model" and np.allclose(out.rotation, R)
    assert out.conversions[:-1] == trial.conversions and "rotated lab -> model" in out.conversions[-1]
    assert trial.markers.positions is not out.markers.positions and trial.frame == "lab"   # original untouched
    back = out.transformed(R.T, frame="lab")
    np.testing.assert_allclose(back.markers.positions, trial.markers.positions, atol=1e-15)
    np.testing.assert_allclose(back.rotation, np.eye(3), atol=1e-15)


@pytest.mark.parametrize("bad", [np.diag([1.0, 1.0, -1.0]), np.eye(3) * 2, np.ones((2, 2)),
                                 np.full((3, 3), np.nan)])
def test_transformed_rejects_non_rotations(rng, bad):
    with pytest.raises(SettingsError):
        make_trial(rng).transformed(bad)


def test_window_selects_every_signal_on_its_own_time_base(rng):
    trial = make_trial(rng)
    out = trial.window(0.2, 0.5)
    np.testing.assert_allclose(out.markers.time[[0, -1]], [0.2, 0.5])
    assert out.markers.n_frames == 31
    np.testing.assert_array_equal(out.markers.positions, trial.markers.positions[20:51])
    emg = out.emg[0]
    assert len(emg.data) == 301 and emg.t0 == pytest.approx(0.2)
    np.testing.assert_array_equal(emg.data, trial.emg[0].data[200:501])
    assert out.plates[0].n_samples == 301 and out.plates[0].time[0] == pytest.approx(0.2)
    np.testing.assert_array_equal(out.plates[0].moment, trial.plates[0].moment[200:501])
    assert [e.label for e in out.events] == ["Foot Strike"]
    assert "time window 0.2-0.5 s" in out.conversions[-1]
    assert out.duration == pytest.approx(0.3)


@pytest.mark.parametrize("t0,t1", [(0.5, 0.2), (5.0, 6.0), (np.nan, 1.0)])
def test_window_rejects_empty_or_outside_ranges(rng, t0, t1):
    with pytest.raises(SettingsError):
        make_trial(rng).window(t0, t1)


def test_emg_property_and_readonly_arrays(rng):
    trial = make_trial(rng)
    assert [c.name for c in trial.emg] == ["EMG1"]
    with pytest.raises(ValueError):
        trial.markers.positions[0, 0, 0] = 1.0
    with pytest.raises(ValueError):
        trial.plates[0].force[0, 0] = 1.0


def test_markers_validation():
    with pytest.raises(ValueError):
        Markers(("A", "A"), np.arange(3.0), np.zeros((3, 2, 3)), 100.0)
    with pytest.raises(ValueError):
        Markers(("A",), np.arange(3.0), np.zeros((4, 1, 3)), 100.0)
