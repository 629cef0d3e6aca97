"""View > Socket pressure: the stump's skin in the main 3D view coloured by the socket pressure that skin's socket model
gives at the frame shown, computed in the background; disabled, saying why, for a model without a residual limb."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.data import Data
from engine.io.results_file import load_result
from skin import socket_map
from skin.socket_load import socket_loads

from .conftest import differing, mid_stance

SPACING = 0.02      # m: a coarse skin keeps the test short (the application's is socket_map.SPACING)


@pytest.fixture
def computed(shown, qtbot, monkeypatch):
    """The demo's window with its socket pressure computed and shown."""
    monkeypatch.setattr(socket_map, "SPACING", SPACING)
    action = shown.actions_by["socket pressure"]
    assert action.isEnabled() and not action.isChecked()
    with qtbot.waitSignal(shown.socket_pressure.runner.ended, timeout=300_000):
        action.trigger()
    assert action.isChecked() and shown.last_error is None
    return shown


def test_the_stump_is_drawn_with_skin_s_pressure_of_the_frame_shown(computed):
    window, doc = computed, computed.document
    result, settings, model = doc.result, doc.settings, doc.result.model
    socket = socket_map.socket_for(model, "socket_weld", "tibia_r", SPACING)
    _, loads, _ = socket_loads(result, settings, "socket_weld")
    np.testing.assert_allclose(doc.time, result.motion.time, rtol=0, atol=1e-9)    # a map frame per display frame
    layer = window.socket_pressure.layer
    values = layer.poly.GetPointData().GetScalars()
    for t in (mid_stance(result), doc.time[3]):                 # in stance, then in the air: scrubbing
        doc.set_time(t)
        f = doc.frame
        points, kpa = layer.drawn()
        expected = socket.pressure(model, result.motion.q[f], loads[f]).pressure * 1e-3
        np.testing.assert_allclose(kpa, expected, rtol=1e-6, atol=1e-6 * max(expected.max(), 1.0))
        skin_points = socket.skin.vertices(model, Data(model), doc.Q[f])[socket.vertices]
        np.testing.assert_allclose(points, skin_points, rtol=0, atol=1e-9)
        assert layer.poly.GetPointData().GetScalars() is values          # copied in place, no new array
    doc.set_time(mid_stance(result))
    peak = layer.drawn()[1].max()
    assert peak > 20.0 and f"peak {peak:.1f} kPa" in layer.readout.GetInput()
    mapper = layer.actor.GetMapper()
    assert mapper.GetScalarVisibility() and mapper.GetLookupTable().GetTableRange() == (0.0, 250.0)
    rgb = [0.0] * 3
    mapper.GetLookupTable().GetColor(peak, rgb)      # the colour drawn for the peak is the scale's at that value
    assert rgb != list(mapper.GetLookupTable().GetTableValue(0)[:3])
    # hidden, then shown again without computing again
    action = window.actions_by["socket pressure"]
    action.trigger()
    assert "socket" not in window.scene.layers and not window.scene.renderer.HasViewProp(layer.actor)
    action.trigger()
    assert not window.socket_pressure.runner.running and window.socket_pressure.layer.drawn()[1].max() == peak
    # the scene built anew without a document change (more mesh folders): the layer is drawn into it again
    window.set_geometry_paths([])
    layer = window.socket_pressure.layer
    assert window.scene.layers["socket"] is layer and layer.renderer is window.scene.renderer
    assert window.scene.renderer.GetActors().IsItemPresent(layer.actor) and layer.drawn()[1].max() == peak


def test_a_model_without_a_residual_limb_has_the_toggle_disabled_saying_why(make_window):
    window = make_window()
    action = window.actions_by["socket pressure"]
    assert not action.isEnabled() and "run the analysis first" in action.toolTip()
    result, settings = load_result(Path(__file__).parents[1] / "data" / "results_v1" / "gait2354_walk1.hlr")
    window.document.set_inputs(model=result.model, trial=result.trial)
    window.document.set_result(result, settings)
    assert not action.isEnabled()
    assert action.toolTip() == (f"no socket pressure: the model '{result.model.name}' has no residual limb in a socket "
                                "(no weld joint to a body named socket...)")


def test_the_first_window_imports_no_socket_numerics():
    # the toggle only asks skin.socket_site whether there is a socket; the map's numerics load when it is computed
    code = ("import sys; import hybridgui.main_window; "
            "print(sorted(m for m in sys.modules if m in ('skin.socket_map', 'skin.socket', 'skin.volumes', "
            "'skin.contact', 'skin._contour')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_scrubbing_the_socket_map_takes_no_new_picture_of_its_colour_bar(computed):
    """The socket pressure's colour bar is one of the annotations drawn from the overlay's picture (not drawn in the
    scene every frame); its readout, which changes with the frame, is drawn in the scene."""
    window, doc = computed, computed.document
    view, overlay, layer = window.view, window.scene.overlay, window.socket_pressure.layer
    assert overlay.renderer.HasViewProp(layer.bar) and not window.scene.renderer.HasViewProp(layer.bar)
    assert window.scene.renderer.HasViewProp(layer.readout)
    view.render()
    taken, with_bar = overlay.pictures, overlay.image.copy()
    readouts = set()
    for frame in range(0, doc.n_frames, max(doc.n_frames // 8, 1)):
        doc.set_frame(frame)
        view.render()
        readouts.add(layer.readout.GetInput())
    assert overlay.pictures == taken and len(readouts) > 1
    layer.bar.SetVisibility(False)
    view.render()
    assert overlay.pictures == taken + 1
    assert differing(with_bar, overlay.image).sum() > 500          # the bar is in the picture
    window.actions_by["socket pressure"].trigger()                 # hidden: the layer's bar leaves the overlay
    assert not overlay.renderer.HasViewProp(layer.bar)


def test_the_status_line_names_the_frames_flagged():
    """The status bar after the computation: the liner, the peak and when, then the frames not carried to tolerance and
    those that leave the model's small displacements (the slipping liner's, docs/socket-pressure.md), named as the CLI
    and the report name them: how many and when."""
    from types import SimpleNamespace

    from hybridgui.socket_pressure import status_text
    m = SimpleNamespace(peak=np.array([0.0, 2.5e5, 1e5]), time=np.array([0.0, 0.01, 0.02]),
                        converged=np.ones(3, bool), in_range=np.ones(3, bool), thickness=0.006, modulus=0.4e6,
                        friction=None, tissue=0.0, tissue_modulus=100e3, fit=0.0)
    assert status_text(m) == ("Socket pressure (liner 6 mm at 0.4 MPa bonded to the skin on a rigid limb): peak "
                              "250.0 kPa over the trial, at 0.010 s.")
    m.converged[0], m.in_range[1:], m.friction = False, False, 0.61
    assert status_text(m) == (
        "Socket pressure (liner 6 mm at 0.4 MPa slipping on the skin at mu 0.61 on a rigid limb): peak 250.0 kPa over "
        "the trial, at 0.010 s. The liner does not carry the socket's load to tolerance at 1 frame (0.000 s); their "
        "pressures are not the load's. The liner's solution leaves the model's small displacements (a compression "
        "beyond 0.3 of a layer's thickness, the strain its linear law is assumed to hold to: the liner's 1.8 mm; or a "
        "socket rotation beyond 0.1 rad) at 2 frames (0.010, 0.020 s); their pressures are not valid.")


def test_the_slipping_liner_chosen_in_the_view_menu_is_the_map_s_and_the_session_s(shown, make_window, qtbot,
                                                                                    monkeypatch, tmp_path):
    """View > Socket liner > Slipping on the skin... asks the coefficient; the map is then the slipping liner's (as
    `hybrid socket-pressure --friction` computes it), the status bar names the frames outside the small displacements,
    the session keeps the choice, and going back to the bonded liner computes its map again."""
    from hybridgui import menus
    monkeypatch.setattr(socket_map, "SPACING", 0.03)       # coarser still: the slipping liner's Newton costs more
    monkeypatch.setattr(menus.QInputDialog, "getDouble", lambda *a, **k: (0.61, True))
    window, doc = shown, shown.document
    window.actions_by["socket slipping"].trigger()
    assert window.socket_pressure.liner == {"friction": 0.61} and not window.socket_pressure.runner.running  # not shown
    assert window.actions_by["socket slipping"].text() == "Slipping on the skin (mu 0.61)..."
    assert not window.actions_by["socket bonded"].isChecked()
    with qtbot.waitSignal(window.socket_pressure.runner.ended, timeout=300_000):
        window.actions_by["socket pressure"].trigger()
    m = window.socket_pressure.map
    assert window.last_error is None and m.friction == 0.61
    # the first frame flagged and the one before, by the socket model here
    model, result = doc.result.model, doc.result
    socket = socket_map.socket_for(model, "socket_weld", "tibia_r", 0.03, friction=0.61)
    _, loads, _ = socket_loads(result, doc.settings, "socket_weld")
    first = int(np.flatnonzero(~m.in_range)[0])
    assert first > 0
    before, at = (socket.pressure(model, result.motion.q[f], loads[f]) for f in (first - 1, first))
    assert before.in_range and not at.in_range
    doc.set_frame(first)
    np.testing.assert_allclose(window.socket_pressure.layer.drawn()[1], at.pressure * 1e-3, rtol=1e-6,
                               atol=1e-6 * at.pressure.max() * 1e-3)
    status = window.statusBar().currentMessage()
    assert "(liner 6 mm at 0.4 MPa slipping on the skin at mu 0.61 on a rigid limb)" in status
    assert (f"leaves the model's small displacements (a compression beyond 0.3 of a layer's thickness, the strain its "
            f"linear law is assumed to hold to: the liner's 1.8 mm; or a socket rotation beyond 0.1 rad) at "
            f"{int((~m.in_range).sum())} frames ({doc.time[first]:.3f}, ") in status
    # saved with the session, opened again with it
    path = tmp_path / "work.hls"
    window.save_session(path)
    other = make_window()
    other.open_session(path)
    assert other.socket_pressure.liner == {"friction": 0.61} and other.actions_by["socket slipping"].isChecked()
    # the bonded liner again: its map computed, no frame outside the small displacements
    with qtbot.waitSignal(window.socket_pressure.runner.ended, timeout=300_000):
        window.actions_by["socket bonded"].trigger()
    assert window.socket_pressure.map.friction is None and window.socket_pressure.map.in_range.all()
    assert "bonded to the skin" in window.statusBar().currentMessage()
    assert "small displacements" not in window.statusBar().currentMessage()


def test_the_report_is_written_with_the_liner_chosen(shown, report_options_asked, tmp_path, qtbot):
    """File > Report... gives the report's socket section the liner of View > Socket liner (its option ``friction``),
    for every trial pooled; ``engine.io.report_sections`` passes it to the section (tests/io), which computes the
    slipping liner's map by the CLI's function (tests/skin)."""
    from hybridgui import report_export
    asked = report_options_asked
    shown.socket_pressure.set_liner({"friction": 0.61})
    with qtbot.waitSignal(report_export.start_report(shown, tmp_path / "report.pdf").ended, timeout=60_000):
        pass
    assert asked == [[{"socket-pressure": {"friction": 0.61}}]]


def test_a_scene_built_anew_keeps_the_socket_layer_of_the_same_map(computed, monkeypatch):
    """The map's layer (its points and pressures gathered per display frame, its VTK surface and colour bar) is built
    once per map and display times: a scene built anew without a change of map puts the same layer back, as does
    hiding the map and showing it again; a map of other display times builds another."""
    from hybridgui import socket_pressure
    from hybridgui.viewport import socket_layer
    built, surfaces = [], []

    class Counted(socket_layer.SocketLayer):
        def __init__(self, *args):
            built.append(args)
            super().__init__(*args)

    made = socket_layer.surface
    monkeypatch.setattr(socket_pressure, "SocketLayer", Counted)
    monkeypatch.setattr(socket_layer, "surface", lambda *a: surfaces.append(a) or made(*a))
    window, doc = computed, computed.document
    layer = window.socket_pressure.layer
    doc.set_time(mid_stance(doc.result))
    drawn = layer.drawn()
    for _ in range(3):
        window.set_geometry_paths([])           # the scene built anew, the document unchanged
        assert window.scene.layers["socket"] is window.socket_pressure.layer is layer
        assert window.scene.renderer.HasViewProp(layer.actor) and window.scene.overlay.renderer.HasViewProp(layer.bar)
    assert built == [] and surfaces == []
    np.testing.assert_array_equal(layer.drawn()[0], drawn[0])
    np.testing.assert_array_equal(layer.drawn()[1], drawn[1])
    action = window.actions_by["socket pressure"]
    for _ in range(2):                          # hidden and shown again, the map unchanged: the same layer back
        action.trigger()
        assert "socket" not in window.scene.layers and not window.scene.renderer.HasViewProp(layer.actor)
        assert not window.scene.overlay.renderer.HasViewProp(layer.bar)
        window.set_geometry_paths([])           # a scene built anew while hidden does not draw it
        assert "socket" not in window.scene.layers
        action.trigger()
        assert window.scene.layers["socket"] is window.socket_pressure.layer is layer
        assert window.scene.renderer.HasViewProp(layer.actor) and window.scene.overlay.renderer.HasViewProp(layer.bar)
    assert built == [] and surfaces == [] and not window.socket_pressure.runner.running
    np.testing.assert_array_equal(layer.drawn()[1], drawn[1])
    doc.set_frame(2)
    other = doc.result.motion.time[::2]         # other display times of the same map: a layer of their own
    monkeypatch.setattr(window.scene.content, "time", other)
    window.socket_pressure.refresh()
    assert len(built) == 1 and len(surfaces) == 1 and window.scene.layers["socket"] is window.socket_pressure.layer
    assert window.socket_pressure.layer is not layer and not window.scene.renderer.HasViewProp(layer.actor)


def test_a_session_with_a_bad_liner_is_refused_naming_the_file_and_the_option(make_window, tmp_path):
    from engine.errors import DataError
    from engine.io.session_file import Session, save_session
    window = make_window()
    for bad in (-0.1, float("nan"), "0.6"):
        path = tmp_path / "bad.hls"
        save_session(path, Session(report={"socket-pressure": {"friction": bad}}))
        with pytest.raises(DataError, match=r"bad.hls: report option socket-pressure: the socket liner's friction must "
                                            r"be a finite non-negative number or none, got"):
            window.open_session(path)
        assert window.socket_pressure.liner == {"friction": None} and window.actions_by["socket bonded"].isChecked()


def test_the_soft_tissue_and_the_fit_chosen_in_the_view_menu_are_the_map_s_the_report_s_and_the_session_s(
        shown, make_window, qtbot, monkeypatch, tmp_path, report_options_asked):
    """View > Socket liner > Soft tissue and fit... asks the tissue's thickness and modulus and the fit pressure (as
    `hybrid socket-pressure --tissue --tissue-modulus --fit` take them); the map is then that socket's, the status bar
    and the menu name them, the report and the session take them; cancelled, the liner stays as it was."""
    from hybridgui import menus, report_export
    monkeypatch.setattr(socket_map, "SPACING", 0.03)
    answers = iter([(20.0, True), (141.0, True), (40.0, True)])
    monkeypatch.setattr(menus.QInputDialog, "getDouble", lambda *a, **k: next(answers))
    window, doc = shown, shown.document
    tissue = window.actions_by["socket tissue"]
    assert tissue.text() == "Soft tissue and fit..."
    tissue.trigger()
    assert next(answers, None) is None
    liner = {"friction": None, "tissue": 0.02, "tissue_modulus": 141e3, "fit": 40e3}
    assert window.socket_pressure.liner == pytest.approx(liner) and window.actions_by["socket bonded"].isChecked()
    assert tissue.text() == "Soft tissue and fit (20 mm at 141 kPa, fit 40 kPa)..."
    with qtbot.waitSignal(window.socket_pressure.runner.ended, timeout=300_000):
        window.actions_by["socket pressure"].trigger()
    m = window.socket_pressure.map
    assert window.last_error is None and (m.tissue, m.tissue_modulus, m.fit) == pytest.approx((0.02, 141e3, 40e3))
    assert "on 20 mm of soft tissue at 141 kPa, pre-compressed to a nominal 40 kPa)" in window.statusBar().currentMessage()
    # the frame shown drawn with the pressure of the socket model with these layers, not the default's
    model, result = doc.result.model, doc.result
    _, loads, _ = socket_loads(result, doc.settings, "socket_weld")
    socket = socket_map.socket_for(model, "socket_weld", "tibia_r", 0.03, tissue=0.02, tissue_modulus=141e3, fit=40e3)
    doc.set_time(mid_stance(result))
    f = doc.frame
    expected = socket.pressure(model, result.motion.q[f], loads[f]).pressure * 1e-3
    np.testing.assert_allclose(window.socket_pressure.layer.drawn()[1], expected, rtol=1e-6, atol=1e-6 * expected.max())
    plain = socket_map.socket_for(model, "socket_weld", "tibia_r", 0.03).pressure(model, result.motion.q[f], loads[f])
    assert np.abs(plain.pressure * 1e-3 - expected).max() > 1.0
    # cancelled at the modulus: nothing changes, the map kept
    answers = iter([(10.0, True), (0.0, False)])
    tissue.trigger()
    assert window.socket_pressure.liner == pytest.approx(liner) and window.socket_pressure.map is m
    # the report's options, then the session's
    asked = report_options_asked
    with qtbot.waitSignal(report_export.start_report(window, tmp_path / "report.pdf").ended, timeout=60_000):
        pass
    assert asked == [[{"socket-pressure": pytest.approx(liner)}]]
    path = tmp_path / "work.hls"
    window.save_session(path)
    other = make_window()
    other.open_session(path)
    assert other.socket_pressure.liner == pytest.approx(liner)
    assert other.actions_by["socket tissue"].text() == "Soft tissue and fit (20 mm at 141 kPa, fit 40 kPa)..."


def test_a_session_with_a_damaged_tissue_or_fit_is_refused_naming_the_file_and_the_option(make_window, tmp_path):
    from engine.errors import DataError
    from engine.io.session_file import Session, save_session
    window = make_window()
    for bad, words in (({"tissue": -0.01}, "tissue must be a finite non-negative number, got -0.01"),
                       ({"tissue_modulus": 0.0}, "tissue_modulus must be a positive number, got 0.0"),
                       ({"fit": "40"}, "fit must be a finite non-negative number, got '40'"),
                       ({"fit": float("inf")}, "fit must be a finite non-negative number, got inf"),
                       ({"tisue": 0.02}, "has no option 'tisue'")):
        path = tmp_path / "bad.hls"
        save_session(path, Session(report={"socket-pressure": bad}))
        with pytest.raises(DataError, match=f"bad.hls: report option socket-pressure: the socket liner('s | ){words}"):
            window.open_session(path)
        assert window.socket_pressure.liner == {"friction": None}
        assert window.actions_by["socket tissue"].text() == "Soft tissue and fit..."
