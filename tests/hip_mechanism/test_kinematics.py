"""Seed 003's kinematics (eqs. 2-6) and Jacobians (sections 4, 6.3) against closed forms and finite differences."""
import math

import numpy as np
import pytest

from hip_mechanism import jacobians, kinematics
from hip_mechanism.dynamics import body_motions
from hip_mechanism.parameters import SEED

RNG = np.random.default_rng(3)
H = 1e-6


def workspace_poses(n):
    lo = np.array([SEED.alpha_range[0], SEED.beta_range[0]])
    hi = np.array([SEED.alpha_range[1], SEED.beta_range[1]])
    return lo + (hi - lo) * RNG.random((n, 2))


def central(f, q, k, h=H):
    e = np.zeros(2)
    e[k] = h
    return (np.asarray(f(q + e)) - np.asarray(f(q - e))) / (2 * h)


def vee_rate(R_of, q, k, h=1e-5):
    """omega per unit rate of q_k: vee(dR/dq_k R^T) by central differences."""
    e = np.zeros(2)
    e[k] = h
    W = (R_of(q + e) - R_of(q - e)) / (2 * h) @ R_of(q).T
    return np.array([W[2, 1], W[0, 2], W[1, 0]])


def test_pose_is_the_seeds_equations_2_3_and_5():
    for al, be in workspace_poses(20):
        ca, sa, cb, sb = math.cos(al), math.sin(al), math.cos(be), math.sin(be)
        R, p = kinematics.platform_pose(SEED, (al, be))
        assert np.allclose(R, [[cb, 0, sb], [sa * sb, ca, -cb * sa], [-ca * sb, sa, ca * cb]], atol=1e-15)
        l1, a, b = SEED.l1, SEED.a1, SEED.b1   # eq. 5 with sqrt(3) a = a1 and b = b1
        assert np.allclose(p, [l1 * ca * sb + a - b * cb, l1 * sa - b * sa * sb, l1 * ca * cb + b * ca * sb],
                           atol=1e-15)
        st = kinematics.state(SEED, (al, be))
        b2 = SEED.b2   # eq. 3's rows
        assert np.allclose(st.B[0], p + [b * cb, b * sa * sb, -b * ca * sb], atol=1e-15)
        assert np.allclose(st.B[1], p + [0, b2 * ca, b2 * sa], atol=1e-15)
        assert np.allclose(st.B[2], p - [0, b2 * ca, b2 * sa], atol=1e-15)
        lengths = kinematics.limb_lengths(SEED, (al, be))      # eq. 6
        A = np.array([[SEED.a1, 0, 0], [0, SEED.a2, 0], [0, -SEED.a3, 0]])
        assert np.allclose(lengths, np.linalg.norm(st.B - A, axis=1), rtol=1e-15)
        assert lengths[0] == pytest.approx(SEED.l1, rel=1e-14)     # the passive limb keeps its length


def test_inverse_and_forward_kinematics_round_trip_over_the_workspace():
    """At every pose of a 2-degree grid over the workspace, FK started half a degree away (a motion's previous
    frame) recovers the pose IK was given, to 1e-10 rad, except in the bands around the actuation singularities
    (det Jq = 0, which cross the seed's workspace: there two poses share the lengths), marked by the maps."""
    from hip_mechanism.maps import performance_maps
    alphas = np.radians(np.arange(-60.0, 60.01, 2.0))
    betas = np.radians(np.arange(-90.0, 35.01, 2.0))
    regular = performance_maps(SEED, alphas, betas).dexterity > 1e-3
    assert regular.mean() > 0.8
    worst = 0.0
    offset = np.radians([0.5, -0.5])
    for i, al in enumerate(alphas):
        for j, be in enumerate(betas):
            if not regular[i, j]:
                continue
            q = np.array([al, be])
            got = kinematics.forward_kinematics(SEED, kinematics.limb_lengths(SEED, q)[1:], q + offset)
            worst = max(worst, np.abs(got - q).max())
    assert worst < 1e-10


def test_forward_kinematics_follows_a_motion_continuously():
    """A flexion sweep over the whole beta range at alpha = 40 degrees (no singularity on it): FK along the lengths, each frame from the
    previous, gives the sweep back."""
    betas = np.radians(np.linspace(-90.0, 35.0, 501))
    path = np.column_stack([np.full(len(betas), np.radians(40.0)), betas])
    Q, ok = kinematics.forward_kinematics_path(SEED, kinematics.actuator_lengths(SEED, path), path[0])
    assert ok.all()
    assert np.abs(Q - path).max() < 1e-10


def test_forward_kinematics_refuses_lengths_no_pose_has():
    from engine.errors import DataError
    with pytest.raises(DataError, match="cannot close"):
        kinematics.forward_kinematics(SEED, (0.05, 0.90))


def test_velocity_and_acceleration_maps_against_finite_differences():
    for q in workspace_poses(10):
        P = jacobians.velocity_map(SEED, q)
        for k in range(2):
            w = vee_rate(lambda x: kinematics.platform_pose(SEED, x)[0], q, k)
            v = central(lambda x: kinematics.platform_pose(SEED, x)[1], q, k)
            assert np.allclose(P[:, k], np.concatenate([w, v]), rtol=1e-7, atol=1e-7 * np.abs(P).max())
        qd = RNG.normal(size=2)
        qdd = RNG.normal(size=2)
        st = kinematics.state(SEED, q, qd, qdd)
        # [domega; a_o] = d/dt (P qd) along q + t qd, qd + t qdd
        def twist(t):
            return jacobians.velocity_map(SEED, q + t * qd) @ (qd + t * qdd)
        expected = (twist(H) - twist(-H)) / (2 * H)
        got = np.concatenate([st.domega, st.a_o])
        assert np.allclose(got, expected, rtol=1e-7, atol=1e-7 * np.abs(expected).max())
        assert np.allclose(jacobians.acceleration_bias(SEED, q, qd) + P @ qdd, got, atol=1e-14)


def test_actuator_and_kinematic_jacobians_against_finite_differences():
    for q in workspace_poses(10):
        fd = np.column_stack([central(lambda x: kinematics.limb_lengths(SEED, x)[1:], q, k) for k in range(2)])
        Jq = jacobians.actuator_jacobian(SEED, q)
        assert np.allclose(Jq, fd, rtol=1e-7, atol=1e-9)
        assert np.allclose(jacobians.kinematic_jacobian(SEED, q) @ jacobians.velocity_map(SEED, q), fd,
                           rtol=1e-7, atol=1e-9)
        qd = RNG.normal(size=2)
        st = kinematics.state(SEED, q, qd)
        assert np.allclose(st.lengths[1:, 1], fd @ qd, rtol=1e-7, atol=1e-9)       # eq. 24's dl


def test_link_jacobians_against_finite_differences_of_the_links():
    """Each cylinder, piston and passive rod: its centre's velocity and angular velocity from link_jacobians
    (eq. 36) composed with the velocity map, against differences of its position and orientation."""
    from hip_mechanism import _geometry

    def link_pose(q, limb, end, e):
        st = kinematics.state(SEED, q)
        U = st.universal[limb]
        R = np.empty((3, 3))
        _geometry.limb_frame(U[0], U[1], R)
        A = np.array([[SEED.a1, 0, 0], [0, SEED.a2, 0], [0, -SEED.a3, 0]])
        r = A[limb] + e * st.s[limb] if end == 0 else st.B[limb] - e * st.s[limb]
        assert np.allclose(R[:, 2], st.s[limb], atol=1e-14)          # the limb frame's z is the limb
        return R, r

    for q in workspace_poses(6):
        maps = jacobians.link_jacobians(SEED, q)
        P = jacobians.velocity_map(SEED, q)
        for name, limb, end, e, _, _ in SEED.links():
            G = maps[name] @ P
            for k in range(2):
                w = vee_rate(lambda x: link_pose(x, limb, end, e)[0], q, k)
                v = central(lambda x: link_pose(x, limb, end, e)[1], q, k)
                assert np.allclose(G[:, k], np.concatenate([w, v]), rtol=1e-7, atol=1e-7), name
        qd = RNG.normal(size=2)
        for body in body_motions(SEED, q, qd)[1:]:      # the dynamics' link velocities agree with the maps
            G = maps[body.name] @ P
            assert np.allclose(body.omega, G[:3] @ qd, atol=1e-12)
            assert np.allclose(body.v, G[3:] @ qd, atol=1e-12)


def test_constraint_jacobian_annihilates_exactly_the_feasible_twists():
    """Jc's rows are reciprocal to every feasible twist (Jc P = 0), Jc has rank 4, and its null space is exactly
    the span of the feasible twists."""
    for q in workspace_poses(30):
        Jc = jacobians.constraint_jacobian(SEED, q)
        P = jacobians.velocity_map(SEED, q)
        assert np.abs(Jc @ P).max() < 1e-14
        sv = np.linalg.svd(Jc, compute_uv=False)
        assert sv[-1] > 1e-3 * sv[0]
        null = np.linalg.svd(Jc)[2][4:].T          # (6, 2) basis of Jc's null space
        residual = null - P @ np.linalg.lstsq(P, null, rcond=None)[0]
        assert np.abs(residual).max() < 1e-12
        # the passive limb's axial force is a constraint: limb 1's length cannot change along any feasible twist
        st = kinematics.state(SEED, q, RNG.normal(size=2))
        assert abs(st.lengths[0, 1]) < 1e-14
