"""The 3-DoF, 9-muscle arm of ../shared/seeds/001_*: lengths and R = dl/dq equal its closed forms.

The seed's R is dl/dq (its tau = -R^T f_m), so it is compared with ``J_l`` directly; OpenSim's moment
arms are ``-J_l``. The arm is built from the engine's bodies and revolute joints, with the muscles'
points placed so that their straight paths have the seed's lengths (``path_models.seed_arm``).
"""
from __future__ import annotations

import numpy as np

from engine.muscles.path.geometry import MuscleGeometry

from .path_models import seed_arm, seed_arm_closed_forms


def test_lengths_and_length_jacobian_equal_the_closed_forms(rng):
    model = seed_arm()
    Q = rng.uniform(-np.pi, np.pi, (200, 3))
    result = MuscleGeometry(model).compute(Q)
    assert [m.name for m in model.muscles] == [f"m{i}" for i in range(1, 10)]
    for q, lengths, J in zip(Q, result.lengths, result.J_l):
        l_m, R = seed_arm_closed_forms(q)
        np.testing.assert_allclose(lengths, l_m, rtol=0, atol=1e-14)
        np.testing.assert_allclose(J, R, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(result.moment_arms, -result.J_l)


def test_generalized_forces_of_tensions_are_minus_the_transposed_jacobian(rng):
    """The seed's tau = -R^T f: unit tension in the one-joint flexor m1 gives -R[0, 0] at theta1."""
    model = seed_arm()
    q = np.array([0.7, -0.4, 1.1])
    J = MuscleGeometry(model).compute(q[None]).J_l[0]
    f = np.zeros(9)
    f[0] = 1.0
    tau = -J.T @ f
    _, R = seed_arm_closed_forms(q)
    np.testing.assert_allclose(tau, [-R[0, 0], 0.0, 0.0], atol=1e-15)
    assert tau[0] > 0.0    # m1 (origin at -a1, insertion at +b1) pulls the segment towards positive theta1
