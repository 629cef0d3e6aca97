"""The seed's two gait modes (section 7), driving by an analysed trial, and 'hybrid hip-mechanism'."""
import csv
from pathlib import Path

import numpy as np
import pytest

from engine.cli.main import main
from engine.errors import DataError
from engine.tree import compile_tree
from hip_mechanism.cases import run_case
from hip_mechanism.demands import FORCE_LIMIT
from hip_mechanism.maps import BETA_LIMIT
from hip_mechanism.parameters import SEED
from hip_mechanism.trial import hip_angles, trial_demands
from tests.engine.hybrid_models import hybrid_chain

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "results.hlr"


def test_first_mode_forces_are_equal_by_symmetry_and_its_printed_fit_leaves_the_workspace():
    """Seed section 7.1: in flexion/extension (alpha = 0) the two actuators' forces are the same owing to the
    symmetric limbs; they differ only by the small moment n_x = 60 N mm of Fe. Eq. 42 as printed reaches
    beta = 50.5 deg, past the workspace's 35: those frames are marked, not dropped."""
    d = run_case(SEED, "flexion_extension")
    inside = d.flags == 0
    assert np.abs(d.forces[inside, 0] - d.forces[inside, 1]).max() < 0.05 * np.abs(d.forces[inside]).max()
    beyond = np.degrees(d.q[:, 1]) > 35.0
    assert beyond.any() and (d.flags[beyond] & BETA_LIMIT).all() and not (d.flags[~beyond] & BETA_LIMIT).any()
    assert all(np.isfinite(getattr(d, f)).all() for f in ("lengths", "speeds", "forces", "power"))


def test_second_mode_forces_are_opposite():
    """Seed section 7.1: in abduction/adduction (beta = 0) the forces change alike in size in opposite
    directions: f2 + f3 is small beside f2 - f3 wherever the printed fit (eq. 43) stays in the workspace."""
    d = run_case(SEED, "abduction_adduction")
    inside = d.flags == 0
    assert inside.sum() > 150
    difference = np.abs(d.forces[inside, 0] - d.forces[inside, 1]).max()
    assert np.abs(d.forces[inside, 0] + d.forces[inside, 1]).max() < 0.25 * difference


def test_a_trial_without_hip_coordinates_is_refused():
    model = hybrid_chain()                  # an arm of rigid links and a rod: no hip
    with pytest.raises(DataError, match="no hip coordinate hip_flexion_r, hip_adduction_r"):
        hip_angles(model, None, "r")
    with pytest.raises(DataError, match="side"):
        hip_angles(model, None, "x")


@pytest.fixture(scope="module")
def demo_result():
    from engine.io.results_file import load_result
    return load_result(DEMO)[0]


def test_the_demo_drives_the_mechanism(demo_result):
    """The demo's right hip: the angles follow our convention (beta = -flexion, alpha = -adduction), the strokes
    are eq. 6 at those angles, and frames over the actuators' rating or near a singularity are marked."""
    from hip_mechanism.kinematics import actuator_lengths
    d = trial_demands(SEED, demo_result, "r")
    tree = compile_tree(demo_result.model)
    flexion = demo_result.motion.q[:, tree.q_names.index("hip_flexion_r")]
    adduction = demo_result.motion.q[:, tree.q_names.index("hip_adduction_r")]
    assert np.allclose(d.q[:, 1], -flexion) and np.allclose(d.q[:, 0], -adduction)
    assert np.allclose(d.lengths, actuator_lengths(SEED, d.q), atol=1e-15)
    tau = demo_result.dynamics.tau[:, demo_result.dynamics.names.index("hip_flexion_r")]
    assert np.allclose(d.load[:, 1], tau)
    over = np.abs(d.forces).max(axis=1) > SEED.actuator_force_limit
    assert ((d.flags & FORCE_LIMIT) != 0).tolist() == over.tolist()
    assert all(np.isfinite(getattr(d, f)).all() for f in ("lengths", "speeds", "forces", "power", "dexterity"))


def read_csv(path):
    lines = [line for line in Path(path).read_text().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines))


def test_command_line_writes_maps_demands_and_parameters(tmp_path, capsys):
    assert main(["hip-mechanism", "maps", "--step", "10", "--out", str(tmp_path / "maps")]) == 0
    rows = read_csv(tmp_path / "maps" / "maps.csv")
    assert len(rows) == 17 * 19
    inside = [r for r in rows if r["inside"] == "yes"]
    assert inside and all(r["limit"] == "" for r in inside)
    assert main(["hip-mechanism", "case", "flexion_extension", "--out", str(tmp_path / "case")]) == 0
    text = (tmp_path / "case" / "flexion_extension_demands.csv").read_text()
    assert "nan" not in text.lower()
    rows = read_csv(tmp_path / "case" / "flexion_extension_demands.csv")
    assert len(rows) == 240 and {r["within_limits"] for r in rows} == {"yes", "no"}
    assert all(r["limit"] for r in rows if r["within_limits"] == "no")
    assert main(["hip-mechanism", "parameters", "--out", str(tmp_path / "hip.yaml")]) == 0
    assert main(["hip-mechanism", "maps", "--step", "10", "--parameters", str(tmp_path / "hip.yaml"),
                 "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "maps.csv").read_text() == (tmp_path / "maps" / "maps.csv").read_text()
    assert main(["hip-mechanism", "case", "walking", "--out", str(tmp_path)]) == 2
    assert "the case must be one of" in capsys.readouterr().err


def test_command_line_on_the_demos_results_with_figures(tmp_path):
    assert main(["hip-mechanism", "trial", str(DEMO), "--side", "l", "--figures", "svg", "--out",
                 str(tmp_path)]) == 0
    text = (tmp_path / "hip_l_demands.csv").read_text()
    assert "nan" not in text.lower() and text.startswith("# hip_l: beta = -hip flexion")
    assert (tmp_path / "hip_l_demands.svg").read_text().lstrip().startswith("<?xml")
