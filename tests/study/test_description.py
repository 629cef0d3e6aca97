"""study.yaml is read with every field checked (errors name the file and the element), and `hybrid study init`
proposes a valid study from a lab's folder, listing what it could not match."""
import shutil
from pathlib import Path

import pytest

from tests.subject_c3d import subject_c3d
from engine.cli.main import main
from engine.errors import SettingsError
from study.description import analyze_arguments, load_study

G10 = "opensim/gait10dof18musc"


def _write(folder: Path, text: str) -> Path:
    path = folder / "study.yaml"
    path.write_text("format: hybridlab-study\nversion: 1\n" + text)
    return path


def _study(test_data, subject_extra="", trial_extra="", settings="{start: 0.5}"):
    d = test_data / G10
    return (f"settings: {settings}\nsubjects:\n  - id: s1\n    model: {d / 'subject01.osim'}\n{subject_extra}"
            f"    trials:\n      - id: walk\n        file: {d / 'subject01_walk.trc'}\n{trial_extra}")


def test_settings_merge_study_subject_trial_and_spell_hybrid_analyze(test_data, tmp_path):
    d = test_data / G10
    study = load_study(_write(tmp_path, _study(
        test_data, "    settings: {end: 0.9, muscles: true}\n",
        f"        grf: {d / 'subject01_walk_grf.mot'}\n        external_loads: {d / 'subject01_walk_grf.xml'}\n"
        "        settings: {muscles: false, emg_muscles: {EMG1: soleus_r}}\n")))
    (trial,) = study.trials
    assert trial.key == "s1/walk"
    assert trial.settings == {"start": 0.5, "end": 0.9, "muscles": False, "emg_muscles": (("EMG1", "soleus_r"),)}
    argv = analyze_arguments(trial, "m.osim")
    assert argv[:2] == ["m.osim", str(d / "subject01_walk.trc")]
    assert "--muscles" not in argv
    assert argv[argv.index("--start") + 1] == "0.5" and argv[argv.index("--end") + 1] == "0.9"
    assert argv[argv.index("--emg-muscles") + 1] == "EMG1=soleus_r"
    assert argv[argv.index("--external-loads") + 1] == str(d / "subject01_walk_grf.xml")


@pytest.mark.parametrize("subject_extra, trial_extra, settings, element, problem", [
    ("", "", "{stat: 0.5}", "top level, settings", "unknown field 'stat' (did you mean 'start'?)"),
    ("", "", "{filter: fast}", "top level, settings", "filter must be a number"),
    ("    mass: -3\n", "", "{}", "subject 's1'",
     "mass must be the subject's body mass in kilograms, positive and between 20 and 250; got -3"),
    ("    mass: 720\n", "", "{}", "subject 's1'", "between 20 and 250; got 720"),
    ("    height: 180\n", "", "{}", "subject 's1'",
     "height must be the subject's height in metres, between 1 and 2.5; got 180"),
    ("    height: 1.8 m\n", "", "{}", "subject 's1'", "height must be a number"),
    ("    mass: 64.5\n", "", "{}", "subject 's1'", "mass scales the subject's model, which without a scale_setup or a "
     "static trial is analysed as given, with its own mass"),
    ("    height: 1.8\n", "", "{}", "subject 's1'",
     "height is the stature of the default model made for each trial of a subject without model"),
    ("    static: nowhere.trc\n", "", "{}", "subject 's1'", "static names 'nowhere.trc', which does not exist"),
    ("", "        grf: x.mot\n", "{}", "subject 's1', trial 'walk'", "grf names 'x.mot', which does not exist"),
    ("", "        settings: {end: 0.2}\n", "{start: 0.5}", "subject 's1', trial 'walk', settings",
     "end (0.2 s) must come after start (0.5 s)"),
])
def test_errors_name_the_file_and_the_element(test_data, tmp_path, subject_extra, trial_extra, settings, element,
                                              problem):
    path = _write(tmp_path, _study(test_data, subject_extra, trial_extra, settings))
    with pytest.raises(SettingsError) as err:
        load_study(path)
    assert err.value.file == str(path.resolve())
    assert err.value.element == element
    assert problem in err.value.problem


def test_a_subject_without_model_has_its_trials_analysed_alone_with_its_height_and_mass(test_data, tmp_path):
    d = test_data / G10
    text = (f"subjects:\n  - id: s1\n    height: 1.72\n    trials:\n      - id: walk\n"
            f"        file: {d / 'subject01_walk.trc'}\n")
    study = load_study(_write(tmp_path, text))
    (subject,) = study.subjects
    assert (subject.model, subject.height, subject.scaled) == (None, 1.72, False)
    assert analyze_arguments(study.trials[0], None) == [str(d / "subject01_walk.trc"), "--height", "1.72"]
    # the analysis notes say where the height was given: this subject of this file (engine.cli.analyze's given_in)
    assert study.trials[0].given_in == f"for subject s1 in the study {(tmp_path / 'study.yaml').resolve()}"
    study = load_study(_write(tmp_path, text.replace("height: 1.72", "mass: 64.5")))
    assert analyze_arguments(study.trials[0], None) == [str(d / "subject01_walk.trc"), "--mass", "64.5"]
    assert study.trials[0].given_in == f"for subject s1 in the study {(tmp_path / 'study.yaml').resolve()}"
    assert load_study(_write(tmp_path, text.replace("    height: 1.72\n", ""))).trials[0].given_in is None
    path = _write(tmp_path, text.replace("height: 1.72", f"static: {d / 'subject01_walk.trc'}"))
    with pytest.raises(SettingsError) as err:
        load_study(path)
    assert (err.value.file, err.value.element) == (str(path.resolve()), "subject 's1'")
    assert err.value.problem.startswith("static given without a model: they scale the subject's model")


def test_a_trial_alone_of_a_study_checks_its_mass_by_the_stature_its_analysis_uses(test_data, tmp_path):
    """A subject without model nor height, its static trial a setting: a trial recording SUBJECT:HEIGHT 17.8 (refused,
    not replaced by the static trial's 1.8 m) and WEIGHT 120 is analysed with the stature the markers give, by which
    120 kg is refused (as ``hybrid analyze TRIAL --static S``: tests/cli/test_cli.py), though the static trial's
    1.8 m would take it (37 kg/m^2), and the model's mass kept; the notes say so."""

    from engine.cli.analyze import analysis_inputs, parse_arguments
    from engine.demo.athlete import MASS

    trial = subject_c3d(test_data, tmp_path / "typo.c3d", HEIGHT=17.8, WEIGHT=120.0)
    static = subject_c3d(test_data, tmp_path / "static.c3d", HEIGHT=1.8)
    study = load_study(_write(tmp_path, f"subjects:\n  - id: s1\n    settings: {{static: {static}}}\n    trials:\n"
                                        f"      - id: run\n        file: {trial}\n"))
    (spec,) = study.trials
    model, _, settings = analysis_inputs(parse_arguments(analyze_arguments(spec, None)), given_in=spec.given_in)
    assert 12 <= 120 / 1.8 ** 2 <= 50 and model.total_mass == pytest.approx(MASS, rel=1e-9)
    notes = settings.ik.notes
    assert any(n.startswith("the trial's SUBJECT:WEIGHT 120 was not used as the subject's body mass: taken as kg, with "
                            "the stature the analysis uses (the model's 1.75 m times the ") for n in notes)
    assert any(n.startswith(f"the static trial {static}'s SUBJECT:HEIGHT 1.8 m was not used as the subject's stature")
               for n in notes)
    assert f"no body mass in the trial nor given: the model's is kept, {MASS:.3f} kg" in notes


def test_a_subjects_mass_with_a_model_scales_it_and_is_no_analysis_option(test_data, tmp_path):
    g = test_data / "opensim" / "gait2354" / "scale"
    text = (f"subjects:\n  - id: s1\n    model: {g / 'gait2354_simbody.osim'}\n    static: {g / 'subject01_static.trc'}\n"
            f"    mass: 64.5\n    trials:\n      - id: walk\n        file: {g / 'subject01_static.trc'}\n")
    study = load_study(_write(tmp_path, text))
    assert study.subjects[0].mass == 64.5 and study.trials[0].mass is None
    assert "--mass" not in analyze_arguments(study.trials[0], "scaled.osim")


def test_study_init_proposes_a_study_and_lists_what_it_could_not_match(test_data, tmp_path, capsys):
    lab, g = tmp_path / "lab", test_data / "opensim" / "gait2354"
    session = lab / "P01" / "2026-11-02"
    session.mkdir(parents=True)
    for name in ("subject01_walk1.trc", "subject01_walk1_grf.mot", "subject01_walk1_grf.xml"):
        shutil.copy(g / name, session / name)
    for name in ("gait2354_simbody.osim", "subject01_Setup_Scale.xml", "subject01_static.trc"):
        shutil.copy(g / "scale" / name, lab / "P01" / name)
    (lab / "P01" / "notes.txt").write_text("left knee sore")
    (lab / "P02").mkdir()
    shutil.copy(g / "subject01_walk1.trc", lab / "P02" / "run.trc")
    shutil.copy(g / "subject01_walk1_grf.mot", lab / "P02" / "run_grf.mot")     # its ExternalLoads file is missing
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    assert "not matched: P01/notes.txt: no role found" in out
    assert "proposed: P02: no model file (.osim or .yaml) in it or at the top: each trial analysed alone" in out
    assert ("not matched: P02/run.trc: run_grf.mot is beside it, but no ExternalLoads file (<ExternalLoads>) names it "
            "(<datafile>): its loads are left out") in out
    assert ("not matched: P02: no trial records the subject's height (SUBJECT:HEIGHT or PROCESSING:Height; run.trc: "
            "TRC, which records none): height left for you to give (m)") in out
    study = load_study(lab / "study.yaml")
    subject, alone = study.subjects
    assert (alone.id, alone.model, alone.height, alone.mass, [t.id for t in alone.trials]) == (
        "P02", None, None, None, ["run"])
    assert (subject.id, subject.model.name, subject.scale_setup.name, subject.static.name) == (
        "P01", "gait2354_simbody.osim", "subject01_Setup_Scale.xml", "subject01_static.trc")
    (trial,) = subject.trials
    assert (trial.id, trial.grf.name, trial.external_loads.name) == (
        "2026-11-02_subject01_walk1", "subject01_walk1_grf.mot", "subject01_walk1_grf.xml")
    assert main(["study", "init", str(lab)]) == 2          # an existing study file is never overwritten


def test_study_init_gives_a_trial_whose_name_is_taken_that_reason_alone(test_data, tmp_path, capsys):
    # "walk 1.trc" and "walk_1.trc" are both named walk_1 in a study: the second is listed as such, and not also as a
    # static trial (it has no "static" in its name) not chosen
    g, lab = test_data / "opensim" / "gait2354", tmp_path / "lab"
    (lab / "P01").mkdir(parents=True)
    shutil.copy(g / "scale" / "gait2354_simbody.osim", lab / "P01" / "gait2354_simbody.osim")
    for name in ("walk 1.trc", "walk_1.trc"):
        shutil.copy(g / "subject01_walk1.trc", lab / "P01" / name)
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if "walk_1.trc" in line]
    assert listed == ["not matched: P01/walk_1.trc: a trial named 'walk_1' is already listed"]
    (subject,) = load_study(lab / "study.yaml").subjects
    assert [(t.id, t.file.name) for t in subject.trials] == [("walk_1", "walk 1.trc")]


def test_study_init_takes_each_model_less_subjects_height_and_mass_from_its_own_c3d_trials(test_data, tmp_path,
                                                                                          capsys):
    import ezc3d
    c3d, lab = test_data / "c3d", tmp_path / "lab"
    for subject, files in {"A": [("Sample01/Eb015pi.c3d", "walk.c3d"), ("Sample01/Eb015vr.c3d", "static1.c3d")],
                           "B": [("Sample28/dynamic.C3D", "gait.c3d")],
                           "C": [("Sample02/pc_real.c3d", "one.c3d"), ("Sample01/Eb015pi.c3d", "two.c3d")]}.items():
        (lab / subject).mkdir(parents=True)
        for source, name in files:
            shutil.copy(c3d / source, lab / subject / name)
    (lab / "D").mkdir()
    nexus = ezc3d.c3d(str(c3d / "Sample26" / "Capture0002.c3d"))
    nexus.add_parameter("PROCESSING", "Height", [1745.0])       # Vicon Nexus: mm
    nexus.add_parameter("PROCESSING", "Bodymass", [0.0])        # not filled in
    nexus.write(str(lab / "D" / "run.c3d"))
    shutil.copy(test_data / "opensim" / "gait2354" / "scale" / "subject01_Setup_Scale.xml", lab / "D" / "scale.xml")

    def written(name, parameter):
        return float(ezc3d.c3d(str(c3d / name))["parameters"]["SUBJECT"][parameter]["value"][0])

    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    study = load_study(lab / "study.yaml")
    a, b, c, d = study.subjects
    assert a.model is None and a.height == pytest.approx(written("Sample01/Eb015pi.c3d", "HEIGHT"), abs=5e-5)
    assert a.mass == pytest.approx(written("Sample01/Eb015pi.c3d", "WEIGHT"), abs=5e-3)
    (walk,) = a.trials
    assert walk.settings == {"static": lab / "A" / "static1.c3d"}
    argv = analyze_arguments(walk, None)
    assert argv[argv.index("--height") + 1] == "1.63" and argv[argv.index("--mass") + 1] == "82.7"
    assert "proposed: A: height 1.63 m, read from SUBJECT:HEIGHT 1.63 m in static1.c3d, walk.c3d" in out
    assert ("proposed: A: mass 82.7 kg, read from SUBJECT:WEIGHT 82.7, taken as kg (C3D gives no unit) in static1.c3d, "
            "walk.c3d") in out
    # BTS writes cm: 166 is 1.66 m, said
    assert (b.height, b.mass) == (pytest.approx(written("Sample28/dynamic.C3D", "Height") / 100, abs=5e-5),
                                  pytest.approx(written("Sample28/dynamic.C3D", "Weight"), abs=5e-3))
    assert "proposed: B: height 1.66 m, read from SUBJECT:Height 166 cm in gait.c3d" in out
    # two trials of one folder that disagree: left for the user, never one of them (nor B's, the subject before)
    assert (c.height, c.mass) == (None, None)
    assert ("not matched: C: its trials record different values of its height (one.c3d 1.78 m, two.c3d 1.63 m): "
            "height left for you to give (m)") in out
    # Nexus's PROCESSING:Height in mm; its Bodymass 0 (not filled in) is said, not taken; the setup has no model
    assert (d.height, d.mass) == (1.745, None)
    assert "proposed: D: height 1.745 m, read from PROCESSING:Height 1745 mm in run.c3d" in out
    assert ("not matched: D/run.c3d: the trial's PROCESSING:Bodymass 0 was not used as the subject's body mass: it is "
            "0 (not recorded)") in out
    assert ("not matched: D: no trial records the subject's body mass (SUBJECT:WEIGHT or PROCESSING:Bodymass): mass "
            "left for you to give (kg)") in out
    assert "not matched: D/scale.xml: a ScaleTool setup scales a model, and the subject has none: left out" in out


def test_study_init_proposes_no_height_or_mass_a_trial_of_the_subject_records_one_not_usable_for(test_data, tmp_path,
                                                                                                capsys):
    # H: a.c3d records SUBJECT:HEIGHT 16.3 (a typo? another subject's file?), b.c3d 1.63, run.trc cannot record one:
    # the height is left to the user, a.c3d's value listed; the mass both record (70) is proposed, run.trc named.
    # J: one.c3d records 1.63 m and 82.7 kg, none.c3d (Qualisys) records neither: J's values, none.c3d named.
    # K: 154 (lb) as SUBJECT:WEIGHT with SUBJECT:HEIGHT 1.6: a body mass index of 60.2: refused, the mass left.
    # L: the same 154 in walk.c3d, which records no height, and SUBJECT:HEIGHT 1.6 in static.c3d, which records no
    # mass: checked by the static's height, refused, the mass left.
    c3d, lab = test_data / "c3d", tmp_path / "lab"
    for subject in "HJKL":
        (lab / subject).mkdir(parents=True)

    def subject(path, height, weight):      # Qualisys's Capture0002 records neither: given a SUBJECT group
        subject_c3d(test_data, path, HEIGHT=height, WEIGHT=weight)

    subject(lab / "H" / "a.c3d", 16.3, 70.0)
    subject(lab / "H" / "b.c3d", 1.63, 70.0)
    shutil.copy(test_data / "opensim" / "gait2354" / "subject01_walk1.trc", lab / "H" / "run.trc")
    shutil.copy(c3d / "Sample01" / "Eb015pi.c3d", lab / "J" / "one.c3d")
    shutil.copy(c3d / "Sample26" / "Capture0002.c3d", lab / "J" / "none.c3d")
    subject(lab / "K" / "walk.c3d", 1.6, 154.0)
    subject(lab / "L" / "walk.c3d", None, 154.0)
    subject(lab / "L" / "static.c3d", 1.6, None)
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    h, j, k, l_ = load_study(lab / "study.yaml").subjects
    assert (h.height, h.mass) == (None, 70.0)
    assert ("not matched: H/a.c3d: the trial's SUBJECT:HEIGHT 16.3 was not used as the subject's stature: read as m, "
            "cm or mm it is not within 1-2.5 m") in out
    assert ("not matched: H: b.c3d records 1.63 m for its height, but a.c3d records one not usable (above), which may "
            "be another subject's file: height left for you to give (m)") in out
    assert ("proposed: H: mass 70 kg, read from SUBJECT:WEIGHT 70, taken as kg (C3D gives no unit) in a.c3d, b.c3d; run.trc (TRC) records none: this subject's value applies to it too") in out
    assert "H: height" not in out.replace("not matched: H: b.c3d", "")
    assert (j.height, j.mass) == (1.63, 82.7)
    assert ("proposed: J: height 1.63 m, read from SUBJECT:HEIGHT 1.63 m in one.c3d; none.c3d records none: this "
            "subject's value applies to it too") in out
    assert (k.height, k.mass) == (1.6, None)
    assert (f"not matched: K/walk.c3d: the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as "
            f"kg, with the trial's SUBJECT:HEIGHT 1.6 m (recorded with it) it gives a body mass index of "
            f"{154 / 1.6 ** 2:.1f} kg/m^2") in out
    assert ("not matched: K: no trial records the subject's body mass (SUBJECT:WEIGHT or PROCESSING:Bodymass; not "
            "usable in walk.c3d, above): mass left for you to give (kg)") in out
    assert (l_.height, l_.mass) == (1.6, None)
    assert (f"not matched: L/walk.c3d: the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as "
            f"kg, with static.c3d's SUBJECT:HEIGHT 1.6 m (the trial records none) it gives a body mass index of "
            f"{154 / 1.6 ** 2:.1f} kg/m^2") in out


def test_study_init_gives_a_scaled_model_the_mass_its_c3d_trials_record_unless_its_scale_setup_gives_one(
        test_data, tmp_path, capsys):
    # E: model, static C3D, trial C3D, no setup: the mass Sample01 records (SUBJECT:WEIGHT) is the scaled model's.
    # F: the same with a ScaleTool setup giving 72.6 kg: the setup's is used, the trials' other mass listed.
    # G: a model not scaled: analysed with its own mass, nothing proposed (a study refuses a mass there).
    import ezc3d
    c3d, g, lab = test_data / "c3d", test_data / "opensim" / "gait2354" / "scale", tmp_path / "lab"
    for subject in "EFG":
        (lab / subject).mkdir(parents=True)
        shutil.copy(g / "gait2354_simbody.osim", lab / subject / "model.osim")
        shutil.copy(c3d / "Sample01" / "Eb015pi.c3d", lab / subject / "walk.c3d")
    for subject in "EF":
        shutil.copy(c3d / "Sample01" / "Eb015vr.c3d", lab / subject / "static1.c3d")
    shutil.copy(g / "subject01_Setup_Scale.xml", lab / "F" / "scale.xml")
    weight = float(ezc3d.c3d(str(c3d / "Sample01" / "Eb015pi.c3d"))["parameters"]["SUBJECT"]["WEIGHT"]["value"][0])
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    e, f, g_ = load_study(lab / "study.yaml").subjects
    assert (e.scaled, e.mass, e.height) == (True, pytest.approx(weight, abs=5e-3), None)
    assert (f"proposed: E: mass {round(weight, 2):g} kg, read from SUBJECT:WEIGHT {weight:g}, taken as kg (C3D gives no "
            "unit) in static1.c3d, walk.c3d") in out
    assert (f.scaled, f.mass) == (True, None)
    assert (f"not matched: F: its ScaleTool setup scale.xml gives a mass of 72.6 kg, which scales its model; its trials "
            f"record another (static1.c3d SUBJECT:WEIGHT {weight:g}, taken as kg (C3D gives no unit), walk.c3d "
            f"SUBJECT:WEIGHT {weight:g}, taken as kg (C3D gives no unit)): the setup's is used") in out
    assert (g_.scaled, g_.mass) == (False, None) and "G:" not in out


def test_proposing_a_height_and_checking_a_mass_by_the_others_heights_agree_alike():
    """``hybrid study init``'s two uses of the trials' heights (the height proposed, ``_agreed``; the one a mass
    recorded without a usable height is checked by, ``_others_height``) share one rule: values within 0.1 mm agree
    (1.70004 and 1.70006 m, 0.02 mm apart, are one height, though rounding to 0.1 mm puts them apart), 0.5 mm apart
    differ, and a height refused in one file (17.8: no stature) leaves none agreed by either."""
    from types import SimpleNamespace

    from engine.trial.body_measures import recorded_height
    from study.propose import _agreed, _others_height as others_height

    def read(*heights):
        files = [(Path(f"t{i}.c3d"), SimpleNamespace(subject={"HEIGHT": h}, metadata={})) for i, h in enumerate(heights)]
        return [(path, parameters, recorded_height(parameters)) for path, parameters in files]

    def proposed(*heights):
        entry, proposed, unmatched = {}, [], []
        _agreed(entry, Path("s1"), "height", [(p, {"height": h}) for p, _, h in read(*heights)], proposed, unmatched,
                "nothing")
        return entry.get("height")

    mass_file = Path("mass.c3d")

    def _others_height(path, read):                # a mass file recording no height of its own: the height found
        return others_height(path, read, recorded_height(SimpleNamespace(subject={}, metadata={})))[0]

    assert round(1.70004, 4) != round(1.70006, 4)                 # rounding into 0.1 mm buckets splits them
    assert proposed(1.70004, 1.70006) == pytest.approx(1.7, abs=1e-12)
    assert _others_height(mass_file, read(1.70004, 1.70006))[0] == pytest.approx(1.70004, abs=1e-12)
    assert proposed(1.7, 1.7005) is None and _others_height(mass_file, read(1.7, 1.7005)) is None
    assert proposed(1.7, 17.8) is None and _others_height(mass_file, read(1.7, 17.8)) is None
    assert proposed(1.7, 1.7) == 1.7 and _others_height(mass_file, read(1.7, 1.7))[0] == 1.7


def test_study_init_recognises_each_xml_by_its_document_element_not_its_name(test_data, tmp_path, capsys):
    # P01: OpenSim's own Scale example folder (gait2354: its setup, the marker set the setup names, whose name holds
    # "Scale" too, the static trial, the model) and a walk. P02: a setup named without "scale", an IK setup, a
    # marker set no setup names.
    g, lab = test_data / "opensim" / "gait2354", tmp_path / "lab"
    for subject in ("P01", "P02"):
        (lab / subject).mkdir(parents=True)
        shutil.copy(g / "subject01_walk1.trc", lab / subject / "walk1.trc")
        for name in ("gait2354_simbody.osim", "subject01_static.trc", "gait2354_Scale_MarkerSet.xml"):
            shutil.copy(g / "scale" / name, lab / subject / name)
    shutil.copy(g / "scale" / "subject01_Setup_Scale.xml", lab / "P01" / "subject01_Setup_Scale.xml")
    setup = (g / "scale" / "subject01_Setup_Scale.xml").read_text()
    (lab / "P02" / "lab_settings.xml").write_text(setup.replace("gait2354_Scale_MarkerSet.xml", ""))
    shutil.copy(g / "subject01_Setup_IK.xml", lab / "P02" / "ik.xml")
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    p01, p02 = load_study(lab / "study.yaml").subjects
    assert (p01.model.name, p01.scale_setup.name, p01.static.name) == (
        "gait2354_simbody.osim", "subject01_Setup_Scale.xml", "subject01_static.trc")
    assert "proposed: P01: its ScaleTool setup is P01/subject01_Setup_Scale.xml (its document element <ScaleTool>)" in out
    assert ("proposed: P01: P01/gait2354_Scale_MarkerSet.xml is the marker set (<MarkerSet>) its ScaleTool setup "
            "subject01_Setup_Scale.xml names, read through it") in out
    assert "P01/gait2354_Scale_MarkerSet.xml: no role" not in out and "candidate" not in out
    assert p02.scale_setup.name == "lab_settings.xml"
    assert ("not matched: P02/gait2354_Scale_MarkerSet.xml: a marker set (<MarkerSet>) that no chosen ScaleTool setup "
            "names") in out
    assert "P02/ik.xml: no role" not in out
    assert p02.trials[0].settings["ik_setup"] == lab / "P02" / "ik.xml"


def test_study_init_proposes_an_ik_setup_for_the_trials_below_it_and_a_trials_external_loads_by_their_contents(
        test_data, tmp_path, capsys):
    # P01: an IK setup (named ik.xml) at the subject's top applies to its two sessions' trials; a session's
    # ExternalLoads file, named for nothing, whose <datafile> names walk1_forces.mot: walk1.trc's loads.
    # P02: one IK setup per session: each session's trials take their own; a third session with two: none chosen.
    g, lab = test_data / "opensim" / "gait2354", tmp_path / "lab"
    loads = (g / "subject01_walk1_grf.xml").read_text()
    for session in ("P01/s1", "P01/s2", "P02/s1", "P02/s2", "P02/s3"):
        (lab / session).mkdir(parents=True)
        shutil.copy(g / "subject01_walk1.trc", lab / session / "walk1.trc")
    shutil.copy(g / "subject01_Setup_IK.xml", lab / "P01" / "ik.xml")
    (lab / "P01" / "s1" / "plates.xml").write_text(loads.replace("subject01_walk1_grf.mot", "walk1_forces.mot"))
    shutil.copy(g / "subject01_walk1_grf.mot", lab / "P01" / "s1" / "walk1_forces.mot")
    setup = (g / "subject01_Setup_IK.xml").read_text()
    for session, names in (("s1", ["a.xml"]), ("s2", ["b.xml"]), ("s3", ["c.xml", "d.xml"])):
        for name in names:
            (lab / "P02" / session / name).write_text(setup.replace("0.4 1.6", "0.5 1.5"))
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    p01, p02 = load_study(lab / "study.yaml").subjects
    for trial in p01.trials:
        assert trial.settings == {"ik_setup": lab / "P01" / "ik.xml"}
        assert analyze_arguments(trial, p01.model)[-2:] == ["--ik-setup", str(lab / "P01" / "ik.xml")]
    assert ("proposed: P01: ik_setup P01/ik.xml (its document element <InverseKinematicsTool>) for its trials; its "
            "<time_range> 0.4-1.6 s applies to each") in out
    s1, s2 = p01.trials
    assert (s1.grf, s1.external_loads) == (lab / "P01" / "s1" / "walk1_forces.mot", lab / "P01" / "s1" / "plates.xml")
    assert (s2.grf, s2.external_loads) == (None, None)
    assert [t.settings.get("ik_setup") for t in p02.trials] == [lab / "P02" / "s1" / "a.xml",
                                                                lab / "P02" / "s2" / "b.xml", None]
    assert ("not matched: P02/s3/walk1.trc: 2 IK setups (<InverseKinematicsTool>) apply to it (P02/s3/c.xml, "
            "P02/s3/d.xml), in its folder or above it: none chosen") in out
    assert "not matched: P02/s3/c.xml: an IK setup (<InverseKinematicsTool>) not chosen" in out
    assert "no role" not in out


def test_a_failed_scaling_names_the_model_the_static_trial_and_the_setup(test_data, tmp_path):
    # gait2354's generic model has no markers of its own (its setup's marker set gives them): scaled without the
    # setup, no model marker is in the static trial, which the engine's error alone does not say of which files
    from study.description import SubjectSpec
    from study.fingerprint import code_digest
    from study.tasks import scale_subject
    g = test_data / "opensim" / "gait2354" / "scale"
    outcome = scale_subject(SubjectSpec("P01", g / "gait2354_simbody.osim", None, g / "subject01_static.trc", None, ()),
                            tmp_path / "P01", "fingerprint", code_digest())
    assert outcome["status"] == "failed"
    assert (f"scaling the model {g / 'gait2354_simbody.osim'} on the static trial {g / 'subject01_static.trc'} failed: "
            "no model marker is found in the trial") in outcome["error"]
    assert not (tmp_path / "P01").exists()


def test_a_yaml_file_is_a_model_only_when_its_header_says_so(test_data, tmp_path, capsys):
    # A second `study init` must not take the first one's study.yaml for the shared model; a subject's own .yaml
    # model (format hybridlab-model) is one; a YAML of another format is listed, not taken.
    lab, g = tmp_path / "lab", test_data / "opensim" / "gait2354"
    for subject in ("P01", "P02"):
        (lab / subject).mkdir(parents=True)
        shutil.copy(g / "subject01_walk1.trc", lab / subject / "walk.trc")
    shutil.copy(Path(__file__).resolve().parents[2] / "resources" / "athlete.yaml", lab / "P02" / "athlete.yaml")
    (lab / "P02" / "notes.yaml").write_text("format: lab-notes\nknee: sore\n")
    assert main(["study", "init", str(lab)]) == 0
    capsys.readouterr()
    assert main(["study", "init", str(lab), "--out", str(lab / "study2.yaml")]) == 0
    out = capsys.readouterr().out
    assert "not matched: study.yaml: a study file (format hybridlab-study), not a model: skipped" in out
    assert ("not matched: P02/notes.yaml: not taken for a model: its format is 'lab-notes', not 'hybridlab-model'"
            in out)
    p01, p02 = load_study(lab / "study2.yaml").subjects
    assert (p01.model, p02.model.name) == (None, "athlete.yaml")


def test_a_study_refuses_a_model_that_is_not_a_model_file(test_data, tmp_path):
    lab = tmp_path / "lab"
    lab.mkdir()
    first = _write(lab, _study(test_data))
    second = lab / "second.yaml"
    second.write_text(first.read_text().replace(f"model: {test_data / G10 / 'subject01.osim'}", "model: study.yaml"))
    with pytest.raises(SettingsError) as err:
        load_study(second)
    assert (err.value.file, err.value.element) == (str(second.resolve()), "subject 's1'")
    assert err.value.problem == ("model names 'study.yaml', a file of the format 'hybridlab-study' (a study file), not "
                                 "a model (format 'hybridlab-model', or an OpenSim .osim)")
    second.write_text(first.read_text().replace(f"model: {test_data / G10 / 'subject01.osim'}",
                                                f"model: {test_data / G10 / 'subject01_walk.trc'}"))
    with pytest.raises(SettingsError, match=r"which is not a model file \(.osim, or .yaml with 'format: "):
        load_study(second)


def test_the_settings_are_every_option_of_hybrid_analyze_that_changes_the_analysis(test_data, tmp_path):
    # OpenSim's static optimisation of gait10dof18musc with its reserve actuators, as hybrid analyze runs it: each
    # setting reaches hybrid analyze's own parser as the option it is
    from engine.cli.analyze import parse_arguments
    from study.description import NOT_SETTINGS, OPTIONS
    d = test_data / G10
    study = load_study(_write(tmp_path, _study(
        test_data, settings=f"{{muscles: true, actuators: [{d / 'gait10dof_Reserve_Actuators.xml'}], objective: "
                            "opensim, activation_exponent: 2, no_muscle_physiology: true}")))
    args = parse_arguments(analyze_arguments(study.trials[0], "m.osim"))
    assert (args.muscles, args.actuators, args.objective, args.activation_exponent, args.no_muscle_physiology) == (
        True, [str(d / "gait10dof_Reserve_Actuators.xml")], "opensim", 2.0, True)
    # every option of hybrid analyze is a setting or given elsewhere in a study, and the settings are documented
    import argparse

    from engine.cli.analyze import add_parser
    commands = argparse.ArgumentParser().add_subparsers()
    add_parser(commands)
    dests = {a.dest for a in commands.choices["analyze"]._actions}
    assert set(NOT_SETTINGS) <= dests and not set(NOT_SETTINGS) & set(OPTIONS)
    assert {"actuators", "objective", "activation_exponent", "no_muscle_physiology"} <= set(OPTIONS)
    # an option read as free text is a choice made here, not a default: a new option naming a file must say so
    assert [k for k, (kind, _, _) in OPTIONS.items() if kind == "text"] == ["axes"]
    assert {k for k, (kind, _, _) in OPTIONS.items() if kind == "file"} == {"ik_setup", "contacts", "static", "emg"}
    docs = (Path(__file__).resolve().parents[2] / "docs" / "batch.md").read_text()
    assert [k for k in OPTIONS if f"`{k}`" not in docs] == []


@pytest.mark.parametrize("spelled", [dict(type=int), dict(action="store_false"), dict(action="count"),
                                     dict(nargs="+"), dict(type=float, nargs=2), dict(action="append"),
                                     dict(action="append", type=float), dict(action="store_const", const="x"),
                                     dict(type=float, choices=(1.0, 2.0)), dict(metavar="FILE", nargs="?")])
def test_an_option_of_hybrid_analyze_of_no_known_kind_is_refused_naming_it(spelled):
    # each would have been read as free text (an int, a store_false read as a string ...)
    import argparse

    from study.description import _kind
    action = argparse.ArgumentParser().add_argument("--new-option", **spelled)
    with pytest.raises(TypeError, match="hybrid analyze's option --new-option .* is of no kind a study setting"):
        _kind(action)


def test_every_settings_kind_is_one_the_study_reads_and_spells():
    from study.description import OPTIONS
    handled = {"flag", "number", "choice", "file", "files", "names", "pairs", "text"}   # _setting, analyze_arguments
    assert {kind for kind, _, _ in OPTIONS.values()} <= handled


def test_a_setting_refused_names_each_known_setting_once(test_data, tmp_path):
    from study.description import OPTIONS
    path = _write(tmp_path, _study(test_data, settings="{start: 0.5, end: 0.9, zzzz: 1}"))
    with pytest.raises(SettingsError) as err:
        load_study(path)
    expected = err.value.problem.split("expected: ")[1].rstrip(")").split(", ")
    assert sorted(expected) == sorted(OPTIONS)
    path = _write(tmp_path, _study(test_data, settings="{objective: fast}"))
    with pytest.raises(SettingsError, match="objective must be one of seed, opensim; got 'fast'"):
        load_study(path)


def test_an_actuator_files_contents_are_part_of_a_trials_fingerprint(test_data, tmp_path):
    from study.fingerprint import trial_fingerprint
    actuators = tmp_path / "reserves.xml"
    shutil.copy(test_data / G10 / "gait10dof_Reserve_Actuators.xml", actuators)
    path = _write(tmp_path, _study(test_data, settings="{muscles: true, actuators: reserves.xml}"))
    before = trial_fingerprint(load_study(path).trials[0], "subject")
    actuators.write_text(actuators.read_text().replace("<optimal_force>", "<optimal_force> 2"))
    assert trial_fingerprint(load_study(path).trials[0], "subject") != before


def test_a_study_reports_all_its_errors_at_once_each_with_its_element(test_data, tmp_path):
    # a 500-trial study must not be fixed one error per run
    d = test_data / G10
    text = (f"settings: {{filter: fast, stat: 1}}\nsubjects:\n"
            f"  - id: s1\n    model: {d / 'subject01.osim'}\n    mass: 720\n    trials:\n"
            f"      - id: walk\n        file: {d / 'subject01_walk.trc'}\n"
            f"      - id: walk\n        file: y.trc\n        settings: {{end: -1, start: 0}}\n"
            f"  - id: s 2\n    trials:\n      - id: run\n        file: {d / 'subject01_walk.trc'}\n"
            f"  - id: s3\n    trials: []\n")
    path = _write(tmp_path, text)
    with pytest.raises(SettingsError) as err:
        load_study(path)
    assert (err.value.file, err.value.element) == (str(path.resolve()), None)
    lines = err.value.problem.splitlines()
    assert lines[0] == "has 8 errors:"
    expected = [("top level, settings", "filter must be a number"),
                ("top level, settings", "unknown field 'stat' (did you mean 'start'?)"),
                ("subject 's1'", "mass must be the subject's body mass in kilograms"),
                ("subject 's1', trial 'walk'", "is given twice"),
                ("subject 's1', trial 'walk'", "file names 'y.trc', which does not exist"),
                ("subject 's1', trial 'walk', settings", "end (-1.0 s) must come after start (0.0 s)"),
                ("subject 2", "must be letters, digits"),
                ("subject 's3'", "has no trial")]
    for line, (element, problem) in zip(lines[1:], expected):
        assert line.startswith(f"  {element}: ") and problem in line, (line, element, problem)


def test_study_init_reads_the_demos_height_and_mass_written_with_their_units(tmp_path, capsys):
    lab = tmp_path / "lab"
    (lab / "demo").mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parents[2] / "resources" / "demo" / "run.c3d", lab / "demo" / "run.c3d")
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    (subject,) = load_study(lab / "study.yaml").subjects
    assert (subject.height, subject.mass) == (1.75, 70.0)
    assert "proposed: demo: height 1.75 m, read from SUBJECT:HEIGHT 1.75 m in run.c3d" in out
    assert "not a number" not in out


def test_study_init_scales_each_visit_on_its_own_static_trial_and_never_leaves_a_model_unscaled_silently(
        test_data, tmp_path, capsys):
    # P01: two visits, each with its own static trial (markers are placed anew at each visit), the setup and its
    # marker set at the subject's top, shared; a trial outside the visits. P02: two static trials in one folder.
    g, lab = test_data / "opensim" / "gait2354", tmp_path / "lab"
    lab.mkdir()
    shutil.copy(g / "scale" / "gait2354_simbody.osim", lab / "gait2354_simbody.osim")
    for visit in ("visit1", "visit2"):
        (lab / "P01" / visit).mkdir(parents=True)
        shutil.copy(g / "scale" / "subject01_static.trc", lab / "P01" / visit / "static.trc")
        shutil.copy(g / "subject01_walk1.trc", lab / "P01" / visit / "walk1.trc")
    for name in ("subject01_Setup_Scale.xml", "gait2354_Scale_MarkerSet.xml"):
        shutil.copy(g / "scale" / name, lab / "P01" / name)
    shutil.copy(g / "subject01_walk1.trc", lab / "P01" / "extra.trc")
    (lab / "P01" / "notes.txt").write_text("left knee sore")
    (lab / "P02").mkdir()
    for name in ("static_a.trc", "static_b.trc"):
        shutil.copy(g / "scale" / "subject01_static.trc", lab / "P02" / name)
    shutil.copy(g / "subject01_walk1.trc", lab / "P02" / "walk.trc")
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    v1, v2, p02 = load_study(lab / "study.yaml").subjects
    for subject, visit in ((v1, "visit1"), (v2, "visit2")):
        assert subject.id == f"P01_{visit}"
        assert (subject.static, subject.scale_setup) == (lab / "P01" / visit / "static.trc",
                                                         lab / "P01" / "subject01_Setup_Scale.xml")
        assert [(t.id, t.file) for t in subject.trials] == [("walk1", lab / "P01" / visit / "walk1.trc")]
    assert ("not matched: P01/extra.trc: in no session folder with its own static trial (P01/visit1, P01/visit2): "
            "left out") in out
    assert out.count("P01/notes.txt: no role found") == 1
    for visit in ("visit1", "visit2"):
        assert (f"proposed: P01/{visit}: P01/gait2354_Scale_MarkerSet.xml is the marker set (<MarkerSet>) its "
                "ScaleTool setup subject01_Setup_Scale.xml names") in out
    assert "not matched: P01/gait2354_Scale_MarkerSet.xml" not in out
    # P02: its model is proposed as given, and both the listing and the study file say so, naming the files
    assert (p02.model, p02.static, p02.scaled) == (lab / "gait2354_simbody.osim", None, False)
    said = ("P02: no static trial chosen among P02/static_a.trc, P02/static_b.trc: its model gait2354_simbody.osim is "
            "analysed unscaled, as given")
    assert f"not matched: {said}" in out
    lines = (lab / "study.yaml").read_text().splitlines()
    assert lines[lines.index("- id: P02") - 1].startswith(f"# {said}")


def test_a_study_refuses_a_scale_setup_that_is_no_scaletool_setup(test_data, tmp_path):
    g = test_data / "opensim" / "gait2354" / "scale"
    text = (f"subjects:\n  - id: s1\n    model: {g / 'gait2354_simbody.osim'}\n"
            f"    scale_setup: {g / 'gait2354_Scale_MarkerSet.xml'}\n"
            f"    trials:\n      - id: walk\n        file: {g / 'subject01_static.trc'}\n")
    path = _write(tmp_path, text)
    with pytest.raises(SettingsError) as err:
        load_study(path)
    assert (err.value.element, err.value.problem) == ("subject 's1'", (
        f"scale_setup names '{g / 'gait2354_Scale_MarkerSet.xml'}', whose document element is <MarkerSet>, not "
        "<ScaleTool> (an OpenSim ScaleTool setup)"))
    assert load_study(_write(tmp_path, text.replace("gait2354_Scale_MarkerSet.xml", "subject01_Setup_Scale.xml"))
                      ).subjects[0].scale_setup == g / "subject01_Setup_Scale.xml"


def test_study_init_says_a_mass_no_height_checked_was_proposed_unchecked_and_why(test_data, tmp_path, capsys):
    # M: a.c3d and b.c3d record 70 kg with their own heights, 1.63 and 1.78 m (a BMI of 26.3 and 22.1 each); c.c3d
    # records 70 kg and no height, and the others' disagree: its mass is checked by none, which the listing says.
    # N: one file, 70 kg, no height: nothing to check it by either.
    lab = tmp_path / "lab"

    def subject(path, height, weight):      # Qualisys's Capture0002 records neither: given a SUBJECT group
        subject_c3d(test_data, path, HEIGHT=height, WEIGHT=weight)

    subject(lab / "M" / "a.c3d", 1.63, 70.0)
    subject(lab / "M" / "b.c3d", 1.78, 70.0)
    subject(lab / "M" / "c.c3d", None, 70.0)
    subject(lab / "N" / "walk.c3d", None, 70.0)
    assert main(["study", "init", str(lab)]) == 0
    out = capsys.readouterr().out
    m, n = load_study(lab / "study.yaml").subjects
    assert (m.height, m.mass, n.height, n.mass) == (None, 70.0, None, 70.0)
    assert ("proposed: M: mass 70 kg, read from SUBJECT:WEIGHT 70, taken as kg (C3D gives no unit) in a.c3d, b.c3d, "
            "c.c3d; c.c3d's was not checked by a body mass index: it records no height, and the heights the "
            "subject's other files record differ (a.c3d 1.63 m, b.c3d 1.78 m)\n") in out
    assert ("proposed: N: mass 70 kg, read from SUBJECT:WEIGHT 70, taken as kg (C3D gives no unit) in walk.c3d; "
            "walk.c3d's was not checked by a body mass index: it records no height, nor does another file of the "
            "subject record a usable one\n") in out
