"""Seed 003's performance maps (section 5): workspace, dexterity, stiffness and bearing capacity."""
import numpy as np

from hip_mechanism import dynamics, jacobians, kinematics
from hip_mechanism.maps import (ALPHA_LIMIT, BETA_LIMIT, SINGULAR, STROKE_LONG, default_grid, path_measures,
                                performance_maps)
from hip_mechanism.parameters import SEED


def test_workspace_spans_the_seeds_rotations():
    """Section 5.1: rotation about X over [-60, 60] degrees and about Y over [-90, 35] degrees (on a 1-degree
    grid, the seed's figures' resolution or finer), and nothing beyond."""
    alphas, betas = default_grid(1.0)
    maps = performance_maps(SEED, alphas, betas)
    a = np.round(np.degrees(alphas), 9)
    b = np.round(np.degrees(betas), 9)
    along_alpha = a[maps.inside[:, np.argmin(np.abs(b))]]
    along_beta = b[maps.inside[np.argmin(np.abs(a)), :]]
    assert along_alpha.min() == -60.0 and along_alpha.max() == 60.0
    assert along_beta.min() == -90.0 and along_beta.max() == 35.0
    assert maps.inside[np.abs(a) <= 60][:, (b >= -90) & (b <= 35)].all()
    assert maps.flags[a == 61.0][0, np.argmin(np.abs(b))] & ALPHA_LIMIT
    assert maps.flags[np.argmin(np.abs(a)), b == -91.0][0] & BETA_LIMIT


def test_strokes_limit_the_workspace():
    params = SEED.replace(stroke_max=0.340)
    maps = performance_maps(params, np.radians([0.0]), np.radians([0.0, 20.0, 30.0]))
    lengths = kinematics.actuator_lengths(params, np.radians([[0.0, 0.0], [0.0, 20.0], [0.0, 30.0]]))
    expected = lengths.max(axis=1) > 0.340
    assert list((maps.flags[0] & STROKE_LONG) != 0) == list(expected) and expected.any() and not expected.all()


def test_dexterity_is_the_inverse_condition_number_and_vanishes_on_the_actuation_singularities():
    """1/kappa in (0, 1] of the full Jacobian (moment columns scaled by the characteristic length); it falls to
    zero where det(d(l2, l3)/d(alpha, beta)) changes sign, found independently by bisection on finite
    differences of the limb lengths."""
    def det_fd(q, h=1e-7):
        cols = [(kinematics.limb_lengths(SEED, q + e)[1:] - kinematics.limb_lengths(SEED, q - e)[1:]) / (2 * h)
                for e in np.eye(2) * h]
        return np.linalg.det(np.column_stack(cols))

    alphas, betas = np.radians(np.arange(-50.0, 50.1, 5.0)), np.radians(np.arange(-90.0, 40.1, 5.0))
    maps = performance_maps(SEED, alphas, betas)
    assert (maps.dexterity > 0).all() and (maps.dexterity <= 1).all()
    for i, al in enumerate(alphas[:3]):
        for j in range(len(betas) - 1):
            lo, hi = np.array([al, betas[j]]), np.array([al, betas[j + 1]])
            if np.sign(det_fd(lo)) == np.sign(det_fd(hi)):
                continue
            for _ in range(50):
                mid = 0.5 * (lo + hi)
                lo, hi = (mid, hi) if np.sign(det_fd(mid)) == np.sign(det_fd(lo)) else (lo, mid)
            root = 0.5 * (lo + hi)
            assert path_measures(SEED, root[None])["dexterity"][0] < 1e-6
            assert path_measures(SEED, root[None])["flags"][0] & SINGULAR
    J = jacobians.full_jacobian(SEED, [0.2, -0.4])
    J[:, :3] /= SEED.characteristic_length
    sv = np.linalg.svd(J, compute_uv=False)
    assert path_measures(SEED, np.array([[0.2, -0.4]]))["dexterity"][0] == np.float64(sv[-1] / sv[0]) or \
        np.isclose(path_measures(SEED, np.array([[0.2, -0.4]]))["dexterity"][0], sv[-1] / sv[0], rtol=1e-12)


def test_stiffness_is_k_jt_j_and_bearing_capacity_matches_the_virtual_work_statics():
    Q = np.radians([[0.0, 0.0], [30.0, -50.0], [-45.0, 20.0]])
    measures = path_measures(SEED, Q)
    for t, q in enumerate(Q):
        J = jacobians.full_jacobian(SEED, q)
        K = SEED.k * J.T @ J                                  # eq. 16a
        ev = np.linalg.eigvalsh(K)
        assert np.isclose(measures["stiffness_min"][t], ev[0], rtol=1e-8)
        assert np.isclose(measures["stiffness_max"][t], ev[-1], rtol=1e-8)
        C = np.linalg.inv(K)
        kt = np.linalg.eigvalsh(np.linalg.inv(C[3:, 3:]))
        assert np.isclose(measures["translational_stiffness_min"][t], kt[0], rtol=1e-6)
        # a unit vertical load at the platform's centre of mass, held statically (no motion, no gravity)
        tau = dynamics.inverse_dynamics(SEED, q, np.zeros(2), np.zeros(2), [0, 0, -1.0, 0, 0, 0], np.zeros(3))
        assert np.isclose(measures["bearing_capacity"][t], SEED.actuator_force_limit / np.abs(tau).max(),
                          rtol=1e-9)
