"""A protocol fitted on a static trial scales the model to the subject: a taller athlete (built at 1.90 m from
de Leva's tables, an independent reference) standing in a Z-up lab, the Plug-in Gait markers on its landmarks
recorded, is recovered from the 1.75 m default athlete with its segment lengths within 3%."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.errors import DataError
from engine.demo.athlete import build_athlete
from engine.demo.for_trial import model_for_trial
from engine.io.protocol_file import builtin, placements_for
from engine.protocols.description import model_markers
from engine.tree import compile_tree
from engine.trial.trial import Markers, Trial


def _with_protocol_markers(subject):
    catalogue, placements, protocols = builtin()
    pig = next(p for p in protocols if p.name == "plug-in-gait-lower")
    used = {f"{s}{m.name}" if catalogue[m.landmark].sided else m.name: (m.name, s if catalogue[m.landmark].sided
                                                                         else None)
            for m in pig.markers for s in ("R", "L") if m.name not in {"KNM", "MED", "SACR"}}
    markers, _ = model_markers(pig, used, placements_for(subject, placements).points(subject, catalogue), catalogue)
    return subject.replace(markers=markers)


def _standing_trial(subject, frames=20):
    subject = _with_protocol_markers(subject)
    data = Data(subject)
    q = alg.neutral(subject)
    alg.forward_kinematics(subject, data, q)
    lab = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])      # model Y up -> lab Z up, model Z -> lab -Y
    names = [m.name for m in subject.markers]
    p = np.array([lab @ alg.frame_placement(subject, data, n).p for n in names])
    positions = np.repeat(p[None], frames, axis=0) + np.array([0.3, -0.2, 0.0])
    return Trial(Markers(tuple(f"Subject:{n}" for n in names), np.arange(frames) / 100.0, positions, 100.0),
                 source="standing.c3d")


def _length(model, joint):
    return float(np.linalg.norm(next(j for j in model.joints if j.name == joint).parent_offset.p))


def test_a_static_trial_scales_the_default_athlete_to_the_subject():
    subject = build_athlete(height=1.90, with_muscles=False, amputated=False)
    static = _standing_trial(subject)
    made = model_for_trial(static, static=static, axes="Z-up, X-forward")
    assert made.matching.protocol.name in {"plug-in-gait-full", "plug-in-gait-lower"}
    for joint in ("knee_r", "knee_l", "ankle_l", "hip_r"):     # thigh and shank lengths, pelvis width
        assert abs(_length(made.model, joint) / _length(subject, joint) - 1.0) < 0.03, joint


def test_a_marker_never_seen_does_not_stop_the_scaling_and_is_named():
    subject = build_athlete(height=1.90, with_muscles=False, amputated=False)
    static = _standing_trial(subject)
    positions = np.array(static.markers.positions)
    positions[:, static.markers.index("Subject:RTOE")] = np.nan      # stands for the right mtp joint
    static = Trial(Markers(static.markers.names, static.markers.time, positions, 100.0), source="standing.c3d")
    made = model_for_trial(static, static=static, axes="Z-up, X-forward")
    assert any(n.startswith("not used for scaling, never seen in the first 1 s: RTOE") for n in made.notes)
    assert abs(_length(made.model, "knee_r") / _length(subject, "knee_r") - 1.0) < 0.03


def test_a_static_trial_where_no_marker_is_ever_seen_is_refused_naming_the_file_and_markers():
    """The moving trial is fine; the static one has every marker missing in every frame."""
    subject = build_athlete(height=1.90, with_muscles=False, amputated=False)
    moving = _standing_trial(subject)
    static = Trial(Markers(moving.markers.names, moving.markers.time, np.full_like(moving.markers.positions, np.nan),
                           100.0), source="empty_static.c3d")
    with pytest.raises(DataError, match="no marker is seen in the trial") as refused:
        model_for_trial(moving, static=static, axes="Z-up, X-forward")
    assert refused.value.file == "empty_static.c3d" and refused.value.element == "markers"


def test_without_a_static_trial_the_calibration_frame_is_the_one_nearest_the_default_pose():
    """The knees bend and stretch; the frame where the subject's true joint angles are nearest zero (the pose the
    landmarks are defined in) is the one the markers are placed on."""
    subject = _with_protocol_markers(build_athlete(height=1.90, with_muscles=False, amputated=False))
    data = Data(subject)
    lab = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
    time = np.arange(40) / 100.0
    bend = 0.2 + 0.6 * (1.0 - np.cos(2 * np.pi * (time - 0.13) / 0.4)) / 2.0    # least bent at 0.13 s
    names = [m.name for m in subject.markers]
    positions = np.empty((time.size, len(names), 3))
    for f, b in enumerate(bend):
        q = alg.neutral(subject)
        for knee in ("knee_angle_r", "knee_angle_l"):
            q[compile_tree(subject).coordinates[knee].qi] = -b
        alg.forward_kinematics(subject, data, q)
        positions[f] = [lab @ alg.frame_placement(subject, data, n).p for n in names]
    trial = Trial(Markers(tuple(names), time, positions, 100.0), source="walk.c3d")
    made = model_for_trial(trial, axes="Z-up, X-forward")
    assert any(n.startswith("calibration frame: 0.130 s") for n in made.notes)
