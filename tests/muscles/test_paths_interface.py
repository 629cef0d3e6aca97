"""MuscleGeometry's interface: argument checks, errors naming the element, reported path problems,
moving points clamped to their coordinates' ranges, current paths."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.errors import ModelError
from engine.io.osim import read_osim
from engine.model.muscles import GeometryPath, PathWrap, WrapTorus
from engine.muscles.path.geometry import MuscleGeometry, PathWarning
from engine.muscles.path._layout import POINT_INSIDE_WRAP
from engine.tree import compile_tree

from .path_models import wrap_model


@pytest.fixture(scope="module")
def model():
    return wrap_model()


def test_argument_shapes_are_checked(model):
    geometry = MuscleGeometry(model)
    with pytest.raises(ValueError, match=r"Q: expected \(frames, nq\)"):
        geometry.evaluate(np.zeros((3, model.nq + 1)))
    with pytest.raises(ValueError, match=r"V: expected \(frames, nv\)"):
        geometry.evaluate(np.zeros((3, model.nq)), np.zeros((2, model.nv)))
    lengths, speeds, J = geometry.evaluate(np.zeros((0, model.nq)))
    assert lengths.shape == (0, len(model.muscles)) and J.shape == (0, len(model.muscles), model.nv)


def test_a_torus_or_a_bad_point_range_is_a_model_error_naming_the_muscle(model):
    torus = WrapTorus("ring", "upper", inner_radius=0.01, outer_radius=0.03)
    muscle = model.muscle("over_sphere")
    with_torus = model.replace(wrap_objects=model.wrap_objects + (torus,), muscles=[
        type(muscle)(**{**muscle.__dict__, "path": GeometryPath(muscle.path.points, (PathWrap("ring"),))})])
    with pytest.raises(ModelError, match="muscle 'over_sphere': wraps over the torus 'ring'"):
        MuscleGeometry(with_torus)
    out_of_range = GeometryPath(muscle.path.points, (PathWrap("elbow_ball", range=(2, 5)),))
    bad_range = model.replace(muscles=[type(muscle)(**{**muscle.__dict__, "path": out_of_range})])
    with pytest.raises(ModelError, match=r"muscle 'over_sphere': .*point range \(2, 5\), outside its 2 path points"):
        MuscleGeometry(bad_range)
    with pytest.raises(ModelError, match="no muscle named 'nope'"):
        MuscleGeometry(model).current_path(neutral(model), "nope")


def test_skipped_wraps_are_reported(test_data):
    """arm26's BIClong origin lies inside its humeral-head ellipsoid at some poses: OpenSim then skips the
    wrap, and so does this code, saying so."""
    arm = read_osim(test_data / "opensim" / "arm26" / "arm26.osim")
    Q = dict(np.load(test_data / "opensim" / "arm26" / "reference" / "model_reference.npz"))["q"]
    geometry = MuscleGeometry(arm)
    result = geometry.compute(Q)
    inside = result.status[:, geometry.muscle_names.index("BIClong")] & POINT_INSIDE_WRAP
    assert inside[:10].sum() == 0 and inside.sum() == 4
    with pytest.warns(PathWarning, match=r"muscle 'BIClong': a path point lies inside a wrap surface.* 4 frame"):
        geometry.evaluate(Q)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        geometry.evaluate(Q[:10])


def test_moving_points_stop_at_the_ends_of_their_coordinates_ranges(model):
    """Beyond its range the elbow no longer moves the moving point (OpenSim clamps the coordinate): its
    length changes only through the joint, and J_l still equals the derivative of the length."""
    geometry = MuscleGeometry(model)
    k = geometry.muscle_names.index("via_and_moving")
    elbow = compile_tree(model).coordinates["elbow"]
    h = 1e-6
    for value in (-0.3, 2.7):
        Q = np.tile(neutral(model), (3, 1))
        Q[:, elbow.qi] = [value - h, value, value + h]
        result = geometry.compute(Q)
        derivative = (result.lengths[2, k] - result.lengths[0, k]) / (2 * h)
        assert abs(derivative - result.J_l[1, k, elbow.vi]) < 1e-7


def test_current_path_names_points_and_tangent_points(model):
    geometry = MuscleGeometry(model)
    q = neutral(model)
    q[compile_tree(model).coordinates["elbow"].qi] = 0.5
    path = geometry.current_path(q, "over_cylinder")
    assert [(p.name, p.wrap, p.side) for p in path] == [("o", None, 0), ("elbow_cyl tangent 1", "elbow_cyl", 1),
                                                        ("elbow_cyl tangent 2", "elbow_cyl", 2), ("i", None, 0)]
    straight = sum(np.linalg.norm(b.position - a.position) for a, b in zip(path, path[1:]))
    assert straight < geometry.compute(q[None]).lengths[0, 0]    # the chord under the arc is shorter
