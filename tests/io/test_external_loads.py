"""ExternalLoads .xml with its GRF .mot: which columns act on which body; the loads as force plates."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from engine.errors import DataError
from engine.io.external_loads import ground_reaction_plates, load_external_loads, read_external_loads, \
    with_ground_reactions
from engine.io.storage import read_storage
from engine.io.trc import read_trc

G = 9.80665


@pytest.fixture(scope="module")
def gait(test_data):
    return test_data / "opensim" / "gait2354"


def test_read_the_gait2354_loads_document(gait):
    spec = read_external_loads(gait / "subject01_walk1_grf.xml")
    assert spec.datafile == "subject01_walk1_grf.mot"
    right, left = spec.forces
    assert (right.name, right.applied_to_body, left.applied_to_body) == ("right", "calcn_r", "calcn_l")
    assert right.force_expressed_in_body == right.point_expressed_in_body == "ground"
    assert (left.force_identifier, left.point_identifier, left.torque_identifier) == \
           ("1_ground_force_v", "1_ground_force_p", "1_ground_torque_")
    assert not right.disabled


def test_loads_pick_the_right_columns(gait):
    external = load_external_loads(gait / "subject01_walk1_grf.xml")
    table = read_storage(gait / "subject01_walk1_grf.mot")
    right, left = external.loads
    assert right.body == "calcn_r" and left.body == "calcn_l"
    assert right.columns[:3] == ("ground_force_vx", "ground_force_vy", "ground_force_vz")
    np.testing.assert_array_equal(left.force[:, 1], table.column("1_ground_force_vy"))
    np.testing.assert_array_equal(left.point[:, 2], table.column("1_ground_force_pz"))
    np.testing.assert_array_equal(right.torque[:, 1], table.column("ground_torque_y"))
    np.testing.assert_array_equal(right.time, table.time)


@pytest.mark.parametrize("folder,xml,model", [("gait2354", "subject01_walk1_grf.xml", "subject01_simbody.osim"),
                                              ("gait10dof18musc", "subject01_walk_grf.xml", "subject01.osim")])
def test_stride_mean_vertical_force_equals_model_weight(test_data, folder, xml, model):
    """Over one stride (right heel strike to the next) the mean total vertical reaction equals the
    body weight (impulse-momentum, steady walking); the mass is the sum of the model's body masses."""
    root = ET.parse(test_data / "opensim" / folder / model).getroot()
    mass = sum(float(b.find("mass").text) for b in root.iter("Body") if b.find("mass") is not None)
    plates = ground_reaction_plates(load_external_loads(test_data / "opensim" / folder / xml))
    right = plates[0].loaded_intervals()
    start, end = right[1][0], right[2][0]
    t = plates[0].time
    stride = (t >= start) & (t < end)
    total = sum(p.force[:, 1] for p in plates)
    assert 0.9 < end - start < 1.5
    assert total[stride].mean() == pytest.approx(mass * G, rel=0.03)


def test_trial_with_ground_reactions(gait):
    trial = read_trc(gait / "subject01_walk1.trc")
    external = load_external_loads(gait / "subject01_walk1_grf.xml")
    trial = with_ground_reactions(trial, external)
    right, left = trial.plates
    assert right.corners is None and right.type is None and right.rate == pytest.approx(600.0)
    np.testing.assert_allclose(right.normal, [0, 1, 0])
    # where the ground torque is only vertical (the free moment), the COP is the file's point
    loads = external.loads[0]
    heavy = right.normal_force > 300
    np.testing.assert_allclose(right.cop[heavy], loads.point[heavy], atol=1e-9)
    np.testing.assert_allclose(right.free_moment[heavy], loads.torque[heavy], atol=1e-9)
    assert "calcn_r" in trial.conversions[-1] and "ground +Y" in trial.conversions[-1]
    assert any("differs from the point columns" in w for w in trial.warnings)   # low-force samples


def write(tmp_path, gait, xml_text=None, mot_text=None):
    xml = tmp_path / "loads.xml"
    xml.write_text(xml_text if xml_text is not None else (gait / "subject01_walk1_grf.xml").read_text())
    (tmp_path / "subject01_walk1_grf.mot").write_text(
        mot_text if mot_text is not None else (gait / "subject01_walk1_grf.mot").read_text())
    return xml


@pytest.mark.parametrize("change,fragment", [
    (lambda x, m: (x.replace("<applied_to_body> calcn_l </applied_to_body>", ""), m), "applied_to_body"),
    (lambda x, m: (x.replace("1_ground_force_p <", "1_ground_force <"), m), "matches 6 columns"),
    (lambda x, m: (x.replace("1_ground_torque_ <", "2_ground_torque_ <"), m), "matches 0 columns"),
    (lambda x, m: (x.replace("</ExternalLoads>", ""), m), "not well-formed XML"),
    (lambda x, m: (x.replace("<isDisabled> false", "<isDisabled> perhaps", 1), m), "isDisabled"),
    (lambda x, m: (x.replace("ExternalLoads", "ExternalStuff"), m), "no <ExternalLoads>"),
    (lambda x, m: (x.replace("subject01_walk1_grf.mot", "missing.mot"), m), "missing.mot"),
    (lambda x, m: (x, m.replace("\t745.4661142\t", "\tNaN\t")), "NaN or infinite value"),
])
def test_malformed_loads_raise_data_error(tmp_path, gait, change, fragment):
    xml_text, mot_text = change((gait / "subject01_walk1_grf.xml").read_text(),
                                (gait / "subject01_walk1_grf.mot").read_text())
    xml = write(tmp_path, gait, xml_text, mot_text)
    with pytest.raises(DataError) as info:
        load_external_loads(xml)
    assert fragment in str(info.value)


def test_disabled_force_is_listed_not_applied(tmp_path, gait):
    text = (gait / "subject01_walk1_grf.xml").read_text().replace("<isDisabled> false", "<isDisabled> true", 1)
    external = load_external_loads(write(tmp_path, gait, text))
    assert [load.name for load in external.loads] == ["left"]
    assert external.notes == ("ExternalForce 'right' is disabled; not applied",)


def test_opensim4_applies_force_flag(tmp_path, gait):
    text = (gait / "subject01_walk1_grf.xml").read_text().replace(
        "<isDisabled> false </isDisabled>", "<appliesForce>false</appliesForce>", 1)
    external = load_external_loads(write(tmp_path, gait, text))
    assert [load.name for load in external.loads] == ["left"]
