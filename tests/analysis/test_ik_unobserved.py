"""A segment whose markers all vanish for some frames: IK keeps going, holds the coordinate no marker informs at the
last solved frame's value, fits the rest as before, and says which coordinate was held over which frames."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.analysis import ik
from engine.analysis.ik import IKSettings, solve_ik
from engine.analysis.ik_unobserved import describe_unobserved
from engine.data import Data
from engine.model import Body, Coordinate, FreeJoint, Marker, Model, RevoluteJoint
from engine.spatial import SE3
from engine.tree import compile_tree
from engine.trial.trial import Markers

GONE = slice(20, 45)     # frames where the shank's markers are missing


def leg():
    bodies = [Body("pelvis", 10.0, (0, 0, 0), np.diag([0.1, 0.1, 0.1])),
              Body("thigh", 7.0, (0, -0.2, 0), np.diag([0.1, 0.02, 0.1])),
              Body("shank", 3.0, (0, -0.2, 0), np.diag([0.05, 0.01, 0.05]))]
    joints = [FreeJoint("root", "ground", "pelvis", SE3(np.eye(3), [0, 1.0, 0])),
              RevoluteJoint("hip", "pelvis", "thigh", SE3(np.eye(3), [0, -0.05, 0.1]),
                            coordinates=(Coordinate("hip_flexion", range=(-1.0, 1.5)),)),
              RevoluteJoint("knee", "thigh", "shank", SE3(np.eye(3), [0, -0.42, 0]),
                            coordinates=(Coordinate("knee_angle", range=(-2.0, 0.1)),))]
    markers = [Marker(n, "pelvis", p) for n, p in (("RASI", (0.1, 0, 0.12)), ("LASI", (0.1, 0, -0.12)),
                                                    ("RPSI", (-0.1, 0.03, 0.05)), ("LPSI", (-0.1, 0.03, -0.05)))]
    markers += [Marker("THI1", "thigh", (0.05, -0.2, 0.02)), Marker("THI2", "thigh", (0.0, -0.3, 0.06)),
                Marker("SHK1", "shank", (0.05, -0.2, 0.03)), Marker("SHK2", "shank", (0.0, -0.35, 0.05))]
    return Model("leg", bodies, joints, [], markers=markers)


@pytest.mark.parametrize("frames, threads", [(60, 1), (80, 2)])
def test_a_segment_without_markers_is_held_and_said(frames, threads, monkeypatch):
    """With two threads the trial is solved in two parts (40 frames each): the gap spans where the second begins,
    which must still hold the knee at the last seen value, not start it at a pose of its own."""
    monkeypatch.setattr(ik, "MIN_PART_FRAMES", 32)
    model = leg()
    data = Data(model)
    time = np.arange(frames) / 100.0
    hip, knee = compile_tree(model).coordinates["hip_flexion"].qi, compile_tree(model).coordinates["knee_angle"].qi
    mframes = [compile_tree(model).marker_frame[m.name] for m in model.markers]
    positions = np.empty((time.size, len(mframes), 3))
    q_true = np.tile(alg.neutral(model), (time.size, 1))
    q_true[:, hip] = 0.5 * np.sin(2 * np.pi * time)
    q_true[:, knee] = -0.3 - 0.8 * np.sin(np.pi * time)
    for f, q in enumerate(q_true):
        alg.forward_kinematics(model, data, q)
        positions[f] = alg.frame_positions(model, data, np.array(mframes))
    positions[GONE, 6:] = np.nan
    result = solve_ik(model, Markers(tuple(m.name for m in model.markers), time, positions, 100.0),
                      IKSettings(robust_loss=None, threads=threads))
    assert (result.status == 1).all()
    assert np.allclose(result.q[:, hip], q_true[:, hip], atol=1e-6)       # the thigh is still fitted
    seen = np.ones(time.size, bool)
    seen[GONE] = False
    assert np.allclose(result.q[seen, knee], q_true[seen, knee], atol=1e-6)
    assert np.allclose(result.q[GONE, knee], q_true[GONE.start - 1, knee], atol=1e-9)   # held at the last seen
    knee_v = compile_tree(model).coordinates["knee_angle"].vi
    expected = np.zeros((time.size, model.nv), bool)
    expected[GONE, knee_v] = True
    assert (result.unobserved == expected).all()
    note, = describe_unobserved(compile_tree(model).v_names, result.time, result.unobserved, result.status >= 0)
    assert "knee_angle 0.200-0.440 s (25 frames)" in note and "hip_flexion" not in note
