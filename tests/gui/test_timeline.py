"""Timeline and events: playing advances in time and loops, stepping and keys move one frame, stance phases
are shaded, events are detected from the ground reactions and edited, and curves normalise to the gait cycle."""
import numpy as np
from PySide6.QtGui import QAction

from engine.analysis.gait_phases import events_from_phases, stance_phases
from engine.trial.trial import Event


def test_play_step_and_keys(shown, qtbot):
    window, doc = shown, shown.document
    timeline = window.timeline
    doc.set_frame(0)
    timeline.toggle_play()
    assert timeline.playing
    qtbot.waitUntil(lambda: doc.frame > 2, timeout=5000)
    timeline.toggle_play()
    assert not timeline.playing
    f = doc.frame
    timeline.step(1)
    assert doc.frame == f + 1
    keys = {a.shortcut().toString(): a for a in window.findChildren(QAction) if not a.shortcut().isEmpty()}
    assert {"Space", "Left", "Right", "Home", "End", "Ctrl+R"} <= set(keys)
    keys["Left"].trigger()
    assert doc.frame == f
    keys["End"].trigger()
    assert doc.frame == doc.n_frames - 1
    keys["Home"].trigger()
    assert doc.frame == 0
    # at the end without loop, playing stops on the last frame
    timeline.loop.setChecked(False)
    doc.set_frame(doc.n_frames - 3)
    timeline._start_time = doc.current_time
    timeline._clock.start()
    timeline._timer.start()
    qtbot.waitUntil(lambda: not timeline.playing, timeout=5000)
    assert doc.frame == doc.n_frames - 1


def test_stances_are_shaded_and_events_detected(shown):
    window, doc = shown, shown.document
    phases = stance_phases(doc.result)
    strip = window.timeline.strip
    assert set(strip.stances) <= {"Right", "Left"} and strip.stances
    assert sum(len(v) for v in strip.stances.values()) == sum(len(v) for v in phases.intervals.values())
    window.events.source.setCurrentText("ground reactions")
    window.events.detect()
    assert doc.events == events_from_phases(phases)
    assert window.events.table.rowCount() == len(doc.events) and strip.events == doc.events
    # edit an event's time in the table, add one at the cursor, delete one
    doc.set_frame(doc.n_frames // 2)
    window.events.add_at_cursor()
    assert any(e.time == doc.current_time for e in doc.events)
    window.events.table.item(0, 0).setText("0.5")
    assert any(e.time == 0.5 for e in doc.events)
    n = len(doc.events)
    window.events.table.selectRow(0)
    window.events.delete_selected()
    assert len(doc.events) == n - 1


def test_curves_normalised_to_the_gait_cycle(shown):
    window, doc = shown, shown.document
    t0, t1 = float(doc.time[0]), float(doc.time[-1])
    a, b = t0 + 0.1 * (t1 - t0), t0 + 0.9 * (t1 - t0)
    doc.set_events([Event("Foot Strike", "Right", a), Event("Foot Strike", "Right", b)])
    window.curves.axis.setCurrentText("Right gait cycle")
    panel = window.curves.panel("angles")
    curve = next(c for label, c in panel._curves.items() if c.isVisible())
    x, y = curve.getData()
    assert x[0] == 0.0 and x[-1] == 100.0 and len(x) == 101
    series = next(s for s in panel.series if s.label == next(k for k, c in panel._curves.items() if c is curve))
    assert np.isclose(y[50], np.interp(0.5 * (a + b), series.time, series.values))
    assert panel._bands and not panel.cursor.isVisible()
    assert panel.plot.plotItem.getAxis("bottom").labelText == "gait cycle (%)"
    window.curves.axis.setCurrentText("time")
    assert panel.cursor.isVisible()
