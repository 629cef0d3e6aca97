"""The robust loss of inverse kinematics (issue 28): marker samples displaced for a few frames are named and do not
move the torques elsewhere; a clean trial is fitted as without the loss."""
import re
from dataclasses import replace

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from engine.analysis.ik import solve_ik
from engine.analysis.pipeline import analysis_steps
from engine.analysis.robust_weights import check_loss, marker_scales, robust_factors
from engine.data import Data
from engine.errors import SettingsError
from engine.io.analysis_outputs import write_outputs
from engine.io.results_file import load_result, save_result
from engine.io.storage import read_storage
from engine.progress import run
from engine.tree import compile_tree
from engine.trial.axes import to_model_axes
from tests.analysis.gait2354_result import inputs

# trial frames (60 Hz) and displacements (m, along the lab's x): a shank marker 0.3 m off for three frames, a
# heel marker 0.1 m for two, both slower than the jump no human segment makes (caught before the fit)
DISPLACED = {"R.Shank.Front": ((70, 71, 72), 0.3), "L.Heel": ((30, 31), 0.1)}


@pytest.fixture(scope="module")
def walk(test_data):
    model, trial, settings = inputs(str(test_data), muscles=False)
    settings.estimate_grf = False
    return model, trial, settings


def _displaced(trial):
    positions = np.array(trial.markers.positions)
    for name, (frames, metres) in DISPLACED.items():
        positions[list(frames), trial.markers.index(name), 0] += metres
    return trial.derived(markers=replace(trial.markers, positions=positions))


def test_displaced_samples_are_flagged_and_the_torques_elsewhere_unchanged(walk, tmp_path):
    model, trial, settings = walk
    clean = run(analysis_steps(model, trial, settings))
    assert (clean.ik.robust_factors == 1).all() and not [n for n in clean.notes if "robust loss" in n]
    dirty = _displaced(trial)
    result = run(analysis_steps(model, dirty, settings))
    frame_of = {round(t * 60): i for i, t in enumerate(result.ik.time)}
    flagged = {(result.ik.marker_names[j], i) for i, j in zip(*np.nonzero(result.ik.robust_factors < 1))}
    assert flagged == {(name, frame_of[f]) for name, (frames, _) in DISPLACED.items() for f in frames}
    for name, (frames, metres) in DISPLACED.items():
        note = next(n for n in result.notes if n.startswith(f"marker {name} fitted far beyond"))
        assert f"in {len(frames)} frames" in note
        assert abs(float(re.search(r"up to (\d+) mm", note).group(1)) - 1000 * metres) < 0.3 * 1000 * metres
    span = np.ptp(clean.dynamics.tau, axis=0)
    elsewhere = np.ones(len(result.ik.time), bool)
    elsewhere[[frame_of[f] for frames, _ in DISPLACED.values() for f in frames]] = False
    deviation = np.abs(result.dynamics.tau - clean.dynamics.tau)
    assert np.all(deviation[elsewhere].max(axis=0) <= 0.05 * span + 1e-9)
    # the residual table: written per marker and frame with the flagged samples named, and kept in results files
    write_outputs(result, tmp_path)
    table = read_storage(tmp_path / "ik_marker_residuals.sto")
    assert table.labels == tuple(result.ik.marker_names)
    assert np.allclose(table.data, result.ik.errors, atol=1e-7, equal_nan=True)
    assert table.header["robust_flagged"] == ";".join(
        f"{name}:{','.join(str(frame_of[f]) for f in frames)}" for name, (frames, _) in
        sorted(DISPLACED.items(), key=lambda item: result.ik.marker_names.index(item[0])))
    save_result(result, tmp_path / "walk.hlr", settings)
    again, _ = load_result(tmp_path / "walk.hlr")
    assert np.array_equal(again.ik.robust_factors, result.ik.robust_factors)
    naive_settings = replace(settings, ik=replace(settings.ik, robust_loss=None))
    naive = run(analysis_steps(model, dirty, naive_settings))          # what the loss prevents
    assert (np.abs(naive.dynamics.tau - clean.dynamics.tau)[elsewhere].max(axis=0) > 0.05 * span).any()


def test_a_clean_trial_is_fitted_as_without_the_loss(walk):
    model, trial, settings = walk
    markers = to_model_axes(trial, None).markers
    robust = solve_ik(model, markers, settings.ik)
    plain = solve_ik(model, markers, replace(settings.ik, robust_loss=None))
    assert (robust.robust_factors == 1).all() and np.array_equal(robust.q, plain.q)
    assert np.all(np.isfinite(robust.thresholds))


def test_the_losses_weights_against_their_closed_forms():
    rng = np.random.default_rng(3)
    errors = np.abs(rng.normal(0.01, 0.002, (200, 2)))
    errors[5, 0] = 0.5
    errors[7, 1] = np.nan
    c, s = marker_scales(errors, 4.0)
    median = np.nanmedian(errors[:, 0])
    mad = np.nanmedian(np.abs(errors[:, 0] - median))
    assert s[0] == pytest.approx(max(1.4826 * mad, 0.03 / 4.0)) and c[0] == pytest.approx(median + 4 * s[0])
    huber, cauchy = (robust_factors(errors, c, s, loss) for loss in ("huber", "cauchy"))
    assert huber[5, 0] == pytest.approx(c[0] / 0.5) and cauchy[5, 0] == pytest.approx(1 / (1 + ((0.5 - c[0]) / s[0]) ** 2))
    others = np.ones(errors.shape, bool)
    others[5, 0] = False
    assert (huber[others] == 1).all() and (cauchy[others] == 1).all()
    few = marker_scales(errors[:9], 4.0)[0]            # too few frames to judge: no threshold, no re-weighting
    assert np.isnan(few).all() and (robust_factors(errors[:9], *marker_scales(errors[:9], 4.0), "cauchy") == 1).all()


@pytest.mark.parametrize("loss,threshold", [("tukey", 4.0), ("cauchy", 0.0), ("huber", float("nan"))])
def test_bad_loss_settings_are_errors(loss, threshold):
    with pytest.raises(SettingsError, match="robust"):
        check_loss(loss, threshold)


def _kabsch_residuals(model_points, measured, w):
    """Residual distances of the weighted rigid fit of ``model_points`` onto ``measured`` by the SVD (Kabsch)."""
    mc, tc = np.average(model_points, axis=0, weights=w), np.average(measured, axis=0, weights=w)
    u, _, vt = np.linalg.svd(((measured - tc) * w[:, None]).T @ (model_points - mc))
    d = np.sign(np.linalg.det(u @ vt))
    R = u @ np.diag([1.0, 1.0, d]) @ vt
    return np.linalg.norm((model_points - mc) @ R.T + tc - measured, axis=1)


@pytest.mark.parametrize("turn", [0.0, 60.0])
def test_the_first_pose_is_the_pelvis_cluster_s_rigid_fit_and_the_trial_s_heading_does_not_matter(walk, turn):
    """gait2354's pelvis is an OpenSim CustomJoint: its six coordinates come from the Kabsch fit of the pelvis
    markers (the rigid fit's residuals, by an SVD here); the whole trial turned about the vertical gives the same
    joint angles."""
    from engine import algorithms as alg
    from engine.analysis.ik import _Problem, initial_pose
    model, trial, settings = walk
    markers = to_model_axes(trial, None).markers
    turned = Rotation.from_euler("y", turn, degrees=True).as_matrix()
    markers = replace(markers, positions=markers.positions @ turned.T)
    problem = _Problem(model, markers, settings.ik)
    data = Data(model)
    first = problem.targets(markers, np.arange(markers.n_frames))[0]
    q = initial_pose(model, data, problem, first, settings.ik)
    pelvis = np.array([model.resolve(m.parent)[0] == "pelvis" for m in model.markers
                       if m.name in problem.marker_names])
    alg.forward_kinematics(model, data, q)
    fitted = np.linalg.norm(alg.frame_positions(model, data, problem.mframes[pelvis]) - first[pelvis], axis=1)
    alg.forward_kinematics(model, data, problem.q_neutral)
    neutral = alg.frame_positions(model, data, problem.mframes[pelvis])
    assert np.allclose(fitted, _kabsch_residuals(neutral, first[pelvis], problem.weights[pelvis]), atol=1e-6)
    result = solve_ik(model, markers, settings.ik)
    reference = solve_ik(model, to_model_axes(trial, None).markers, settings.ik)
    joints = [s.qi for name, s in compile_tree(model).coordinates.items() if s.qi >= 0 and not name.startswith("pelvis")]
    assert np.degrees(np.abs(result.q[:, joints] - reference.q[:, joints]).max()) < 0.01
    for f in range(0, len(result.time), 10):           # the pelvis turned with the trial
        alg.forward_kinematics(model, data, result.q[f])
        ours = alg.frame_placement(model, data, "pelvis").R
        alg.forward_kinematics(model, data, reference.q[f])
        assert np.abs(ours - turned @ alg.frame_placement(model, data, "pelvis").R).max() < 1e-3
