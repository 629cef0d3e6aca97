"""Fixtures of the application tests: the work to show (the bundled demo, shipped in ``engine/demo/resources``),
windows with their own settings file, and image checks. Tests that want other data (gait2354) open it
themselves.

The Qt platform is chosen as the application chooses it: the offscreen platform without a display (the 3D view
then renders off screen through EGL), the real one under a display or Xvfb.
"""
from __future__ import annotations

import gc

import numpy as np
import pytest

from hybridgui.app import prepare_environment

prepare_environment(screenshot=False)

from PySide6.QtCore import QSettings  # noqa: E402  (after the platform is chosen)

from engine.analysis.gait_phases import side_of, stance_phases  # noqa: E402
from engine.demo import demo_inputs, demo_results  # noqa: E402


@pytest.fixture(autouse=True)
def collect_on_this_thread():
    """Python's cycle collector off while a test runs and run here at its end, after its windows are closed, as the
    application runs it on its GUI thread only (``hybridgui.app``): run by a worker thread that allocates, it would
    destroy a closed window's Qt objects in that thread (a deadlock with the GUI thread). Frozen after, so the next
    collection scans only what later tests make."""
    gc.disable()
    yield
    gc.collect()
    gc.freeze()
    gc.enable()


@pytest.fixture(scope="session")
def work():
    """``(result, settings)`` shown by the tests: the demo's shipped results."""
    return demo_results()


@pytest.fixture(scope="session")
def inputs():
    """``(model, trial, settings)`` to analyse: the demo's."""
    return demo_inputs()


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


def differing(image, other) -> np.ndarray:
    """Which pixels of ``image`` differ from ``other`` (QImages of one size) by more than 30 (RGB summed)."""
    def rgb(im):
        im = im.convertToFormat(im.Format.Format_RGB888)
        rows = np.frombuffer(im.constBits(), np.uint8).reshape(im.height(), im.bytesPerLine())
        return rows[:, :3 * im.width()].reshape(im.height(), im.width(), 3).astype(int)
    return np.abs(rgb(image) - rgb(other)).sum(axis=2) > 30


def drawn_fraction(image, background) -> float:
    """Fraction of pixels of ``image`` that differ from ``background`` (QImages of one size) by more than 30."""
    return float(differing(image, background).mean())
