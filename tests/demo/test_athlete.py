"""The default model: what it is built of, that the shipped file is what the script builds, and subject scaling."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.demo import demo_files
from engine.demo.anthropometry import DE_LEVA_MALE, REFERENCE_HEIGHT, SEGMENT_FRACTIONS_SUM
from engine.demo.athlete import HEIGHT, MASS, RESIDUAL_LENGTH, build_athlete
from engine.io.model_file import load_model, save_model
from engine.tree import compile_tree


@pytest.fixture(scope="module")
def athlete():
    return build_athlete()


def test_shipped_model_is_what_the_script_builds_and_round_trips(athlete, tmp_path):
    shipped = load_model(demo_files().model)
    assert shipped == athlete
    save_model(shipped, tmp_path / "a.yaml")
    assert load_model(tmp_path / "a.yaml") == shipped


def total_mass(model):
    rods = sum(sg.line_inertia()[0] * sg.length for r in model.rods for sg in r.segments)
    return sum(b.mass for b in model.bodies) + rods


def test_mass_degrees_of_freedom_markers_contacts(athlete):
    assert total_mass(athlete) == pytest.approx(MASS, rel=1e-12)
    strains = [n for r in athlete.rods for n in r.coordinate_names()]
    assert len(strains) == 18 and len(athlete.rods[0].segments) == 6
    assert athlete.nv - len(strains) == 35          # rigid degrees of freedom, the free pelvis's six included
    body = [m.name for m in athlete.markers if not m.name.startswith("BLD")]
    assert len(body) == 30 and len(athlete.markers) - len(body) == 21
    groups = [c.group for c in athlete.contacts]
    assert groups.count("foot_l") == 6 and groups.count("blade") == 4


def test_segment_lengths_and_masses_follow_de_leva(athlete):
    assert SEGMENT_FRACTIONS_SUM == pytest.approx(1.0, abs=2e-4)     # the table's fractions make a whole body
    s = HEIGHT / REFERENCE_HEIGHT
    data = Data(athlete)
    alg.forward_kinematics(athlete, data, alg.neutral(athlete))
    p = {b: alg.frame_placement(athlete, data, b).p for b in ("femur_l", "tibia_l", "calcn_l", "humerus_l",
                                                             "forearm_l", "hand_l")}
    assert np.linalg.norm(p["femur_l"] - p["tibia_l"]) == pytest.approx(DE_LEVA_MALE["thigh"].length * s, rel=1e-12)
    assert np.linalg.norm(p["tibia_l"] - p["calcn_l"]) == pytest.approx(DE_LEVA_MALE["shank"].length * s, rel=1e-12)
    assert np.linalg.norm(p["humerus_l"] - p["forearm_l"]) == pytest.approx(DE_LEVA_MALE["upper_arm"].length * s,
                                                                            rel=1e-12)
    # body segment masses are de Leva's fractions of the intact-equivalent body mass (the same for all)
    thigh = athlete.body("femur_l").mass / DE_LEVA_MALE["thigh"].mass
    for body, seg in (("humerus_r", "upper_arm"), ("head", "head"), ("tibia_l", "shank"), ("pelvis", "lower_trunk")):
        assert athlete.body(body).mass / DE_LEVA_MALE[seg].mass == pytest.approx(thigh, rel=1e-12)


def test_the_right_shank_is_amputated_and_its_muscles_rerouted(athlete):
    bodies = {b.name for b in athlete.bodies}
    assert "calcn_r" not in bodies and "toes_r" not in bodies and "socket_r" in bodies
    names = {m.name for m in athlete.muscles}
    for removed in ("tib_ant_r", "ext_dig_r", "tib_post_r", "per_long_r"):
        assert removed not in names and removed.replace("_r", "_l") in names
    stump = athlete.muscle("med_gas_r").path
    assert stump.points[-1].parent == "tibia_r" and stump.points[-1].location[0] > 0      # anterior face
    assert [w.wrap_object for w in stump.wraps] == ["tibia_r_stump"]
    assert athlete.metadata["subject"]["residual_length_m"] == RESIDUAL_LENGTH
    # the blade is clamped to the back of the socket and leaves the unloaded affected leg 2-8 cm longer
    assert athlete.rods[0].parent == "socket_r" and athlete.rods[0].offset.p[0] < 0
    data = Data(athlete)
    alg.forward_kinematics(athlete, data, alg.neutral(athlete))
    lowest = {g: min(alg.frame_placement(athlete, data, c.name).p[1] for c in athlete.contacts if c.group == g)
              for g in ("foot_l", "blade")}
    assert 0.02 <= lowest["foot_l"] - lowest["blade"] <= 0.08
    edits = [(e["edit"], e.get("muscle")) for e in athlete.metadata["muscle_edits"]]
    assert ("remove", "tib_ant_r") in edits and ("reattach", "soleus_r") in edits


def test_hamstrings_and_triceps_surae_have_moment_arms_of_the_right_sign(athlete):
    """OpenSim's conventions: hip extensors negative on hip flexion, knee flexors negative on knee angle (flexion
    negative), plantarflexors negative on ankle angle; the amputated side's gastrocnemius still flexes the knee."""
    from engine.muscles.path.geometry import MuscleGeometry
    g = MuscleGeometry(athlete)
    _, _, J = g.evaluate(alg.neutral(athlete)[None])
    r = -J[0]
    vi = {n: compile_tree(athlete).coordinates[n].vi for n in ("hip_flexion_l", "knee_angle_l", "ankle_angle_l",
                                                        "knee_angle_r")}
    row = {n: i for i, n in enumerate(g.muscle_names)}
    assert r[row["semiten_l"], vi["hip_flexion_l"]] < -0.03 and r[row["bifemlh_l"], vi["knee_angle_l"]] < -0.02
    assert r[row["soleus_l"], vi["ankle_angle_l"]] < -0.04 and r[row["tib_ant_l"], vi["ankle_angle_l"]] > 0.02
    assert r[row["vasti_l"], vi["knee_angle_l"]] == pytest.approx(0.04 * HEIGHT / REFERENCE_HEIGHT, rel=0.05)
    assert r[row["med_gas_r"], vi["knee_angle_r"]] < -0.01


def test_subject_scaling_scales_lengths_masses_inertias_and_muscles_consistently(athlete):
    tall = build_athlete(height=1.90, mass=80.0)
    k = 1.90 / HEIGHT
    assert total_mass(tall) == pytest.approx(80.0, rel=1e-12)
    assert tall.joint("knee_l").parent_offset.p[1] == pytest.approx(k * athlete.joint("knee_l").parent_offset.p[1], rel=1e-12)
    # biological segments: mass by the intact-equivalent mass ratio, inertia by mass x length^2
    m_ratio = tall.body("femur_l").mass / athlete.body("femur_l").mass
    assert tall.body("head").mass / athlete.body("head").mass == pytest.approx(m_ratio, rel=1e-12)
    assert np.allclose(tall.body("femur_l").inertia, athlete.body("femur_l").inertia * m_ratio * k ** 2, rtol=1e-12)
    for name in ("semiten_l", "vasti_r", "med_gas_r"):
        a, b = athlete.muscle(name), tall.muscle(name)
        assert b.optimal_fiber_length == pytest.approx(k * a.optimal_fiber_length, rel=1e-9)
        assert b.tendon_slack_length == pytest.approx(k * a.tendon_slack_length, rel=1e-9)
        assert b.max_isometric_force == a.max_isometric_force
