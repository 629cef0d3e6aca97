"""Bending of a rod per segment: zero at rest, curvature change from the strains, moment EI * curvature from
the elastic generalized forces K (q - q_rest) (seed eq. 26)."""
import numpy as np

from engine.algorithms import rod_forces, neutral
from engine.analysis.rod_loads import bending_moment, bending_strain
from engine.tree import compile_tree
from tests.muscles.path_models import wrap_model


def _bent(model):
    q = neutral(model)
    slots = compile_tree(model).coordinates
    q[slots["strip_s1_ky"].qi] += 0.6
    q[slots["strip_s2_ky"].qi] += 0.3
    q[slots["strip_s2_kz"].qi] -= 0.4
    q[slots["strip_s2_kx"].qi] += 5.0      # torsion is not bending
    return q


def test_rest_shape_has_no_bending():
    model = wrap_model()
    assert np.array_equal(bending_strain(model, "strip", neutral(model)), [[0.0, 0.0]])
    assert np.array_equal(bending_moment(model, "strip", np.zeros(model.nv)), [[0.0, 0.0]])


def test_curvature_change_per_segment():
    model = wrap_model()
    Q = np.vstack([neutral(model), _bent(model)])
    assert np.allclose(bending_strain(model, "strip", Q), [[0.0, 0.0], [0.6, 0.5]], rtol=0, atol=1e-12)


def test_moment_is_stiffness_times_curvature_change():
    model = wrap_model()
    q = _bent(model)
    tau = -rod_forces(model, q, np.zeros(model.nv))       # K (q - q_rest)
    segs = model.rod("strip").segments
    ei = [s.stiffness_diagonal() for s in segs]
    expected = [0.6 * ei[0][1], np.hypot(0.3 * ei[1][1], 0.4 * ei[1][2])]
    assert np.allclose(bending_moment(model, "strip", tau)[0], expected, rtol=1e-12)
