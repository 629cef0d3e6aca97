"""C3D writing: markers, gaps, EMG, type-2 force plates and events come back through the C3D reader as written."""
import numpy as np
import pytest

from engine.io.c3d import read_c3d
from engine.io.c3d_write import PlateLayout, write_c3d
from engine.trial.forceplate import centre_of_pressure
from engine.trial.trial import AnalogChannel, Event, Markers, Trial


def test_round_trip_through_the_reader(tmp_path):
    rng = np.random.default_rng(3)
    n, ratio = 40, 5
    time = np.arange(n) / 100.0
    positions = rng.normal(0.0, 0.3, (n, 3, 3)) + np.array([0.0, 0.0, 1.0])
    positions[10:14, 1] = np.nan
    markers = Markers(("A", "B", "C"), time, positions, 100.0)
    t = np.arange(n * ratio) / 500.0
    emg = AnalogChannel("EMG_semiten", 500.0, "V", 1e-3 * np.sin(2 * np.pi * 50 * t), description="EMG ST")
    # a reaction on the subject: mostly vertical, applied around (0.2, 0.1) on the plate, with a free moment
    force = np.column_stack([20 * np.sin(t), 10 * np.cos(t), 700 + 100 * np.sin(3 * t)])
    point = np.array([0.2, 0.1, 0.0]) + 0.01 * np.column_stack([np.sin(t), np.cos(t), np.zeros_like(t)])
    free = np.column_stack([np.zeros_like(t), np.zeros_like(t), 2 * np.sin(t)])
    moment = np.cross(point, force) + free
    plate = PlateLayout("FP1", (0.25, 0.15, 0.0), (0.6, 0.4), 0.04, force, moment)
    events = (Event("Foot Strike", "Left", 0.05), Event("Foot Off", "Left", 0.31))
    trial = Trial(markers, (emg,), (), events)
    path = tmp_path / "t.c3d"
    write_c3d(path, trial, [plate])
    back = read_c3d(path)
    assert back.markers.names == ("A", "B", "C") and back.markers.rate == 100.0
    assert np.isnan(back.markers.positions[10:14, 1]).all()
    assert np.allclose(back.markers.positions, positions, atol=1e-6, equal_nan=True)     # float32 in mm
    (channel,) = back.emg
    assert channel.name == "EMG_semiten" and np.allclose(channel.data, emg.data, atol=1e-9)
    (fp,) = back.plates
    assert fp.type == 2 and fp.rate == 500.0
    assert np.allclose(fp.force, force, atol=1e-3) and np.allclose(fp.moment, moment, atol=1e-3)
    cop, free_back = centre_of_pressure(force, moment, (0, 0, 0), (0, 0, 1))
    assert np.allclose(fp.cop, cop, atol=1e-6) and np.allclose(fp.free_moment, free_back, atol=1e-3)
    assert np.allclose(fp.normal, (0, 0, 1))
    assert [(e.label, e.context, round(e.time, 6)) for e in back.events] == \
        [("Foot Strike", "Left", 0.05), ("Foot Off", "Left", 0.31)]


def test_refuses_a_trial_not_in_its_lab_frame_and_inconsistent_rates(tmp_path):
    from engine.errors import DataError
    markers = Markers(("A",), np.arange(4) / 100.0, np.zeros((4, 1, 3)), 100.0)
    rotated = Trial(markers).transformed(np.eye(3), frame="model")
    with pytest.raises(DataError, match="lab frame"):
        write_c3d(tmp_path / "x.c3d", rotated)
    odd = Trial(markers, (AnalogChannel("x", 250.0, "V", np.zeros(10)),))
    with pytest.raises(DataError, match="whole multiple"):
        write_c3d(tmp_path / "x.c3d", odd)
    assert not (tmp_path / "x.c3d").exists()
