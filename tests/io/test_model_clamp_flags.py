"""A model file written before IK followed the coordinates' ``clamped`` flags (when every range bounded IK) gives no
flag: loading it keeps which joints' coordinates IK now leaves free (``metadata["unflagged_clamps"]``, data, not the
words of a note), said in the file's name with how to say otherwise wherever the model's notes are shown (``hybrid
info``, the analysis's notes)."""
import json
import re

from engine.cli.main import main
from engine.io.model_file import load_model, save_model
from engine.io.open import open_model
from engine.model.import_notes import import_notes

OLD_MODEL = """\
format: hybridlab-model
version: 1
units: {length: m, mass: kg, angle: deg, modulus: Pa, density: kg/m^3}
name: old
bodies:
  - {name: thigh, mass: 9.0, inertia: [0.1, 0.03, 0.1, 0, 0, 0]}
  - {name: shank, mass: 3.5, com: [0, -0.2, 0], inertia: [0.05, 0.005, 0.05, 0, 0, 0]}
  - {name: foot, mass: 1.0, inertia: [0.002, 0.002, 0.002, 0, 0, 0]}
  - {name: toes, mass: 0.1, inertia: [1e-5, 1e-5, 1e-5, 0, 0, 0]}
joints:
  - {name: hip, type: free, parent: ground, child: thigh}
  - name: knee
    type: revolute
    parent: thigh
    child: shank
    parent_offset: {translation: [0, -0.4, 0]}
    coordinates: [{name: knee_angle, range: [-120, 5]}]
  - name: ankle
    type: universal
    parent: shank
    child: foot
    parent_offset: {translation: [0, -0.4, 0]}
    coordinates:
      - {name: ankle_angle, range: [-40, 30], clamped: true}
      - {name: subtalar_angle, range: [-20, .inf]}
  - name: mtp
    type: universal
    parent: foot
    child: toes
    parent_offset: {translation: [0.15, -0.05, 0]}
    coordinates:
      - {name: mtp_angle, range: [-30, 30], locked: true}
      - {name: mtp_twist}
"""


def _old_file(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(OLD_MODEL)
    return path


def test_loading_names_the_file_and_the_coordinates_ik_now_leaves_free(tmp_path):
    path = _old_file(tmp_path)
    model = load_model(path)
    assert model.metadata == {"unflagged_clamps": {"file": str(path), "joints": {"knee": ["knee_angle"],
                                                                               "ankle": ["subtalar_angle"]}}}
    notes = import_notes(model)
    assert len(notes) == 1
    note = notes[0]
    assert note.startswith(f"{path}:")
    assert "knee (knee_angle)" in note and "ankle (subtalar_angle)" in note
    assert "ankle_angle" not in note        # its flag is given
    assert "mtp" not in note                # locked, or without a range: the flag changes nothing
    assert "clamped: true" in note and "clamped: false" in note
    # the behaviour is the flag's: said, not changed
    slots = {c.name: c.clamped for j in model.joints for c in j.coordinates}
    assert slots == {"knee_angle": False, "ankle_angle": True, "subtalar_angle": False, "mtp_angle": False,
                     "mtp_twist": False}


def test_hybrid_info_prints_the_note(tmp_path, capsys):
    path = _old_file(tmp_path)
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "import warnings (1)" in out and "knee (knee_angle)" in out


def test_a_file_giving_the_flags_loads_without_a_note(tmp_path):
    path = tmp_path / "flagged.yaml"
    path.write_text(OLD_MODEL.replace("range: [-120, 5]}", "range: [-120, 5], clamped: false}")
                    .replace("range: [-20, .inf]}", "range: [-20, .inf], clamped: true}"))
    model = load_model(path)
    assert "unflagged_clamps" not in model.metadata and import_notes(model) == []


def test_saving_writes_the_flags_that_matter_so_the_saved_file_has_no_note(tmp_path):
    model = load_model(_old_file(tmp_path))
    bare = model.replace(metadata={})
    saved = tmp_path / "saved.yaml"
    save_model(bare, saved)
    text = saved.read_text()
    assert text.count("clamped: false") == 2 and text.count("clamped: true") == 1   # knee, subtalar; ankle
    again = load_model(saved)
    assert import_notes(again) == [] and again == bare


def test_a_flagless_model_saved_and_loaded_again_has_no_note(tmp_path):
    """The note names the file read; the file written gives every flag, and carries no note of the old file."""
    model = load_model(_old_file(tmp_path))
    assert import_notes(model)
    saved = tmp_path / "saved.yaml"
    save_model(model, saved)
    assert "old.yaml" not in saved.read_text() and "unflagged" not in saved.read_text()
    again = load_model(saved)
    assert import_notes(again) == [] and again == model.replace(metadata={})


def test_saving_keeps_the_other_import_warnings(tmp_path):
    """What an .osim held that the model lacks stays true of the model saved; only the flags' note goes."""
    model = load_model(_old_file(tmp_path))
    imported = model.replace(metadata={**model.metadata, "import_warnings": ["controller 'c' is not imported"],
                                       "source": "old.osim"})
    assert len(import_notes(imported)) == 2
    saved = tmp_path / "saved.yaml"
    save_model(imported, saved)
    assert load_model(saved).metadata == {"import_warnings": ["controller 'c' is not imported"], "source": "old.osim"}


def test_hybrid_analyze_puts_what_reading_the_model_said_in_the_analysis_notes(test_data, tmp_path):
    """The note changes what IK does, so it is one of the analysis's notes (metrics.json; the .hlr, the report and a
    batch's study table read them), not only a line printed on the console (lost in a batch's worker)."""
    d = test_data / "opensim" / "gait2354"
    flagged = tmp_path / "flagged.yaml"
    save_model(open_model(d / "subject01_simbody.osim"), flagged)
    flagless = tmp_path / "flagless.yaml"
    flagless.write_text(re.sub(r",? ?clamped: (true|false)", "", flagged.read_text()))
    expected = import_notes(load_model(flagless))
    assert any("knee_angle_r" in n and "no 'clamped' flag" in n for n in expected)
    assert main(["analyze", str(flagless), str(d / "subject01_walk1.trc"), "--end", "0.6", "--out",
                 str(tmp_path / "out"), "--quiet"]) == 0
    notes = json.loads((tmp_path / "out" / "metrics.json").read_text())["notes"]
    assert [n for n in notes if n.startswith("model: ")] == [f"model: {n}" for n in expected]


def test_analysis_steps_itself_puts_what_reading_the_model_said_first_in_the_notes(test_data, tmp_path):
    """The application and an OpenSim setup call ``analysis_steps`` without the command line's inputs: the notes of
    reading the model file come from the analysis itself, once, ahead of the IK settings' own."""
    from engine.analysis.ik import IKSettings
    from engine.analysis.pipeline import AnalysisSettings, analysis_steps
    from engine.progress import run
    from engine.io.open_trial import open_trial
    d = test_data / "opensim" / "gait2354"
    flagged = tmp_path / "flagged.yaml"
    save_model(open_model(d / "subject01_simbody.osim"), flagged)
    flagless = tmp_path / "flagless.yaml"
    flagless.write_text(re.sub(r",? ?clamped: (true|false)", "", flagged.read_text()))
    model = load_model(flagless)
    expected = [f"model: {n}" for n in import_notes(model)]
    assert expected
    settings = AnalysisSettings(ik=IKSettings(end=0.6, notes=("the settings' own",)))
    result = run(analysis_steps(model, open_trial(d / "subject01_walk1.trc"), settings))
    assert result.notes[:len(expected) + 1] == expected + ["the settings' own"]
    assert sum(n.startswith("model: ") for n in result.notes) == len(expected)
