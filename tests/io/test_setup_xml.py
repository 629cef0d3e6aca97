"""IK setup files: marker weights, coordinate tasks, files and time range."""
from __future__ import annotations

import math

import pytest

from engine.errors import DataError
from engine.io.setup_xml import read_ik_setup


@pytest.fixture(scope="module")
def setup_path(test_data):
    return test_data / "opensim" / "gait2354" / "subject01_Setup_IK.xml"


def test_gait2354_setup(setup_path):
    setup = read_ik_setup(setup_path)
    assert (setup.model_file, setup.marker_file, setup.output_motion_file) == \
           ("subject01_simbody.osim", "subject01_walk1.trc", "subject01_walk1_ik.mot")
    assert setup.coordinate_file == "" and setup.time_range == (0.4, 1.6)
    assert setup.constraint_weight == 20.0 and setup.accuracy == 1e-5
    weights = {t.name: t.weight for t in setup.marker_tasks}
    assert len(weights) == 31 and all(t.apply for t in setup.marker_tasks)
    assert (weights["Sternum"], weights["R.Acromium"], weights["Top.Head"], weights["R.ASIS"], weights["L.Toe.Tip"]) \
        == (1.0, 0.5, 0.1, 10.0, 10.0)
    assert [(c.name, c.weight, c.value_type, c.value) for c in setup.coordinate_tasks] == [
        ("subtalar_angle_r", 1000.0, "default_value", 0.0), ("mtp_angle_r", 1000.0, "default_value", 0.0),
        ("subtalar_angle_l", 1000.0, "default_value", 0.0), ("mtp_angle_l", 1000.0, "default_value", 0.0)]


def test_gait10dof_setup_with_infinite_constraint_weight(test_data):
    setup = read_ik_setup(test_data / "opensim" / "gait10dof18musc" / "ik_setup.xml")
    assert math.isinf(setup.constraint_weight) and setup.time_range == (0.0, 2.5)
    assert setup.marker_file == "subject01_walk.trc" and len(setup.marker_tasks) == 39


@pytest.mark.parametrize("old,new,fragment", [
    ("<weight>0.5</weight>", "<weight>-0.5</weight>", "negative"),
    ("<weight>0.5</weight>", "<weight>NaN</weight>", "not a finite number"),
    ("<weight>0.5</weight>", "<weight>heavy</weight>", "not a number"),
    ("<apply>true</apply>", "<apply>yes</apply>", "true or false"),
    ("<value_type>default_value</value_type>", "<value_type>guess</value_type>", "value_type"),
    ("<time_range> 0.4 1.6</time_range>", "<time_range> 1.6 0.4</time_range>", "time range"),
    ("<time_range> 0.4 1.6</time_range>", "<time_range> 0.4</time_range>", "time range"),
    ('<IKMarkerTask name="R.Acromium">', '<IKMarkerTask name="Sternum">', "listed twice"),
    ("</InverseKinematicsTool>", "", "not well-formed XML"),
    ("InverseKinematicsTool", "ScaleTool", "no <InverseKinematicsTool>"),
])
def test_malformed_setup_raises_data_error(tmp_path, setup_path, old, new, fragment):
    text = setup_path.read_text()
    assert old in text
    path = tmp_path / "setup.xml"
    path.write_text(text.replace(old, new))
    with pytest.raises(DataError) as info:
        read_ik_setup(path)
    assert info.value.file == str(path) and fragment in str(info.value)
