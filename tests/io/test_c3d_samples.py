"""The c3d.org sample files: each loads with physically sane values or fails with a clear DataError.

References used are independent of the reader: the C3D specification applied to the
raw bytes, ezc3d's own force-platform module where it is right, values stored in the
files (SUBJECT:WEIGHT, header gait events), the foot markers, and physiology (peak
vertical ground reaction of walking about 1.0-1.3 body weights, mid-stance dip).
"""
from __future__ import annotations

import functools
import struct
from pathlib import Path

import ezc3d
import numpy as np
import pytest

from engine.errors import DataError
from engine.io.c3d import read_c3d

LOADS = ["Codamotion/codamotion_gaitwands_19970212.c3d", "Sample01/Eb015pi.c3d", "Sample01/Eb015vr.c3d",
         "Sample02/dec_int.c3d", "Sample02/pc_real.c3d", "Sample10/TYPE-2.C3D", "Sample10/TYPE-4.C3D",
         "Sample26/Capture0002.c3d", "Sample26/Walking_Hybrid_1_1.c3d", "Sample28/dynamic.C3D", "Sample28/type1.C3D"]
FAILS = {"Sample02/sgi_real.c3d": "SGI/MIPS"}
FEET = {"Codamotion/codamotion_gaitwands_19970212.c3d": ["L.Heel", "L.Toe", "L.Ankle", "R.Heel", "R.Toe", "R.Ankle"],
        "Sample01/Eb015pi.c3d": ["RFT1", "RFT2", "RFT3", "LFT1", "LFT2", "LFT3"],
        "Sample02/pc_real.c3d": ["RFT1", "RFT2", "RFT3", "LFT1", "LFT2", "LFT3"],
        "Sample10/TYPE-2.C3D": ["RA", "RD", "LA", "LD"],
        "Sample10/TYPE-4.C3D": ["RA", "RD", "LA", "LD"],
        "Sample26/Capture0002.c3d": ["r_ankle", "r_heel", "r_toe", "l_ankle", "l_heel", "l_toe"],
        "Sample26/Walking_Hybrid_1_1.c3d": ["R_HEEL", "R_MT_1", "R_MT_5", "L_HEEL", "L_MT_1", "L_MT_5"]}


@pytest.fixture(scope="module")
def c3d_dir(test_data):
    return test_data / "c3d"


@functools.lru_cache(maxsize=None)
def load(path: str, **kwargs):
    return read_c3d(path, **kwargs)


def test_every_sample_file_is_covered(c3d_dir):
    found = {str(p.relative_to(c3d_dir)) for p in c3d_dir.glob("*/*") if p.suffix.lower() == ".c3d"}
    assert found == set(LOADS) | set(FAILS)


@pytest.mark.parametrize("name", sorted(FAILS))
def test_unreadable_files_fail_with_a_clear_message(c3d_dir, name):
    path = c3d_dir / name
    try:
        trial = read_c3d(path)
    except DataError as err:
        assert err.file == str(path) and FAILS[name] in str(err)
        return
    # Only reachable if a future ezc3d reads the SGI file: it must then equal the PC copy.
    assert name == "Sample02/sgi_real.c3d"
    pc = read_c3d(c3d_dir / "Sample02" / "pc_real.c3d")
    np.testing.assert_allclose(trial.markers.positions, pc.markers.positions, atol=1e-6)


def inside_outline(points, corners, normal):
    """Largest signed distance (m) of ``points`` outside the plate outline (negative: inside)."""
    centre = corners.mean(axis=0)
    worst = np.full(len(points), -np.inf)
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        out = np.cross(b - a, normal)
        out /= np.linalg.norm(out)
        if (centre - a) @ out > 0:
            out = -out
        worst = np.maximum(worst, (points - a) @ out)
    return worst


@pytest.mark.parametrize("name", LOADS)
def test_sample_loads_with_sane_plates(c3d_dir, name):
    trial = load(str(c3d_dir / name))
    m = trial.markers
    # In these labs Z is up (Y in Sample28's BTS lab): every plate lies in a horizontal plane near the floor and
    # faces up, and the markers are above it.
    up = 1 if name.startswith("Sample28") else 2
    assert np.nanmedian(m.positions[..., up]) > 0.15
    assert trial.plates
    for p in trial.plates:
        np.testing.assert_allclose(p.normal, np.eye(3)[up], atol=0.02)
        assert np.all(np.abs(p.corners[:, up]) < 0.05)
        fz = p.force[:, up]
        assert fz.max() > 300.0                    # someone stepped on it
        assert fz.min() > -20.0                    # the vertical reaction never pulls the subject down
        loaded = p.loaded
        assert np.all(fz[loaded] > 0) and np.all(np.isfinite(p.cop[loaded]))
        assert np.max(inside_outline(p.cop[loaded], p.corners, p.normal)) < 0.0   # COP inside the outline
        assert np.isnan(p.cop[~loaded]).all()


def loaded_frames(markers, plate):
    """Marker frames at which ``plate`` is loaded, and the plate sample index of each."""
    k = np.round((markers.time - plate.t0) * plate.rate).astype(int)
    frames = np.flatnonzero((k >= 0) & (k < plate.n_samples))
    frames = frames[plate.loaded[k[frames]]]
    return frames, k[frames]


def foot_distance(markers, names, frames, cop):
    """Horizontal distance (m) from ``cop`` (one per frame) to the nearest of the named foot markers."""
    feet = [markers.index(n) for n in names]
    d = markers.positions[frames][:, feet, :2] - cop[:, None, :2]
    dist = np.where(np.isnan(d[..., 0]), np.inf, np.linalg.norm(np.nan_to_num(d), axis=2)).min(axis=1)
    return dist[np.isfinite(dist)]


@pytest.mark.parametrize("name", sorted(FEET))
def test_cop_lies_under_a_foot(c3d_dir, name):
    """While a plate is loaded, the COP is within 12 cm (horizontally) of a foot marker
    (heel, ankle, toe or metatarsal): it lies under the foot."""
    trial = load(str(c3d_dir / name))
    for p in trial.plates:
        frames, k = loaded_frames(trial.markers, p)
        nearest = foot_distance(trial.markers, FEET[name], frames, p.cop[k])
        assert len(nearest) > 20
        assert nearest.max() < 0.12, f"{p.name}: COP {nearest.max():.3f} m from the nearest foot marker"


@pytest.mark.parametrize("name", ["Sample01/Eb015pi.c3d", "Sample02/pc_real.c3d"])
def test_body_weight_from_the_plates_matches_the_subject_weight(c3d_dir, name):
    """SUBJECT:WEIGHT (kg) in the file: walking gives a vertical peak of 0.95-1.4 body weights and
    a mid-stance (30-70 % of stance) mean of 0.65-1.1 body weights."""
    trial = load(str(c3d_dir / name))
    weight = trial.subject["WEIGHT"] * 9.81
    for p in trial.plates:
        a, b = max(p.loaded_intervals(), key=lambda ab: ab[1] - ab[0])
        fz = p.force[:, 2]
        mid = (p.time >= a + 0.3 * (b - a)) & (p.time <= a + 0.7 * (b - a))
        assert 0.95 * weight < fz.max() < 1.4 * weight
        assert 0.65 * weight < fz[mid].mean() < 1.1 * weight


@pytest.mark.parametrize("name", ["Codamotion/codamotion_gaitwands_19970212.c3d", "Sample10/TYPE-2.C3D",
                                  "Sample26/Capture0002.c3d", "Sample26/Walking_Hybrid_1_1.c3d"])
def test_body_weight_plausible_without_subject_data(c3d_dir, name):
    for p in load(str(c3d_dir / name)).plates:
        a, b = max(p.loaded_intervals(), key=lambda ab: ab[1] - ab[0])
        mid = (p.time >= a + 0.3 * (b - a)) & (p.time <= a + 0.7 * (b - a))
        assert 150.0 < p.force[mid, 2].mean() < 1500.0          # 15-150 kg
        assert 0.3 < b - a < 1.2                                  # a walking stance lasts about 0.5-0.9 s


@pytest.mark.parametrize("name", ["Sample01/Eb015pi.c3d", "Sample02/pc_real.c3d"])
def test_header_gait_events_coincide_with_plate_contacts(c3d_dir, name):
    """Heel strikes (RIC, RHS, LHS) and toe offs (RTO, LTO) stored in the file's header fall
    within one camera frame (20 ms) of a plate's loading onset or offset."""
    trial = load(str(c3d_dir / name))
    onsets = [a for p in trial.plates for a, _ in p.loaded_intervals()]
    offsets = [b for p in trial.plates for _, b in p.loaded_intervals()]
    checked = 0
    for e in trial.events:
        if e.label in ("RIC", "RHS", "LHS"):
            assert min(abs(e.time - t) for t in onsets) <= 0.02, e
            checked += 1
        elif e.label in ("RTO", "LTO"):
            if e.time < trial.plates[0].time[-1]:
                assert min(abs(e.time - t) for t in offsets) <= 0.02, e
                checked += 1
    assert checked >= 3


def test_type2_and_type4_describe_the_same_trial(c3d_dir):
    """Sample10: the same recording with the diagonal sensitivities only (TYPE-2) and with the full
    calibration matrix (TYPE-4). The raw ADC counts are identical; the forces then agree to within
    the cross-talk the diagonal form ignores (the diagonal of CAL_MATRIX differs from TYPE-2's
    scales by up to 5 %, on the small horizontal forces): 3 % of the peak force, and the
    centre of pressure to 3 cm."""
    raw = {}
    for name in ("TYPE-2", "TYPE-4"):
        c = ezc3d.c3d(str(c3d_dir / "Sample10" / f"{name}.C3D"))
        raw[name] = c["data"]["analogs"][0] / c["parameters"]["ANALOG"]["SCALE"]["value"][:6, None]
    np.testing.assert_allclose(raw["TYPE-2"], raw["TYPE-4"], atol=1e-9)
    a = load(str(c3d_dir / "Sample10" / "TYPE-2.C3D")).plates[0]
    b = load(str(c3d_dir / "Sample10" / "TYPE-4.C3D")).plates[0]
    peak = np.linalg.norm(a.force, axis=1).max()
    assert np.max(np.linalg.norm(a.force - b.force, axis=1)) < 0.03 * peak
    assert np.max(np.abs(a.force[:, 2] - b.force[:, 2])) < 0.02 * peak
    np.testing.assert_array_equal(a.loaded_intervals() == b.loaded_intervals(), True)
    heavy = (a.force[:, 2] > 100) & (b.force[:, 2] > 100)
    assert np.max(np.linalg.norm(a.cop[heavy] - b.cop[heavy], axis=1)) < 0.03


@pytest.mark.parametrize("name", ["Sample10/TYPE-2.C3D", "Sample10/TYPE-4.C3D", "Sample02/pc_real.c3d",
                                  "Codamotion/codamotion_gaitwands_19970212.c3d"])
def test_plate_loads_match_ezc3d_where_its_conversion_is_right(c3d_dir, name):
    """ezc3d's force-platform module is an independent implementation of types 2 and 4 (and of
    type 3 when ORIGIN's Z is stored negative, as Codamotion does). Its force and its moment about
    the plate's surface centre (N mm) must equal ours, before any baseline correction."""
    path = str(c3d_dir / name)
    ours = read_c3d(path, zero_baseline=False)
    theirs = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for p, q in zip(ours.plates, theirs):
        np.testing.assert_allclose(p.force, q["force"].T, atol=1e-9)
        about_centre = p.moment - np.cross(p.surface_point, p.force)
        np.testing.assert_allclose(about_centre, q["moment"].T * 1e-3, atol=1e-9)


def test_type3_with_positive_origin_keeps_sensor_offsets(c3d_dir):
    """Sample26 stores ORIGIN = (120, 200, +48) mm. Negating all three components (the type-2
    correction, which ezc3d also applies to type 3) mirrors the COP away from the foot; keeping a
    and b and negating only az0 puts it under the foot (see test_cop_lies_under_a_foot)."""
    path = str(c3d_dir / "Sample26" / "Walking_Hybrid_1_1.c3d")
    trial = load(path)
    assert any("az0 negated (a and b kept)" in c for c in trial.conversions)
    theirs = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    names = FEET["Sample26/Walking_Hybrid_1_1.c3d"]
    for p, q in zip(trial.plates, theirs):
        frames, k = loaded_frames(trial.markers, p)
        ours = foot_distance(trial.markers, names, frames, p.cop[k])
        mirrored = foot_distance(trial.markers, names, frames, q["center_of_pressure"][:, k].T * 1e-3)
        assert np.median(ours) < 0.06 and np.median(mirrored) > 0.12


def raw_intel_int_analogs(path: Path, n_points: int, n_channels: int, per_frame: int, frames: int):
    """Analog counts of an Intel integer C3D decoded straight from the bytes (C3D specification:
    data start block in header word 9; each frame holds 4 int16 per point then the analog samples)."""
    data = path.read_bytes()
    start = (struct.unpack("<H", data[16:18])[0] - 1) * 512
    frame_words = 4 * n_points + n_channels * per_frame
    words = np.frombuffer(data[start:start + 2 * frame_words * frames], dtype="<i2").reshape(frames, frame_words)
    return words[:, 4 * n_points:].reshape(frames * per_frame, n_channels)


def test_analog_scale_offset_and_gen_scale_follow_the_specification(c3d_dir):
    """value = (count - ANALOG:OFFSET) * ANALOG:SCALE * ANALOG:GEN_SCALE (GEN_SCALE is 0.5 in Sample01),
    then units: 'nt' -> N, 'ntmm' (N mm) -> N m; other units kept."""
    path = c3d_dir / "Sample01" / "Eb015pi.c3d"
    params = ezc3d.c3d(str(path))["parameters"]["ANALOG"]
    counts = raw_intel_int_analogs(path, 26, 16, 4, 450)
    scale = params["SCALE"]["value"][:16] * params["GEN_SCALE"]["value"][0]
    expected = (counts - params["OFFSET"]["value"][:16]) * scale
    trial = load(str(path))
    factors = {"N": 1.0, "N m": 1e-3, "d.u.": 1.0}
    for k, channel in enumerate(trial.analogs):
        assert channel.rate == 200.0
        np.testing.assert_allclose(channel.data, expected[:, k] * factors[channel.units], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", ["Sample01/Eb015pi.c3d", "Sample26/Capture0002.c3d"])
def test_markers_in_metres_and_negative_residuals_missing(c3d_dir, name):
    path = str(c3d_dir / name)
    c = ezc3d.c3d(path)
    points = c["data"]["points"][:3]
    residual = c["data"]["meta_points"]["residuals"][0]
    trial = load(path)
    P = np.transpose(trial.markers.positions, (2, 1, 0))
    missing = residual < 0
    assert np.isnan(P[:, missing]).all()
    np.testing.assert_array_equal(P[:, ~missing], points[:, ~missing] * 1e-3)
    rate = c["header"]["points"]["frame_rate"]
    first = c["header"]["points"]["first_frame"]          # ezc3d counts from 0
    np.testing.assert_allclose(trial.markers.time, (first + np.arange(P.shape[2])) / rate)


@pytest.mark.parametrize("a,b", [("Sample01/Eb015pi.c3d", "Sample01/Eb015vr.c3d"),
                                 ("Sample02/dec_int.c3d", "Sample02/pc_real.c3d")])
def test_processor_and_storage_formats_give_the_same_data(c3d_dir, a, b):
    """Intel integer and DEC floating-point copies of the same data (c3d.org README)."""
    x, y = load(str(c3d_dir / a)), load(str(c3d_dir / b))
    np.testing.assert_array_equal(np.isnan(x.markers.positions), np.isnan(y.markers.positions))
    np.testing.assert_allclose(x.markers.positions, y.markers.positions, atol=1e-6)
    for p, q in zip(x.plates, y.plates):
        np.testing.assert_allclose(p.force, q.force, atol=1e-6)


def test_analog_and_point_rates_differ_and_each_keeps_its_time_base(c3d_dir):
    trial = load(str(c3d_dir / "Sample10" / "TYPE-2.C3D"))
    assert trial.markers.rate == 60.0 and trial.plates[0].rate == 1200.0
    assert trial.markers.n_frames * 20 == trial.plates[0].n_samples
    assert trial.plates[0].time[-1] == pytest.approx(trial.markers.time[-1] + 19 / 1200)


def test_emg_recognised_by_name(c3d_dir):
    trial = load(str(c3d_dir / "Codamotion" / "codamotion_gaitwands_19970212.c3d"))
    assert [c.name for c in trial.emg] == ["R.Quads", "R.Med.Hams", "R.Ant.Tib", "R.Gastroc", "L.Quads",
                                           "L.Med.Hams", "L.Ant.Tib", "L.Gastroc"]
    assert all(c.units == "V" and c.rate == 400.0 for c in trial.emg)


def test_baseline_subtracted_only_where_the_plate_is_unloaded(c3d_dir):
    """Sample01's plates carry a 20-35 N offset; FORCE_PLATFORM:ZERO (frames 1-10) removes it."""
    path = str(c3d_dir / "Sample01" / "Eb015pi.c3d")
    raw = read_c3d(path, zero_baseline=False)
    assert all(np.median(np.linalg.norm(p.force, axis=1)) > 20 for p in raw.plates)
    zeroed = load(path)
    for p in zeroed.plates:
        quiet = ~p.loaded
        assert abs(np.median(p.force[quiet, 2])) < 3.0
    assert sum("baseline" in c for c in zeroed.conversions) == 2


@pytest.mark.parametrize("name", ["Sample28/type1.C3D", "Sample28/dynamic.C3D"])
def test_a_missing_analog_rate_is_derived_from_the_header(c3d_dir, name):
    """BTS files without ANALOG:RATE: ezc3d alone reads 0 analog samples per frame and shifts every frame. The
    reader's points and analogs must equal the data section read by the specification from the raw bytes
    (Intel floats: per frame, 4 words per point then the header's analog values)."""
    path = c3d_dir / name
    trial = load(str(path))
    raw = path.read_bytes()
    n_points, n_analog, first, last = struct.unpack("<4H", raw[2:10])
    (start,) = struct.unpack("<H", raw[16:18])
    frames = last - first + 1
    words = np.frombuffer(raw, "<f4", frames * (4 * n_points + n_analog), (start - 1) * 512)
    words = words.reshape(frames, 4 * n_points + n_analog)
    points = words[:, :4 * n_points].reshape(frames, n_points, 4)
    seen = points[:, :, 3] >= 0
    assert np.allclose(trial.markers.positions[seen], points[:, :, :3][seen] / 1000.0, atol=1e-9)
    plate = load(str(path), zero_baseline=False).plates[0]
    assert np.allclose(np.abs(plate.force @ plate.normal), np.abs(words[:, 4 * n_points + 2]), atol=1e-3)
    assert any("ANALOG:RATE is missing: read as 100 Hz" in w for w in trial.warnings)


def test_a_repaired_files_read_failure_names_the_users_file(c3d_dir, monkeypatch):
    """The file repaired for ezc3d is a temporary copy; a failure to read it names the user's file."""
    import engine.io.c3d as c3d

    def failing(path, *args):
        raise DataError("ezc3d cannot read the file", file=path)

    monkeypatch.setattr(c3d, "_run_ezc3d", failing)
    path = c3d_dir / "Sample28" / "type1.C3D"
    with pytest.raises(DataError) as caught:
        read_c3d(path)
    assert caught.value.file == str(path) and "hybridlab-c3d-" not in str(caught.value)
