"""Classic inverse dynamics with the measured ground reactions, against OpenSim's ID."""
import numpy as np
import pytest

from engine.algorithms import neutral
from engine.analysis.derivatives import motion_from_coordinates
from engine.analysis.inverse_dynamics import classic_inverse_dynamics, plate_samples
from engine.io.external_loads import ground_reaction_plates, load_external_loads
from engine.io.storage import read_storage
from engine.tree import compile_tree
from tests.analysis.opensim_cases import load

# The coordinates OpenSim's ID used (see tests/data/README.md) and the loads file.
ID_INPUTS = {
    "gait2354": ("subject01_walk1_ik.mot", "subject01_walk1_grf.xml"),
    "gait10dof18musc": ("reference/ik.mot", "subject01_walk_grf.xml"),
}


def coordinates(model, table):
    Q = np.tile(neutral(model), (len(table.time), 1))
    for j, label in enumerate(table.labels):
        slot = compile_tree(model).coordinates[label]
        Q[:, slot.qi] = table.data[:, j] * (np.pi / 180 if table.in_degrees and slot.kind == "rotational" else 1)
    return Q


def differences_to_opensim(folder, test_data) -> list[tuple[str, float, float]]:
    """``(label, RMS difference, OpenSim's range)`` per column of OpenSim's ID (reference/id.sto) of classic inverse
    dynamics from the coordinates OpenSim's ID used (also read by benchmarks/validation_figures.py)."""
    root = test_data / "opensim" / folder
    model, _, _ = load(folder, str(test_data))
    ik_file, loads_file = ID_INPUTS[folder]
    table = read_storage(root / ik_file)
    motion = motion_from_coordinates(model, table.time, coordinates(model, table), cutoff=6.0)
    external = load_external_loads(root / loads_file)
    result = classic_inverse_dynamics(model, motion, ground_reaction_plates(external),
                                      [load.body for load in external.loads])
    ref = read_storage(root / "reference" / "id.sto")
    inside = (ref.time >= motion.time[0]) & (ref.time <= motion.time[-1])
    out = []
    for j, label in enumerate(ref.labels):
        vi = compile_tree(model).coordinates[label.rsplit("_", 1)[0]].vi
        ours = np.interp(ref.time[inside], motion.time, result.tau[:, vi])
        theirs = ref.data[inside, j]
        out.append((label, float(np.sqrt(np.mean((ours - theirs) ** 2))), float(np.ptp(theirs))))
    return out


@pytest.mark.parametrize("folder", list(ID_INPUTS))
def test_classic_id_matches_opensim_within_3_percent_of_each_range(folder, test_data):
    for label, rms, span in differences_to_opensim(folder, test_data):
        assert rms < 0.03 * span, (label, rms, span)


def test_automatic_assignment_applies_each_plate_to_the_foot_over_it(test_data):
    """Without the loads file, plates go to the contact point nearest their centre of pressure: hip,
    knee, lumbar and pelvis torques equal those with the loads file's bodies (calcn_r, calcn_l) in every
    frame where each plate is either loaded (centre of pressure defined) or carries no force at all."""
    from engine.io.contacts_file import load_contacts
    from pathlib import Path
    root = test_data / "opensim" / "gait2354"
    model, _, _ = load("gait2354", str(test_data))
    model = load_contacts(Path(__file__).parent / "data" / "gait2354_contacts.yaml", model)
    table = read_storage(root / "subject01_walk1_ik.mot")
    motion = motion_from_coordinates(model, table.time, coordinates(model, table), cutoff=6.0)
    external = load_external_loads(root / "subject01_walk1_grf.xml")
    plates = ground_reaction_plates(external)
    named = classic_inverse_dynamics(model, motion, plates, [load.body for load in external.loads])
    auto = classic_inverse_dynamics(model, motion, plates)
    rigid = [compile_tree(model).coordinates[c].vi for c in ("hip_flexion_r", "hip_flexion_l", "knee_angle_r", "knee_angle_l",
                                                    "lumbar_extension", "pelvis_ty")]
    clear = np.ones(len(motion.time), bool)
    for plate in plates:
        force, _, _, loaded = plate_samples(plate, motion.time)
        clear &= loaded | (np.abs(force).max(axis=1) == 0.0)
    assert clear.sum() > 0.5 * len(clear)
    assert np.allclose(auto.tau[clear][:, rigid], named.tau[clear][:, rigid], atol=1e-6 * np.abs(named.tau).max())
    assert any("foot_r" in a for a in auto.assignments) and any("foot_l" in a for a in auto.assignments)
