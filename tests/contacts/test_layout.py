"""The automatic contact model's layout: feet found by name and markers, six candidates under each sole in
anatomical order, four on the blade's ground side as the demo's designed ones, and a clear error without feet."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.contacts.automatic import automatic_contacts
from engine.contacts.feet import find_feet, marker_role
from engine.data import Data
from engine.demo import blade as blade_design
from engine.demo.athlete import build_athlete
from engine.errors import ModelError
from engine.io.open import open_model
from engine.model import Body, FreeJoint, Model


@pytest.mark.parametrize("name, role", [
    ("R.Heel", "heel"), ("LHEE", "heel"), ("RHEEL", "heel"), ("heel_l", "heel"), ("R.Toe.Tip", "toe_tip"),
    ("LTOE", "toe"), ("RMT5", "mt5"), ("L_MT1", "mt1"), ("R.Toe.Med", "mt1"), ("L.Toe.Lat", "mt5"),
    ("LANK", None), ("R.Midfoot.Sup", None), ("RKNE", None)])
def test_marker_roles_of_common_marker_sets(name, role):
    assert marker_role(name) == role


def test_gait2354_feet_are_found_by_their_heel_markers(test_data):
    model = open_model(test_data / "opensim/gait2354/subject01_simbody.osim")
    feet = {f.hindfoot: f for f in find_feet(model)}
    assert set(feet) == {"calcn_r", "calcn_l"}
    assert feet["calcn_r"].forefoot == "toes_r" and feet["calcn_r"].markers["heel"] == "R.Heel"
    assert feet["calcn_l"].markers["toe_tip"] == "L.Toe.Tip"


def _sole_frame(model, data, points):
    """Heights (along up) and positions along the model's forward (x) and right (z) of ``points``."""
    X = alg.frame_positions(model, data, [alg.frame_id(model, n) for n in points])
    return X[:, 1], X[:, 0], X[:, 2]


def test_gait2354_candidates_lie_under_the_sole_in_anatomical_order(test_data):
    model = open_model(test_data / "opensim/gait2354/subject01_simbody.osim")
    generated = automatic_contacts(model)
    data = Data(generated.model)
    alg.forward_kinematics(generated.model, data, alg.neutral(generated.model))
    for side, lateral in (("r", 1.0), ("l", -1.0)):
        names = [f"{n}_{side}" for n in ("heel_med", "heel_lat", "meta1", "meta5", "hallux", "toes_lat")]
        assert {c.name for c in generated.contacts if c.group == f"foot_{side}"} == set(names)
        height, along, right = _sole_frame(generated.model, data, names)
        assert np.ptp(height) < 1e-9                               # one plane, horizontal when standing
        markers = alg.frame_positions(model, data, [alg.frame_id(model, f"{side.upper()}.{n}")
                                                     for n in ("Heel", "Toe.Tip", "Toe.Lat", "Midfoot.Sup")])
        assert height[0] < markers[:, 1].min()                     # below every foot marker
        heel, tip = markers[0, 0], markers[1, 0]
        assert heel < along[0] < along[3] < along[2] < along[5] < along[4] < tip
        across = lateral * (right - markers[0, 2])                 # towards lateral, from the heel marker
        assert across[0] < across[1] and across[2] < 0 < across[3] and across[4] < across[5]
        assert {c.parent for c in generated.contacts if c.name in names[4:]} == {f"toes_{side}"}


def test_blade_candidates_match_the_designed_ones():
    """The blade's four candidates on its ground side, two rows near the tip as the demo's design places them by
    hand (``engine.demo.blade.contacts``: rows at 0.50 and 0.59 m, 22 mm either side of the centreline)."""
    model = build_athlete(with_muscles=False)
    designed = {c.name: c for c in blade_design.contacts()}
    generated = {c.name: c for c in automatic_contacts(model.replace(contacts=[])).contacts if c.group == "blade"}
    assert set(generated) == set(designed)
    for name, c in generated.items():
        d = designed[name]
        assert c.parent == "blade" and abs(c.s - d.s) < 0.025, name
        assert np.allclose(c.offset, d.offset, atol=0.001), name     # same face, same edge, within 1 mm


def test_a_model_without_feet_is_told_what_was_looked_for():
    body = Body("trunk", 10.0, (0, 0, 0), np.eye(3) * 0.1)
    model = Model("stick", [body], [FreeJoint("free", "ground", "trunk")])
    with pytest.raises(ModelError) as error:
        automatic_contacts(model)
    text = str(error.value)
    assert "stick" in text and "calcn" in text and "toes" in text and "heel markers" in text and "--contacts" in text
