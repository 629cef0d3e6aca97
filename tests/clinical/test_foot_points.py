"""The spatial gait parameters of a model without contact candidates (an OpenSim model, the usual lab case), from its
heel markers, against the same computed by hand from the recorded heel markers (the TRC) at the plates' heel strikes
(the GRF .mot), on OpenSim's treadmill walk (gait2354 walk1)."""
import dataclasses
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from engine.analysis.gait_phases import MIN_STANCE, events_from_phases, keep_long, named_side, side_of, stance_phases
import engine.clinical.events as clinical_events
from engine.clinical.events import foot_phases, gait_events
from engine.clinical.foot_names import HEEL
from engine.clinical.foot_points import foot_points
from engine.clinical.parameters import spatiotemporal, stances_of
from tests.clinical.lab_case import folder, lab_case

THRESHOLD = 20.0     # N, the plates' loaded threshold


def _by_hand(test_data):
    """Per side: [(strike, next strike, stride length m, step width m or None)] from the TRC's heel markers (mm, Y
    up, X forward) at the plates' 20 N crossings (600 Hz), the treadmill's belt velocity per stance the least-squares
    slope of the heel's position over the middle third of the plate's stance (the foot flat on the belt)."""
    d = folder(test_data)
    with open(d / "subject01_walk1.trc") as f:
        header = [f.readline() for _ in range(4)][3].rstrip("\n").split("\t")
    markers = [h for h in header[2:] if h.strip()]
    trc = np.loadtxt(d / "subject01_walk1.trc", skiprows=5)
    t = trc[:, 1]

    def heel(side):
        k = 2 + 3 * markers.index(f"{side[0]}.Heel")
        return trc[:, k:k + 3] / 1000.0

    with open(d / "subject01_walk1_grf.mot") as f:
        lines = f.read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("endheader")) + 1
    names = lines[start].split("\t")
    mot = np.loadtxt(lines[start + 1:])
    tm = mot[:, 0]
    out = {}
    stances = {}
    for side, prefix in (("Right", ""), ("Left", "1_")):
        loaded = mot[:, names.index(f"{prefix}ground_force_vy")] >= THRESHOLD
        edges = np.flatnonzero(np.diff(loaded.astype(int)))
        on = [tm[i + 1] for i in edges if not loaded[i]]
        off = [tm[i + 1] for i in edges if loaded[i]]
        stances[side] = [(a, next((b for b in off if b > a), None)) for a in on]
    for side in ("Right", "Left"):
        other = "Left" if side == "Right" else "Right"
        p = heel(side)
        rows = []
        for (a, a_off), (b, _) in zip(stances[side][:-1], stances[side][1:]):
            mid = (t >= a + (a_off - a) / 3) & (t <= a + 2 * (a_off - a) / 3)
            belt = np.array([np.polyfit(t[mid], p[mid, i], 1)[0] for i in range(3)])
            belt[1] = 0.0
            at = np.array([np.interp(x, t, p[:, i]) for x in (a, b) for i in range(3)]).reshape(2, 3)
            stride = at[1] - at[0] - belt * (b - a)
            before = [s for s, _ in stances[other] if s < a]
            width = None
            if before:
                o = np.array([np.interp(before[-1], t, heel(other)[:, i]) for i in range(3)])
                width = abs((at[0] - (o + belt * (a - before[-1])))[2])
            rows.append((a, b, float(np.hypot(stride[0], stride[2])), width))
        out[side] = rows
    return out


def test_stride_length_speed_and_step_width_from_the_heel_markers(test_data):
    result, settings = lab_case(str(test_data))
    assert not result.model.contacts and result.qp is None
    events, notes = gait_events(result)
    params = spatiotemporal(result, events, settings.forward)
    frame = float(np.median(np.diff(result.motion.time)))
    reference = _by_hand(test_data)
    for side in ("Left", "Right"):
        p = params[side]
        assert p.positions.startswith(f"the marker {side[0]}.Heel")
        assert len(p.cycles) == len(reference[side]) >= 1
        for i, ((a, b), (ra, rb, stride, width)) in enumerate(zip(p.cycles, reference[side])):
            assert abs(a - ra) <= frame and abs(b - rb) <= frame
            # measured: 0.3 and 13 mm, speed 0.3 and 1.1 %, width 7 mm apart (the model's heel marker at the
            # analysed coordinates, the strikes at the 60 Hz frames against the TRC's marker at the 600 Hz plate's)
            assert p.values["stride length"][i] == pytest.approx(stride, abs=0.025)
            assert p.values["speed"][i] == pytest.approx(stride / (rb - ra), rel=0.02)
            if width is not None:
                assert p.values["step width"][i] == pytest.approx(width, abs=0.015)
            else:
                assert np.isnan(p.values["step width"][i])


def test_heel_markers_and_hindfoot_bodies_by_their_usual_names(test_data):
    for name, side in (("R.Heel", "Right"), ("LHEE", "Left"), ("RCAL", "Right"), ("heel_l", "Left"),
                       ("Left Heel", "Left")):
        assert named_side(name, HEEL) == side, name
    for name in ("R.Toe.Tip", "Heel", "RHEE2", "Rheelx", "heelr"):
        assert named_side(name, HEEL) is None, name
    result, _ = lab_case(str(test_data))
    feet = foot_points(replace(result, model=result.model.replace(markers=[])), {})
    assert feet.source == {"Left": "the origin of the body calcn_l", "Right": "the origin of the body calcn_r"}
    heel = next(m for m in result.model.markers if m.name == "R.Heel")
    two = replace(result, model=result.model.replace(markers=list(result.model.markers) + [replace(heel, name="RHEE")]))
    assert foot_points(two, {}).source["Right"] == ("the origin of the body calcn_r (the markers R.Heel, RHEE of this "
                                                    "side are ambiguous)")
    assert all(named_side(name, ()) is None for name in ("r", "R", "left", "R.Heel"))


def test_plates_named_by_number_take_the_side_of_the_body_they_were_applied_to(test_data):
    """Plates 'FP1' and 'FP2' that an ExternalLoads file applies to calcn_r and calcn_l give the same events (and so
    the same cycles) as the same plates named 'right' and 'left'; a model without contact candidates has no others."""
    result, settings = lab_case(str(test_data))
    named, _ = gait_events(result)
    plates = tuple(replace(p, name={"right": "FP1", "left": "FP2"}[p.name]) for p in result.trial.plates)
    numbered = replace(result, trial=result.trial.derived(plates=plates),
                       classic=replace(result.classic, bodies={"FP1": "calcn_r", "FP2": "calcn_l"}))
    events, notes = gait_events(numbered)
    assert events == named and len(events) >= 6
    assert notes == ["gait events, left side: the force plates' (20 N threshold)",
                     "gait events, right side: the force plates' (20 N threshold)"]


def test_foot_marker_events_within_a_frame_of_the_plates(test_data):
    """A model without contact candidates: stances from its heel, forefoot and toe tip points against the plates'
    (20 N); plates whose side is unknown leave the events to them."""
    result, _ = lab_case(str(test_data))
    frame = float(np.median(np.diff(result.motion.time)))
    plates = events_from_phases(stance_phases(result, "measured"))
    feet = events_from_phases(foot_phases(result))
    assert len(plates) == len(feet) == 8
    for p in plates:
        match = [k for k in feet if k.label == p.label and k.context == side_of(p.context)]
        assert min(abs(k.time - p.time) for k in match) <= frame + 1e-9, (p, match)
    plates = tuple(replace(p, name=f"FP{i + 1}") for i, p in enumerate(result.trial.plates))
    unknown = replace(result, trial=result.trial.derived(plates=plates), classic=replace(result.classic, bodies={}))
    events, notes = gait_events(unknown)
    assert events == feet and all("from the kinematics" in n for n in notes)
    for note, side in zip(notes, ("Left", "Right")):
        s = side[0]
        assert note.startswith(f"gait events, {side.lower()} side: no plate applied to this side: "), note
        for part in (f"heel the marker {s}.Heel", f"forefoot the origin of the body toes_{s.lower()}",
                     f"toe tip the marker {s}.Toe.Tip", "its own lowest over the trial, taken as its floor"):
            assert part in note, (part, note)
    bare = SimpleNamespace(contacts=[], markers=[], bodies=[SimpleNamespace(name="pelvis")])
    assert "left: no foot point found" in clinical_events._kinematics_note(bare, ("Left",))


def test_without_a_foot_off_the_belt_is_the_median_near_the_floor(test_data):
    """No stance with a Foot Off (the events' offs left out): the treadmill's belt is taken where the heels are near
    their lowest, within 5 % of the one over the flat feet (measured 2-3 % slow), and the notes say so; the strides
    stay within 6 cm of those with the offs (a belt taken as still would leave the heel's stride on the treadmill,
    a few cm)."""
    result, settings = lab_case(str(test_data))
    events, _ = gait_events(result)
    with_offs = spatiotemporal(result, events, settings.forward)
    strikes = [e for e in events if e.label == "Foot Strike"]
    without = spatiotemporal(result, strikes, settings.forward)
    flat = foot_points(result, {side: stances_of(events, side) for side in ("Left", "Right")})
    near = foot_points(result, {})
    assert np.linalg.norm(flat.floor_velocity) > 0.5
    assert np.linalg.norm(near.floor_velocity - flat.floor_velocity) < 0.05 * np.linalg.norm(flat.floor_velocity)
    assert "no stance with a Foot Off" in near.floor and "middle thirds" in flat.floor
    for side in ("Left", "Right"):
        assert "no stance with a Foot Off" in without[side].positions
        a, b = with_offs[side].values["stride length"], without[side].values["stride length"]
        assert len(a) == len(b) >= 1 and np.all(np.abs(a - b) < 0.06) and np.all(a > 0.8), (a, b)


def test_one_belt_for_the_events_and_the_parameters(test_data, monkeypatch):
    """The foot points' events move relative to the floor velocity of engine.clinical.foot_points: given a belt
    running the other way, the feet on the treadmill (then twice the belt's speed off it, above SPEED) lose most of
    their stance time (what is left: touches where a foot turns round in the air near its lowest)."""
    result, _ = lab_case(str(test_data))
    feet = foot_points(result, {})
    assert 2 * np.linalg.norm(feet.floor_velocity) > clinical_events.SPEED

    def stance_time():
        return sum(b - a for iv in foot_phases(result).intervals.values() for a, b in iv)
    on_belt = stance_time()
    monkeypatch.setattr(clinical_events, "foot_points",
                        lambda r, stances: dataclasses.replace(feet, floor_velocity=-feet.floor_velocity))
    assert stance_time() < 0.25 * on_belt


def test_short_stances_inside_the_span_are_dropped():
    span = (0.0, 2.0)
    short = MIN_STANCE / 2
    kept, dropped = keep_long({"a": [(0.0, short), (0.5, 0.5 + short), (0.6, 0.9), (2.0 - short, 2.0)]}, span)
    assert kept == {"a": [(0.0, short), (0.6, 0.9), (2.0 - short, 2.0)]} and dropped == {"a": [(0.5, 0.5 + short)]}
