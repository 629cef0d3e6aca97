"""Functional joint centres and axes against closed forms: two clusters moved rigidly about a known ball joint
(SCoRE must return its centre in both clusters' frames) and a known hinge (SARA must return its axis)."""
import numpy as np
from scipy.spatial.transform import Rotation

from engine.protocols import functional as fn

RNG = np.random.default_rng(7)
SHAPE1 = np.array([[0.05, 0.0, 0.02], [-0.04, 0.03, 0.0], [0.0, -0.05, 0.03], [0.02, 0.04, -0.03]])
SHAPE2 = SHAPE1[:, ::-1] * 1.3


def _moved(shape, R, d):
    return np.einsum("fij,kj->fki", R, shape) + d[:, None, :]


def _two_segments(relative, joint1, joint2):
    """Segment 1 wanders (random rotations, translations); segment 2 hangs from it at the joint, whose place is
    ``joint1`` in segment 1's marker frame and ``joint2`` in segment 2's, turned by ``relative`` (F rotations)."""
    F = len(relative)
    R1 = Rotation.from_rotvec(RNG.normal(0.0, 0.4, (F, 3))).as_matrix()
    d1 = RNG.normal(0.0, 0.3, (F, 3))
    R2 = np.einsum("fij,fjk->fik", R1, relative)
    d2 = np.einsum("fij,j->fi", R1, joint1) + d1 - np.einsum("fij,j->fi", R2, joint2)
    return _moved(SHAPE1, R1, d1), _moved(SHAPE2, R2, d2)


def test_score_finds_a_ball_joints_centre():
    joint1, joint2 = np.array([0.02, -0.25, 0.05]), np.array([-0.01, 0.20, 0.0])
    relative = Rotation.from_rotvec(RNG.normal(0.0, 0.5, (60, 3))).as_matrix()
    one, two = _two_segments(relative, joint1, joint2)
    R1, d1 = fn.cluster_poses(one)
    R2, d2 = fn.cluster_poses(two)
    c1, c2, rms = fn.score(R1, d1, R2, d2)
    truth = np.einsum("fij,j->fi", R1, c1) + d1          # the centre in the lab, from the fit
    lab = _centre_in_lab(one, joint1)
    assert rms < 1e-9 and np.allclose(truth, lab, atol=1e-9)
    assert np.allclose(fn.in_lab(R2, d2, c2), lab, atol=1e-9)


def _centre_in_lab(points, joint):
    """Where ``joint`` (in the frame of SHAPE1 as given, before centring) is, per frame, from the markers."""
    out = []
    for p in points:
        rot, _ = Rotation.align_vectors(p - p.mean(axis=0), SHAPE1 - SHAPE1.mean(axis=0))
        out.append(rot.apply(joint - SHAPE1.mean(axis=0)) + p.mean(axis=0))
    return np.array(out)


def test_sara_finds_a_hinges_axis_and_a_point_on_it():
    axis = np.array([0.1, -0.2, 1.0]) / np.linalg.norm([0.1, -0.2, 1.0])
    joint1, joint2 = np.array([0.0, -0.40, 0.03]), np.array([0.01, 0.05, 0.0])
    relative = Rotation.from_rotvec(np.linspace(0.0, 1.2, 50)[:, None] * axis).as_matrix()
    one, two = _two_segments(relative, joint1, joint2)
    R1, d1 = fn.cluster_poses(one)
    R2, d2 = fn.cluster_poses(two)
    p, u, ratio = fn.sara(R1, d1, R2, d2)
    lab_axis = np.einsum("fij,j->fi", R1, u)
    reference = Rotation.align_vectors(one[0] - one[0].mean(axis=0), SHAPE1 - SHAPE1.mean(axis=0))[0]
    assert ratio < 1e-6
    assert abs(abs(lab_axis[0] @ reference.apply(axis)) - 1.0) < 1e-9
    offset = fn.in_lab(R1, d1, p) - _centre_in_lab(one, joint1)     # the point lies on the axis through the joint
    assert np.allclose(np.cross(offset, lab_axis), 0.0, atol=1e-9)
