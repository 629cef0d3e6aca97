"""Lengths are continuous across the switch points of conditional points and wraps.

The elbow of ``path_models.wrap_model`` is swept in fine steps; wherever a wrap starts or stops
(the straight span becomes tangent to the surface), the length changes by no more than the
moment arm allows over the step. The conditional point of 'via_and_moving' lies on the straight
path where it becomes active, so the length is continuous there too.

Not covered, as in OpenSim: a cylinder wrap ends abruptly when both tangent points pass the
cylinder's ends, and a wrap jumps to the other side of its surface where OpenSim's choice of side
changes (the shorter way round for cylinders and spheres span by span; the point ``c1`` of its
method, or its quadrant, for ellipsoids); a conditional point that is off the path when it switches
makes the length jump.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.model.muscles import GeometryPath
from engine.muscles.path.geometry import MuscleGeometry
from engine.tree import compile_tree

from .path_models import VIA_SWITCH, wrap_model

STEPS = 4000
WRAPPING = ["over_cylinder", "over_cylinder_quadrant", "over_sphere", "over_ellipsoid", "over_ellipsoid_quadrant",
            "over_ellipsoid_axial", "over_two_wraps"]


@pytest.fixture(scope="module")
def sweeps():
    """Elbow sweeps over its range at three twists: (elbow values, results, straight-line lengths)."""
    model = wrap_model()
    straight = model.replace(muscles=[type(m)(**{**m.__dict__, "path": GeometryPath(m.path.points)})
                                      for m in model.muscles])
    geometry, plain = MuscleGeometry(model), MuscleGeometry(straight)
    elbow = compile_tree(model).coordinates["elbow"]
    out = []
    for twist in (0.2, -0.3, 0.35):
        Q = np.tile(neutral(model), (STEPS, 1))
        Q[:, elbow.qi] = np.linspace(*elbow.range, STEPS)
        Q[:, compile_tree(model).coordinates["twist"].qi] = twist
        out.append((Q[:, elbow.qi], geometry.compute(Q), plain.compute(Q).lengths))
    return geometry.muscle_names, elbow.vi, out


@pytest.mark.parametrize("muscle", WRAPPING)
def test_length_is_continuous_where_a_wrap_starts_or_stops(sweeps, muscle):
    names, vi, runs = sweeps
    k = names.index(muscle)
    switches = 0
    for elbow, result, straight in runs:
        length = result.lengths[:, k]
        wraps = np.abs(length - straight[:, k]) > 1e-12
        at = np.flatnonzero(wraps[1:] != wraps[:-1])
        switches += at.size
        slope = np.maximum(np.abs(result.J_l[at, k, vi]), np.abs(result.J_l[at + 1, k, vi]))
        jump = np.abs(length[at + 1] - length[at])
        allowed = slope * (elbow[1] - elbow[0]) * 1.05 + 1e-12
        assert np.all(jump <= allowed), f"{muscle}: length jumps by {jump.max():.3g} m where a wrap switches"
    if muscle != "over_cylinder_quadrant":   # wraps over its active half all the way
        assert switches >= 2, f"{muscle}: no wrap switch in the sweeps"


def test_length_is_continuous_where_the_conditional_point_appears():
    model = wrap_model()
    geometry = MuscleGeometry(model)
    k = geometry.muscle_names.index("via_and_moving")
    elbow = compile_tree(model).coordinates["elbow"]
    # OpenSim widens the range by 1e-5: the point appears at VIA_SWITCH - 1e-5
    at = VIA_SWITCH - 1e-5
    Q = np.tile(neutral(model), (4, 1))
    Q[:, elbow.qi] = [at - 1e-3, at - 1e-9, at + 1e-9, at + 1e-3]
    result = geometry.compute(Q)
    length, slope = result.lengths[:, k], result.J_l[:, k, elbow.vi]
    # on the path at VIA_SWITCH, the point is 1e-5 rad of elbow off it where it appears: a second-order jump
    assert abs(length[2] - length[1]) < 1e-9
    assert ["via" in [p.name for p in geometry.current_path(q, "via_and_moving")] for q in Q] == [0, 0, 1, 1]
    np.testing.assert_allclose(length[0], length[1] - slope[1] * (1e-3 - 1e-9), atol=1e-6)
    np.testing.assert_allclose(length[3], length[2] + slope[2] * (1e-3 - 1e-9), atol=1e-6)
