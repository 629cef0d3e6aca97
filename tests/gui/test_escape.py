"""Esc while an analysis runs cancels it wherever the focus is (a settings spin box or text field, a combo box, a curve
panel's plot or list), except in the Markers panel's height or mass box while a value is being typed there: that
Esc abandons the typing, and the next one cancels."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


class Running:
    """An analysis running in the background, counting its cancels."""

    running, cancelled = True, 0

    def cancel(self):
        self.cancelled += 1


def test_esc_cancels_the_running_analysis_from_any_editor_but_first_abandons_a_height_being_typed(shown, qtbot):
    window = shown
    with qtbot.waitActive(window):
        window.activateWindow()
    settings, curves, height = window.settings_panel, window.curves, window.matching.height
    window.docks["curves"].raise_()
    window.docks["analysis"].raise_()
    panel = next(p for p in curves.panels.values() if p.isVisible())      # the curve panel shown
    window.runner = running = Running()
    try:
        for widget in (settings.start, settings.order, settings.default_weight, settings.axes, settings.objective,
                       curves.axis, panel.plot, panel.list):
            assert widget.isVisible(), widget
            widget.setFocus()
            assert window.focusWidget() is widget
            before = running.cancelled
            QTest.keyClick(widget, Qt.Key.Key_Escape)
            assert running.cancelled == before + 1, type(widget).__name__

        window.docks["markers"].raise_()
        window.matching.show_body(1.75, 70.0, "from the trial", "from the trial")      # as a dropped C3D's
        shown_value = height.value()
        height.setFocus()
        height.selectAll()
        QTest.keyClicks(height, "1.62")
        assert shown_value == 1.75 and height.text().startswith("1.62") and height.typing()
        before = running.cancelled
        QTest.keyClick(height, Qt.Key.Key_Escape)              # the typing abandoned, the analysis not cancelled
        assert running.cancelled == before and height.value() == shown_value
        assert height.text() == height.textFromValue(shown_value) + height.suffix()
        QTest.keyClick(height, Qt.Key.Key_Escape)              # nothing typed: the window's Esc
        assert running.cancelled == before + 1
    finally:
        running.running = False
