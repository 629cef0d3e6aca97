"""The Simulation panel: a coarse built-in scene run in the worker to 100 %, a cancelled run leaving the run shown,
and scrubbing with the application's timeline, which draws the skin where the recorded pose puts it, coloured by that
frame's pressure, while the panel is shown (the trial's frames otherwise)."""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage

from hybridgui.viewport import style
from skin.scenes import SCENES, athlete_and_skin
from engine.data import Data

COARSE = "coarse: skin every 3 cm (interactive)"


def _choose(panel, duration: float) -> None:
    panel.scene_name.setCurrentText("back-pressure")
    panel.size.setCurrentText(COARSE)
    panel.duration.setValue(duration)


def test_simulation_panel_runs_cancels_and_scrubs(make_window, qtbot):
    window = make_window()
    panel = window.simulation
    assert not window.docks["simulation"].isVisible()       # opened from View > Panels
    window.docks["simulation"].show()
    window.docks["simulation"].raise_()
    _choose(panel, 0.03)
    seen = []
    panel.runner.progress.connect(lambda p: seen.append(p.fraction))
    panel.run.click()
    assert not panel.run.isEnabled() and panel.cancel.isEnabled()
    # on a fresh numba cache (a fresh clone's CI) the skin's kernels are compiled in this first run: about 70 s
    with qtbot.waitSignal(panel.runner.ended, timeout=600000):
        pass
    assert seen[-1] == 1.0 and panel.bar.value() == panel.bar.maximum()
    playback = panel.playback
    timeline = window.timeline
    assert playback is not None and playback.n_frames == 4
    assert timeline.source is panel.clock and timeline.slider.maximum() == 3 and timeline.isEnabled()
    assert panel.run.isEnabled() and not panel.cancel.isEnabled()
    # the skin drawn is eq. 3 at the recorded pose of each frame, coloured by that frame's pressure (kPa)
    model, skin = athlete_and_skin(0.03)
    data = Data(model)
    result = playback.result
    qtbot.waitUntil(lambda: panel.view._image.width() > 1, timeout=10000)
    drawn = []
    for frame in (3, 1):
        timeline.slider.setValue(frame)
        assert panel.clock.frame == frame and f"frame {frame + 1} / 4" in timeline.label.text()
        x = skin.vertices(model, data, result.q[frame])
        np.testing.assert_allclose(panel.scene.skin_points(), x, atol=1e-12)
        np.testing.assert_allclose(panel.scene.skin_pressure() * 1e3, result.pressure[frame], rtol=1e-12)
        assert panel.time_label.text() == f"{result.time[frame]:.3f} s"
        drawn.append(panel.scene.skin_points())
        assert set(playback.scene.watch) == {"upper back", "hip", "knees", "arms"}
        for name, mask in playback.scene.watch.items():         # the watched parts' peaks at the frame shown
            assert f"{name}: peak {result.pressure[frame][mask].max() / 1e3:.1f} kPa" in panel.summary.text()
    assert np.abs(drawn[0] - drawn[1]).max() > 1e-4                # the body moved between the frames
    assert result.pressure[3].max() > 0.0                           # it touches the bed by then
    bar = panel.scene.bar
    assert window.docks["simulation"].isVisible() and bar.GetVisibility()
    lut = bar.GetLookupTable()          # the top 1 % of the loaded samples drawn above the range, the peak named
    assert np.isclose(lut.GetRange()[1], playback.pressure_scale_kpa(), rtol=1e-9)
    assert 0.0 < lut.GetRange()[1] < playback.peak_pressure_kpa()
    assert np.isclose(playback.peak_pressure_kpa(), float(result.pressure.max()) / 1e3, rtol=1e-12)
    assert bar.GetDrawAboveRangeSwatch() and lut.GetUseAboveRangeColor()
    assert bar.GetAboveRangeAnnotation() == f"up to {playback.peak_pressure_kpa():.3g}"
    image = panel.view.image().convertToFormat(QImage.Format.Format_RGB888)
    rgb = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    rgb = rgb[:, :3 * image.width()].reshape(image.height(), image.width(), 3).astype(int)
    background = np.round(255 * np.array(style.BACKGROUND))
    assert (np.abs(rgb - background).sum(axis=2) > 30).mean() > 0.05     # the skin and the bed are drawn
    # the timeline's play runs through the frames to the last and stops there (no loop)
    timeline.loop.setChecked(False)
    timeline.step_to_end(False)
    timeline.toggle_play()
    qtbot.waitUntil(lambda: not timeline.playing, timeout=10000)
    assert panel.clock.frame == 3
    np.testing.assert_allclose(panel.scene.skin_points(), skin.vertices(model, data, result.q[3]), atol=1e-12)
    timeline.step(-2)
    assert panel.clock.frame == 1
    # the panel hidden, the timeline drives the trial again; shown, the run, at its frame
    window.docks["simulation"].hide()
    assert timeline.source is window.document
    window.docks["simulation"].show()
    assert timeline.source is panel.clock and timeline.slider.value() == 1
    # a cancelled run leaves the run shown, at the frame shown
    before = panel.scene.skin_points()
    _choose(panel, 2.0)
    cancelled = []
    panel.runner.cancelled.connect(lambda: cancelled.append(True))
    panel.runner.progress.connect(lambda p: panel.cancel.click() if p.stage == "simulating" else None)
    panel.run.click()
    with qtbot.waitSignal(panel.runner.ended, timeout=120000):
        pass
    assert cancelled and panel.playback is playback
    assert "cancelled" in panel.message.text() and panel.run.isEnabled()
    assert panel.clock.frame == 1 and timeline.slider.value() == 1
    np.testing.assert_array_equal(panel.scene.skin_points(), before)


def test_the_panel_offers_every_built_in_scene(make_window):
    panel = make_window().simulation      # its names come from the command line's list, not from skin.scenes
    assert [panel.scene_name.itemText(i) for i in range(panel.scene_name.count())] == list(SCENES)
