"""Malformed or unsupported .osim files fail with a ModelError naming the file, the element and the problem."""
from __future__ import annotations

import re

import pytest

from engine.errors import ModelError
from engine.io.osim import read_osim


@pytest.fixture(scope="module")
def arm26_text(test_data):
    return (test_data / "opensim" / "arm26" / "arm26.osim").read_text()


def fails(tmp_path, text, *fragments):
    """Write ``text``, read it, and check the error names the file and every fragment."""
    path = tmp_path / "broken.osim"
    path.write_text(text)
    with pytest.raises(ModelError) as info:
        read_osim(path)
    err = info.value
    assert err.file == str(path)
    message = str(err)
    assert message.startswith(str(path))
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return err


def edit(text, old, new, count=1):
    assert old in text, old
    return text.replace(old, new, count)


def test_truncated_file(tmp_path, arm26_text):
    err = fails(tmp_path, arm26_text[: len(arm26_text) // 2], "not well-formed XML", "truncated")
    assert re.match(r"line \d+, column \d+", err.element)


def test_xml_syntax_error(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, "<mass>1.8645719999999999</mass>", "<mass>1.86</mas>"), "not well-formed XML")


def test_missing_file(tmp_path):
    with pytest.raises(ModelError, match="cannot read the file") as info:
        read_osim(tmp_path / "absent.osim")
    assert info.value.file == str(tmp_path / "absent.osim")


def test_not_an_opensim_document(tmp_path):
    fails(tmp_path, "<?xml version='1.0'?><Model name='x'/>", "not an OpenSim document", "<Model>")


def test_documents_older_than_opensim_3_are_rejected(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, 'Version="40000"', 'Version="20302"'), "Version 20302", "older than OpenSim 3.0")


def test_an_opensim4_layout_labelled_opensim3_is_read_as_opensim3_and_refused(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, 'Version="40000"', 'Version="30000"'), "body 'base'", "has no joint",
          "OpenSim 3 model")


def test_missing_version(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, ' Version="40000"', ""), "no Version attribute")


def test_unknown_joint_type(tmp_path, arm26_text):
    text = edit(edit(arm26_text, "<WeldJoint ", "<ScrewJoint "), "</WeldJoint>", "</ScrewJoint>")
    fails(tmp_path, text, "joint 'offset'", "ScrewJoint", "cannot represent")


def test_unknown_function_in_a_joint(tmp_path, arm26_text):
    text = re.sub(r"<LinearFunction name=\"function\">\s*<coefficients> 1 0</coefficients>\s*</LinearFunction>",
                  '<GCVSpline name="function"><x>0 1</x><y>0 1</y></GCVSpline>', arm26_text, count=1)
    fails(tmp_path, text, "joint 'r_shoulder' rotation1", "GCVSpline", "cannot represent")


def test_nan_inertia(tmp_path, arm26_text):
    text = edit(arm26_text, "<inertia>0.01481 ", "<inertia>nan ")
    fails(tmp_path, text, "body 'r_humerus'", "<inertia>", "NaN")


def test_inertia_breaking_the_triangle_inequality_is_not_fixed(tmp_path, arm26_text):
    text = edit(arm26_text, "<inertia>0.01481 0.0045510000000000004 0.013193",
                "<inertia>0.01481 0.001 0.03")
    fails(tmp_path, text, "body 'r_humerus'", "triangle inequality")


def test_missing_mass(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, "<mass>1.5343150000000001</mass>", ""), "body 'r_ulna_radius_hand'",
          "missing its <mass>")


def test_words_where_numbers_belong(tmp_path, arm26_text):
    fails(tmp_path, edit(arm26_text, "<mass_center>0 -0.18049599999999999 0</mass_center>",
                         "<mass_center>0 down 0</mass_center>"), "body 'r_humerus'", "<mass_center> must hold numbers")


def test_socket_to_nowhere(tmp_path, arm26_text):
    marker = '<Marker name="r_acromion">'
    head, tail = arm26_text.split(marker)
    text = head + marker + edit(tail, "<socket_parent_frame>/bodyset/base<", "<socket_parent_frame>/bodyset/bass<")
    fails(tmp_path, text, "marker /markerset/r_acromion", "'/bodyset/bass'", "not a component")


def test_collinear_custom_joint_axes(tmp_path, arm26_text):
    text = edit(arm26_text, "<axis>0.99826135999999999 -0 0.058898020000000002</axis>",
                "<axis>-0.058898020000000002 0.0023 0.99826135999999999</axis>")
    fails(tmp_path, text, "joint 'r_shoulder'", "collinear rotation axes 1 and 3")


def test_coordinate_missing_from_the_joint(tmp_path, arm26_text):
    text = edit(arm26_text, "<coordinates>r_elbow_flex</coordinates>", "<coordinates>r_elbow_bend</coordinates>")
    fails(tmp_path, text, "joint 'r_elbow'", "'r_elbow_bend'", "not among the joint's <coordinates>")


@pytest.mark.parametrize("mass,phrase", [("0", "a massless body must have zero inertia"),
                                         ("1e308", "mass of 1e+308 kg is beyond any body")])
def test_absurd_body_masses_are_refused(tmp_path, arm26_text, mass, phrase):
    """A body of 1e308 kg used to pass and write NaN torques (issue 18)."""
    fails(tmp_path, edit(arm26_text, "<mass>1.5343150000000001</mass>", f"<mass>{mass}</mass>"),
          "body 'r_ulna_radius_hand'", phrase)
