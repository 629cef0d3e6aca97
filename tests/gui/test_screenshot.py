"""What a user sees: PNGs of the whole window at mid-stance with a drawn (not blank) 3D view, the blade drawn
bent by its strains, and ``hybridgui --screenshot`` working without a screen: it shows the demo at first launch,
goes to ``--time``, and exits with an error (writing nothing) when it cannot open what it was given."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QImage

from engine.algorithms import neutral
from engine.data import Data
from engine.demo.athlete import MASS
from engine.display.rod_surface import rod_surface
from engine.tree import compile_tree
from hybridgui.app import SIZE
from hybridgui.screenshot import save_window, window_image
from hybridgui.viewport.scene import LAYERS, Content
from tests.muscles.path_models import wrap_model

from .conftest import differing, drawn_fraction, mid_stance

SHOTS = os.environ.get("HYBRIDLAB_SCREENSHOTS")    # also keep the PNGs there, to look at them


def _keep(path: Path) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / path.name)


def _background(window) -> QImage:
    """The 3D view with nothing in it but the background."""
    scene = window.scene
    props = [p for p in scene.renderer.GetViewProps()]
    shown = [p.GetVisibility() for p in props]
    for p in props:
        p.SetVisibility(False)
    image = window.view.image()
    for p, v in zip(props, shown):
        p.SetVisibility(v)
    return image


def _tip_moved(model, data, rod, q, drawn_tip) -> float:
    """Distance (m) from the drawn tip to the tip of the rod at rest (same pose, strains at rest)."""
    rest = q.copy()
    for name in model.rod(rod).coordinate_names():
        rest[compile_tree(model).coordinates[name].qi] = compile_tree(model).q_neutral[compile_tree(model).coordinates[name].qi]
    return float(np.linalg.norm(drawn_tip - rod_surface(model, data, rod, rest).centreline[-1]))


def test_window_at_mid_stance(shown, tmp_path):
    window, doc = shown, shown.document
    doc.set_time(mid_stance(doc.result))
    path = tmp_path / "demo_mid_stance.png"
    save_window(window, path)
    _keep(path)
    picture = QImage(str(path))
    assert (picture.width(), picture.height()) == (window.width(), window.height())
    view = window.view
    frame = view.image()
    origin = view.mapTo(window, view.rect().topLeft())
    in_picture = picture.copy(QRect(origin, view.size()))
    assert drawn_fraction(in_picture, frame) < 0.001          # the 3D view is in the window picture
    assert drawn_fraction(frame, _background(window)) > 0.03   # and it is not blank
    # every layer has something at mid-stance: bodies, muscles, markers, a loaded ground reaction
    layers = window.scene.layers
    assert all(a.GetVisibility() for a in layers["bodies"].actors.values())
    assert layers["muscles"].polydata.GetNumberOfLines() == len(doc.model.muscles)
    assert any(a.GetVisibility() for a in layers["grf"].actors)


def test_blade_bent_at_mid_stance(shown):
    window, doc = shown, shown.document
    doc.set_time(mid_stance(doc.result))
    blade = window.scene.layers["blade"]
    assert blade.rods, "the demo model has a blade"
    rod = blade.rods[0]
    moved = _tip_moved(doc.model, Data(doc.model), rod.name, doc.Q[doc.frame], rod.surface.centreline[-1])
    assert moved > 0.005, f"the blade tip is only {1000 * moved:.1f} mm from its rest position"


def test_blade_is_drawn_with_the_rod_strains(make_window):
    window = make_window()
    model = wrap_model()
    Q = np.tile(neutral(model), (2, 1))
    Q[1, compile_tree(model).coordinates["strip_s1_kz"].qi] += 4.0
    window.scene.set_content(Content(model, np.array([0.0, 0.1]), Q))
    for frame, bent in ((0, False), (1, True)):
        window.scene.show_frame(frame)
        rod = window.scene.layers["blade"].rods[0]
        data = Data(model)
        assert np.allclose(rod.surface.centreline, rod_surface(model, data, "strip", Q[frame]).centreline)
        moved = _tip_moved(model, data, "strip", Q[frame], rod.surface.centreline[-1])
        assert (moved > 0.01) == bent, moved
        bounds = np.array(rod.polydata.GetBounds()).reshape(3, 2)
        tip = rod.surface.centreline[-1]
        assert np.all(bounds[:, 0] - 1e-9 <= tip) and np.all(tip <= bounds[:, 1] + 1e-9)
    window.set_blade_colouring("bending strain")
    scalars = rod.polydata.GetPointData().GetScalars()
    assert scalars is not None and scalars.GetRange()[1] > 3.9       # 4 1/m in the first segment
    assert drawn_fraction(window.view.image(), _background(window)) > 0.01
    assert set(window.scene.visible) == set(LAYERS)


def _run_app(*args, cwd):
    """``hybridgui ARGS`` in a new process, with settings (layout, recent files) of its own under ``cwd``."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(Path(cwd) / "config"))
    return subprocess.run([sys.executable, "-m", "hybridgui.app", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def _time_shown(done) -> float:
    """The time the screenshot command says it showed (its last line: 'wrote FILE at T s (frame i of n)')."""
    line = done.stdout.strip().splitlines()[-1]
    assert " wrote " in line, done.stdout
    return float(line.split(" at ")[-1].split(" s ")[0])


def test_screenshot_command_without_a_screen(shown, tmp_path):
    window, doc = shown, shown.document
    doc.set_frame(0)                        # the session is saved at the first frame, --time asks for another
    session = tmp_path / "work.hls"
    window.save_session(session)
    out = tmp_path / "from_session.png"
    t = mid_stance(doc.result)
    assert doc.frame_at(t) > 5
    done = _run_app("--session", session, "--time", t, "--screenshot", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert abs(_time_shown(done) - doc.time[doc.frame_at(t)]) < 1e-6       # --time was applied
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (1600, 1000)
    _keep(out)
    pixels = np.frombuffer(picture.convertToFormat(QImage.Format.Format_RGB888).constBits(), np.uint8)
    assert len(np.unique(pixels.reshape(-1)[: 3 * (len(pixels) // 3)].reshape(-1, 3), axis=0)) > 500


def test_first_launch_screenshot_shows_the_demo(make_window, tmp_path):
    out = tmp_path / "first_launch.png"
    done = _run_app("--screenshot", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    _keep(out)
    picture = QImage(str(out)).convertToFormat(QImage.Format.Format_RGB888)
    assert (picture.width(), picture.height()) == SIZE
    # the same window in this process, on the demo: its 3D view is where the picture's must be
    window = make_window()
    window.resize(*SIZE)
    window.open_demo()
    assert abs(_time_shown(done) - window.document.current_time) < 1e-6      # at the demo's starting time
    # ... which is in a stance on the blade: the estimate puts more than body weight on it there
    result = window.document.result
    k = int(np.argmin(np.abs(result.qp.time - window.document.current_time)))
    on_blade = np.array([c.group == "blade" for c in result.model.contacts])
    gravity = np.asarray(result.model.gravity)
    up = -gravity / np.linalg.norm(gravity)
    assert result.qp.forces[k, on_blade].sum(axis=0) @ up > MASS * np.linalg.norm(gravity)
    view = QRect(window.view.mapTo(window, window.view.rect().topLeft()), window.view.size())
    shown = picture.copy(view)

    def drawn(**hidden) -> QImage:
        """The 3D view of the demo as this process draws it, with the ``hidden`` layers hidden."""
        for name, off in hidden.items():
            window.set_layer_visible(name, not off)
        image = window_image(window).convertToFormat(QImage.Format.Format_RGB888).copy(view)
        for name in hidden:
            window.set_layer_visible(name, True)
        return image

    expected = drawn()
    same = drawn_fraction(shown, expected)
    assert same < 0.01, f"the picture's 3D view is not the demo's ({100 * same:.2f} % of its pixels differ)"
    assert drawn_fraction(shown, _background(window).convertToFormat(QImage.Format.Format_RGB888)) > 0.03
    for layer in ("blade", "bodies"):     # the blade and the skeleton are in the picture, where they are drawn here
        where = differing(expected, drawn(**{layer: True}))
        assert where.sum() > 500, f"the demo's {layer} covers only {where.sum()} pixels"
        agree = 1.0 - differing(shown, expected)[where].mean()
        assert agree > 0.9, f"only {100 * agree:.0f} % of the {layer}'s pixels are in the picture"


def test_a_screenshot_shows_the_default_layout_and_leaves_the_users_settings_alone(make_window, qtbot, tmp_path):
    # an earlier interactive run closed the Analysis and Curves panels and saved that layout in the user's settings
    # (QSettings("HybridLab", "HybridLab"): $XDG_CONFIG_HOME/HybridLab/HybridLab.conf), with its window's size
    from hybridgui.main_window import MainWindow
    stored = tmp_path / "config" / "HybridLab" / "HybridLab.conf"          # _run_app's XDG_CONFIG_HOME
    user = QSettings(str(stored), QSettings.Format.IniFormat)
    earlier = MainWindow(user)
    qtbot.addWidget(earlier)
    earlier.resize(1200, 800)
    earlier.show()
    for name in ("analysis", "curves"):
        earlier.docks[name].hide()
    earlier.close()
    user.sync()
    written = stored.read_bytes()
    assert b"layout" in written and b"geometry" in written
    out = tmp_path / "default_layout.png"
    done = _run_app("--screenshot", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    _keep(out)
    assert stored.read_bytes() == written                       # nothing of the screenshot's window was saved
    # the picture's Analysis panel is where a window with the default layout has it, showing what it shows
    window = make_window()
    window.resize(*SIZE)
    window.open_demo()
    dock = window.docks["analysis"]
    assert dock.isVisible()
    where = QRect(dock.mapTo(window, dock.rect().topLeft()), dock.size())
    picture = QImage(str(out)).convertToFormat(QImage.Format.Format_RGB888).copy(where)
    expected = window_image(window).convertToFormat(QImage.Format.Format_RGB888).copy(where)
    assert drawn_fraction(picture, expected) < 0.01


def test_screenshot_command_fails_when_it_cannot_open(tmp_path):
    out = tmp_path / "broken.png"
    done = _run_app(tmp_path / "missing.osim", "--screenshot", out, cwd=tmp_path)
    assert done.returncode == 1
    assert "missing.osim" in done.stderr and "no screenshot written" in done.stderr
    assert not out.exists()
    done = _run_app("--time", "1000", "--screenshot", out, cwd=tmp_path)       # the demo lasts a few seconds
    assert done.returncode == 1 and "--time 1000 s lies outside the frames" in done.stderr
    assert not out.exists()


def test_hybrid_gui_command_help():
    done = subprocess.run([sys.executable, "-m", "engine.cli.main", "gui", "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "--screenshot" in done.stdout and "usage: hybridgui" in done.stdout
