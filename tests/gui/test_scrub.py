"""Scrubbing: the 3D view, the plot cursor, the values table, the timeline and the inspector all show the same
frame, with the engine's numbers."""
import numpy as np

from engine.algorithms import frame_placements_batch
from engine.analysis.series import result_series
from engine.data import Data


def _world_to_display(renderer, point):
    renderer.SetWorldPoint(*point, 1.0)
    renderer.WorldToDisplay()
    return renderer.GetDisplayPoint()[:2]


def test_scrub_keeps_view_cursor_and_table_together(shown, qtbot):
    window, doc = shown, shown.document
    result = doc.result
    t = float(result.ik.time[0] + 0.61 * (result.ik.time[-1] - result.ik.time[0]))
    doc.set_time(t)
    f = doc.frame
    assert f == int(np.argmin(np.abs(result.ik.time - t)))
    # the 3D view: every body actor sits at the engine's placement of this frame
    scene = window.scene
    assert scene.frame == f
    names = list(scene.layers["bodies"].actors)
    R, p = frame_placements_batch(result.model, Data(result.model), result.ik.q[f:f + 1], names)
    for i, name in enumerate(names):
        matrix = scene.layers["bodies"].actors[name].GetUserMatrix()
        M = np.array([[matrix.GetElement(r, c) for c in range(4)] for r in range(4)])
        assert np.allclose(M[:3, :3], R[0, i], atol=1e-12) and np.allclose(M[:3, 3], p[0, i], atol=1e-12)
    # the plot cursor and the table of values at the cursor
    panel = window.curves.current_panel()
    assert panel.cursor_time() == float(result.ik.time[f])
    by_label = {s.label: s for s in result_series(result, doc.settings.forward)}
    shown_values = panel.table_values()
    assert shown_values, "the values table is empty"
    for label, value in shown_values.items():
        assert np.isclose(value, by_label[label].values[f], rtol=1e-5, atol=1e-9)
    # the timeline shows the frame and its time
    assert window.timeline.slider.value() == f
    assert f"{result.ik.time[f]:.3f} s" in window.timeline.label.text()
    # another tab shows the same frame when it is opened
    window.curves.tabs.setCurrentIndex(window.curves.tabs.count() - 1)
    assert window.curves.current_panel().cursor_time() == float(result.ik.time[f])


def test_clicking_a_plot_seeks(shown, qtbot):
    window, doc = shown, shown.document
    panel = window.curves.current_panel()
    target = float(doc.time[len(doc.time) // 3])
    panel.seek.emit(target)
    assert doc.frame == len(doc.time) // 3
    assert panel.cursor_time() == target


def test_picking_a_body_shows_its_name_and_position(shown, qtbot):
    window, doc = shown, shown.document
    scene = window.scene
    body = scene.poses.body_names[0]
    actor = scene.layers["bodies"].actors[body]
    for name in ("muscles", "markers", "grf"):
        window.set_layer_visible(name, False)
    window.view.render()
    x, y = _world_to_display(scene.renderer, actor.GetCenter())
    with qtbot.waitSignal(window.view.picked) as picked:
        window.view._pick(x, y)
    assert picked.args[0].kind == "body" and picked.args[0].name == body
    rows = {q: v for q, v, _ in window.inspector.rows()}
    f = doc.frame
    assert np.allclose([rows["origin x"], rows["origin y"], rows["origin z"]], scene.poses.body_p[f, 0])
    assert body in window.inspector.title.text()


def test_camera_presets_and_following_the_subject(shown):
    window, doc = shown, shown.document
    scene = window.scene
    doc.set_frame(0)
    window.look("sagittal")
    camera = scene.renderer.GetActiveCamera()
    direction = np.subtract(camera.GetPosition(), camera.GetFocalPoint())
    ml = scene.rig.axes["ml"]
    assert np.isclose(abs(direction @ ml), np.linalg.norm(direction))       # looking along the medio-lateral axis
    window.actions_by["follow"].trigger()
    assert scene.rig.following
    focus = np.array(camera.GetFocalPoint())
    last = doc.n_frames - 1
    doc.set_frame(last)
    shift = scene.poses.body_p[last, 0] - scene.poses.body_p[0, 0]
    up = scene.rig.axes["vertical"]
    assert np.allclose(np.array(camera.GetFocalPoint()) - focus, shift - (shift @ up) * up, atol=1e-9)


def test_ground_reaction_arrows_start_at_the_centre_of_pressure_and_scale_with_the_force(shown):
    """Each arrow (VTK's arrow source runs along x from 0 to 1) runs from its centre of pressure along the force,
    1 m per 1000 N, at every frame; it is hidden while its centre of pressure is undefined."""
    from hybridgui.viewport.style import NEWTONS_PER_METRE

    window, doc = shown, shown.document
    window.set_layer_visible("grf", True)
    layer = window.scene.layers["grf"]
    checked = hidden = 0
    for frame in range(0, doc.n_frames, 7):
        doc.set_frame(frame)
        for actor, (_, _, force, cop) in zip(layer.actors, layer.arrows):
            if not np.isfinite(cop[frame]).all():
                assert not actor.GetVisibility()
                hidden += 1
                continue
            m = actor.GetUserMatrix()
            M = np.array([[m.GetElement(r, c) for c in range(4)] for r in range(4)])
            assert actor.GetVisibility()
            assert np.allclose(M[:3, 3], cop[frame], atol=1e-12)
            assert np.allclose(M[:3, :3] @ [1.0, 0.0, 0.0], force[frame] / NEWTONS_PER_METRE, atol=1e-12)
            side = M[:3, 1:3]          # the arrow's thickness: square to the force, equal both ways
            assert np.allclose(side.T @ force[frame], 0.0, atol=1e-9)
            assert np.isclose(np.linalg.norm(side[:, 0]), np.linalg.norm(side[:, 1]))
            checked += 1
    assert checked > 10 and hidden > 0


def test_the_plot_kept_in_pixmaps_shows_what_drawing_it_anew_shows(shown, qtbot):
    """Scrubbing moves only the cursor over curves, grid and shading that Qt keeps as drawn; after frames, a new
    choice of curves and a change of axis, the plot shows what it shows drawn without those pixmaps."""
    from PySide6.QtWidgets import QGraphicsItem

    from tests.gui.conftest import differing
    window, doc = shown, shown.document
    panel = window.curves.current_panel()

    def drawn_anew():
        scene_items = panel.plot.scene().items()
        modes = [item.cacheMode() for item in scene_items]
        for item in scene_items:
            item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        image = panel.plot.grab().toImage()
        for item, mode in zip(scene_items, modes):
            item.setCacheMode(mode)
        return image

    cached = [i for i in panel.plot.scene().items() if i.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    assert panel.cursor not in cached and len(cached) > 10
    start = panel.plot.grab().toImage()
    for frame in range(0, doc.n_frames, 9):
        doc.set_frame(frame)
        qtbot.wait(1)
    moved = panel.plot.grab().toImage()
    assert differing(moved, start).sum() > 50            # the cursor moved
    assert differing(moved, drawn_anew()).sum() == 0
    panel.select(panel.channels[-2:])
    doc.set_frame(doc.n_frames // 2)
    assert differing(panel.plot.grab().toImage(), drawn_anew()).sum() == 0
    window.curves.axis.setCurrentText("Right gait cycle")
    assert differing(panel.plot.grab().toImage(), drawn_anew()).sum() == 0
    window.curves.axis.setCurrentText("time")
    assert differing(panel.plot.grab().toImage(), drawn_anew()).sum() == 0


def test_slider_steps_between_two_turns_of_the_event_loop_render_the_3d_view_once(shown, qtbot):
    """Dragging the slider moves it by several frames between two turns of the event loop: the 3D view renders once,
    at the last of them."""
    window, doc = shown, shown.document
    qtbot.wait(10)
    renders = []
    tag = window.view.window.AddObserver("StartEvent", lambda *_: renders.append(window.scene.frame))
    slider = window.timeline.slider
    for frame in (10, 11, 12, 14):
        slider.setValue(frame)
    qtbot.wait(20)
    window.view.window.RemoveObserver(tag)
    assert doc.frame == 14 and renders == [14]
