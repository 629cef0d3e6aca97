"""Amputation edits (seed section 2.4.2) on gait2354's right leg: exactly the intended muscles change,
the edited model saves and reloads identically, and every edit undoes."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.errors import ModelError
from engine.io.model_file import load_model, save_model
from engine.io.osim import read_osim
from engine.model.muscles import PathPoint
from engine.edits.muscles import (AddWrapObject, ReattachMuscle, RemoveMuscle, TransectMuscle, apply_edits,
                                  undo_edits)
from engine.muscles.path.geometry import MuscleGeometry
from engine.edits.transtibial import distal_bodies, stump_cylinder, transtibial_edits
from engine.tree import compile_tree

# the residual tibia of a transtibial amputation about 19 cm below the knee, in tibia_r's frame
STUMP_END = np.array([0.0, -0.18, 0.0])
ATTACHMENT = np.array([0.035, -0.15, 0.0])     # anterior face
ANKLE = ["ankle_angle_r", "subtalar_angle_r", "mtp_angle_r"]


@pytest.fixture(scope="module")
def gait(test_data):
    model = read_osim(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    ref = dict(np.load(test_data / "opensim" / "gait2354" / "reference" / "model_reference.npz"))
    Q = np.tile(neutral(model), (20, 1))
    Q[:, [compile_tree(model).coordinates[str(n)].qi for n in ref["coordinate_names"]]] = ref["q"]
    wrap = stump_cylinder("tibia_r", STUMP_END, radius=0.015)
    edits = transtibial_edits(model, "tibia_r", ATTACHMENT, wrap=wrap)
    edited, changes = apply_edits(model, edits)
    return model, Q, edits, edited, changes


def test_the_seed_edit_set(gait):
    model, Q, edits, edited, changes = gait
    assert distal_bodies(model, "tibia_r") == {"talus_r", "calcn_r", "toes_r"}
    kinds = {getattr(e, "name", None): type(e) for e in edits}
    assert isinstance(edits[0], AddWrapObject)
    assert kinds == {None: AddWrapObject, "tib_ant_r": RemoveMuscle, "med_gas_r": ReattachMuscle,
                     "soleus_r": ReattachMuscle, "tib_post_r": TransectMuscle}
    assert {m.name for m in model.muscles} - {m.name for m in edited.muscles} == {"tib_ant_r", "tib_post_r"}
    records = edited.metadata["muscle_edits"]
    assert [r["edit"] for r in records] == ["add_wrap_object", "reattach", "reattach", "transect", "remove"]
    assert records[1]["original"]["path"]["points"][-1]["parent"] == "calcn_r"


def test_only_the_edited_muscles_change(gait):
    model, Q, edits, edited, changes = gait
    before, after = MuscleGeometry(model).compute(Q), MuscleGeometry(edited).compute(Q)
    assert compile_tree(edited).v_names == compile_tree(model).v_names
    edited_names = {"med_gas_r", "soleus_r"}
    for k, name in enumerate(after.muscle_names):
        j = before.muscle_names.index(name)
        if name in edited_names:
            continue
        assert np.array_equal(after.lengths[:, k], before.lengths[:, j]), name
        assert np.array_equal(after.J_l[:, k], before.J_l[:, j]), name
    ankle = [compile_tree(model).coordinates[c].vi for c in ANKLE]
    knee = compile_tree(model).coordinates["knee_angle_r"].vi
    gas_before = before.J_l[:, before.muscle_names.index("med_gas_r")]
    gas = after.J_l[:, after.muscle_names.index("med_gas_r")]
    soleus = after.lengths[:, after.muscle_names.index("soleus_r")]
    others = [i for i in range(model.nv) if i != knee]
    assert np.abs(gas_before[:, ankle]).max() > 0.01      # crossed the ankle; now only the knee (to rounding)
    assert np.abs(gas[:, others]).max() < 1e-12
    assert np.abs(gas[:, knee]).min() > 0.005 and not np.allclose(gas[:, knee], gas_before[:, knee])
    # the soleus runs from the tibia to the tibia: a constant length, no moment arm about any coordinate
    assert np.ptp(soleus) < 1e-15 and np.abs(after.J_l[:, after.muscle_names.index("soleus_r")]).max() < 1e-12
    # the gastrocnemius passes under the stump end: its path wraps the new cylinder at every pose
    geometry = MuscleGeometry(edited)
    for q in Q:
        path = geometry.current_path(q, "med_gas_r")
        assert [p.wrap for p in path[-3:-1]] == ["tibia_r_stump"] * 2 and path[-1].name == "med_gas_r-stump"
    assert not after.status.any()


def test_the_edited_model_saves_and_reloads_identically(gait, tmp_path):
    model, Q, edits, edited, changes = gait
    save_model(edited, tmp_path / "amputee.yaml")
    reloaded = load_model(tmp_path / "amputee.yaml")
    assert reloaded == edited
    np.testing.assert_array_equal(MuscleGeometry(reloaded).compute(Q).J_l, MuscleGeometry(edited).compute(Q).J_l)


def test_edits_undo(gait):
    model, Q, edits, edited, changes = gait
    assert undo_edits(edited, changes) == model
    applied = RemoveMuscle("glut_med1_r").apply(model)
    assert len(applied.model.muscles) == len(model.muscles) - 1 and applied.change.undo(applied.model) == model
    gas = ReattachMuscle("med_gas_r", "med_gas_r-P2", PathPoint("end", "tibia_r", ATTACHMENT)).apply(model)
    later = RemoveMuscle("med_gas_r").apply(gas.model)
    with pytest.raises(ModelError, match="undo later edits first"):
        gas.change.undo(later.model)
    with pytest.raises(ModelError, match="undo later edits first"):
        applied.change.undo(model)       # glut_med1_r is back already
    assert later.change.undo(later.model) == gas.model


def test_reattach_keeps_the_proximal_points_and_adds_via_points(gait):
    model = gait[0]
    via = PathPoint("via", "tibia_r", (-0.02, -0.16, 0.0))
    applied = ReattachMuscle("med_gas_r", "med_gas_r-P2", PathPoint("end", "tibia_r", ATTACHMENT), (via,)).apply(model)
    points = applied.model.muscle("med_gas_r").path.points
    assert [p.name for p in points] == ["med_gas_r-P1", "med_gas_r-P2", "via", "end"]
    assert points[:2] == model.muscle("med_gas_r").path.points[:2]


def test_bad_edits_name_the_problem(gait):
    model = gait[0]
    with pytest.raises(ModelError, match="no muscle named 'nope'"):
        RemoveMuscle("nope").apply(model)
    with pytest.raises(ModelError, match="has no path point 'x'"):
        ReattachMuscle("soleus_r", "x", PathPoint("a", "tibia_r")).apply(model)
    with pytest.raises(ModelError, match="cannot be re-attached"):
        transtibial_edits(model, reattached=["glut_med1_r"])
    with pytest.raises(ModelError, match="has no muscle named 'lat_gas_r'"):
        transtibial_edits(model, reattached=["lat_gas_r"])
    with pytest.raises(ModelError, match="no body named 'stump'"):
        transtibial_edits(model, "stump")
    with pytest.raises(ModelError, match="not on the stump"):
        transtibial_edits(model, wrap=stump_cylinder("femur_r", STUMP_END, 0.02))
    with pytest.raises(ModelError, match="muscle 'med_gas_r'"):    # the model validates the new path
        ReattachMuscle("med_gas_r", "med_gas_r-P2", PathPoint("end", "no_body")).apply(model)
