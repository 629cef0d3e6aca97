"""The user's edits of a matching: a label given another marker or cleared, every label kept in the table with its
status; a label the trial does not have, a marker the protocol does not have, one marker for two labels: clear
errors naming the label. The trial's labels read with a subject prefix give the same table."""
from dataclasses import replace
from pathlib import Path

import pytest

from engine.demo.for_trial import default_model, model_for_trial, trial_matching
from engine.errors import DataError
from engine.io.c3d import read_c3d
from engine.protocols.edits import ALIAS, ALTERNATIVE, EDITED, GEOMETRY, NAME, REJECTED, UNMATCHED
from engine.trial.trial import Markers

C3D = Path(__file__).parents[1] / "data" / "c3d"


@pytest.fixture(scope="module")
def capture():
    trial = read_c3d(C3D / "Sample26" / "Capture0002.c3d")
    return trial, default_model(trial)[0]


def test_the_table_lists_every_label_with_its_status(capture):
    trial, model = capture
    table = trial_matching(trial, model)
    rows = {r.label: r for r in table.rows}
    assert list(rows) == list(trial.markers.names)
    assert rows["r_asis"].status == NAME and rows["r_asis"].marker == "RASIS"
    assert rows["r_asis"].landmark == "asis" and rows["r_asis"].body == "pelvis"
    assert rows["l_ankle"].status == ALIAS and rows["l_ankle"].body == "tibia_l"
    assert {"RTOE", "LTOE", "SACRUM"} <= set(table.options)
    # a Vicon subject prefix: the same table
    prefixed = replace(trial, markers=Markers(tuple(f"Subject:{n}" for n in trial.markers.names), trial.markers.time,
                                              trial.markers.positions, trial.markers.rate))
    again = trial_matching(prefixed, model)
    assert [(r.marker, r.status) for r in again.rows] == [(r.marker, r.status) for r in table.rows]


def test_edits_change_the_matching_and_the_fitted_model(capture):
    trial, model = capture
    table = trial_matching(trial, model, {"r_toe": None, "l_heel": "LTOE", "l_toe": None})
    rows = {r.label: r for r in table.rows}
    assert rows["r_toe"].status == EDITED and rows["r_toe"].marker is None
    assert rows["l_heel"].marker == "LTOE" and rows["l_heel"].body == "calcn_l"
    assert "r_toe" not in table.matching.labels and dict(table.matching.unmatched)["r_toe"] == "cleared by the user"
    made = model_for_trial(trial, edits={"r_toe": None})
    assert "RTOE" not in [m.name for m in made.model.markers]
    assert any("edited by the user: r_toe=none" in n for n in made.notes)
    assert "r_toe" in made.trial.markers.names            # kept in the trial, unmatched, never dropped


def test_wrong_edits_are_refused_naming_the_label(capture):
    trial, model = capture
    for edits, words in (({"nose": "RTOE"}, "no marker labelled 'nose'"),
                         ({"r_toe": "RNOSE"}, "no marker 'RNOSE'"),
                         ({"l_heel": "LTOE"}, "LTOE is given to 2 labels")):
        with pytest.raises(DataError, match=words):
            trial_matching(trial, model, edits)


def test_labels_left_out_are_listed_unmatched_or_rejected(capture):
    trial, model = capture
    names = list(trial.markers.names)
    positions = trial.markers.positions.copy()
    positions[:, names.index("l_toe")] = positions[:, names.index("r_shoulder")]     # far from the left foot
    names[names.index("th12")] = "camera_wand"
    moved = replace(trial, markers=Markers(tuple(names), trial.markers.time, positions, trial.markers.rate))
    rows = {r.label: r for r in trial_matching(moved, model).rows}
    assert rows["l_toe"].status == REJECTED and rows["l_toe"].marker is None and "do not fit" in rows["l_toe"].why
    assert rows["camera_wand"].status == UNMATCHED and rows["camera_wand"].marker is None


def test_each_row_says_how_its_label_was_matched():
    # by its marker's name, by an alias, by geometry (a lab's computed point inside the limb: BTS's knee and ankle
    # centres RKNE/RANK beside the markers RKNE1/RMALL), on an alternative's landmark (Codamotion's toe on the
    # midfoot); never 'alias' for the last two, which no alias names
    bts = read_c3d(C3D / "Sample28" / "type1.C3D")
    rows = {r.label: r for r in trial_matching(bts, default_model(bts)[0]).rows}
    assert rows["RMET"].status == NAME and rows["RTHI"].status == ALIAS and rows["RHIP"].status == ALIAS
    for label, marker in (("RKNE", "RKJC"), ("LANK", "LAJC"), ("LMET1", "LTOE")):
        assert rows[label].status == GEOMETRY and rows[label].marker == marker and "inside the limb" in rows[label].why
    coda = read_c3d(C3D / "Codamotion" / "codamotion_gaitwands_19970212.c3d")
    table = trial_matching(coda, default_model(coda)[0])
    rows = {r.label: r for r in table.rows}
    assert rows["R.Toe"].status == ALTERNATIVE and rows["R.Toe"].marker == "RMIDFOOT" and "RTOE" in rows["R.Toe"].why
    assert rows["R.Heel"].status == NAME and rows["R.Hip"].status == ALIAS
    # an edit keeps the other rows' ways
    edited = {r.label: r.status for r in trial_matching(coda, default_model(coda)[0], {"L.Heel": None}).rows}
    assert edited["R.Toe"] == ALTERNATIVE and edited["L.Heel"] == EDITED
