"""Joint reaction loads over a real trial against Newton's second law on the subtree they carry, with the
accelerations of the bodies' centres of mass taken by finite differences of their positions (independent of RNEA)."""
import numpy as np

from engine import algorithms as alg
from engine.analysis.derivatives import motion_from_coordinates
from engine.analysis.inverse_dynamics import classic_inverse_dynamics, plate_samples
from engine.data import Data
from engine.io.analysis_outputs import reaction_table
from engine.io.external_loads import ground_reaction_plates, load_external_loads
from engine.io.storage import read_storage, write_storage
from tests.analysis.opensim_cases import load
from tests.analysis.test_inverse_dynamics import coordinates

RIGHT_LEG = ("femur_r", "tibia_r", "talus_r", "calcn_r", "toes_r")


def walk1_with_plates(test_data):
    """gait2354 walk1 (OpenSim's coordinates, 6 Hz) and its inverse dynamics with the measured loads:
    ``(model, motion, plates, bodies, IDResult)``."""
    root = test_data / "opensim" / "gait2354"
    model, _, _ = load("gait2354", str(test_data))
    table = read_storage(root / "subject01_walk1_ik.mot")
    motion = motion_from_coordinates(model, table.time, coordinates(model, table), cutoff=6.0)
    external = load_external_loads(root / "subject01_walk1_grf.xml")
    plates = ground_reaction_plates(external)
    bodies = [load.body for load in external.loads]
    return model, motion, plates, bodies, classic_inverse_dynamics(model, motion, plates, bodies)


def test_hip_reaction_is_the_legs_momentum_rate_less_the_floors_push(test_data, tmp_path):
    model, motion, plates, bodies, result = walk1_with_plates(test_data)
    hip = result.reactions.of("hip_r")[:, 3:]

    R, p = alg.frame_placements_batch(model, Data(model), motion.q, list(RIGHT_LEG))
    dt = np.diff(motion.time)
    assert np.allclose(dt, dt[0])
    gravity = np.asarray(model.gravity)
    expected = np.zeros_like(hip)
    for k, name in enumerate(RIGHT_LEG):
        body = model.body(name)
        com = p[:, k] + np.einsum("tij,j->ti", R[:, k], body.com)
        acc = np.gradient(np.gradient(com, dt[0], axis=0), dt[0], axis=0)
        expected += body.mass * (acc - gravity)
    for plate, body in zip(plates, bodies):
        if body in RIGHT_LEG:
            expected -= plate_samples(plate, motion.time)[0]
    inner = slice(3, -3)          # np.gradient's one-sided ends
    err = np.abs(hip[inner] - expected[inner])
    span = np.ptp(expected[inner], axis=0)
    assert span[1] > 500.0        # the stance's vertical load is in the window
    assert (err.max(axis=0) < 0.02 * span.max()).all(), (err.max(axis=0), span)

    # the file holds OpenSim's JointReaction columns, and reads back
    write_storage(tmp_path / "joint_reactions.sto", reaction_table(motion.time, result.reactions))
    back = read_storage(tmp_path / "joint_reactions.sto")
    cols = [back.labels.index(f"hip_r_on_femur_r_in_ground_f{a}") for a in "xyz"]
    np.testing.assert_allclose(back.data[:, cols], hip, rtol=1e-6, atol=1e-6)


def test_reaction_under_contact_forces_in_closed_form(rng):
    """A free box at rest, pushed at its four corners by arbitrary forces: the free joint carries what the forces and
    gravity leave, F = -m g - sum f, M = c x (-m g) - sum r x f about the box's origin."""
    import types

    from engine.analysis.derivatives import Motion
    from engine.analysis.joint_reactions import estimated_joint_reactions
    from tests.analysis.test_qp_id import box_on_four_points
    model = box_on_four_points(com=(0.1, 0.1, 0.0))
    T = 3
    motion = Motion(np.arange(T) * 0.01, np.tile(alg.neutral(model), (T, 1)), np.zeros((T, 6)), np.zeros((T, 6)),
                    None, 3)
    forces = rng.normal(size=(T, 4, 3)) * 50.0
    qp = types.SimpleNamespace(contact_names=[c.name for c in model.contacts], forces=forces)
    reactions = estimated_joint_reactions(model, motion, qp)
    weight = 12.0 * np.asarray(model.gravity)
    corners = np.array([c.offset for c in model.contacts])
    force = -weight - forces.sum(axis=1)
    moment = np.cross([0.1, 0.1, 0.0], -weight) - np.cross(corners[None], forces).sum(axis=1)
    np.testing.assert_allclose(reactions.of("free")[:, 3:], force, atol=1e-9)
    np.testing.assert_allclose(reactions.of("free")[:, :3], moment, atol=1e-9)
    assert reactions.loads == "estimated loads"
