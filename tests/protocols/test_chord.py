"""The chord function (Davis et al. 1991; Plug-in Gait): a joint centre placed by hand in a segment's frame, its
lateral marker half a joint width from it along the flexion axis, a wand in the frontal plane or a marker in
front of the joint on the midline, the whole turned and moved at random; the centre recovered from the markers."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from engine.protocols.chord import chord, chord_midline
from engine.protocols.joint_centres import chord_delta

DELTA = 0.057      # m: half of a 100 mm knee plus a 14 mm marker's radius


def _segment(side):
    """Centre J, proximal centre P, lateral marker M, wand W and midline marker A in a segment's frame (x forward,
    y up, z right), the segment's axis J -> P tilted off y."""
    J = np.array([0.0, 0.0, 0.0])
    P = np.array([0.03, 0.41, -0.04 if side == "R" else 0.04])
    u = P / np.linalg.norm(P)
    n = np.array([1.0, 0.0, 0.0]) - u[0] * u
    n /= np.linalg.norm(n)                          # forward, perpendicular to the axis
    lateral = np.cross(n, u) if side == "R" else np.cross(u, n)     # forward x up = right
    M = J + DELTA * lateral
    W = M + 0.07 * lateral + 0.12 * u               # the wand: in the plane of J, P, M, lateral of the line M -> P
    A = J + 0.06 * n + 0.03 * u                     # in front of the centre, on the segment's midline
    return J, P, M, W, A


@pytest.mark.parametrize("side", ["R", "L"])
def test_chord_recovers_a_placed_centre(side):
    rng = np.random.default_rng(11)
    R = Rotation.random(6, random_state=rng).as_matrix()
    p = rng.normal(size=(6, 3))
    place = lambda x: np.einsum("fij,j->fi", R, x) + p       # noqa: E731
    J, P, M, W, A = (place(x) for x in _segment(side))
    assert np.abs(chord(P, M, W - M, DELTA) - J).max() < 1e-9
    assert np.abs(chord_midline(P, M, A, DELTA, side) - J).max() < 1e-9
    # the construction's properties, independently of it
    assert np.allclose(np.linalg.norm(M - J, axis=1), DELTA) and np.allclose(np.sum((M - J) * (P - J), axis=1), 0)


def test_no_centre_where_the_segment_is_shorter_than_the_distance():
    J, P, M, W, A = (np.stack([x, x]) for x in _segment("R"))
    P[1] = M[1] + 0.5 * DELTA * (P[1] - M[1]) / np.linalg.norm(P[1] - M[1])
    assert np.isfinite(chord(P, M, W - M, DELTA)[0]).all() and np.isnan(chord(P, M, W - M, DELTA)[1]).all()
    assert np.isnan(chord_midline(P, M, A, DELTA, "R")[1]).all()
    with pytest.raises(ValueError, match="positive"):
        chord(P, M, W - M, 0.0)


def test_widths_from_processing_else_the_default_said():
    delta, said = chord_delta({"PROCESSING:RKneeWidth": 100.0, "PROCESSING:MarkerDiameter": 16.0}, "knee_centre", "R")
    assert delta == pytest.approx(0.058) and "RKneeWidth" in said
    delta, said = chord_delta({"PROCESSING:LeftAnkleWidth": 70.0}, "ankle_centre", "L")
    assert delta == pytest.approx(0.042) and "LeftAnkleWidth" in said          # a 14 mm marker by default
    delta, said = chord_delta({"SUBJECT:Right Knee": 95}, "knee_centre", "R")   # BTS
    assert delta == pytest.approx(0.0545) and "SUBJECT:Right Knee" in said
    delta, said = chord_delta({"SUBJECT:Right Knee": 95}, "knee_centre", "L")
    assert 0.0 < delta < 0.1 and "not the subject's" in said
    delta, said = chord_delta({"PROCESSING:RKneeWidth": 0.0}, "knee_centre", "R")
    assert 0.0 < delta < 0.1 and "RKneeWidth is 0.0" in said


def test_a_chord_with_wrong_inputs_is_refused_naming_it():
    from engine.errors import ModelError
    from engine.protocols.description import Protocol, ProtocolMarker, VirtualMarker
    catalogue = {n: None for n in ("lateral_epicondyle", "thigh", "knee_centre", "hip_centre", "asis")}
    markers = (ProtocolMarker("KNE", "lateral_epicondyle"), ProtocolMarker("THI", "thigh", technical=True))
    for v in (VirtualMarker("KJC", "knee_centre", "chord", ("HJC", "KNE")),                # two inputs
              VirtualMarker("KJC", "knee_centre", "chord", ("XJC", "KNE", "THI")),         # unknown proximal centre
              VirtualMarker("KJC", "hip_centre", "chord", ("HJC", "KNE", "THI"))):         # not a knee or ankle
        protocol = Protocol("p", "p", markers, (VirtualMarker("HJC", "hip_centre", "harrington"), v))
        with pytest.raises(ModelError, match="virtual marker 'KJC'.*chord|chord.*virtual marker 'KJC'"):
            protocol.check(catalogue)


@pytest.mark.parametrize("wand, proximal, marker, delta, centre", [
    # the examples in pyCGM's findJointC docstring (cadop/pyCGM, pyCGM.py and pycgmStatic.py), millimetres
    ([468.14532471, 325.09780884, 673.12591553], [355.90861996, 365.38260964, 940.6974861],
     [452.35180664, 329.0609436, 524.77893066], 59.5, [396.25286248, 347.91367254, 518.63620527]),
    ([775.40887891, 788.64742014, 514.4063264], [424.5706403, 46.17046141, 305.73130661],
     [618.98284978, 848.86492206, 133.51848843], 42.5, [599.66684491, 843.26056826, 96.07876121]),
])
def test_chord_agrees_with_pycgm_published_examples(wand, proximal, marker, delta, centre):
    wand, proximal, marker = (np.array([x]) for x in (wand, proximal, marker))
    assert np.abs(chord(proximal, marker, wand - marker, delta)[0] - centre).max() < 1e-6   # printed to 1e-8 mm


def test_without_widths_the_population_proportion_of_the_stature_is_used_and_cited():
    # Heinz et al. (2003): knee breadth 0.055 and ankle breadth 0.0405 of stature; half of it plus the marker's radius
    delta, said = chord_delta({}, "knee_centre", "R", (1.60, "the trial's SUBJECT:HEIGHT 1.6 m"))
    assert delta == pytest.approx(0.5 * (0.055 * 1.60 + 0.014)) and "Heinz et al. 2003" in said and "1.60 m" in said
    delta, said = chord_delta({"PROCESSING:MarkerDiameter": 25.0}, "ankle_centre", "L", (1.80, "given"))
    assert delta == pytest.approx(0.5 * (0.0405 * 1.80 + 0.025))
    # a measured width still wins over the stature
    delta, _ = chord_delta({"PROCESSING:RKneeWidth": 100.0}, "knee_centre", "R", (1.60, "given"))
    assert delta == pytest.approx(0.057)


def test_the_stature_is_the_trials_else_the_model_scaled_by_the_geometry():
    from dataclasses import replace as changed
    from pathlib import Path

    from engine.demo.for_trial import default_model, trial_matching
    from engine.io.c3d import read_c3d
    from engine.protocols.fitting import stature
    from engine.trial.body_measures import recorded_height
    c3d = Path(__file__).parents[1] / "data" / "c3d"
    bts = read_c3d(c3d / "Sample28" / "dynamic.C3D")          # SUBJECT:Height 166 (cm)
    model = default_model(bts)[0]
    matching = trial_matching(bts, model).matching
    assert stature(bts, model, matching)[0] == pytest.approx(1.66) and "Height 166 cm" in stature(bts, model, matching)[1]
    unknown = changed(bts, subject={})
    height, said = stature(unknown, model, matching)
    assert height == pytest.approx(1.75 * matching.scale) and "times" in said
    assert stature(changed(bts, subject={"HEIGHT": 1630.0}), model, matching)[0] == pytest.approx(1.63)
    assert recorded_height(bts).rejected == () and recorded_height(unknown).rejected == ()


def test_an_implausible_stature_in_the_trial_is_said_rejected():
    from dataclasses import replace as changed
    from pathlib import Path

    from engine.demo.for_trial import default_model, model_for_trial, trial_matching
    from engine.io.c3d import read_c3d
    from engine.protocols.fitting import stature
    from engine.trial.body_measures import recorded_height
    bts = read_c3d(Path(__file__).parents[1] / "data" / "c3d" / "Sample28" / "dynamic.C3D")
    model = default_model(bts)[0]
    matching = trial_matching(bts, model).matching
    short = changed(bts, subject={"Height": 0.9})         # 0.9 m, 0.9 cm, 0.9 mm: none a stature
    height, said = stature(short, model, matching)
    assert height == pytest.approx(1.75 * matching.scale) and "times" in said          # the model's, scaled
    said = ("the trial's SUBJECT:Height 0.9 was not used as the subject's stature: read as m, cm or mm it is not "
            "within 1-2.5 m")
    assert recorded_height(short).rejected == (said,) and said in model_for_trial(short).notes
    (tall,) = recorded_height(changed(bts, subject={"HEIGHT": "tall"})).rejected
    assert "SUBJECT:HEIGHT 'tall' was not used" in tall and "not a number" in tall


@pytest.mark.parametrize("height", [1.60, 1.95])
def test_a_height_given_is_the_stature_of_the_chords_and_is_said(height):
    # Capture0002 (Sample26) gives neither knee nor ankle widths nor a height: the chords' widths are the given
    # height's proportions (Heinz et al. 2003), so each lateral marker is half a width plus a marker's radius
    # (14 mm) from its centre in every frame (the chord's construction)
    from pathlib import Path

    from engine.demo.for_trial import model_for_trial
    from engine.trial.body_measures import Given
    from engine.io.c3d import read_c3d
    trial = read_c3d(Path(__file__).parents[1] / "data" / "c3d" / "Sample26" / "Capture0002.c3d")
    made = model_for_trial(trial, given=Given(height, None, "with --height on the command line"))
    m = made.trial.markers
    for centre, lateral, ratio in (("RKJC", "RKNJNTLN", 0.055), ("LKJC", "LKNJNTLN", 0.055),
                                   ("RAJC", "RMALL", 0.0405), ("LAJC", "LMALL", 0.0405)):
        gap = np.linalg.norm(m.positions[:, m.index(centre)] - m.positions[:, m.index(lateral)], axis=1)
        seen = np.isfinite(gap)
        assert seen.sum() > 10
        assert np.allclose(gap[seen], 0.5 * (ratio * height + 0.014), rtol=0, atol=1e-9), centre
    assert sum(f"stature {height:.2f} m (the height given with --height on the command line" in n
               for n in made.notes) == 4
    said = (f"the subject's stature is the height given with --height on the command line, {height:.3f} m; the trial "
            "gives none")
    assert said in made.notes


def test_a_height_given_overrides_the_trials_and_the_note_names_both():
    from pathlib import Path

    from engine.demo.for_trial import default_model, trial_matching
    from engine.io.c3d import read_c3d
    from engine.protocols.fitting import height_notes, stature
    from engine.trial.body_measures import Given
    trial = read_c3d(Path(__file__).parents[1] / "data" / "c3d" / "Sample01" / "Eb015pi.c3d")   # SUBJECT:HEIGHT 1.63
    model = default_model(trial)[0]
    matching = trial_matching(trial, model).matching
    assert stature(trial, model, matching)[0] == pytest.approx(1.63, abs=1e-6)
    given = Given(1.81, None, "for subject s01 in the study /lab/study.yaml")     # where it was given, said
    assert stature(trial, model, matching, given) == (1.81, "the height given for subject s01 in the study "
                                                            "/lab/study.yaml, 1.810 m")
    (note,) = height_notes(trial, given)
    assert note == ("the subject's stature is the height given for subject s01 in the study /lab/study.yaml, 1.810 m, "
                    "instead of the trial's SUBJECT:HEIGHT 1.63")
    assert height_notes(trial, None) == height_notes(trial, Given(None, 70.0, None, "x")) == [   # the trial's own
        "the subject's stature is the trial's SUBJECT:HEIGHT 1.63 m"]
    with pytest.raises(ValueError, match="a height given must say where it was given"):
        Given(1.81)


def test_the_static_trials_height_and_mass_are_used_when_the_trial_records_none_and_said():
    # a lab recording the subject's height and mass only in its static trial: hybrid analyze TRIAL --static S takes
    # them (as study init does), said; a trial recording one not usable does not take the static's (it may be another
    # subject's file), said
    from dataclasses import replace as changed
    from pathlib import Path

    import ezc3d

    from engine.demo.for_trial import default_model, model_for_trial, trial_matching
    from engine.io.c3d import read_c3d
    from engine.protocols.fitting import body_mass, height_notes, stature
    path = Path(__file__).parents[1] / "data" / "c3d" / "Sample28" / "dynamic.C3D"
    static = read_c3d(path)                                      # SUBJECT:Height 166 (cm), SUBJECT:Weight 59
    written = ezc3d.c3d(str(path))["parameters"]["SUBJECT"]
    height, weight = float(written["Height"]["value"][0]) / 100, float(written["Weight"]["value"][0])
    trial = changed(static, subject={})
    model = default_model(trial)[0]
    matching = trial_matching(trial, model).matching
    said = f"the static trial {static.source}'s SUBJECT:Height 166 cm (the trial records none)"
    assert stature(trial, model, matching, None, static) == (pytest.approx(height), said)
    assert height_notes(trial, None, static) == [f"the subject's stature is {said}"]
    mass, notes = body_mass(trial, None, static)
    assert mass == weight and notes == [f"the subject's body mass is the static trial {static.source}'s SUBJECT:Weight "
                                        "59, taken as kg (C3D gives no unit) (the trial records none)",
                                        f"the subject's body mass index is {weight / height ** 2:.1f} kg/m^2 "
                                        f"({weight:.3f} kg over the stature {height:.3f} m squared), within 12-50 kg/m^2"]
    from engine.io.protocol_file import builtin, placements_for
    from engine.protocols.fitting import fit_protocol
    catalogue, placements, _ = builtin()
    fitted = fit_protocol(model, trial, matching, placements_for(model, placements), catalogue, static)
    assert fitted.stature == (pytest.approx(height), said)      # the stature used, for the static's renaming too
    made = model_for_trial(trial, static=static)
    assert made.model.total_mass == pytest.approx(weight, rel=1e-9) and notes[0] in made.notes
    assert f"the subject's stature is {said}" in made.notes
    # the trial's own are kept; its value not usable is not replaced by the static's
    assert body_mass(static, None, changed(static, subject={"Weight": 80.0}))[0] == weight
    typo = changed(static, subject={"Height": 16.6, "Weight": 5.9})
    assert stature(typo, model, matching, None, static)[1].startswith("the model's")
    mass, notes = body_mass(typo, None, static)
    assert mass is None and notes[-1] == "no body mass in the trial nor given: the model's is kept"
    assert "SUBJECT:Height 16.6 was not used" in height_notes(typo, None, static)[0]
    assert (f"the static trial {static.source}'s SUBJECT:Height 166 cm was not used as the subject's stature in place "
            "of the trial's: a value the trial records but refuses is not replaced (the trial may be another "
            "subject's)") == height_notes(
        typo, None, static)[1]


def test_a_static_trials_mass_refused_by_its_body_mass_index_names_the_static_trials_height():
    # the static records HEIGHT 1.6 and WEIGHT 154 (pounds taken as kg: a body mass index of 60); the trial records
    # none: the note refusing the static's mass names the static's height, not "the trial's"
    from types import SimpleNamespace

    from engine.protocols.fitting import body_mass
    trial = SimpleNamespace(subject={}, metadata={}, source="walk.c3d")
    static = SimpleNamespace(subject={"HEIGHT": 1.6, "WEIGHT": 154.0}, metadata={}, source="static.c3d")
    mass, notes = body_mass(trial, None, static)
    assert mass is None
    assert notes[0] == ("the static trial static.c3d's SUBJECT:WEIGHT 154 was not used as the subject's body mass: "
                        "taken as kg, with the static trial static.c3d's SUBJECT:HEIGHT 1.6 m (recorded with it) it "
                        "gives a body mass index of 60.2 kg/m^2, not within 12-50 kg/m^2 (pounds, or another "
                        "subject's mass?)")
    assert "the trial's" not in " ".join(notes)


def test_a_mass_recorded_without_a_height_is_checked_by_the_height_given_or_the_static_trials():
    # the trial records WEIGHT 154 (pounds taken as kg) and no height: with the height given (1.6 m), or the one its
    # static trial records, the body mass index is 154 / 1.6^2 = 60.2: refused, naming the height used; the static's
    # mass, read when the trial records none, is checked by the trial's height
    from types import SimpleNamespace

    from engine.protocols.fitting import body_mass
    from engine.trial.body_measures import Given
    trial = SimpleNamespace(subject={"WEIGHT": 154.0}, metadata={}, source="walk.c3d")
    bmi = f"it gives a body mass index of {154 / 1.6 ** 2:.1f} kg/m^2"
    mass, notes = body_mass(trial, Given(height=1.6, height_from="with --height on the command line"))
    assert mass is None
    assert notes[0] == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, with the "
                        "stature the analysis uses (the height given with --height on the command line, 1.600 m) "
                        f"{bmi}, not within 12-50 kg/m^2 (pounds, or another subject's mass?)")
    static = SimpleNamespace(subject={"HEIGHT": 1.6}, metadata={}, source="static.c3d")
    mass, notes = body_mass(trial, None, static)
    assert mass is None and ("with the stature the analysis uses (the static trial static.c3d's SUBJECT:HEIGHT 1.6 m "
                             f"(the trial records none)) {bmi}" in notes[0])
    assert body_mass(SimpleNamespace(subject={"WEIGHT": 70.0}, metadata={}, source="walk.c3d"), None, static)[0] == 70.0
    mass, notes = body_mass(SimpleNamespace(subject={"HEIGHT": 1.6}, metadata={}, source="walk.c3d"), None,
                            SimpleNamespace(subject={"WEIGHT": 154.0}, metadata={}, source="static.c3d"))
    assert mass is None and (f"with the stature the analysis uses (the trial's SUBJECT:HEIGHT 1.6 m) {bmi}"
                             in notes[0])
