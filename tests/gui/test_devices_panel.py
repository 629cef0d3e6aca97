"""The Devices panel: seed 003's hip mechanism driven by the shown analysis's hip, drawn at the hip and plotted."""
import numpy as np

from hip_mechanism.trial import trial_demands
from hybridgui.viewport.hip_mechanism import force_colour


def test_devices_panel_drives_the_mechanism_by_the_shown_hip(shown, qtbot):
    window = shown
    panel = window.devices
    assert not window.docks["devices"].isVisible()          # hidden at first launch, opened from View > Panels
    window.docks["devices"].show()
    window.docks["devices"].raise_()
    qtbot.waitUntil(lambda: panel.layer is not None, timeout=60000)
    result = window.document.result
    expected = trial_demands(panel.params, result, "r")
    assert panel.demands is not None and np.allclose(panel.demands.forces, expected.forces)
    x, y = panel.path.getData()
    assert np.allclose(x, np.degrees(expected.q[:, 1])) and np.allclose(y, np.degrees(expected.q[:, 0]))
    # the mechanism is in the 3D scene, at the hip, its actuated limbs coloured by their force
    layer = panel.layer
    assert layer is not None and all(window.scene.renderer.HasViewProp(a) for a in layer.actors)
    frame = int(np.argmin(np.abs(np.abs(expected.forces[:, 0]) - 0.5 * panel.params.actuator_force_limit)))
    window.document.set_frame(frame)
    qtbot.wait(10)
    shown_frame = panel._frame()
    colour = layer.limbs[1][1].GetProperty().GetColor()
    assert np.allclose(colour, force_colour(expected.forces[shown_frame, 0], panel.params.actuator_force_limit))
    hip = layer.base[shown_frame].mean(axis=0)
    assert np.allclose(layer.limbs[1][0].GetPoint1(), layer.base[shown_frame, 1])
    assert np.linalg.norm(layer.platform[shown_frame].mean(axis=0) - hip) > 0.25   # the platform 0.3 m away
    # the other side, and hiding the drawing
    panel.side.setCurrentText("left hip")
    assert np.allclose(panel.demands.forces, trial_demands(panel.params, result, "l").forces)
    panel.show_3d.setChecked(False)
    assert panel.layer is None
