"""Fixtures of the application tests: the work to show (the bundled demo when its files exist, else gait2354
walk1 analysed as ``hybrid analyze`` does), windows with their own settings file, and image checks.

The Qt platform is chosen as the application chooses it: the offscreen platform without a display (the 3D view
then renders off screen through EGL), the real one under a display or Xvfb.
"""
from __future__ import annotations

import numpy as np
import pytest

from hybridgui.app import prepare_environment

prepare_environment(screenshot=False)

from PySide6.QtCore import QSettings  # noqa: E402  (after the platform is chosen)

from engine.analysis.gait_phases import side_of, stance_phases  # noqa: E402
from engine.demo import demo_files  # noqa: E402
from tests.analysis import gait2354_result  # noqa: E402


def demo_available() -> bool:
    f = demo_files()
    return all(p.is_file() for p in (f.model, f.trial, f.results))


needs_demo = pytest.mark.skipif(not demo_available(), reason="the demo files are not built ('hybrid make-demo')")


@pytest.fixture(scope="session")
def work(shared_data):
    """``(result, settings)`` shown by the tests: the demo's shipped results, else gait2354 analysed."""
    if demo_available():
        from engine.demo import demo_results
        return demo_results()
    return gait2354_result.analysed(str(shared_data))


@pytest.fixture(scope="session")
def inputs(shared_data):
    """``(model, trial, settings)`` to analyse: the demo's, else gait2354's."""
    if demo_available():
        from engine.demo import demo_inputs
        return demo_inputs()
    return gait2354_result.inputs(str(shared_data))


@pytest.fixture
def store(tmp_path):
    """A settings file of the test's own (layout, recent files)."""
    return QSettings(str(tmp_path / "hybridgui.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_window(qtbot, store):
    """``make_window()`` -> a shown MainWindow (closed at the end of the test)."""
    from hybridgui.main_window import MainWindow

    def make():
        window = MainWindow(store)
        qtbot.addWidget(window)
        window.resize(1500, 950)
        window.show()
        qtbot.waitExposed(window)
        return window

    return make


@pytest.fixture
def shown(make_window, work):
    """A window showing the analysed work."""
    window = make_window()
    result, settings = work
    window.document.set_inputs(model=result.model, trial=result.trial)
    window.document.set_result(result, settings)
    return window


def mid_stance(result) -> float:
    """Middle of the first complete stance of the blade (or of the right foot), s."""
    phases = stance_phases(result)
    first, last = phases.span
    groups = sorted(phases.intervals, key=lambda g: ("blade" not in g, side_of(g) != "Right"))
    for group in groups:
        for a, b in phases.intervals[group]:
            if a > first and b < last:
                return 0.5 * (a + b)
    a, b = phases.intervals[groups[0]][0]
    return 0.5 * (a + b)


def drawn_fraction(image, background) -> float:
    """Fraction of pixels of ``image`` that differ from ``background`` (QImages of one size) by more than 30."""
    def rgb(im):
        im = im.convertToFormat(im.Format.Format_RGB888)
        rows = np.frombuffer(im.constBits(), np.uint8).reshape(im.height(), im.bytesPerLine())
        return rows[:, :3 * im.width()].reshape(im.height(), im.width(), 3).astype(int)
    return float((np.abs(rgb(image) - rgb(background)).sum(axis=2) > 30).mean())
