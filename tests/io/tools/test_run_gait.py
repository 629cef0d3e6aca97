"""``hybrid run`` on OpenSim's example setups, unchanged, against OpenSim 4.6's outputs of the same setups
(tests/data/opensim/*/reference): IK marker errors within 0.5 mm of OpenSim's and coordinates within 2 degrees (2 mm)
RMS, ID within 3 % of each generalized force's range, static optimisation within 5 % of each muscle's F_max, files
with OpenSim's names and columns. The coordinates files the ID and SO setups name are the ones OpenSim's runs read
(the dataset's for gait2354, OpenSim's IK output for gait10dof18musc), so ID and SO run before IK rewrites them."""
from __future__ import annotations

import numpy as np
import pytest

from engine.cli.main import main
from engine.io.osim import read_osim
from engine.io.storage import read_storage
from tests.io.tools.setup_folders import GAIT10DOF, GAIT2354, setup_folder

CASES = {
    "gait2354": dict(source=GAIT2354, model="subject01_simbody.osim", links={},
                     setups=("subject01_Setup_InverseDynamics.xml", "reference/so_setup.xml",
                             "subject01_Setup_IK.xml"),
                     id_file="ResultsInverseDynamics/inverse_dynamics.sto", ik_file="subject01_walk1_ik.mot",
                     errors_file="subject01_ik_marker_errors.sto"),
    "gait10dof18musc": dict(source=GAIT10DOF, model="subject01.osim", links={"ik.mot": GAIT10DOF / "reference/ik.mot"},
                            setups=("id_setup.xml", "reference/so_setup.xml", "ik_setup.xml"),
                            id_file="id.sto", ik_file="ik.mot", errors_file="_ik_marker_errors.sto"),
}


def rms_at_their_times(ours, theirs, label):
    """RMS difference of a column at the reference's rows within our time span. OpenSim 4.6 wrote gait10dof18musc's
    rows a few ms apart from the frames of its input (157 ID rows over 0-2.5 s from 151 frames; SO rows from 0.494 s
    for a 0.5 s start), so our columns are interpolated to its times."""
    inside = (theirs.time >= ours.time[0] - 1e-6) & (theirs.time <= ours.time[-1] + 1e-6)
    assert inside.sum() >= 0.95 * len(ours.time)
    difference = np.interp(theirs.time[inside], ours.time, ours.column(label)) - theirs.column(label)[inside]
    return np.sqrt(np.mean(difference ** 2))


@pytest.fixture(scope="module", params=list(CASES))
def ran(request, tmp_path_factory):
    case = CASES[request.param]
    folder = setup_folder(tmp_path_factory.mktemp(request.param), case["source"], case["setups"], case["links"])
    names = [str(folder / s.split("/")[-1]) for s in case["setups"]]
    assert main(["run", *names]) == 0
    return case, folder


def test_inverse_dynamics_matches_opensims(ran):
    case, folder = ran
    ours, theirs = read_storage(folder / case["id_file"]), read_storage(case["source"] / "reference" / "id.sto")
    assert ours.labels == theirs.labels              # OpenSim's names, in its (multibody tree) order
    for label in theirs.labels:
        assert rms_at_their_times(ours, theirs, label) < 0.03 * np.ptp(theirs.column(label)), label


def test_static_optimization_matches_opensims(ran):
    case, folder = ran
    model = read_osim(case["source"] / case["model"])
    forces = read_storage(folder / "so_StaticOptimization_force.sto")
    reference = read_storage(case["source"] / "reference" / "so_force.sto")
    assert forces.labels == reference.labels          # muscles, actuators, then the external loads, as OpenSim
    for muscle in model.muscles:
        rms = rms_at_their_times(forces, reference, muscle.name)
        assert rms < 0.05 * muscle.max_isometric_force, (muscle.name, rms)
    activations = read_storage(folder / "so_StaticOptimization_activation.sto")
    assert activations.labels == read_storage(case["source"] / "reference" / "so_activation.sto").labels
    for label in reference.labels:
        if label.endswith(("_Fx", "_Fy", "_Fz")):        # the loads applied, as OpenSim lists them
            assert rms_at_their_times(forces, reference, label) < 0.01 * np.ptp(reference.column(label)), label


def test_inverse_kinematics_matches_opensims(ran):
    case, folder = ran
    model = read_osim(case["source"] / case["model"])
    errors = read_storage(folder / case["errors_file"])
    theirs = read_storage(case["source"] / "reference" / "ik_marker_errors.sto")
    assert errors.labels == theirs.labels
    assert errors.column("marker_error_RMS").mean() <= theirs.column("marker_error_RMS").mean() + 0.5e-3
    ik, reference = read_storage(folder / case["ik_file"]), read_storage(case["source"] / "reference" / "ik.mot")
    assert ik.in_degrees
    for label in reference.labels:
        rotational = model.coordinate(label).kind == "rotational"
        assert rms_at_their_times(ik, reference, label) < (2.0 if rotational else 2e-3), label
