"""IK keeps a coordinate within its range only where the model marks it clamped, as OpenSim's IK does (its
AssemblySolver restricts the clamped coordinates alone), and the notes say where a range was reached or left."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.analysis.ik import IKSettings, solve_ik
from engine.analysis.ik_bounds import describe_range_contacts, range_contacts
from engine.data import Data
from engine.model import Body, Coordinate, FreeJoint, Marker, Model, RevoluteJoint
from engine.spatial import SE3
from engine.tree import compile_tree
from engine.trial.trial import Markers

KNEE_MAX = 0.1     # rad: the knee's range ends here; the motion below goes 0.2 rad beyond it in frames 10-29


def leg(clamped, knee_range=(-2.0, KNEE_MAX)):
    bodies = [Body("pelvis", 10.0, (0, 0, 0), np.diag([0.1, 0.1, 0.1])),
              Body("thigh", 7.0, (0, -0.2, 0), np.diag([0.1, 0.02, 0.1])),
              Body("shank", 3.0, (0, -0.2, 0), np.diag([0.05, 0.01, 0.05]))]
    joints = [FreeJoint("root", "ground", "pelvis", SE3(np.eye(3), [0, 1.0, 0])),
              RevoluteJoint("hip", "pelvis", "thigh", SE3(np.eye(3), [0, -0.05, 0.1]),
                            coordinates=(Coordinate("hip_flexion", range=(-1.0, 1.5), clamped=True),)),
              RevoluteJoint("knee", "thigh", "shank", SE3(np.eye(3), [0, -0.42, 0]),
                            coordinates=(Coordinate("knee_angle", range=knee_range, clamped=clamped),))]
    markers = [Marker(n, "pelvis", p) for n, p in (("RASI", (0.1, 0, 0.12)), ("LASI", (0.1, 0, -0.12)),
                                                    ("RPSI", (-0.1, 0.03, 0.05)), ("LPSI", (-0.1, 0.03, -0.05)))]
    markers += [Marker("THI1", "thigh", (0.05, -0.2, 0.02)), Marker("THI2", "thigh", (0.0, -0.3, 0.06)),
                Marker("SHK1", "shank", (0.05, -0.2, 0.03)), Marker("SHK2", "shank", (0.0, -0.35, 0.05))]
    return Model("leg", bodies, joints, [], markers=markers)


@pytest.mark.parametrize("clamped", [True, False])
def test_only_a_clamped_coordinate_is_kept_within_its_range(clamped):
    model = leg(clamped)
    tree = compile_tree(model)
    hip, knee = tree.coordinates["hip_flexion"].qi, tree.coordinates["knee_angle"].qi
    mframes = np.array([tree.marker_frame[m.name] for m in model.markers])
    time = np.arange(40) / 100.0
    q_true = np.tile(alg.neutral(model), (time.size, 1))
    q_true[:, hip] = 0.4 * np.sin(2 * np.pi * time)
    q_true[:, knee] = -0.5
    q_true[10:30, knee] = KNEE_MAX + 0.2          # hyperextended beyond the range's end
    data = Data(model)
    positions = np.empty((time.size, len(mframes), 3))
    for f, q in enumerate(q_true):
        alg.forward_kinematics(model, data, q)
        positions[f] = alg.frame_positions(model, data, mframes)
    result = solve_ik(model, Markers(tuple(m.name for m in model.markers), time, positions, 100.0),
                      IKSettings(robust_loss=None))
    assert (result.status == 1).all()
    out = slice(10, 30)
    if clamped:
        assert np.allclose(result.q[out, knee], KNEE_MAX, atol=1e-12)     # held at the end of its range
        assert np.nanmin(result.rms[out]) > 1e-3                          # and the markers fitted worse for it
    else:
        assert np.allclose(result.q[:, knee], q_true[:, knee], atol=1e-6)  # the markers' knee, beyond the range
        assert np.nanmax(result.rms) < 1e-6
    held, beyond = range_contacts(model, result.q)
    knee_v = tree.coordinates["knee_angle"].vi
    expected = np.zeros((time.size, model.nv), bool)
    expected[out, knee_v] = True
    assert (held == (expected if clamped else False)).all()
    assert (beyond == (False if clamped else expected)).all()
    note, = describe_range_contacts(tree.v_names, result.time, held, beyond)
    assert "knee_angle 0.100-0.290 s (20 frames)" in note and "hip_flexion" not in note
    assert ("held at an end of their range" in note) == clamped


def test_a_coordinate_no_marker_informs_is_not_said_held_by_ik():
    """The knee's default (0) is its range's low end; without the shank's markers IK never places it, it stays at the
    default: that is said as unobserved (``describe_unobserved``), not as a fit the range constrained."""
    model = leg(True, knee_range=(0.0, 2.0))
    tree = compile_tree(model)
    hip, knee_v = tree.coordinates["hip_flexion"].qi, tree.coordinates["knee_angle"].vi
    seen = [m for m in model.markers if not m.name.startswith("SHK")]
    mframes = np.array([tree.marker_frame[m.name] for m in seen])
    time = np.arange(20) / 100.0
    q_true = np.tile(alg.neutral(model), (time.size, 1))
    q_true[:, hip] = 0.4 * np.sin(2 * np.pi * time)
    data = Data(model)
    positions = np.empty((time.size, len(mframes), 3))
    for f, q in enumerate(q_true):
        alg.forward_kinematics(model, data, q)
        positions[f] = alg.frame_positions(model, data, mframes)
    result = solve_ik(model, Markers(tuple(m.name for m in seen), time, positions, 100.0), IKSettings(robust_loss=None))
    assert result.unobserved[:, knee_v].all()
    assert np.all(result.q[:, tree.coordinates["knee_angle"].qi] == 0.0)       # at the range's end, as premised
    assert range_contacts(model, result.q)[0][:, knee_v].all()                  # which alone would read as held
    held, beyond = range_contacts(model, result.q, result.unobserved)
    assert not held.any() and not beyond.any()
    assert describe_range_contacts(tree.v_names, result.time, held, beyond) == []
