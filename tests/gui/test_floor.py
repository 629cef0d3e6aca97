"""The axes drawn at the origin are the model frame's, labelled with their names and the directions they point to."""
import numpy as np
from vtkmodules.vtkRenderingCore import vtkRenderer

from engine.analysis.metrics import axes_of
from hybridgui.viewport.floor import FloorLayer, axis_labels


def test_the_axes_are_labelled_as_the_model_frame(shown):
    floor = shown.scene.floor                       # the demo's model: Y up (gravity along -Y), X forward
    assert floor.labels == ("X forward", "Y up", "Z right")
    assert floor.axes.GetAxisLabels()
    assert (floor.axes.GetXAxisLabelText(), floor.axes.GetYAxisLabelText(), floor.axes.GetZAxisLabelText()) == \
        floor.labels


def test_labels_follow_the_vertical_and_forward_directions():
    assert axis_labels(axes_of((0.0, 0.0, 1.0), (1.0, 0.0, 0.0))) == ("X forward", "Y left", "Z up")
    assert axis_labels(axes_of((0.0, 1.0, 0.0), (-1.0, 0.0, 0.0))) == ("X backward", "Y up", "Z left")
    assert axis_labels(axes_of((0.0, 1.0, 0.0), (1.0, 0.0, 1.0))) == ("X", "Y up", "Z")    # forward oblique
    layer = FloorLayer(vtkRenderer(), axes_of((0.0, 0.0, 1.0), (0.0, 1.0, 0.0)), 0.0, np.zeros(3), np.ones(3))
    assert layer.labels == ("X right", "Y forward", "Z up") == (layer.axes.GetXAxisLabelText(),
                                                                layer.axes.GetYAxisLabelText(),
                                                                layer.axes.GetZAxisLabelText())
