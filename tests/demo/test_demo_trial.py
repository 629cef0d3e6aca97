"""The shipped demo trial: a physically consistent recording of the simulation, and what the pipeline recovers.

The demo is running in place, every stance on one limb and on its own plate. The issue asks for 5% on everything.
The demo's analysis low-passes the coordinates at 9.5 Hz and the loads again after inverse dynamics, and weights
the QP's floating-base rows 0.1. The truth and the plates it is scored against pass both filters (together they
halve the power near 8.2 Hz).

The analysis's joint torques (``AnalysisResult.dynamics``, id.sto) come from the measured loads, as a lab computes
them: on the shipped recording (1 mm marker noise) within 3.8% of their range (a shoulder; subtalar 2.0%). The
ground reactions estimated from the motion alone (the seed's eq. 35) are within 0.4% vertical, 3.1% antero-posterior
and 2.4-2.5% medio-lateral, against the truth and against the plates alike, and blade strains within 3.9%. The
assertions hold these 5% targets, and the estimate's own torques at their measured levels with a small margin
(subtalar 13.1%, the others 3.8% or less), so that a regression fails.

These figures depend on the draw of the recording noise: over 41 draws of the same simulated motion
(``benchmarks/demo_noise_draws.py``) the estimate's medians are AP 3.6%, ML 2.9%, subtalar 11.8%, other torques
3.7%; the 90th percentiles 4.5%, 3.5%, 13.8% and 4.6%; the worst 5.2%, 5.2%, 17.1% and 6.9% (a shoulder).

Why the estimate's subtalar torque misses 5%: the QP given the true motion (no markers, no filter) recovers every
limb's force to within 0.5% of its range on every axis and the torques to within 1.2% at the seed's weights
(asserted below). Given the true coordinates low-passed at 9.5 Hz (no markers) it is at most 2.7% per limb and axis
and 9.4% on subtalar with the demo's settings: filtering the coordinates is not filtering the forces, since segment
accelerations are nonlinear in the coordinates. The markers' 1 mm noise through inverse kinematics adds the rest:
it disturbs the whole body's accelerations, and in single support these set the centre of pressure. 5% of
subtalar's range is a sideways centre-of-pressure error of about 0.7 mm at 1600 N, which the plates measure and
the motion alone does not give.
"""
from dataclasses import replace

import numpy as np
import pytest

from engine import algorithms as alg
from engine.analysis.derivatives import Motion
from engine.analysis.inverse_dynamics import plate_samples
from engine.analysis.metrics import grf_metrics
from engine.analysis.pipeline import analysis_steps
from engine.data import Data
from engine.progress import run
from engine.analysis.qp_id import solve_qp_id
from engine.demo import CUTOFF, demo_files, demo_inputs, demo_results, demo_truth
from engine.demo.recording import GAPS, MARKER_NOISE, PLATE_NOISE, to_lab
from engine.demo.truth import truth_metrics
from engine.io.model_file import load_model
from engine.tree import compile_tree
from engine.trial.filtering import lowpass_plates


@pytest.fixture(scope="module")
def shipped():
    model, trial, settings = demo_inputs()
    return model, trial, settings, demo_truth()


@pytest.fixture(scope="module")
def analysed(shipped):
    model, trial, settings, truth = shipped
    return run(analysis_steps(model, trial, settings))


def test_truth_obeys_the_equations_of_motion(shipped):
    model, _, _, truth = shipped
    data = Data(model)
    k = np.arange(0, len(truth.time), 37)
    J = alg.point_jacobians_batch(model, data, truth.q[k], truth.contact_names)
    tau = (alg.rnea_batch(model, data, truth.q[k], truth.v[k], truth.a[k])
           - np.einsum("tkij,tki->tj", J, truth.contact_forces[k]) - truth.tau_rod[k])
    assert np.abs(tau - truth.tau[k]).max() < 1e-8 * np.abs(truth.tau).max()
    base = np.arange(6)
    assert np.abs(truth.tau[:, base]).max() == 0.0          # nothing pushes the pelvis but the floor


def test_markers_plates_and_emg_are_the_truth_plus_the_stated_noise(shipped):
    model, trial, _, truth = shipped
    from engine.io.c3d import read_c3d
    lab = read_c3d(demo_files().trial)
    frames = np.arange(0, len(truth.time), 5)
    expected = to_lab(alg.marker_positions_batch(model, Data(model), truth.q[frames]))
    error = lab.markers.positions - expected
    missing = np.isnan(error).any(axis=2)
    assert missing.sum() == sum(n for _, _, n in GAPS)
    assert np.nanstd(error) == pytest.approx(MARKER_NOISE, rel=0.05)
    groups = {"FP1": "foot_l", "FP2": "blade"}
    for plate in lab.plates:
        assert plate.type == 2
        residual = plate.force - to_lab(truth.group_force(groups[plate.name]))
        assert np.std(residual) == pytest.approx(PLATE_NOISE[0], rel=0.2)      # channel noise, float32 storage
    assert {c.name for c in lab.emg} == {"semiten_r", "bifemlh_r"}
    assert {(e.label, e.context) for e in lab.events} == {("Foot Strike", "Left"), ("Foot Off", "Left"),
                                                          ("Foot Strike", "Right"), ("Foot Off", "Right")}


def test_pipeline_recovers_the_ground_truth(shipped, analysed):
    model, _, settings, truth = shipped
    m = truth_metrics(analysed, truth, settings.forward)
    assert m["rod_strain_rms_pct_range"] < 5.0
    # the torques of the estimate from the motion alone (the figure): subtalar misses 5%
    estimate = m["torque_rms_pct_range_by_coordinate"]
    assert m["torque_source"] == "estimate"
    assert m["torque_rms_pct_range"] == estimate["subtalar_angle_l"] < 14.5
    assert sorted(estimate.values())[-2] < 5.0                                        # all the others
    # the analysis's own torques, with the measured loads (id.sto): every joint
    assert analysed.dynamics is analysed.classic
    assert m["measured_loads_torque_rms_pct_range"] < 5.0
    assert m["measured_loads_torque_rms_pct_range_by_coordinate"]["subtalar_angle_l"] < 2.5
    g = m["grf_rrmse_pct"]
    assert g["vertical"] < 5.0 and g["ap"] < 5.0 and g["ml"] < 5.0        # worst over limbs and plates
    a = g["all_groups"]
    assert a["vertical"] < 1.0 and a["ap"] < 3.0 and a["ml"] < 2.0
    # the estimate against the trial's own plates (part of the worst above, checked on its own)
    plates = {(x.plate, x.axis): x.rrmse for x in analysed.metrics}
    assert {p for p, _ in plates} == {"FP1", "FP2"} and len(plates) == 6
    assert max(plates.values()) < 5.0


def _on_the_true_motion(model, truth, settings, qp_settings):
    """The QP on the true coordinates, speeds and accelerations at the markers' 200 Hz, and its truth metrics."""
    k = slice(None, None, 5)
    motion = Motion(truth.time[k], truth.q[k], truth.v[k], truth.a[k], cutoff=None, order=settings.order)
    qp = solve_qp_id(model, motion, qp_settings)
    assert qp.status.all()

    class Estimate:       # what truth_metrics reads of an analysis result
        pass
    result = Estimate()
    result.model, result.motion, result.qp, result.classic, result.metrics = model, motion, qp, None, []
    m = truth_metrics(result, truth, settings.forward)
    per_limb = [v for v in m["grf_rrmse_pct"]["by_group_and_plate"].values() if isinstance(v, float)]
    assert len(per_limb) == 6                                   # every limb, every axis
    return qp, m, max(per_limb)


def test_demo_weights_trade_a_small_bias_on_exact_motion(shipped):
    """The demo's floating-base weight (``W_BASE``, below the seed's 1) lets the regularisation pull the estimate a
    little, for less of the marker noise: on the exact motion it costs this much (the seed's weights: below)."""
    model, _, settings, truth = shipped
    _, m, worst_limb = _on_the_true_motion(model, truth, settings, settings.qp)
    assert worst_limb < 1.5
    assert m["torque_rms_pct_range"] < 5.0


def test_qp_on_the_true_motion_recovers_each_limbs_load_and_the_torques(shipped):
    """The estimator alone, at the seed's weights (W1 = I): the exact motion gives back the loads."""
    model, _, settings, truth = shipped
    qp, m, worst_limb = _on_the_true_motion(model, truth, settings, replace(settings.qp, w_base=1.0))
    assert worst_limb < 1.0
    assert m["torque_rms_pct_range"] < 1.5
    g = m["grf_rrmse_pct"]
    k = slice(None, None, 5)
    # every limb's force, frame by frame (single support: each follows from the motion)
    up = -np.asarray(model.gravity) / np.linalg.norm(model.gravity)
    est_groups = np.array([c.group for c in model.contacts])
    for group in set(truth.contact_groups):
        true = truth.group_force(group)[k]
        error = qp.forces[:, est_groups == group].sum(axis=1) - true
        loaded = true @ up > 20.0
        assert np.all(np.sqrt((error[loaded] ** 2).mean(axis=0)) < 0.01 * np.ptp(true[loaded], axis=0))
    # metrics.json reports the sum over the limbs as rRMSE per axis (seed eq. 39: RMSE over the mean of the ranges)
    true_total = sum(truth.group_force(g) for g in set(truth.contact_groups))[k]
    loaded = true_total @ up > 20.0
    ml = np.cross([1.0, 0.0, 0.0], up)
    for name, axis in (("vertical", up), ("ap", np.array([1.0, 0.0, 0.0])), ("ml", ml)):
        est, true = qp.forces.sum(axis=1)[loaded] @ axis, true_total[loaded] @ axis
        expected = 100.0 * np.sqrt(np.mean((est - true) ** 2)) / (0.5 * (np.ptp(est) + np.ptp(true)))
        assert g["all_groups"][name] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("corners", [True, False], ids=["plate corners", "no corners"])
def test_a_stance_no_plate_measured_gets_the_estimate(shipped, analysed, corners):
    """Without the blade's plate, the inverse dynamics with the measured loads estimates the blade's stances, never
    the foot while its plate carries it: the amputated side's torques stay within 5% of their range, where the
    plate's loads alone leave the blade's load in the floating base's residual. A plate with corners measures the
    foot hovering over it (as zero), so only the blade is estimated; one without (as from a GRF .mot) covers where
    the foot stood while it was loaded, which leaves the blade's stances beside it."""
    model, trial, settings, truth = shipped
    assert not any(n.startswith("contact group") for n in analysed.notes)      # every stance on a plate
    foot_plate = next(p for p in trial.plates if p.name == "FP1")
    foot_only = trial.derived(plates=(foot_plate if corners else replace(foot_plate, corners=None),))
    settings = replace(settings, estimate_grf=False, muscles=False)
    scores, results = {}, {}
    for estimate in (True, False):
        results[estimate] = run(analysis_steps(model, foot_only, replace(settings, estimate_unmeasured=estimate)))
        m = truth_metrics(results[estimate], truth, settings.forward)
        assert m["torque_source"] == "measured loads"
        scores[estimate] = m["torque_rms_pct_range_by_coordinate"]
    assert not results[False].classic.estimated
    result = results[True]
    estimated = result.classic.estimated
    assert (np.linalg.norm(estimated["blade"].force, axis=1) > 0).sum() > 100          # its two stances
    if corners:
        assert set(estimated) == {"blade"}
    elif "foot_l" in estimated:
        loaded = plate_samples(result.trial.plates[0], result.motion.time)[3]
        assert not estimated["foot_l"].force[loaded].any()
    right = [c for c in scores[True] if c.endswith("_r") and c.split("_")[0] in ("hip", "knee")]
    assert len(right) == 4
    assert max(scores[True].values()) < 5.0
    assert min(scores[False][c] for c in right) > 20.0


def test_plates_given_to_bodies_are_not_counted_twice(shipped):
    """Plates without corners applied to bodies, as an ExternalLoads file does (the blade's to the rod): a plate
    measures the groups on its body or distal to it, so no group gets an estimated load while its plate carries
    one, and the torques are those of the plates assigned by centre of pressure."""
    model, trial, settings, truth = shipped
    bare = trial.derived(plates=tuple(replace(p, corners=None) for p in trial.plates))
    settings = replace(settings, estimate_grf=False, muscles=False, plate_bodies={"FP1": "calcn_l", "FP2": "blade"})
    result = run(analysis_steps(model, bare, settings))
    plates = {p.name: plate_samples(p, result.motion.time)[3] for p in result.trial.plates}
    for group, loads in result.classic.estimated.items():
        assert not loads.force[plates["FP1" if group == "foot_l" else "FP2"]].any(), group
    assert truth_metrics(result, truth, settings.forward)["torque_rms_pct_range"] < 5.0


def test_the_qp_given_one_limbs_true_load_recovers_the_other(shipped):
    """The QP with known loads (``node_wrenches``) and the candidates they measure held (``measured``): on the
    true motion, the foot's true contact forces given, the blade's come back within 1% of their range per axis."""
    model, _, settings, truth = shipped
    k = slice(None, None, 5)
    motion = Motion(truth.time[k], truth.q[k], truth.v[k], truth.a[k], cutoff=None, order=settings.order)
    X = alg.frame_positions_batch(model, Data(model), motion.q, truth.contact_names)
    groups = np.array(truth.contact_groups)
    known = np.zeros((len(motion.time), compile_tree(model).n_nodes, 6))
    for c, name in enumerate(truth.contact_names):
        if groups[c] == "foot_l":
            node = compile_tree(model).k.frames[compile_tree(model).contact_frame[name]]["node"]
            known[:, node, :3] += np.cross(X[:, c], truth.contact_forces[k][:, c])
            known[:, node, 3:] += truth.contact_forces[k][:, c]
    order = [truth.contact_names.index(c.name) for c in model.contacts]
    measured = np.repeat((groups[order] == "foot_l")[None], len(motion.time), axis=0)
    qp = solve_qp_id(model, motion, replace(settings.qp, w_base=1.0, floor=0.0), node_wrenches=known,
                     measured=measured)
    assert not qp.forces[:, groups[order] == "foot_l"].any()
    true = truth.group_force("blade")[k]
    error = qp.forces[:, groups[order] == "blade"].sum(axis=1) - true
    assert np.all(np.sqrt((error ** 2).mean(axis=0)) < 0.01 * np.ptp(true, axis=0))


def test_validation_compares_with_plates_that_passed_both_filters(shipped, analysed):
    """The estimate passed the coordinates' filter and then the loads' own: so do the plates it is scored on."""
    model, _, settings, _ = shipped
    assert settings.loads_cutoff == CUTOFF and analysed.qp.loads_cutoff == CUTOFF
    plates = analysed.trial
    for _ in range(2):
        plates, _ = lowpass_plates(plates, CUTOFF, settings.order, settings.edges)
    expected = grf_metrics(model, analysed.motion, analysed.qp, [p for p in plates.plates if p.loaded.any()],
                           settings.forward)
    assert [(m.plate, m.axis) for m in expected] == [(m.plate, m.axis) for m in analysed.metrics]
    assert np.allclose([m.rrmse for m in expected], [m.rrmse for m in analysed.metrics], rtol=1e-12)
    once, _ = lowpass_plates(analysed.trial, CUTOFF, settings.order, settings.edges)
    single = grf_metrics(model, analysed.motion, analysed.qp, [p for p in once.plates if p.loaded.any()],
                         settings.forward)
    assert not np.allclose([m.rrmse for m in single], [m.rrmse for m in expected], rtol=1e-3)


def test_shipped_results_are_those_of_the_shipped_inputs(analysed):
    """The shipped results are what this installation computes from the shipped files: to round-off where the
    linear algebra's kernels are those ``hybrid make-demo`` pins, to the kernels' differences elsewhere (between
    OpenBLAS's SkylakeX and Haswell kernels: 3e-7 on the coordinates, 3e-7 N on contact forces, 2e-5 N on muscle
    forces), far below any change of the analysis."""
    result, settings = demo_results()
    assert settings.cutoff == CUTOFF and settings.estimate_grf and settings.muscles
    assert np.allclose(result.ik.q, analysed.ik.q, rtol=0.0, atol=1e-5)
    assert np.allclose(result.qp.forces, analysed.qp.forces, rtol=0.0, atol=1e-5)
    assert np.allclose(result.classic.tau, analysed.classic.tau, rtol=0.0, atol=1e-5)
    assert np.allclose(result.muscles.result.forces, analysed.muscles.result.forces, rtol=0.0, atol=1e-3,
                       equal_nan=True)
    assert result.model == load_model(demo_files().model)
