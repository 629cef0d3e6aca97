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
    ("    mass: -3\n", "", "{}", "subject 's1'", "mass must be positive"),
    ("    height: 180\n", "", "{}", "subject 's1'",
     "height must be the subject's height in metres, between 1 and 2.5; got 180"),
    ("    height: 1.8 m\n", "", "{}", "subject 's1'", "height must be a number"),
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


def test_a_subject_without_model_has_its_trials_analysed_alone_with_its_height(test_data, tmp_path):
    d = test_data / G10
    text = (f"subjects:\n  - id: s1\n    height: 1.72\n    trials:\n      - id: walk\n"
            f"        file: {d / 'subject01_walk.trc'}\n")
    study = load_study(_write(tmp_path, text))
    (subject,) = study.subjects
    assert (subject.model, subject.height, subject.scaled) == (None, 1.72, False)
    assert analyze_arguments(study.trials[0], None) == [str(d / "subject01_walk.trc"), "--height", "1.72"]
    path = _write(tmp_path, text.replace("height: 1.72", "mass: 70"))
    with pytest.raises(SettingsError) as err:
        load_study(path)
    assert (err.value.file, err.value.element) == (str(path.resolve()), "subject 's1'")
    assert err.value.problem.startswith("mass given without a model: they scale the subject's model")


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
    assert "not matched: P02: no model file" in out
    study = load_study(lab / "study.yaml")
    (subject,) = study.subjects
    assert (subject.id, subject.model.name, subject.scale_setup.name, subject.static.name) == (
        "P01", "gait2354_simbody.osim", "subject01_Setup_Scale.xml", "subject01_static.trc")
    (trial,) = subject.trials
    assert (trial.id, trial.grf.name, trial.external_loads.name) == (
        "2026-11-02_subject01_walk1", "subject01_walk1_grf.mot", "subject01_walk1_grf.xml")
    assert main(["study", "init", str(lab)]) == 2          # an existing study file is never overwritten
