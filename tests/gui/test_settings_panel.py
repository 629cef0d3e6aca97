"""The settings panel shows analysis settings and gives them back, with the user's edits; bad numbers are
errors naming the field."""
import dataclasses

import pytest

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import SettingsError
from engine.muscles.pipeline import MusclePipelineSettings
from hybridgui.settings_panel import SettingsPanel


def test_round_trip_and_edits(qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    s = AnalysisSettings(axes="Z-up, X-forward", cutoff=8.0, estimate_grf=True, muscles=True,
                         muscle_settings=MusclePipelineSettings())
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
    assert panel.settings().cutoff is None


def test_a_bad_marker_weight_names_the_marker(qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.set_settings(AnalysisSettings(), ["LASI"])
    panel.weights.item(0, 1).setText("heavy")
    with pytest.raises(SettingsError, match="LASI"):
        panel.settings()
