"""A trial's labels matched to the built-in protocols: the C3D samples' labels (read by ezc3d directly) against
the landmarks their labs' protocols put them on (written here from the protocols' documentation), renamings
that must not change the matching, the geometry's confirmation and the errors."""
from pathlib import Path

import ezc3d
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.demo.athlete import build_athlete
from engine.errors import DataError
from engine.io.c3d import read_c3d
from engine.io.protocol_file import builtin, placements_for
from engine.protocols.joint_centres import harrington
from engine.protocols.matching import BY_GEOMETRY, match_labels, recognise
from engine.trial.trial import Markers

C3D = Path(__file__).parents[1] / "data" / "c3d"

# label -> (landmark, side) the lab put it on; technical markers -> (segment's landmark, side, 'technical')
SAMPLES = {
    "Sample26/Capture0002.c3d": ("helen-hayes", {
        "r_shoulder": ("acromion", "R"), "th12": ("t12", None), "r_asis": ("asis", "R"),
        "r_suppat": ("suprapatella", "R"), "r_knjntln": ("knee_joint_line", "R"),
        "r_tubtib": ("tibial_tuberosity", "R"), "r_ankle": ("lateral_malleolus", "R"), "r_heel": ("calcaneus", "R"),
        "r_toe": ("second_metatarsal", "R"), "l_shoulder": ("acromion", "L"), "sacrum": ("sacrum", None),
        "l_asis": ("asis", "L"), "l_suppat": ("suprapatella", "L"), "l_knjntln": ("knee_joint_line", "L"),
        "l_tubtib": ("tibial_tuberosity", "L"), "l_ankle": ("lateral_malleolus", "L"), "l_heel": ("calcaneus", "L"),
        "l_toe": ("second_metatarsal", "L")}),
    "Sample26/Walking_Hybrid_1_1.c3d": ("ior-cast", {
        "R_ASIS": ("asis", "R"), "L_ASIS": ("asis", "L"), "SACRUM": ("sacrum", None), "R_HEEL": ("calcaneus", "R"),
        "R_MT_1": ("first_metatarsal", "R"), "R_MT_5": ("fifth_metatarsal", "R"), "L_HEEL": ("calcaneus", "L"),
        "L_MT_1": ("first_metatarsal", "L"), "L_MT_5": ("fifth_metatarsal", "L")}),
    "Sample28/type1.C3D": ("helen-hayes", {
        "RASI": ("asis", "R"), "RTHI": ("greater_trochanter", "R"), "RKNE1": ("lateral_epicondyle", "R"),
        "RKNE2": ("fibula_head", "R"), "RMALL": ("lateral_malleolus", "R"), "RMET": ("fifth_metatarsal", "R"),
        "LASI": ("asis", "L"), "LTHI": ("greater_trochanter", "L"), "LKNE1": ("lateral_epicondyle", "L"),
        "LKNE2": ("fibula_head", "L"), "LMALL": ("lateral_malleolus", "L"), "LMET": ("fifth_metatarsal", "L"),
        "SACR": ("sacrum", None)}),
    "Sample28/dynamic.C3D": ("helen-hayes", {
        "r should": ("acromion", "R"), "r asis": ("asis", "R"), "r thigh": ("greater_trochanter", "R"),
        "r knee 1": ("lateral_epicondyle", "R"), "r knee 2": ("fibula_head", "R"), "r mall": ("lateral_malleolus", "R"),
        "r met": ("fifth_metatarsal", "R"), "l should": ("acromion", "L"), "l asis": ("asis", "L"),
        "l thigh": ("greater_trochanter", "L"), "l knee 1": ("lateral_epicondyle", "L"),
        "l knee 2": ("fibula_head", "L"), "l mall": ("lateral_malleolus", "L"), "l met": ("fifth_metatarsal", "L"),
        "c7": ("c7", None), "sacrum": ("sacrum", None)}),
    "Codamotion/codamotion_gaitwands_19970212.c3d": ("cleveland", {
        "L.PSIS": ("psis", "L"), "L.ASIS": ("asis", "L"), "L.Knee": ("lateral_epicondyle", "L"),
        "L.Ankle": ("lateral_malleolus", "L"), "L.Heel": ("calcaneus", "L"), "L.Toe": ("second_metatarsal", "L"),
        "R.PSIS": ("psis", "R"), "R.ASIS": ("asis", "R"), "R.Knee": ("lateral_epicondyle", "R"),
        "R.Ankle": ("lateral_malleolus", "R"), "R.Heel": ("calcaneus", "R"), "R.Toe": ("second_metatarsal", "R"),
        # Codamotion's optional 'Hip' marker: on the greater trochanter, 60-70 mm lateral of the hip centre
        "L.Hip": ("greater_trochanter", "L"), "R.Hip": ("greater_trochanter", "R")}),
    # thigh, shank, foot and pelvis clusters only (AMASS, 1989): every marker is technical
    "Sample01/Eb015pi.c3d": ("ior-cast", {
        "RTH1": ("thigh", "R"), "LSK4": ("shank", "L"), "RFT2": ("second_metatarsal", "R"), "pv4": ("sacrum", None)}),
}


@pytest.fixture(scope="module")
def library():
    return builtin()


def _labels(relative):
    """The file's point labels as written (ezc3d, the C3D's own parameters; repeated labels kept)."""
    c3d = ezc3d.c3d(str(C3D / relative))
    return [str(n) for n in c3d["parameters"]["POINT"]["LABELS"]["value"]][:c3d["data"]["points"].shape[1]]


def _landmarks(matching, catalogue):
    out = {}
    for label, full in matching.labels.items():
        name, side = matching.used[full]
        landmark = matching.protocol.marker(name).landmark
        out[label] = (landmark, side if catalogue[landmark].sided else None)
    return out


@pytest.mark.parametrize("relative", list(SAMPLES))
def test_each_sample_is_recognised_and_its_landmarks_matched(library, relative):
    catalogue, _, protocols = library
    expected_protocol, expected = SAMPLES[relative]
    labels = _labels(relative)
    ranked = sorted(((len(m.labels), m) for m in (match_labels(labels, p, catalogue) for p in protocols)),
                    key=lambda r: r[0], reverse=True)
    matching = ranked[0][1]
    assert matching.protocol.name == expected_protocol
    found = _landmarks(matching, catalogue)
    right = sum(found.get(label) == where for label, where in expected.items())
    assert right >= 0.9 * len(expected), {k: (found.get(k), v) for k, v in expected.items() if found.get(k) != v}
    # nothing dropped silently: every label is matched or listed with a reason
    assert set(matching.labels) | {u[0] for u in matching.unmatched} == set(labels)
    assert all(reason for _, reason in matching.unmatched)


def _rename(label, prefix, case, separator):
    """A lab's way of writing the same label: subject prefix, case, separator between side and name."""
    side, rest = label[0], label[1:]
    text = f"{side}{separator}{rest}" if side in "RL" and rest[:1].isalpha() else label
    text = {"upper": text.upper(), "lower": text.lower(), "title": text.title(), "keep": text}[case]
    return f"{prefix}:{text}" if prefix else text


@settings(max_examples=40, deadline=None)
@given(prefix=st.sampled_from(["", "Subject", "Pat 01", "S1:trial"]),
       case=st.sampled_from(["upper", "lower", "title", "keep"]),
       separator=st.sampled_from(["", "_", " ", ".", "-"]))
def test_renamed_labels_match_the_same(library, prefix, case, separator):
    catalogue, _, protocols = library
    pig = next(p for p in protocols if p.name == "plug-in-gait-lower")
    labels = ["LASI", "RASI", "LPSI", "RPSI", "LTHI", "LKNE", "LTIB", "LANK", "LHEE", "LTOE", "RTHI", "RKNE", "RTIB",
              "RANK", "RHEE", "RTOE"]
    reference = match_labels(labels, pig, catalogue)
    renamed = [_rename(label, prefix, case, separator) for label in labels]
    again = match_labels(renamed, pig, catalogue)
    assert [again.labels.get(n) for n in renamed] == [reference.labels.get(n) for n in labels]
    assert len(reference.labels) == len(labels)


def test_other_languages_and_words(library):
    catalogue, _, protocols = library
    hh = next(p for p in protocols if p.name == "helen-hayes")
    m = match_labels(["Knie links", "rechts Ferse", "caviglia_dx", "RIGHT HEEL"], hh, catalogue)
    assert m.labels == {"Knie links": "LKNEE1", "rechts Ferse": "RHEEL", "caviglia_dx": "RMALL"}
    assert m.unmatched[0][0] == "RIGHT HEEL" and "RHEEL" in m.unmatched[0][1]   # a second right heel: listed


def test_a_trial_matching_nothing_is_an_error(library):
    catalogue, _, protocols = library
    markers = Markers(("foo", "bar", "Marker12"), np.arange(3) / 100, np.zeros((3, 3, 3)), 100.0)
    with pytest.raises(DataError, match="none of the trial's markers"):
        recognise(markers, protocols, catalogue)


@pytest.fixture(scope="module")
def capture():
    return read_c3d(C3D / "Sample26" / "Capture0002.c3d")


@pytest.fixture(scope="module")
def athlete_points(library):
    catalogue, placements, _ = library
    model = build_athlete(with_muscles=False, amputated=False)
    return placements_for(model, placements).points(model, catalogue)


def test_geometry_confirms_a_plausible_scale(library, capture, athlete_points):
    catalogue, _, protocols = library
    matching = recognise(capture.markers, protocols, catalogue, athlete_points)
    # the subject's thigh (hip centre aside) and foot are 0.7-1.2 times the 1.75 m athlete's
    assert 0.7 < matching.scale < 1.2
    assert not [u for u in matching.unmatched if "do not fit" in u[1]]


def test_geometry_unmatches_a_mislabelled_marker(library, capture, athlete_points):
    catalogue, _, protocols = library
    names = list(capture.markers.names)
    i, j = names.index("r_heel"), names.index("r_asis")       # the heel and the ASIS labelled the other's
    names[i], names[j] = "r_asis", "r_heel"
    swapped = Markers(tuple(names), capture.markers.time, capture.markers.positions, capture.markers.rate)
    matching = recognise(swapped, protocols, catalogue, athlete_points)
    flagged = {u[0] for u in matching.unmatched if "do not fit" in u[1]}
    assert {"r_heel", "r_asis"} <= flagged and not flagged & {"l_asis", "sacrum", "r_met", "l_heel"}


def test_geometry_refuses_an_implausible_scale(library, capture, athlete_points):
    catalogue, _, protocols = library
    m = capture.markers
    tiny = Markers(m.names, m.time, m.positions / 1000.0, m.rate)    # millimetres read as metres twice
    with pytest.raises(DataError, match="times the model's"):
        recognise(tiny, protocols, catalogue, athlete_points)


@pytest.fixture(scope="module")
def bts():
    return read_c3d(C3D / "Sample28" / "type1.C3D")


def test_a_labs_computed_joint_centres_are_told_from_its_markers_by_geometry(library, bts, athlete_points):
    # BTS's Davis protocol exports its joint centres as RHIP, RKNE, RANK beside the markers RKNE1 (epicondyle) and
    # RMALL, its forefoot point RMET1 medial of RMET, and copies of the ASIS and sacrum on the bone (C3D descriptions:
    # 'Right Knee', 'Right ASIS #2'); RKNE and RANK read as the lateral markers' names
    catalogue, _, protocols = library
    matching = recognise(bts.markers, protocols, catalogue, athlete_points)
    for side in "RL":
        assert {matching.labels[f"{side}{x}"] for x in ("HIP", "KNE", "ANK", "MET1")} == \
            {f"{side}HJC", f"{side}KJC", f"{side}AJC", f"{side}TOE"}
    copies = {label: why for label, why in matching.unmatched}
    assert set(copies) == {"SACR1", "RASI1", "LASI1"} and all("a copy of" in why for why in copies.values())
    # the knee centre lies inside the knee: its distance from the lateral marker is about half a knee's width
    knee = np.linalg.norm(bts.markers.trajectory("RKNE") - bts.markers.trajectory("RKNE1"), axis=1)
    assert 0.03 < np.nanmedian(knee) < 0.08


def test_a_point_outside_the_limb_is_not_read_as_a_joint_centre(library, bts, athlete_points):
    catalogue, _, protocols = library
    m = bts.markers
    positions = np.array(m.positions)
    i, j = m.index("RKNE"), m.index("RKNE1")
    positions[:, i] = 2 * positions[:, j] - positions[:, i]        # mirrored: as far from RKNE1, but lateral
    outside = Markers(m.names, m.time, positions, m.rate)
    matching = recognise(outside, protocols, catalogue, athlete_points)
    assert "RKNE" not in matching.labels and matching.labels["LKNE"] == "LKJC"
    assert "not inside the limb" in dict(matching.unmatched)["RKNE"]


def test_a_marker_placed_where_the_lab_varies_is_matched_by_geometry(library, athlete_points):
    # Codamotion's 'Toe' sits on the lateral midfoot: about 0.13 m from its heel marker, where the second metatarsal
    # head (the Cleveland toe) would be 0.2-0.25 m; read there, heel and toe (the foot's one pair) both disagreed
    catalogue, _, protocols = library
    coda = read_c3d(C3D / "Codamotion" / "codamotion_gaitwands_19970212.c3d")
    heel_toe = np.linalg.norm(coda.markers.trajectory("R.Toe") - coda.markers.trajectory("R.Heel"), axis=1)
    assert 0.10 < np.nanmedian(heel_toe) < 0.16
    matching = recognise(coda.markers, protocols, catalogue, athlete_points)
    assert {matching.labels[f"{s}.{x}"] for s in "LR" for x in ("Heel", "Toe")} == \
        {"LHEEL", "RHEEL", "LMIDFOOT", "RMIDFOOT"}
    assert not matching.unmatched and any("as RMIDFOOT (fifth metatarsal base) it does" in n for n in matching.notes)
    # a trial whose toe is on the metatarsal head keeps it there: Capture0002's
    capture = recognise(read_c3d(C3D / "Sample26" / "Capture0002.c3d").markers, protocols, catalogue, athlete_points)
    assert capture.labels["r_toe"] == "RTOE"


def test_a_hip_label_is_told_a_hip_centre_or_a_trochanter_by_its_distance_from_harrington(library, bts,
                                                                                          athlete_points):
    catalogue, _, protocols = library
    coda = read_c3d(C3D / "Codamotion" / "codamotion_gaitwands_19970212.c3d")
    m = coda.markers
    # Codamotion's 'Hip' markers: 339 mm apart, beyond the ASIS (311 mm): no hip centre lies lateral of the ASIS
    width = lambda a, b: np.nanmedian(np.linalg.norm(m.trajectory(a) - m.trajectory(b), axis=1))   # noqa: E731
    assert width("R.Hip", "L.Hip") > width("R.ASIS", "L.ASIS") + 0.02
    matching = recognise(m, protocols, catalogue, athlete_points)
    assert matching.labels["R.Hip"] == "RTROCH" and matching.labels["L.Hip"] == "LTROCH"
    assert any("'R.Hip' lies" in n and "greater trochanter, as read" in n for n in matching.notes)
    # the same labels on Harrington's centres (of the same ASIS and PSIS): read as the hip centres
    right, left = harrington(m.trajectory("R.ASIS"), m.trajectory("L.ASIS"),
                             0.5 * (m.trajectory("R.PSIS") + m.trajectory("L.PSIS")))
    positions = np.array(m.positions)
    positions[:, m.index("R.Hip")], positions[:, m.index("L.Hip")] = right + 0.01, left - 0.01
    moved = recognise(Markers(m.names, m.time, positions, m.rate), protocols, catalogue, athlete_points)
    assert moved.labels["R.Hip"] == "RHJC" and moved.labels["L.Hip"] == "LHJC"
    assert moved.how["R.Hip"][0] == BY_GEOMETRY and "the lab's hip centre, matched as RHJC" in moved.how["R.Hip"][1]
    # BTS's 'RHIP' is its computed centre, 21 mm from Harrington's: kept as the hip centre
    assert recognise(bts.markers, protocols, catalogue, athlete_points).labels["RHIP"] == "RHJC"
