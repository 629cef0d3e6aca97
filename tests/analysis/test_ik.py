"""Inverse kinematics against OpenSim's IK on its example trials, and on a blade with known strains."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.analysis.derivatives import motion_from_coordinates
from engine.analysis.ik import IKSettings, solve_ik
from engine.data import Data
from engine.model import Body, Coordinate, FreeJoint, Marker, Material, Model, RevoluteJoint, Rod, RodSegment, Section
from engine.spatial import SE3, axis_angle
from engine.tree import compile_tree
from engine.trial.trial import Markers
from engine.io.setup_xml import ik_settings_from_setup
from engine.io.storage import read_storage
from tests.analysis.opensim_cases import CASES, load, reference


def ik_of_case(folder, test_data):
    """The model of OpenSim's example ``folder``, our IK of its trial with its setup's settings and OpenSim's mean
    marker RMS (m) over it (reference/ik_marker_errors.sto; also read by benchmarks/validation_figures.py)."""
    model, trial, setup = load(folder, str(test_data))
    result = solve_ik(model, trial.markers, ik_settings_from_setup(model, setup))
    theirs = reference(folder, str(test_data), "ik_marker_errors.sto").column("marker_error_RMS").mean()
    return model, result, float(theirs)


@pytest.mark.parametrize("folder", list(CASES))
def test_ik_matches_opensim_marker_errors_and_coordinates(folder, test_data):
    model, result, theirs = ik_of_case(folder, test_data)
    assert np.all(result.status == 1)
    ours = np.nanmean(result.rms)
    assert ours <= theirs + 0.5e-3, (ours, theirs)
    ref = reference(folder, str(test_data), "ik.mot")
    assert np.allclose(ref.time, result.time, atol=1e-6)
    for label in ref.labels:
        slot = compile_tree(model).coordinates[label]
        theirs = ref.column(label) * (np.pi / 180 if ref.in_degrees and slot.kind == "rotational" else 1.0)
        rms = np.sqrt(np.mean((result.q[:, slot.qi] - theirs) ** 2))
        limit = np.radians(2.0) if slot.kind == "rotational" else 2e-3
        assert rms < limit, (label, rms)


def test_no_model_marker_in_the_trial_lists_some_of_each_sides_names(test_data):
    """A trial whose labels carry Vicon's subject prefix (``Sub01:R.Heel``) has none of the model's marker names: the
    error shows the first 8 of each side, sorted, and how many there are, so the prefix is seen at once."""
    import dataclasses

    from engine.errors import SettingsError
    model, trial, setup = load("gait10dof18musc", str(test_data))
    labels = [f"Sub01:{n}" for n in trial.markers.names]
    markers = dataclasses.replace(trial.markers, names=labels)
    with pytest.raises(SettingsError) as raised:
        solve_ik(model, markers, ik_settings_from_setup(model, setup))
    model_names = sorted(m.name for m in model.markers)
    assert str(raised.value.problem) == (
        f"no model marker is found in the trial (compare the marker names): the model's {len(model_names)} markers: "
        f"{', '.join(model_names[:8])}, ...; the trial's {len(labels)} labels: {', '.join(sorted(labels)[:8])}, ...")
    assert len(model_names) > 8 and len(labels) > 8 and all(n.startswith("Sub01:") for n in sorted(labels)[:8])


def test_marker_rms_with_missing_markers_is_over_the_markers_present_where_opensims_counts_them_as_zero(test_data):
    """gait10dof18musc's walk with R.Heel and L.Toe.Tip missing in 20 frames, against OpenSim 4.6's IK of the same
    samples (gaps/make_gaps.py): the same fit and the same sum of squared errors in every frame. Our per-frame RMS is
    over the markers present (29 of 31 in the gap); OpenSim's ``marker_error_RMS`` divides by all 31 in use (a
    missing marker counted as 0), so ours is sqrt(31/29) times OpenSim's there, and equal elsewhere."""
    import dataclasses

    model, trial, setup = load("gait10dof18musc", str(test_data))
    gap = slice(20, 40)
    positions = np.array(trial.markers.positions)
    for name in ("R.Heel", "L.Toe.Tip"):
        positions[gap, trial.markers.index(name)] = np.nan
    markers = dataclasses.replace(trial.markers, positions=positions)
    settings = dataclasses.replace(ik_settings_from_setup(model, setup), robust_loss=None)
    result = solve_ik(model, markers, settings)
    made = test_data / "opensim" / "gait10dof18musc" / "gaps" / "reference"
    theirs = read_storage(made / "ik_gaps_marker_errors.sto")
    assert np.all(result.status == 1) and np.allclose(result.time, theirs.time, atol=1e-6)
    n_used = len(result.marker_names)
    present = (~np.isnan(result.errors)).sum(axis=1)
    assert n_used == 31 and np.all(present[gap] == 29) and np.all(np.delete(present, np.r_[gap]) == 31)
    assert np.allclose(np.nansum(result.errors ** 2, axis=1), theirs.column("total_squared_error"), rtol=2e-3)
    assert np.allclose(result.rms, theirs.column("marker_error_RMS") * np.sqrt(n_used / present), atol=2e-5)
    assert np.all(result.rms[gap] > theirs.column("marker_error_RMS")[gap] + 0.5e-3)   # about 1 mm more
    coordinates = read_storage(made / "ik_gaps.mot")
    for label in coordinates.labels:
        slot = compile_tree(model).coordinates[label]
        scale = np.pi / 180 if coordinates.in_degrees and slot.kind == "rotational" else 1.0
        assert np.abs(result.q[:, slot.qi] - coordinates.column(label) * scale).max() < np.radians(0.5), label

def blade_model():
    """A floating pelvis, a thigh and a socket carrying a 6-segment J-shaped blade with 21 markers:
    10 pairs across its width (so that torsion shows) and one at the tip; markers on the rigid bodies."""
    carbon = Material("carbon", 60e9, 5e9, 1600.0)
    section = Section.rectangle(0.07, 0.012)
    curvature = [0.0, 0.0, -4.0, -6.0, -5.0, 0.0]
    lengths = [0.14, 0.12, 0.09, 0.09, 0.09, 0.12]
    # declared strain ranges (1/m): torsion and lateral bending +-3, bending +-8 about the rest J shape
    segs = [RodSegment(L, section, carbon, rest_strain=(0, 0, k, 1, 0, 0),
                       strain_range=((-3.0, 3.0), (-3.0, 3.0), (k - 8.0, k + 8.0)))
            for L, k in zip(lengths, curvature)]
    bodies = [Body("pelvis", 10.0, (0, 0, 0), np.diag([0.1, 0.1, 0.1])),
              Body("thigh", 7.0, (0, -0.2, 0), np.diag([0.1, 0.02, 0.1])),
              Body("socket", 1.5, (0, -0.1, 0), np.diag([0.01, 0.005, 0.01]))]
    joints = [FreeJoint("root", "ground", "pelvis", SE3(np.eye(3), [0, 1.0, 0])),
              RevoluteJoint("hip", "pelvis", "thigh", SE3(np.eye(3), [0, -0.05, 0.1]),
                            coordinates=(Coordinate("hip_flexion", range=(-1.0, 1.5)),)),
              RevoluteJoint("knee", "thigh", "socket", SE3(np.eye(3), [0, -0.42, 0]),
                            coordinates=(Coordinate("knee_angle", range=(-2.0, 0.1)),))]
    rod = Rod("blade", "socket", segs, offset=SE3(axis_angle([0, 0, 1], -np.pi / 2), [0.03, -0.2, 0]))
    markers = [Marker(n, "pelvis", p) for n, p in (("RASI", (0.1, 0, 0.12)), ("LASI", (0.1, 0, -0.12)),
                                                    ("RPSI", (-0.1, 0.03, 0.05)), ("LPSI", (-0.1, 0.03, -0.05)))]
    markers += [Marker("THI1", "thigh", (0.05, -0.2, 0.02)), Marker("THI2", "thigh", (0.0, -0.3, 0.06)),
                Marker("KNE", "thigh", (0.0, -0.42, 0.05)), Marker("SCK1", "socket", (0.05, -0.1, 0.04)),
                Marker("SCK2", "socket", (-0.04, -0.15, 0.04)), Marker("SCK3", "socket", (0.0, -0.05, -0.05))]
    total = sum(lengths)
    for i in range(10):
        for side, z in (("L", -0.035), ("R", 0.035)):
            markers.append(Marker(f"BLD{i + 1:02d}{side}", "blade", (0, 0.0, z), s=total * (i + 0.5) / 10))
    markers.append(Marker("BLDTIP", "blade", (0, 0, 0), s=total))
    return Model("blade", bodies, joints, [rod], markers=markers)


def blade_motion(model, rate=200.0, duration=1.0):
    """Known coordinates: floating pelvis, hip and knee swinging, every blade strain varying
    (bending +-4 1/m about the rest J shape, torsion and lateral bending +-1.5 1/m)."""
    time = np.arange(0.0, duration, 1.0 / rate)
    q_true = np.empty((time.size, model.nq))
    strains = [i for i, n in enumerate(compile_tree(model).q_names) if n.startswith("blade_")]
    for f, tf in enumerate(time):
        v = np.zeros(model.nv)
        v[:6] = [0.2 * np.sin(2 * tf), 0.5 * tf, 0.1, 0.3 * tf, 0.05, -0.2 * tf]
        q = alg.integrate(model, alg.neutral(model), v)
        q[compile_tree(model).coordinates["hip_flexion"].qi] = 0.6 * np.sin(2 * np.pi * tf)
        q[compile_tree(model).coordinates["knee_angle"].qi] = -0.8 - 0.5 * np.sin(2 * np.pi * tf)
        for j, qi in enumerate(strains):
            amp = {"kz": 4.0, "ky": 1.5, "kx": 1.5}[compile_tree(model).q_names[qi][-2:]]
            q[qi] += amp * np.sin(2 * np.pi * tf + 0.7 * j)
        q_true[f] = q
    return time, q_true, strains


def markers_of(model, time, Q, noise, rng):
    positions = alg.marker_positions_batch(model, Data(model), Q)
    positions = positions + rng.normal(scale=noise, size=positions.shape) if noise else positions
    return Markers(tuple(m.name for m in model.markers), time, positions, 1.0 / (time[1] - time[0]))


def test_blade_strains_are_exact_from_noise_free_markers(rng):
    model = blade_model()
    time, q_true, strains = blade_motion(model, rate=60.0)
    result = solve_ik(model, markers_of(model, time, q_true, 0.0, rng))
    assert np.all(result.status == 1)
    assert np.abs(result.q[:, strains] - q_true[:, strains]).max() < 1e-7


def test_blade_strains_are_recovered_from_1mm_noise_within_5_percent_of_their_range(rng):
    """IK per frame, then the pipeline's 6 Hz zero-lag filter (per-frame marker noise is white)."""
    model = blade_model()
    time, q_true, strains = blade_motion(model, rate=200.0)
    result = solve_ik(model, markers_of(model, time, q_true, 1e-3, rng))
    assert np.all(result.status == 1)
    assert np.nanmean(result.rms) < 1.5e-3          # the fit is at the noise level
    motion = motion_from_coordinates(model, result.time, result.q, cutoff=6.0)
    for qi in strains:
        name = compile_tree(model).q_names[qi]
        lo, hi = model.coordinate(name).range
        raw = np.sqrt(np.mean((result.q[:, qi] - q_true[:, qi]) ** 2))
        filtered = np.sqrt(np.mean((motion.q[:, qi] - q_true[:, qi]) ** 2))
        assert raw < 0.10 * (hi - lo), (name, raw)
        assert filtered < 0.05 * (hi - lo), (name, filtered, hi - lo)
    for name in ("hip_flexion", "knee_angle"):
        qi = compile_tree(model).coordinates[name].qi
        assert np.sqrt(np.mean((motion.q[:, qi] - q_true[:, qi]) ** 2)) < np.radians(1.0)


def test_normal_equations_from_marker_moments_equal_finite_difference_jacobians(rng):
    """The LM kernel forms H = J^T W J and g = J^T W r from the markers' moments gathered up the tree, never from
    their Jacobians: compare with Jacobians by central differences on the blade model (a floating base, joints,
    rod slices sharing strain columns), with per-marker weights, a missing marker and a zero weight."""
    from engine.analysis._ik import _normal_equations

    model = blade_model()
    data = Data(model)
    tree = compile_tree(model)
    _, q_true, _ = blade_motion(model, duration=0.05)
    q = q_true[3]
    names = [m.name for m in model.markers]
    mframes = np.array([tree.marker_frame[n] for n in names], np.int64)
    targets = alg.marker_positions_batch(model, data, q[None])[0] + rng.normal(scale=0.01, size=(len(names), 3))
    targets[5] = np.nan
    weights = rng.uniform(0.5, 2.0, len(names))
    weights[7] = 0.0
    nv = model.nv
    H, g = np.empty((nv, nv)), np.empty(nv)
    empty_i, empty_f = np.zeros(0, np.int64), np.zeros(0)
    n_nodes = tree.k.nodes.shape[0]
    cost = _normal_equations(tree.k, data.ws, data.scr, q, mframes, targets, weights, empty_i, empty_i, empty_f,
                             np.zeros((0, 0)), H, g, np.empty((n_nodes, 6, 6)), np.empty((n_nodes, 16)))
    eps = 1e-6
    steps = np.array([alg.integrate(model, q, s * eps * e) for e in np.eye(nv) for s in (1.0, -1.0)])
    moved = alg.marker_positions_batch(model, data, steps).reshape(nv, 2, len(names), 3)
    J = ((moved[:, 0] - moved[:, 1]) / (2 * eps)).transpose(1, 2, 0)          # (K, 3, nv)
    x = alg.marker_positions_batch(model, data, q[None])[0]
    use = ~np.isnan(targets[:, 0]) & (weights > 0)
    r = (targets - x)[use]
    w = weights[use]
    H_fd = np.einsum("k,kia,kib->ab", w, J[use], J[use])
    g_fd = np.einsum("k,kia,ki->a", w, J[use], r)
    assert np.isclose(cost, 0.5 * np.sum(w * np.sum(r ** 2, axis=1)), rtol=1e-12)
    assert np.allclose(H, H_fd, rtol=1e-6, atol=1e-7 * np.abs(H_fd).max())
    assert np.allclose(g, g_fd, rtol=1e-6, atol=1e-7 * np.abs(g_fd).max())


def test_the_trials_parts_side_by_side_give_the_sequential_fit(test_data, monkeypatch):
    # gait2354's 73 frames in two parts on two threads, the second started from its own markers' pose: the same
    # fit as one warm-started sequence; and the same again when that start is turned half a turn about the
    # forward axis (upside down: a wrong local minimum the part would otherwise follow)
    from dataclasses import replace
    from engine.analysis import ik
    monkeypatch.setattr(ik, "MIN_PART_FRAMES", 32)       # parts of 36 frames (a real trial's are hundreds)
    model, trial, setup = load("gait2354", str(test_data))
    settings = ik_settings_from_setup(model, setup)
    one = solve_ik(model, trial.markers, replace(settings, threads=1))
    two = solve_ik(model, trial.markers, replace(settings, threads=2))
    assert np.abs(two.q - one.q).max() < 1e-5 and np.abs(two.rms - one.rms).max() < 1e-8
    real, calls = ik.initial_pose, []

    def turned(model, data, problem, targets, settings, row=0):
        q = real(model, data, problem, targets, settings, row)
        calls.append(q)
        if len(calls) == 2:                  # the second part's start
            q = q.copy()
            q[compile_tree(model).coordinates["pelvis_list"].qi] += np.pi
        return q

    monkeypatch.setattr(ik, "initial_pose", turned)
    again = solve_ik(model, trial.markers, replace(settings, threads=2))
    assert len(calls) >= 2
    assert np.abs(again.q - one.q).max() < 1e-5 and np.abs(again.rms - one.rms).max() < 1e-8


def _strain_stiffness(model):
    """``{strain coordinate: k}``: the diagonal of the rods' stiffness K (seed eq. 26) by coordinate."""
    segs = compile_tree(model).k.segs
    free = segs["q"] >= 0
    k = dict(zip(segs["q"][free].tolist(), segs["k"][free].tolist()))
    return {n: k[s.qi] for n, s in compile_tree(model).coordinates.items() if s.qi in k}


def _strain_information(model, weight):
    """``(names, P, mu, V)``: the strain coordinates, the prior's ``P = weight K / 2`` and the generalized
    eigenvalues and eigenvectors (``V^T P V = I``) of the markers' information on the strains at rest against it:
    ``S``, the Schur complement of ``J^T J`` (every marker at weight 1) with the other coordinates free, from marker
    Jacobians by central differences (not from the IK kernel's moments)."""
    from scipy.linalg import eigh

    k = _strain_stiffness(model)
    names = list(k)
    vi = np.array([compile_tree(model).coordinates[n].vi for n in names])
    q, data, eps = alg.neutral(model), Data(model), 1e-6
    steps = np.array([alg.integrate(model, q, s * eps * e) for e in np.eye(model.nv) for s in (1.0, -1.0)])
    moved = alg.marker_positions_batch(model, data, steps).reshape(model.nv, 2, len(model.markers), 3)
    J = ((moved[:, 0] - moved[:, 1]) / (2 * eps)).reshape(model.nv, -1).T
    H = J.T @ J
    others = np.setdiff1d(np.arange(model.nv), vi)
    S = H[np.ix_(vi, vi)] - H[np.ix_(vi, others)] @ np.linalg.solve(H[np.ix_(others, others)], H[np.ix_(others, vi)])
    P = np.diag([0.5 * weight * k[n] for n in names])
    mu, V = eigh(S, P)
    return names, P, mu, V


def test_the_strain_prior_weighs_only_the_directions_the_markers_inform_less_than_it(rng):
    """IKSettings.rod_energy_weight: the strain tasks' weights are ``P V V^T P``, ``V`` the eigenvectors of
    :func:`_strain_information` with eigenvalue below 1 (the markers inform them less than the prior), toward rest."""
    from engine.analysis.ik import _Problem

    model = blade_model()
    time, q_true, _ = blade_motion(model, duration=0.05)
    weight = 1e-5
    problem = _Problem(model, markers_of(model, time, q_true, 0.0, rng), IKSettings(rod_energy_weight=weight))
    names, P, mu, V = _strain_information(model, weight)
    assert (mu < 1).sum() >= 3 and (mu > 1).sum() >= 3      # both kinds of direction, so that the choice shows
    V = V[:, mu < 1]
    block = [problem.c_q.tolist().index(compile_tree(model).coordinates[n].qi) for n in names]
    expected = P @ V @ V.T @ P
    assert np.allclose(problem.c_w[np.ix_(block, block)], expected, rtol=1e-4, atol=1e-6 * np.abs(expected).max())
    assert np.allclose(problem.c_target[:, block], [compile_tree(model).coordinates[n].default for n in names])   # rest


def test_the_strain_prior_does_not_shrink_what_the_markers_measure(rng):
    """A blade bending in the strain directions the markers inform more than the prior (eigenvalue above 1 in
    :func:`_strain_information`): from noise-free markers the prior's IK gives its strains exactly (the prior costs
    nothing there), where the full elastic-energy prior toward rest at the same weight shortens the bending; with
    1 mm marker noise the prior still takes out much of the strains' noise, without that shortening."""
    model = blade_model()
    weight = 1e-5
    names, P, mu, V = _strain_information(model, weight)
    qi = [compile_tree(model).coordinates[n].qi for n in names]
    seen = V[:, mu > 1]

    def bending(rate):
        time = np.arange(0.0, 0.5, 1.0 / rate)
        q = np.tile(alg.neutral(model), (len(time), 1))
        amplitude = 0.5 / np.abs(seen).max(axis=0) / seen.shape[1]   # strains within 0.5 1/m of rest
        q[:, qi] += (np.sin(2 * np.pi * np.outer(time, 1.0 + np.arange(seen.shape[1]))) * amplitude) @ seen.T
        return time, q

    time, q_true = bending(60.0)
    exact = markers_of(model, time, q_true, 0.0, rng)
    full = {n: (0.5 * weight * k, None) for n, k in _strain_stiffness(model).items()}
    errors = {}
    for label, settings in (("prior", IKSettings(rod_energy_weight=weight)), ("full", IKSettings(coordinate_tasks=full))):
        result = solve_ik(model, exact, settings)
        assert np.all(result.status == 1)
        errors[label] = np.abs(result.q[:, qi] - q_true[:, qi]).max()
    assert errors["prior"] < 1e-6 and errors["full"] > 1e-2, errors
    time, q_true = bending(200.0)
    noisy = markers_of(model, time, q_true, 1e-3, rng)
    rms = {label: np.sqrt(np.mean((solve_ik(model, noisy, s).q[:, qi] - q_true[:, qi]) ** 2))
           for label, s in (("prior", IKSettings(rod_energy_weight=weight)), ("none", IKSettings()))}
    assert rms["prior"] < 0.2 * rms["none"], rms                  # measured: a tenth


def test_the_fast_fit_reaches_the_converged_minimum_s_marker_rms_to_a_hundredth_of_a_mm(test_data):
    """gait2354 walk 1 with its setup's weights and coordinate tasks (no robust loss): each frame's marker RMS is
    within 0.01 mm of that of the same objective, sum w_k |x_k(q) - m_k|^2 + sum w_c (q_c - target_c)^2, minimised
    by scipy's trust-region least squares from our fit to a 1e-12 step (forward kinematics alone: no IK kernel, no
    Jacobian of ours), on five frames spread over the trial; and the markers of both fits lie within 0.01 mm of each
    other (so that a fit moved by 0.02 mm from the minimum fails, though its RMS differs only to second order)."""
    from dataclasses import replace
    from scipy.optimize import least_squares
    model, trial, setup = load("gait2354", str(test_data))
    settings = replace(ik_settings_from_setup(model, setup), robust_loss=None)
    result = solve_ik(model, trial.markers, settings)
    assert np.all(result.status == 1)
    tree, data = compile_tree(model), Data(model)
    assert model.nq == model.nv and not any(s.clamped or s.locked for s in tree.coordinates.values())
    names = [m.name for m in model.markers]
    used = list(result.marker_names)
    rows = [names.index(n) for n in used]
    cols = [trial.markers.names.index(n) for n in used]
    w = np.sqrt([settings.marker_weights.get(n, settings.default_weight) for n in used])
    tasks = [(tree.coordinates[c].qi, np.sqrt(weight), tree.coordinates[c].default if target is None else target)
             for c, (weight, target) in settings.coordinate_tasks.items()]
    times = list(np.round(trial.markers.time, 9))
    for f in np.linspace(0, len(result.time) - 1, 5).round().astype(int):
        m = trial.markers.positions[times.index(round(float(result.time[f]), 9)), cols]
        seen = ~np.isnan(m[:, 0])

        def residuals(q):
            x = alg.marker_positions(model, data, q)[rows]
            e = (w[:, None] * (x - m))[seen].ravel()
            return np.concatenate([e, [s * (q[i] - t) for i, s, t in tasks]])

        fit = least_squares(residuals, result.q[f], method="trf", x_scale=1.0, xtol=1e-12, ftol=1e-15, gtol=1e-15,
                            diff_step=1e-7)
        x = alg.marker_positions(model, data, fit.x)[rows]
        theirs = np.sqrt(np.mean(np.sum((x - m)[seen] ** 2, axis=1)))
        assert abs(result.rms[f] - theirs) < 1e-5, (f, result.rms[f], theirs)
        moved = np.linalg.norm(x - alg.marker_positions(model, data, result.q[f])[rows], axis=1).max()
        assert moved < 1e-5, (f, moved)


def test_model_markers_in_the_trial_all_weighted_zero_are_said_so_not_missing(test_data):
    import dataclasses

    from engine.errors import SettingsError
    model, trial, setup = load("gait10dof18musc", str(test_data))
    names = sorted(m.name for m in model.markers)
    settings = dataclasses.replace(ik_settings_from_setup(model, setup), marker_weights={n: 0.0 for n in names})
    with pytest.raises(SettingsError) as raised:
        solve_ik(model, trial.markers, settings)
    found = sorted(n for n in names if n in set(trial.markers.names))
    assert raised.value.problem == (f"every model marker the trial has ({len(found)} markers: {', '.join(found[:8])}, "
                                    "...) has the weight 0: IK has no marker to fit")


def test_a_trial_is_cut_into_as_many_parts_as_numba_may_use_threads(monkeypatch):
    """A study's worker sets NUMBA_NUM_THREADS to one (study.cluster.WORKER_ENVIRONMENT): a long trial is then solved
    in one part, not in one per core beside the other workers' (two workers on two cores ran four threads)."""
    from numba import config

    from engine.analysis.ik import MIN_PART_FRAMES, _parts
    frames = 4 * MIN_PART_FRAMES
    has_markers = np.ones(frames, dtype=bool)
    for threads in (1, 2, 4):
        monkeypatch.setattr(config, "NUMBA_NUM_THREADS", threads)
        parts = _parts(0, frames, has_markers, None)
        assert len(parts) == threads and np.array_equal(np.concatenate(parts), np.arange(frames))
    assert len(_parts(0, frames, has_markers, 3)) == 3          # a number given wins
