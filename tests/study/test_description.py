"""study.yaml is read with every field checked (errors name the file and the element), and `hybrid study init`
proposes a valid study from a lab's folder, listing what it could not match."""
import shutil
from pathlib import Path

import pytest

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
    ("", "      - id: walk\n        file: y.trc\n", "{}", "subject 's1', trial 'walk'", "is given twice"),
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
    import ezc3d

    from engine.cli.analyze import analysis_inputs, parse_arguments
    from engine.demo.athlete import MASS

    def copy(name, subject):
        c3d = ezc3d.c3d(str(test_data / "c3d" / "Sample26" / "Capture0002.c3d"))
        for key, value in subject.items():
            c3d.add_parameter("SUBJECT", key, [value])
        c3d.write(str(tmp_path / name))
        return tmp_path / name

    trial, static = copy("typo.c3d", {"HEIGHT": 17.8, "WEIGHT": 120.0}), copy("static.c3d", {"HEIGHT": 1.8})
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
    assert "not matched: P02/run.trc: only one of run_grf.mot and run_grf.xml exists" in out
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
    import ezc3d
    c3d, lab = test_data / "c3d", tmp_path / "lab"
    for subject in "HJKL":
        (lab / subject).mkdir(parents=True)

    def subject(path, height, weight):      # Qualisys's Capture0002 records neither: given a SUBJECT group
        written = ezc3d.c3d(str(c3d / "Sample26" / "Capture0002.c3d"))
        for name, value in (("HEIGHT", height), ("WEIGHT", weight)):
            if value is not None:
                written.add_parameter("SUBJECT", name, [value])
        written.write(str(path))

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

    def _others_height(path, read):                # a mass file recording no height of its own
        return others_height(path, read, recorded_height(SimpleNamespace(subject={}, metadata={})))

    assert round(1.70004, 4) != round(1.70006, 4)                 # rounding into 0.1 mm buckets splits them
    assert proposed(1.70004, 1.70006) == pytest.approx(1.7, abs=1e-12)
    assert _others_height(mass_file, read(1.70004, 1.70006))[0] == pytest.approx(1.70004, abs=1e-12)
    assert proposed(1.7, 1.7005) is None and _others_height(mass_file, read(1.7, 1.7005)) is None
    assert proposed(1.7, 17.8) is None and _others_height(mass_file, read(1.7, 17.8)) is None
    assert proposed(1.7, 1.7) == 1.7 and _others_height(mass_file, read(1.7, 1.7))[0] == 1.7
