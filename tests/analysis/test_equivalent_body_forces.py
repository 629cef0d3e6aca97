"""OpenSim's split of a joint's generalized forces into an equivalent body force, against closed forms (the
comparison with OpenSim's own file is in tests/io/tools/test_run_body_forces.py)."""
from __future__ import annotations

import numpy as np

from engine.analysis.equivalent_body_forces import split_generalized_forces


def test_three_rotations_give_the_moment_whose_components_on_the_axes_are_the_torques():
    rng = np.random.default_rng(3)
    axes = rng.normal(size=(3, 3))               # columns: the joint's angular motion per coordinate rate
    f = np.array([12.0, -4.0, 0.5])
    moment, force = split_generalized_forces(axes, np.zeros((3, 3)), f)
    assert np.allclose(axes.T @ moment, f, atol=1e-12) and not force.any()


def test_a_knee_whose_translations_follow_its_angle_gets_a_pure_moment_about_its_axis():
    axis = np.array([[0.0], [0.0], [1.0]])
    slide = np.array([[0.004], [-0.002], [0.0]])     # m per rad: less effective than the rotation
    moment, force = split_generalized_forces(axis, slide, np.array([-30.0]))
    assert np.allclose(moment, [0.0, 0.0, -30.0], atol=1e-12) and np.allclose(force, 0.0, atol=1e-12)


def test_the_more_effective_part_takes_the_generalized_force():
    # a screw moving 2 m per unit rate and turning 0.5 rad: the force is the more effective (2 > 0.5)
    e = np.array([[1.0], [0.0], [0.0]])
    moment, force = split_generalized_forces(0.5 * e, 2.0 * e, np.array([8.0]))
    assert np.allclose(force, [4.0, 0.0, 0.0], atol=1e-12) and np.allclose(moment, 0.0, atol=1e-12)


def test_a_free_joint_splits_into_its_translations_forces_and_its_rotations_moments():
    Hw = np.hstack([np.eye(3), np.zeros((3, 3))])
    Hv = np.hstack([np.zeros((3, 3)), np.eye(3)])
    f = np.array([1.0, 2.0, 3.0, 10.0, 20.0, 30.0])
    moment, force = split_generalized_forces(Hw, Hv, f)
    assert np.allclose(moment, [1.0, 2.0, 3.0], atol=1e-12) and np.allclose(force, [10.0, 20.0, 30.0], atol=1e-12)
