"""The joint springs' end-range springs stay off the gimbal locks of the model's three-rotation joints: the locks
found in closed form are where the joint's rotation loses a direction (finite differences of the rotation), and the
shoulder's spring starts before its lock at -90 degrees adduction, which its range (-120 to 90) holds."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from engine.algorithms import neutral
from engine.demo.athlete import build_athlete
from engine.model import Coordinate, GeneralJoint, TransformAxis, constant_axis
from engine.spatial import SE3
from engine.tree import compile_tree
from skin.stiffness import gimbal_locks, table_one


def _rotation(axes, q):
    """Rot(a0, q0) Rot(a1, q1) Rot(a2, q2), by scipy."""
    out = np.eye(3)
    for a, t in zip(axes, q):
        out = out @ Rotation.from_rotvec(np.asarray(a, float) / np.linalg.norm(a) * t).as_matrix()
    return out


def _smallest_rate(axes, q, h=1e-6):
    """The smallest singular value of the rotation's derivative (9 x 3, central differences) at ``q``: zero where
    the three angles move the joint in only two directions."""
    J = np.stack([(_rotation(axes, q + h * e) - _rotation(axes, q - h * e)).ravel() / (2 * h) for e in np.eye(3)], 1)
    return np.linalg.svd(J, compute_uv=False)[-1]


def _joint(axes):
    coords = [Coordinate(f"c{i}", "rotational") for i in range(3)]
    return GeneralJoint("j", "a", "b", SE3.identity(),
                        coordinates=tuple(coords),
                        rotations=tuple(TransformAxis(a, c.name) for a, c in zip(axes, coords)),
                        translations=(constant_axis((1, 0, 0)), constant_axis((0, 1, 0)), constant_axis((0, 0, 1))))


@pytest.mark.parametrize("axes", [((0, 0, 1), (1, 0, 0), (0, 1, 0)),                 # orthogonal: +-90 degrees
                                  ((0, 0, 1), (1, 0, 0), (0, 0.6, 0.8)),              # the third axis leans
                                  ((0.6, 0, 0.8), (1, 0, 0), (0.6, 0.8, 0))])          # both lean
def test_the_locks_are_where_the_rotation_loses_a_direction(axes):
    locks = gimbal_locks(SimpleNamespace(joints=[_joint(axes)]))["c1"]
    rng = np.random.default_rng(3)
    for lock in locks:
        q = np.array([rng.uniform(-1, 1), lock, rng.uniform(-1, 1)])
        assert _smallest_rate(axes, q) < 1e-6
        assert _smallest_rate(axes, q + [0, 0.3, 0]) > 0.1
    others = np.linspace(-np.pi, np.pi, 721)
    free = [t for t in others if np.min(np.abs(np.angle(np.exp(1j * (t - np.array(locks)))))) > 0.05]
    assert min(_smallest_rate(axes, np.array([0.2, t, -0.4])) for t in free) > 1e-3      # and nowhere else


def test_the_shoulder_spring_starts_before_its_lock():
    model = build_athlete(with_muscles=False)
    assert np.degrees(gimbal_locks(model)["shoulder_adduction_l"]) == pytest.approx([90.0, -90.0])     # orthogonal axes
    margin = 0.6
    stiffness = table_one(model, neutral(model), limit=300.0, margin=margin)
    slot = compile_tree(model).coordinates["shoulder_adduction_l"]
    k = list(stiffness.qi).index(slot.qi)
    assert slot.range[0] < -np.pi / 2                                        # the range holds the lock
    assert stiffness.low[k] == pytest.approx(-np.pi / 2 + margin)
    assert stiffness.high[k] == pytest.approx(slot.range[1] - margin)


def test_the_spring_before_a_lock_is_a_barrier_whose_force_is_its_energys_slope():
    """Within the margin before the shoulder's lock the springs' torque is minus the slope of their energy (central
    differences), the end-range spring's stiffness is ``limit`` where it starts, and its energy grows without bound at the lock, so a limp
    arm cannot reach the singular pose with finite energy (a linear spring stores at most ``limit m^2 / 2``)."""
    model = build_athlete(with_muscles=False)
    limit, margin = 50.0, 0.2
    stiffness = table_one(model, neutral(model), limit=limit, margin=margin)
    slot = compile_tree(model).coordinates["shoulder_adduction_l"]
    lock = -np.pi / 2
    q = neutral(model)

    def at(x):
        z = q.copy()
        z[slot.qi] = x
        return z

    h = 1e-7
    for d in (0.19, 0.1, 0.03, 0.003):
        x = lock + d
        slope = (stiffness.energy(at(x + h)) - stiffness.energy(at(x - h))) / (2 * h)
        assert stiffness.torque(at(x), np.zeros(model.nv))[slot.vi] == pytest.approx(-slope, rel=1e-5)
    start = lock + margin
    k0 = (stiffness.torque(at(start - 1e-6), np.zeros(model.nv))[slot.vi]
          - stiffness.torque(at(start - 2e-6), np.zeros(model.nv))[slot.vi]) / 1e-6
    assert k0 == pytest.approx(-(limit + 1.0), rel=1e-3)
    stored = [stiffness.energy(at(lock + d)) for d in (1e-2, 1e-4, 1e-8)]
    assert stored[0] > limit * margin ** 2 / 2 and stored[2] > 2 * stored[1] > 4 * stored[0]
    with pytest.raises(FloatingPointError, match="gimbal lock"):
        stiffness.torque(at(lock - 0.01), np.zeros(model.nv))


def test_the_implicit_steps_stiffness_is_minus_the_torques_slope():
    """``gains`` (the implicit body step's stiffness) is ``-d tau/dq`` by central differences, in the PD spring's
    range, past a linear end-range spring's start and within a barrier before the shoulder's lock."""
    model = build_athlete(with_muscles=False)
    stiffness = table_one(model, neutral(model), limit=50.0, margin=0.2)
    q = neutral(model)
    h = 1e-7
    for name, x in (("shoulder_adduction_l", 0.3), ("shoulder_adduction_l", -np.pi / 2 + 0.05),
                    ("knee_angle_l", compile_tree(model).coordinates["knee_angle_l"].range[0] + 0.05)):
        slot = compile_tree(model).coordinates[name]
        up, down = q.copy(), q.copy()
        up[slot.qi], down[slot.qi] = x + h, x - h
        slope = (stiffness.torque(up, np.zeros(model.nv))[slot.vi]
                 - stiffness.torque(down, np.zeros(model.nv))[slot.vi]) / (2 * h)
        mid = q.copy()
        mid[slot.qi] = x
        assert stiffness.gains(mid)[0][slot.vi] == pytest.approx(-slope, rel=1e-5), name


def test_the_end_range_springs_leave_the_reference_pose_alone():
    """Eq. 2 at the reference pose and at rest is zero for every coordinate, whatever the end-range margin: the
    athlete's knees (straight, their range ending 10 degrees further) and elbows (straight, at their range's start)
    lie within the sling's 0.6 rad margin, where springs starting inside the range held them bent by 130 and 180 N m.
    Past the reference towards the range's end the end-range spring stops them: 0.05 rad of hyperextension meets
    (kP + limit) 0.05 N m."""
    model = build_athlete(with_muscles=False)
    q = neutral(model)
    limit = 300.0
    stiffness = table_one(model, q, limit=limit, margin=0.6)
    assert not stiffness.torque(q, np.zeros(model.nv)).any()
    for name, beyond in (("knee_angle_l", 0.05), ("elbow_flexion_r", -0.05)):
        slot = compile_tree(model).coordinates[name]
        bent = q.copy()
        bent[slot.qi] += beyond
        assert stiffness.torque(bent, np.zeros(model.nv))[slot.vi] == pytest.approx(-(1.0 + limit) * beyond, rel=1e-12)
