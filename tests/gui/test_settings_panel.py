"""The settings panel shows analysis settings exactly and gives them back, with the user's edits; its fields
span the values the engine accepts; a loaded value a field cannot show is kept and said, never rounded or
clamped; bad numbers are errors naming the field."""
import dataclasses

import numpy as np
import pytest

from engine.analysis.pipeline import AnalysisSettings
from engine.analysis.qp_id import QPSettings
from engine.errors import SettingsError
from engine.muscles.pipeline import MusclePipelineSettings
from engine.trial.filtering import lowpass
from hybridgui.settings_panel import SettingsPanel


@pytest.fixture
def panel(qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    return panel


def test_round_trip_and_edits(panel, qtbot):
    s = AnalysisSettings(axes="Z-up, X-forward", cutoff=8.0, estimate_grf=True, muscles=True,
                         muscle_settings=MusclePipelineSettings(), loads_cutoff=9.5)
    s.ik = dataclasses.replace(s.ik, marker_weights={"LASI": 5.0}, default_weight=2.0, start=0.1)
    s.qp = dataclasses.replace(s.qp, friction=0.6, w_force=2e-4, rod_mode="elastic")
    panel.set_settings(s, ["LASI", "RASI"])
    assert panel.settings() == s
    with qtbot.waitSignal(panel.edited):
        panel.cutoff.setValue(10.0)
    panel.weights.item(1, 1).setText("0")
    panel.w_torque.setText("3e-5")
    panel.objective.setCurrentText("opensim")
    out = panel.settings()
    assert out.cutoff == 10.0 and out.ik.marker_weights == {"LASI": 5.0, "RASI": 0.0}
    assert out.qp.w_torque == 3e-5 and out.muscle_settings.forces.objective == "opensim"
    assert out.ik.start == 0.1        # fields the form does not show are kept
    panel.cutoff.setValue(0.0)
    assert panel.settings().cutoff is None and panel.cutoff.text() == "none"
    assert out.loads_cutoff == 9.5
    panel.loads_cutoff.setValue(0.0)
    assert panel.settings().loads_cutoff is None and panel.loads_cutoff.text() == "none"


def test_values_with_more_decimals_or_beyond_the_old_ranges_round_trip_exactly(panel):
    s = AnalysisSettings(cutoff=6.25, order=10)
    s.ik = dataclasses.replace(s.ik, default_weight=1.2345678e-4, marker_weights={"LASI": 0.1 + 0.2})
    s.qp = dataclasses.replace(s.qp, friction=0.875, facets=40, height=0.0125, speed=12.5, w_torque=3.3333333e-7)
    panel.set_settings(s, ["LASI", "RASI"])
    assert panel.unshown == []
    out = panel.settings()
    assert out == s
    assert (out.cutoff, out.order, out.qp.friction, out.qp.height) == (6.25, 10, 0.875, 0.0125)
    assert panel.cutoff.text() == "6.25 Hz" and panel.height.text() == "0.0125 m" and panel.friction.text() == "0.875"
    assert panel.weights.item(0, 1).text() == repr(0.1 + 0.2)


def test_the_fields_span_what_the_engine_accepts(panel):
    QPSettings(friction=panel.friction.minimum(), facets=panel.facets.minimum(), height=panel.height.minimum(),
               speed=panel.speed.minimum()).check()              # the lowest values shown are accepted ...
    for field, below in (("friction", 0.0), ("facets", panel.facets.minimum() - 1),
                         ("height", -panel.height.singleStep()), ("speed", -panel.speed.singleStep())):
        with pytest.raises(SettingsError):                       # ... and the engine refuses lower ones
            QPSettings(**{field: below}).check()
    assert panel.height.minimum() == panel.speed.minimum() == 0.0 and 0.0 < panel.friction.minimum() < 1e-9
    signal = np.sin(np.linspace(0.0, 6.0, 200))
    lowpass(signal, 100.0, 10.0, order=panel.order.minimum())
    with pytest.raises(SettingsError):
        lowpass(signal, 100.0, 10.0, order=panel.order.minimum() - 1)
    assert panel.cutoff.minimum() == 0.0 and panel.cutoff.specialValueText() == "none"    # 0: no filter (None)
    assert panel.order.maximum() >= 100 and panel.facets.maximum() >= 1000
    assert min(b.maximum() for b in (panel.cutoff, panel.friction, panel.height, panel.speed)) >= 1e6


def test_a_value_a_field_cannot_show_is_kept_and_said(panel, qtbot):
    s = AnalysisSettings(cutoff=1 / 3, order=2.5)
    s.qp = dataclasses.replace(s.qp, height=-0.01, rod_mode="stiff", speed=1e-13)
    with qtbot.waitSignal(panel.notice) as said:
        panel.set_settings(s, [])
    assert panel.settings() == s               # nothing rounded, clamped or replaced
    assert [u.split(":")[0] for u in panel.unshown] == ["Coordinates cut-off", "Filter order", "Height threshold",
                                                        "Speed threshold", "Rod forces"]
    assert "0.3333333333333333" in said.args[0] and "-0.01" in said.args[0] and "'stiff'" in said.args[0]
    assert "Kept as loaded" in panel.height.toolTip()
    panel.height.setValue(0.02)                # the user's edit replaces the kept value, the others stay
    out = panel.settings()
    assert out.qp.height == 0.02 and out.cutoff == 1 / 3 and out.qp.rod_mode == "stiff"
    assert "Kept as loaded" not in panel.height.toolTip()
    panel.set_settings(AnalysisSettings(), [])     # new settings: nothing kept from before
    assert panel.unshown == [] and panel.settings() == AnalysisSettings()


def test_the_window_lists_what_the_settings_panel_cannot_show(shown):
    window = shown
    settings = window.settings_panel.settings()
    settings.cutoff = 1 / 3
    window.document.settings = settings
    window.document.set_model(window.document.model)        # the panel shows the document's settings again
    assert "Coordinates cut-off: 0.3333333333333333" in window.status_warnings.toolTip()
    assert "kept as loaded" in window.statusBar().currentMessage()
    assert window.current_settings().cutoff == 1 / 3


def test_a_bad_marker_weight_names_the_marker(panel):
    panel.set_settings(AnalysisSettings(), ["LASI"])
    panel.weights.item(0, 1).setText("heavy")
    with pytest.raises(SettingsError, match="LASI"):
        panel.settings()
