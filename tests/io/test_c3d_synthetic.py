"""C3D files written with ezc3d from a known load: every plate type must give back that load.

The plate signals are synthesised from a ground reaction F (on the subject, lab frame)
applied at a centre of pressure p on the plate surface with a free moment T about the
vertical, following the C3D definitions of each plate type (corner numbering, ORIGIN,
CAL_MATRIX, Kistler sensor layout). The reader must return F, p and T. Types 1 and 3
have no sample file that ezc3d reads correctly (Sample28 is inconsistent), so these
closed forms are their check.
"""
from __future__ import annotations

import ezc3d
import numpy as np
import pytest

from engine.errors import DataError
from engine.io.c3d import read_c3d

POINT_RATE, PER_FRAME, FRAMES = 100.0, 10, 100
N = FRAMES * PER_FRAME
# Plate frame in a Z-up lab: plate X = lab +Y, plate Y = lab +X, plate Z = lab -Z (into the floor).
R = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
CENTRE = np.array([0.30, 0.80, 0.0])
HALF = np.array([0.2, 0.3])        # half width along plate X and Y (m)


def corners_mm():
    local = [(1, 1), (-1, 1), (-1, -1), (1, -1)]      # C3D numbering: corner 1 in the +X+Y quadrant
    return np.array([(CENTRE + R @ np.array([sx * HALF[0], sy * HALF[1], 0.0])) * 1000 for sx, sy in local]).T


def known_load():
    """Reaction F (N, lab), COP p (m, lab) and free moment T (N m about lab +Z), a stance from 0.2 to 0.8 s."""
    t = np.arange(N) / (POINT_RATE * PER_FRAME)
    stance = np.clip(np.sin(np.pi * (t - 0.2) / 0.6), 0, None) * ((t > 0.2) & (t < 0.8))
    F = np.column_stack([60 * np.sin(7 * t), -40 * np.cos(5 * t), 800 * stance + 0.5 * np.sin(40 * t)])
    F[:, :2] *= stance[:, None]
    p = np.column_stack([CENTRE[0] + 0.1 * np.sin(3 * t), CENTRE[1] - 0.15 + 0.3 * t, np.zeros(N)])
    T = 4.0 * np.sin(9 * t) * stance
    return t, F, p, T


def plate_frame(F, p, T):
    """Plate-frame force, COP relative to the surface centre and free torque about plate Z (down)."""
    return F @ R, (p - CENTRE) @ R, -T


def channels(ptype, origin_mm=None, cal=None, sign=1.0):
    """(n, k) channel values for a plate of ``ptype`` carrying the known load (times ``sign``)."""
    _, F, p, T = known_load()
    Fp, cop, Tz = plate_frame(F, p, T)
    Fp, Tz = sign * Fp, sign * Tz
    free = np.column_stack([np.zeros(N), np.zeros(N), Tz])
    if ptype == 1:
        return np.column_stack([Fp, cop[:, 0] * 1000, cop[:, 1] * 1000, Tz * 1000])
    if ptype in (2, 4):
        o = -np.asarray(origin_mm) / 1000 * (1 if origin_mm[2] <= 0 else -1)   # transducer origin (plate frame)
        M = np.cross(cop - o, Fp) + free
        six = np.column_stack([Fp, M * 1000])                                    # N and N mm
        return six if ptype == 2 else six @ np.linalg.inv(cal).T
    a, b, az0 = np.asarray(origin_mm) / 1000
    az0 = -abs(az0)
    r = cop + [0.0, 0.0, az0]                          # point of application, sensor-plane origin
    M = np.cross(r, Fp) + free
    Fx, Fy, Fz = Fp.T
    Mx, My, Mz = M.T
    fz = [Fz / 4 + Mx / (4 * b) - My / (4 * a), Fz / 4 + Mx / (4 * b) + My / (4 * a),
          Fz / 4 - Mx / (4 * b) + My / (4 * a), Fz / 4 - Mx / (4 * b) - My / (4 * a)]
    return np.column_stack([Fx / 2 - Mz / (2 * b), Fx / 2 + Mz / (2 * b), Fy / 2, Fy / 2] + fz)


def markers_mm():
    t = np.arange(FRAMES) / POINT_RATE
    heel = np.column_stack([300 + 0 * t, 700 + 200 * t, 50 + 0 * t])
    head = heel + [0, 100, 1650]
    return np.stack([heel, heel + [0, 200, 20], heel + [0, 60, 900], head], axis=1)   # (F, 4, 3)


def write_c3d(path, plates=(), extra_analogs=(), units="mm", point_scale=1.0, events=None):
    """Write a C3D: 4 markers, ``plates`` = [(type, channels (n, k), origin_mm, cal)], extra analog
    channels [(label, unit, data, description)]."""
    c = ezc3d.c3d()
    c["parameters"]["POINT"]["RATE"]["value"] = np.array([POINT_RATE])
    c["parameters"]["POINT"]["LABELS"]["value"] = ("R.Heel", "R.Toe", "R.Knee", "Top.Head")
    c["parameters"]["POINT"]["UNITS"]["value"] = [units] if units else []
    pts = np.ones((4, 4, FRAMES))
    pts[:3] = np.transpose(markers_mm(), (2, 1, 0)) * point_scale
    c["data"]["points"] = pts
    data, labels, unit_list, descriptions = [], [], [], []
    for k, (ptype, ch, _, _) in enumerate(plates):
        data.append(ch.T)
        n = ch.shape[1]
        labels += [f"P{k + 1}C{j + 1}" for j in range(n)]
        unit_list += (["N"] * 3 + ["Nmm"] * 3) if ptype in (2, 4) else (["N"] * 8 if ptype == 3 else
                                                                        ["N", "N", "N", "mm", "mm", "Nmm"])
        descriptions += [""] * n
    for label, unit, values, description in extra_analogs:
        data.append(np.asarray(values)[None, :])
        labels.append(label)
        unit_list.append(unit)
        descriptions.append(description)
    if data:
        c["parameters"]["ANALOG"]["RATE"]["value"] = np.array([POINT_RATE * PER_FRAME])
        c["parameters"]["ANALOG"]["LABELS"]["value"] = tuple(labels)
        c["parameters"]["ANALOG"]["UNITS"]["value"] = tuple(unit_list)
        c["parameters"]["ANALOG"]["DESCRIPTIONS"]["value"] = tuple(descriptions)
        c["data"]["analogs"] = np.concatenate(data)[None]
    if plates:
        fp = c["parameters"]["FORCE_PLATFORM"]
        fp["USED"]["value"] = np.array([len(plates)])
        fp["TYPE"]["value"] = np.array([p[0] for p in plates])
        width = max(p[1].shape[1] for p in plates)
        chan = np.zeros((width, len(plates)), dtype=int)
        start = 1
        for k, (_, ch, _, _) in enumerate(plates):
            chan[:ch.shape[1], k] = np.arange(start, start + ch.shape[1])
            start += ch.shape[1]
        fp["CHANNEL"]["value"] = chan
        fp["CORNERS"]["value"] = np.stack([corners_mm()] * len(plates), axis=2)
        fp["ORIGIN"]["value"] = np.array([p[2] if p[2] is not None else (0, 0, 0) for p in plates], float).T
        if any(p[3] is not None for p in plates):
            fp["CAL_MATRIX"]["value"] = np.stack([p[3] if p[3] is not None else np.eye(6) for p in plates], axis=2)
        fp["ZERO"]["value"] = np.array([0, 0])
    if events:
        for label, context, time in events:
            c.add_event(time=[0, time], context=context, label=label)
    c.write(str(path))
    return path


CAL = np.eye(6) + 0.02 * np.arange(36).reshape(6, 6) / 36
CAL[3:, 3:] *= 1.0
CAL[3:, :3] += 5.0 * np.array([[1, -2, 0.5], [0.3, 1, -1], [2, 0, 1]])   # moment rows with force cross-talk


@pytest.mark.parametrize("ptype,origin,cal,sign", [
    (1, (0.0, 0.0, 0.0), None, 1.0),
    (1, (0.0, 0.0, 0.0), None, -1.0),
    (2, (1.5, -0.8, -38.0), None, 1.0),
    (2, (-1.5, 0.8, 38.0), None, -1.0),     # positive Z: the stored-sign error, corrected
    (3, (120.0, 200.0, -50.0), None, -1.0),
    (3, (120.0, 200.0, 50.0), None, 1.0),   # positive az0: corrected, a and b kept
    (4, (1.5, -0.8, -38.0), CAL, 1.0),
])
def test_every_plate_type_recovers_the_known_load(tmp_path, ptype, origin, cal, sign):
    ch = channels(ptype, origin, cal, sign)
    trial = read_c3d(write_c3d(tmp_path / "plate.c3d", [(ptype, ch, origin, cal)]))
    t, F, p, T = known_load()
    (plate,) = trial.plates
    assert plate.type == ptype and plate.rate == POINT_RATE * PER_FRAME
    np.testing.assert_allclose(plate.time, t, atol=1e-12)
    np.testing.assert_allclose(plate.force, F, atol=2e-3)            # ezc3d stores float32 analogs
    np.testing.assert_allclose(plate.normal, [0, 0, 1], atol=1e-12)
    loaded = F[:, 2] >= 20.0
    np.testing.assert_array_equal(plate.loaded, loaded)
    np.testing.assert_allclose(plate.cop[loaded], p[loaded], atol=2e-5)
    np.testing.assert_allclose(plate.free_moment[loaded], np.column_stack([0 * T, 0 * T, T])[loaded], atol=2e-3)
    assert np.isnan(plate.cop[~loaded]).all() and np.isnan(plate.free_moment[~loaded]).all()
    np.testing.assert_allclose(plate.moment, np.cross(p, F) + np.column_stack([0 * T, 0 * T, T]), atol=2e-3)
    np.testing.assert_allclose(plate.corners, corners_mm().T / 1000)
    text = " | ".join(trial.conversions)
    assert ("force on the plate; negated" in text) == (sign < 0)
    if ptype in (2, 3, 4) and origin[2] > 0:
        assert "positive" in text
    if ptype == 4:
        np.testing.assert_allclose(plate.calibration, CAL)


def test_several_plates_rates_and_channels(tmp_path):
    """Two plates (types 2 and 3) and an EMG channel at 1000 Hz beside markers at 100 Hz."""
    ch2 = channels(2, (0, 0, -40.0))
    ch3 = channels(3, (120, 200, -50.0))
    emg = np.sin(np.arange(N))
    trial = read_c3d(write_c3d(tmp_path / "two.c3d", [(2, ch2, (0, 0, -40.0), None), (3, ch3, (120, 200, -50.0), None)],
                               extra_analogs=[("L TA", "mV", emg, "EMG tibialis anterior")]))
    assert [p.name for p in trial.plates] == ["FP1", "FP2"]
    np.testing.assert_allclose(trial.plates[0].force, trial.plates[1].force, atol=4e-3)
    assert trial.markers.rate == 100.0 and trial.markers.n_frames == FRAMES
    (channel,) = trial.emg
    assert channel.name == "L TA" and channel.rate == 1000.0 and channel.units == "V"
    np.testing.assert_allclose(channel.data, emg * 1e-3, rtol=1e-6)          # mV -> V
    kinds = {c.name: c.kind for c in trial.analogs}
    assert sum(k == "force plate" for k in kinds.values()) == 14
    np.testing.assert_allclose(trial.markers.positions, markers_mm() / 1000, rtol=1e-7)


def test_emg_channels_named_by_the_caller(tmp_path):
    path = write_c3d(tmp_path / "emg.c3d", extra_analogs=[("Sensor 1", "V", np.zeros(N), ""),
                                                          ("Trigger", "V", np.zeros(N), "")])
    assert read_c3d(path).emg == ()
    assert [c.name for c in read_c3d(path, emg_channels=["Sensor 1"]).emg] == ["Sensor 1"]
    with pytest.raises(DataError, match="Nope"):
        read_c3d(path, emg_channels=["Nope"])


@pytest.mark.parametrize("units,scale", [("cm", 0.1), ("m", 0.001), ("mm", 1.0)])
def test_point_units_converted(tmp_path, units, scale):
    trial = read_c3d(write_c3d(tmp_path / "u.c3d", units=units, point_scale=scale))
    np.testing.assert_allclose(trial.markers.positions, markers_mm() / 1000, rtol=1e-6)
    assert (units == "m") or f"positions converted from {units} to m" in trial.conversions


def test_missing_or_wrong_point_units_are_inferred_and_reported(tmp_path):
    missing = read_c3d(write_c3d(tmp_path / "none.c3d", units=""))
    np.testing.assert_allclose(missing.markers.positions, markers_mm() / 1000, rtol=1e-7)
    assert any("taken as mm" in w for w in missing.warnings)
    wrong = read_c3d(write_c3d(tmp_path / "wrong.c3d", units="m"))       # mm numbers declared as metres
    np.testing.assert_allclose(wrong.markers.positions, markers_mm() / 1000, rtol=1e-7)
    assert any("implausibly sized" in w for w in wrong.warnings)


def test_events(tmp_path):
    trial = read_c3d(write_c3d(tmp_path / "ev.c3d", events=[("Foot Off", "Left", 0.62), ("Foot Strike", "Left", 0.21),
                                                             ("Foot Strike", "Right", 0.55)]))
    assert [(e.label, e.context) for e in trial.events] == [("Foot Strike", "Left"), ("Foot Strike", "Right"),
                                                            ("Foot Off", "Left")]
    np.testing.assert_allclose([e.time for e in trial.events], [0.21, 0.55, 0.62], atol=1e-6)


def edit_parameters(monkeypatch, change):
    """Make read_c3d see the parameter section altered by ``change`` (ezc3d's writer would repair it)."""
    import engine.io.c3d as c3d
    original = c3d._run_ezc3d

    def run(path, timeout, memory_limit, cancel=None):
        result = original(path, timeout, memory_limit, cancel)
        change(result["parameters"])
        return result

    monkeypatch.setattr(c3d, "_run_ezc3d", run)


@pytest.mark.parametrize("change,element", [
    (lambda p: p["FORCE_PLATFORM"].update(CHANNEL=np.array([[1], [2], [3], [4], [5], [9]])), "FORCE_PLATFORM:CHANNEL"),
    (lambda p: p["FORCE_PLATFORM"].update(CHANNEL=np.array([[1], [2], [3]])), "FORCE_PLATFORM:CHANNEL"),
    (lambda p: p["FORCE_PLATFORM"].update(CORNERS=np.zeros(0)), "FORCE_PLATFORM:CORNERS"),
    (lambda p: p["FORCE_PLATFORM"].update(CORNERS=np.zeros(10)), "FORCE_PLATFORM:CORNERS"),
    (lambda p: p["FORCE_PLATFORM"].update(CORNERS=np.zeros((3, 4, 1))), "FORCE_PLATFORM:CORNERS"),
    (lambda p: p["FORCE_PLATFORM"].update(ORIGIN=np.zeros(0)), "FORCE_PLATFORM:ORIGIN"),
    (lambda p: p["FORCE_PLATFORM"].update(USED=np.array([2])), "FORCE_PLATFORM:TYPE"),
    (lambda p: p["FORCE_PLATFORM"].update(TYPE=np.array([4]), CAL_MATRIX=np.zeros(30)), "FORCE_PLATFORM:CAL_MATRIX"),
    (lambda p: p["FORCE_PLATFORM"].update(TYPE=np.array([2.5])), "FORCE_PLATFORM:TYPE"),
    (lambda p: p["ANALOG"].update(SCALE=np.ones(2)), "ANALOG:SCALE"),
    (lambda p: p["EVENT"].update(USED=np.array([3])), "EVENT:TIMES"),
])
def test_inconsistent_parameters_raise_data_error(tmp_path, monkeypatch, change, element):
    path = write_c3d(tmp_path / "bad.c3d", [(2, channels(2, (0, 0, -40.0)), (0, 0, -40.0), None)],
                     events=[("Foot Strike", "Left", 0.21)])
    edit_parameters(monkeypatch, change)
    with pytest.raises(DataError) as info:
        read_c3d(path)
    assert info.value.file == str(path) and element in str(info.value)


def test_unsupported_plate_type_is_reported_not_converted(tmp_path, monkeypatch):
    path = write_c3d(tmp_path / "t6.c3d", [(2, channels(2, (0, 0, -40.0)), (0, 0, -40.0), None)])
    edit_parameters(monkeypatch, lambda p: p["FORCE_PLATFORM"].update(TYPE=np.array([6])))
    trial = read_c3d(path)
    assert trial.plates == () and any("type 6" in w for w in trial.warnings)
    assert len(trial.analogs) == 6 and all(c.kind == "analog" for c in trial.analogs)


def test_truncated_file(tmp_path):
    path = write_c3d(tmp_path / "full.c3d", [(2, channels(2, (0, 0, -40.0)), (0, 0, -40.0), None)])
    data = path.read_bytes()
    cut = tmp_path / "cut.c3d"
    cut.write_bytes(data[:len(data) - 3000])
    with pytest.raises(DataError, match="truncated"):
        read_c3d(cut)
