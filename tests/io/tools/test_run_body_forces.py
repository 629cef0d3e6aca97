"""``hybrid run`` on gait2354's InverseDynamicsTool setup asking for the body forces of every joint
(``joints_to_report_body_forces`` ALL): the file OpenSim 4.6 wrote for the same setup
(tests/data/opensim/gait2354/reference/id_body_forces.sto), column for column."""
from __future__ import annotations

import re

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.io.storage import read_storage
from engine.io.tools.runs import run_setup
from tests.io.tools.setup_folders import GAIT2354, setup_folder

SETUP = "subject01_Setup_InverseDynamics.xml"
ASK = ("<output_gen_force_file> inverse_dynamics.sto </output_gen_force_file>",
       "<output_gen_force_file> inverse_dynamics.sto </output_gen_force_file>"
       "<joints_to_report_body_forces> {joints} </joints_to_report_body_forces>"
       "<output_body_forces_file> forces_at_joints.sto </output_body_forces_file>")


def asking(folder, joints):
    path = folder / SETUP
    text = path.read_text()
    assert ASK[0] in text
    path.unlink()
    path.write_text(text.replace(ASK[0], ASK[1].format(joints=joints)))
    return path


def test_body_forces_at_every_joint_match_opensims(tmp_path):
    folder = setup_folder(tmp_path, GAIT2354, (SETUP,))
    run = run_setup(asking(folder, "ALL"))
    ours = read_storage(folder / "ResultsInverseDynamics" / "forces_at_joints.sto")
    theirs = read_storage(GAIT2354 / "reference" / "id_body_forces.sto")
    assert run.written[-1] == folder / "ResultsInverseDynamics" / "forces_at_joints.sto"
    assert ours.labels == theirs.labels and ours.name == theirs.name
    assert np.allclose(ours.time, theirs.time, atol=1e-6)
    for label in theirs.labels:
        reference = theirs.column(label)
        if not reference.any():        # a joint without that mobility: OpenSim writes exact zeros
            assert np.abs(ours.column(label)).max() < 1e-9, label
        else:
            rms = np.sqrt(np.mean((ours.column(label) - reference) ** 2))
            assert rms < 0.03 * np.ptp(reference), label
    # the generalized forces beside them, in OpenSim's order and names
    forces = read_storage(folder / "ResultsInverseDynamics" / "inverse_dynamics.sto")
    assert forces.labels == read_storage(GAIT2354 / "reference" / "id.sto").labels


def test_a_joint_the_model_lacks_is_refused(tmp_path):
    folder = setup_folder(tmp_path, GAIT2354, (SETUP,))
    with pytest.raises(SettingsError, match=re.escape("<joints_to_report_body_forces>") + ".*knee_x"):
        run_setup(asking(folder, "knee_r knee_x"))


def test_named_joints_in_the_setups_order(tmp_path):
    folder = setup_folder(tmp_path, GAIT2354, (SETUP,))
    run_setup(asking(folder, "ankle_l knee_r"))
    ours = read_storage(folder / "ResultsInverseDynamics" / "forces_at_joints.sto")
    theirs = read_storage(GAIT2354 / "reference" / "id_body_forces.sto")
    assert ours.labels == tuple(f"{joint}_{axis}" for joint in ("ankle_l_talus_l_offset", "knee_r_tibia_r_offset")
                                for axis in ("FX", "FY", "FZ", "MX", "MY", "MZ"))
    assert np.allclose(ours.column("knee_r_tibia_r_offset_MZ"), theirs.column("knee_r_tibia_r_offset_MZ"),
                       atol=0.03 * np.ptp(theirs.column("knee_r_tibia_r_offset_MZ")))
