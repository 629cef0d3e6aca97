"""Contact candidates in the 3D view: drawn where the engine puts them, those the estimate loads in its colour; an
analysis that generated candidates shows the model with them."""
import copy
import dataclasses

import numpy as np

from engine import algorithms as alg
from engine.data import Data

from .conftest import mid_stance


def test_candidates_are_drawn_and_the_loaded_ones_marked(shown):
    window, doc = shown, shown.document
    frame = int(np.argmin(np.abs(doc.time - mid_stance(doc.result))))
    doc.set_frame(frame)
    layer = window.scene.layers["contacts"]
    model = doc.model
    names = [c.name for c in model.contacts]
    expected = alg.frame_positions_batch(model, Data(model), doc.Q[frame:frame + 1], names)[0]
    drawn = {}
    for dots in (layer.idle, layer.loaded):
        for k, i in enumerate(dots.shown):
            drawn[names[i]] = np.array(dots.polydata.GetPoint(k))
    assert set(drawn) == set(names)
    assert all(np.allclose(drawn[n], expected[i], atol=1e-6) for i, n in enumerate(names))
    loaded = {names[i] for i in layer.loaded.shown}
    forces = doc.result.qp.forces[np.argmin(np.abs(doc.result.qp.time - doc.time[frame]))]
    assert loaded == {n for n, f in zip(names, forces) if np.linalg.norm(f) > 1.0} and loaded
    window.set_layer_visible("contacts", False)
    assert not layer.idle.actor.GetVisibility() and window.actions_by["layer contacts"].isChecked() is False


def test_an_analysis_that_generated_candidates_shows_the_model_with_them(make_window, inputs, qtbot):
    model, trial, settings = inputs
    window = make_window()
    window.document.settings = dataclasses.replace(copy.deepcopy(settings), muscles=False)
    window.document.set_inputs(model=model.replace(contacts=[]), trial=trial)
    with qtbot.waitSignal(window.runner.finished, timeout=240_000):
        assert window.run_analysis()
    doc = window.document
    assert doc.result is not None and doc.model is doc.result.model
    assert len(doc.model.contacts) == 10 and set(doc.result.generated_contacts) == {c.name for c in doc.model.contacts}
    layer = window.scene.layers["contacts"]
    assert len(layer.idle.shown) + len(layer.loaded.shown) == 10
