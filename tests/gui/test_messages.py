"""What the application does not do, it says: curves that cannot be normalised to the gait cycle, mesh files not
found, and commands with nothing to act on."""
import numpy as np
import pytest

from engine.model import Mesh
from engine.spatial import SE3
from hybridgui import menus
from tests.muscles.path_models import wrap_model


def test_curves_that_cannot_be_normalised_say_why(shown):
    window, doc = shown, shown.document
    panel = window.curves.current_panel()
    window.curves.axis.setCurrentText("Right gait cycle")        # the demo has a complete right cycle: drawn
    assert panel.problem == "" and any(c.isVisible() for c in panel._curves.values())
    strikes = [e for e in doc.events if e.label == "Foot Strike" and e.context == "Right"]
    assert len(strikes) >= 2
    doc.set_events([e for e in doc.events if e not in strikes[1:]])     # one right foot strike left: no cycle
    assert not any(c.isVisible() for c in panel._curves.values())
    assert panel.problem.startswith("No curve is drawn against the Right gait cycle: no complete gait cycle")
    assert "1 Right Foot Strike event;" in panel.problem
    title = panel.plot.plotItem.titleLabel
    assert title.isVisible() and panel.problem in title.text
    assert panel.problem in window.statusBar().currentMessage()
    window.curves.axis.setCurrentText("time")                    # against time: drawn again, nothing to say
    assert panel.problem == "" and any(c.isVisible() for c in panel._curves.values())
    assert not title.isVisible()


def test_mesh_files_not_found_are_listed(make_window, test_data):
    window = make_window()
    window.open_model_file(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")   # no Geometry folder
    model = window.document.model
    files = {m.file for b in model.bodies for m in b.meshes}
    assert files
    missing = window.scene.missing_meshes
    assert {line.split("mesh file ")[1].split(" not found")[0] for line in missing} == files
    assert all("drawn as a generated shape" in line for line in missing)
    assert all(line in window.status_warnings.toolTip() for line in missing)
    assert f"{len(missing)} mesh files not found" in window.statusBar().currentMessage()


def test_a_mesh_of_a_format_without_reader_is_listed(make_window, tmp_path):
    (tmp_path / "arm.3ds").write_bytes(b"")
    model = wrap_model()
    mesh = Mesh("arm.3ds", scale=(1.0, 1.0, 1.0), placement=SE3(np.eye(3), np.zeros(3)))
    model = model.replace(bodies=[b if b.name != "upper" else type(b)(b.name, b.mass, b.com, b.inertia, meshes=(mesh,))
                                  for b in model.bodies])
    window = make_window()
    window.document.set_inputs(model=model, model_path=str(tmp_path / "arm.yaml"))
    (line,) = window.scene.missing_meshes
    assert line.startswith("body 'upper': mesh file ") and "arm.3ds has no reader (.3ds" in line
    assert line in window.status_warnings.toolTip()


@pytest.mark.parametrize("command, says", [
    (lambda w: menus._ik_setup(w), "Open a model first"),
    (lambda w: menus.save_model_dialog(w), "No model to save"),
    (lambda w: menus.export_opensim_dialog(w), "Nothing to export: run the analysis first"),
    (lambda w: menus.export_csv_dialog(w, shown=True), "Nothing to export: run the analysis first"),
    (lambda w: menus.export_figure_dialog(w), "No plot to export"),
    (lambda w: menus.export_video_dialog(w), "No playback to export: open a model and a trial first"),
])
def test_commands_with_nothing_to_act_on_say_so(make_window, monkeypatch, command, says):
    window = make_window()
    asked = []
    monkeypatch.setattr(menus.QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a) or ("", ""))
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a) or ("", ""))
    monkeypatch.setattr(menus.QFileDialog, "getExistingDirectory", lambda *a, **k: asked.append(a) or "")
    command(window)
    assert says in window.statusBar().currentMessage() and not asked


def test_a_video_of_one_frame_is_refused_with_a_message(make_window, inputs, monkeypatch):
    window = make_window()
    window.document.set_inputs(model=inputs[0])            # a model alone: one frame
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: pytest.fail("no file to ask for"))
    menus.export_video_dialog(window)
    assert "a video needs at least two frames" in window.statusBar().currentMessage()


def test_one_status_line_messages_never_drawn_over_each_other(make_window, qtbot):
    from PySide6.QtWidgets import QLabel, QProgressBar
    window = make_window()
    bar = window.statusBar()
    # the line's owners: the window's summary (hidden while a message shows) and the warnings at the right
    labels = [w for w in bar.findChildren(QLabel) if w.parent() is bar]
    assert set(labels) == {window.status_summary, window.status_warnings} and not bar.findChildren(QProgressBar)
    assert window.status_summary.isVisible() and window.status_summary.text()
    window.curves.notice.emit("Joint angle: first message")                # two senders, one after the other
    window.settings_panel.notice.emit("Settings: second message")
    assert bar.currentMessage() == "Settings: second message"               # the later one replaces the earlier
    assert not window.status_summary.isVisible()                            # the summary gives way, not drawn under
    window.status_warnings.setText("3 mesh files not found")
    qtbot.wait(10)
    bar.clearMessage()
    assert window.status_summary.isVisible() and bar.currentMessage() == ""  # the summary comes back
    # the summary and the warnings share the line side by side, never on top of each other
    summary, warnings = window.status_summary.geometry(), window.status_warnings.geometry()
    assert not summary.intersects(warnings) and summary.right() < warnings.left()
