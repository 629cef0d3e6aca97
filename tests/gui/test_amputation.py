"""The amputation editor: the seed's transtibial amputation or chosen edits change the model's muscles at
once in the 3D view, can be undone, and the edited model saves as a model file that loads back equal."""
import pytest

from engine.io.model_file import load_model
from engine.io.open import open_model
from hybridgui import menus


@pytest.fixture
def editor_window(make_window, test_data):
    window = make_window()
    model = open_model(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    window.document.set_inputs(model=model)
    window.docks["amputation"].raise_()
    return window


def test_transtibial_preset_edits_the_model_and_the_view(editor_window, tmp_path, monkeypatch):
    window = editor_window
    editor, doc = window.amputation, window.document
    original = doc.model
    assert editor.stump.currentText() == "tibia_r"
    crossing = [editor.table.item(r, 0).text() for r in range(editor.table.rowCount())]
    assert "tib_ant_r" in crossing and "soleus_r" in crossing and "soleus_l" not in crossing
    editor.apply_preset()
    edited = doc.model
    names = [m.name for m in edited.muscles]
    assert "tib_ant_r" not in names and "soleus_r" in names
    soleus = edited.muscle("soleus_r")
    assert soleus.path.points[-1].parent == "tibia_r"
    assert {r["muscle"] for r in edited.metadata["muscle_edits"] if r.get("muscle")} >= {"tib_ant_r", "soleus_r"}
    assert editor.records.count() == len(edited.metadata["muscle_edits"])
    # the 3D view shows the edited muscles at once
    assert window.scene.layers["muscles"].names == names
    assert window.scene.layers["muscles"].polydata.GetNumberOfLines() == len(names)
    # saved as a new model file, it loads back equal
    target = tmp_path / "amputee.yaml"
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    menus.save_model_dialog(window)
    assert load_model(target) == edited
    editor.undo()
    assert doc.model == original and not editor.undo_button.isEnabled()


def test_chosen_actions_per_muscle(editor_window):
    window = editor_window
    editor, doc = window.amputation, window.document
    before = len(doc.model.muscles)
    editor.set_action("tib_ant_r", "remove")
    editor.set_action("tib_post_r", "transect")
    editor.set_action("med_gas_r", "re-route over the stump")
    editor.apply_actions()
    names = [m.name for m in doc.model.muscles]
    assert len(names) == before - 2 and "tib_ant_r" not in names and "tib_post_r" not in names
    assert doc.model.muscle("med_gas_r").path.points[-1].parent == "tibia_r"
    kinds = [r["edit"] for r in doc.model.metadata["muscle_edits"]]
    assert sorted(kinds) == ["reattach", "remove", "transect"]


def test_an_impossible_edit_is_a_message(editor_window):
    window = editor_window
    before = window.document.model
    window.amputation.stump.setCurrentText("calcn_r")
    window.amputation.apply_preset()          # the triceps surae end on the heel: they do not reach below it
    assert window.last_error.isVisible() and "med_gas_r" in window.last_error.text()
    assert window.document.model is before


def test_the_undo_history_ends_when_another_model_opens(editor_window, test_data):
    window = editor_window
    editor, doc = window.amputation, window.document
    editor.apply_preset()
    assert editor.undo_button.isEnabled()
    window.open_model_file(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    fresh = doc.model
    assert not editor.undo_button.isEnabled()
    editor.undo()                                   # nothing to undo on this model
    assert doc.model is fresh and window.last_error is None
    editor.apply_preset()                           # its own edits can be undone
    editor.undo()
    assert doc.model == fresh and not editor.undo_button.isEnabled()


def test_a_failed_undo_is_a_message(editor_window, monkeypatch):
    from engine.errors import ModelError
    from hybridgui import amputation_editor
    window = editor_window
    editor, doc = window.amputation, window.document
    editor.apply_preset()
    edited = doc.model

    def fail(model, changes):
        raise ModelError("the muscle cannot be put back", "muscle 'tib_ant_r'")

    monkeypatch.setattr(amputation_editor, "undo_edits", fail)
    editor.undo()
    box = window.last_error
    assert box.isVisible() and "muscle 'tib_ant_r': the muscle cannot be put back" in box.text()
    assert doc.model is edited and editor.undo_button.isEnabled()      # nothing changed, the edit can be retried
