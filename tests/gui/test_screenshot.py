"""What a user sees: PNGs of the whole window at mid-stance with a drawn (not blank) 3D view, the blade drawn
bent by its strains, and ``hybridgui --screenshot`` working without a screen."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

from engine.display.rod_surface import rod_surface
from hybridgui.screenshot import save_window
from hybridgui.viewport.scene import LAYERS, Content
from tests.muscles.path_models import wrap_model

from .conftest import demo_available, drawn_fraction, mid_stance, needs_demo

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
        rest[model.tree.coordinates[name].qi] = model.tree.q_neutral[model.tree.coordinates[name].qi]
    return float(np.linalg.norm(drawn_tip - rod_surface(model, data, rod, rest).centreline[-1]))


def test_window_at_mid_stance(shown, tmp_path):
    window, doc = shown, shown.document
    doc.set_time(mid_stance(doc.result))
    path = tmp_path / ("demo_mid_stance.png" if demo_available() else "gait2354_mid_stance.png")
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


@needs_demo
def test_blade_bent_at_mid_stance(shown):
    window, doc = shown, shown.document
    doc.set_time(mid_stance(doc.result))
    blade = window.scene.layers["blade"]
    assert blade.rods, "the demo model has a blade"
    rod = blade.rods[0]
    moved = _tip_moved(doc.model, doc.model.create_data(), rod.name, doc.Q[doc.frame], rod.surface.centreline[-1])
    assert moved > 0.005, f"the blade tip is only {1000 * moved:.1f} mm from its rest position"


def test_blade_is_drawn_with_the_rod_strains(make_window):
    window = make_window()
    model = wrap_model()
    Q = np.tile(model.neutral(), (2, 1))
    Q[1, model.tree.coordinates["strip_s1_kz"].qi] += 4.0
    window.scene.set_content(Content(model, np.array([0.0, 0.1]), Q))
    for frame, bent in ((0, False), (1, True)):
        window.scene.show_frame(frame)
        rod = window.scene.layers["blade"].rods[0]
        data = model.create_data()
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
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "hybridgui.app", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_screenshot_command_without_a_screen(shown, tmp_path):
    window, doc = shown, shown.document
    session = tmp_path / "work.hls"
    window.save_session(session)
    out = tmp_path / "from_session.png"
    t = mid_stance(doc.result)
    done = _run_app("--session", session, "--time", t, "--screenshot", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (1600, 1000)
    _keep(out)
    pixels = np.frombuffer(picture.convertToFormat(QImage.Format.Format_RGB888).constBits(), np.uint8)
    assert len(np.unique(pixels.reshape(-1)[: 3 * (len(pixels) // 3)].reshape(-1, 3), axis=0)) > 500


@needs_demo
def test_first_launch_screenshot_shows_the_demo(tmp_path):
    out = tmp_path / "first_launch.png"
    done = _run_app("--screenshot", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert QImage(str(out)).width() == 1600
    _keep(out)


def test_hybrid_gui_command_help():
    done = subprocess.run([sys.executable, "-m", "engine.cli.main", "gui", "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "--screenshot" in done.stdout and "hybrid gui" in done.stdout
