"""Sessions: saving and opening again restores the model, trial, settings, results, events, time, curves shown,
view options, camera and layout; a failed save leaves the previous file whole."""
import dataclasses

import numpy as np
import pytest

from engine.errors import DataError
from engine.trial.trial import Event
from engine.io.session_file import load_session, save_session


def _arrays_equal(a, b):
    return all(np.array_equal(getattr(a, f.name), getattr(b, f.name), equal_nan=True)
               for f in dataclasses.fields(a) if isinstance(getattr(a, f.name), np.ndarray))


def test_save_and_open_again(shown, make_window, tmp_path, qtbot):
    window, doc = shown, shown.document
    result = doc.result
    doc.set_events([Event("Foot Strike", "Right", float(doc.time[5])), Event("Foot Off", "Left", float(doc.time[9]))])
    doc.set_time(float(doc.time[len(doc.time) // 2]))
    grf = window.curves.panel("grf")
    grf.select(grf.channels[-2:])
    window.set_layer_visible("markers", False)
    window.set_blade_colouring("bending strain")
    window.look("top")
    window.docks["events"].raise_()
    window.docks["amputation"].hide()
    camera = window.scene.rig.state()
    path = tmp_path / "work.hls"
    window.save_session(path)

    other = make_window()
    other.open_session(path)
    d = other.document
    assert d.model == doc.model
    assert d.result.model == result.model
    assert _arrays_equal(d.result.ik, result.ik) and _arrays_equal(d.result.motion, result.motion)
    assert d.result.metrics == result.metrics and d.result.notes == result.notes
    assert d.settings == window.settings_panel.settings()
    assert d.events == doc.events
    assert d.frame == doc.frame and d.current_time == doc.current_time
    assert other.curves.selection() == window.curves.selection()
    assert other.scene.visible == window.scene.visible and not other.actions_by["layer markers"].isChecked()
    assert other.blade_colouring == "bending strain"
    restored = other.scene.rig.state()
    for key in ("position", "focal_point", "view_up"):
        assert np.allclose(restored[key], camera[key])
    assert not other.docks["amputation"].isVisible()
    assert str(path.resolve()) in other.recent_files()


def test_a_damaged_session_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "broken.hls"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(DataError, match="broken.hls"):
        load_session(path)


def test_a_failed_save_keeps_the_previous_file(shown, tmp_path, monkeypatch):
    path = tmp_path / "work.hls"
    shown.save_session(path)
    before = path.read_bytes()
    shown.document.set_time(float(shown.document.time[-1]))
    import engine.io.atomic as atomic

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", full_disk)
    shown.attempt("Cannot save the session", shown.save_session, path)
    assert shown.last_error.isVisible() and "No space left on device" in shown.last_error.text()
    assert path.read_bytes() == before and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_muscles_edited_after_the_analysis_open_again_with_their_result(shown, make_window, tmp_path):
    from engine.edits.muscles import RemoveMuscle, apply_edits
    window, doc = shown, shown.document
    result = doc.result
    removed = doc.model.muscles[0].name
    edited, _ = apply_edits(doc.model, [RemoveMuscle(removed)])
    doc.set_model(edited)                   # the amputation editor keeps the result of the same coordinates
    path = tmp_path / "edited.hls"
    window.save_session(path)
    other = make_window()
    other.open_session(path)
    d = other.document
    assert other.last_error is None
    assert d.model == edited and removed not in [m.name for m in d.model.muscles]
    assert d.result.model == result.model and removed in [m.name for m in d.result.model.muscles]
    assert _arrays_equal(d.result.ik, result.ik)


@pytest.mark.parametrize("key, body, said", [("body", {"height": None, "mass": 900.0}, "between 20 and 250; got 900"),
                                             ("body_run", {"height": 3.1, "mass": None}, "between 1 and 2.5; got 3.1")])
def test_a_session_with_a_bad_height_or_mass_is_refused_naming_the_file_and_changes_nothing(shown, tmp_path, key,
                                                                                          body, said):
    window, doc = shown, shown.document
    window.save_session(tmp_path / "good.hls")
    session = load_session(tmp_path / "good.hls")
    session.marker_matching = {"edits": {}, "edits_run": {}, "body": {"height": None, "mass": None},
                               "body_run": {"height": None, "mass": None}, key: body}
    save_session(tmp_path / "bad.hls", session)
    result, model, events = doc.result, doc.model, list(doc.events)
    with pytest.raises(DataError, match=said) as refused:
        window.open_session(tmp_path / "bad.hls")
    assert refused.value.file.endswith("bad.hls") and refused.value.element == f"marker_matching.{key}"
    assert doc.result is result and doc.model is model and doc.events == events     # not the bad session's
