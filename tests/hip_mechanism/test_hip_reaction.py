"""The hip's joint reaction force drives the mechanism's platform: the thigh's push, in the base axes."""
import types

import numpy as np

from engine.analysis.inverse_dynamics import plate_samples
from hip_mechanism.parameters import MechanismParameters
from hip_mechanism.trial import hip_reaction_on_platform, trial_demands
from tests.analysis.test_joint_reactions import walk1_with_plates


def test_stance_compresses_the_platform_and_the_reaction_changes_the_demands(test_data):
    model, motion, plates, bodies, classic = walk1_with_plates(test_data)
    result = types.SimpleNamespace(model=model, motion=motion, classic=classic, qp=None, dynamics=classic)
    force = hip_reaction_on_platform(result, "r")
    hip = classic.reactions.of("hip_r")[:, 3:]
    # a rotation: the same magnitude
    np.testing.assert_allclose(np.linalg.norm(force, axis=1), np.linalg.norm(hip, axis=1), rtol=1e-12)
    weight = sum(b.mass for b in model.bodies) * 9.81
    right = [p for p, b in zip(plates, bodies) if b == "calcn_r"][0]
    vertical = plate_samples(right, motion.time)[0][:, 1]
    stance = vertical > 0.8 * weight
    assert stance.sum() > 10
    # the body's weight comes down through the pelvis onto the thigh: the thigh pushes the platform toward the
    # base (-Z, Z runs down the thigh), by most of the weight above the leg
    assert (force[stance, 2] < -0.5 * weight).all()
    swing = vertical < 1.0
    assert (force[swing, 2] > -0.2 * weight).all()
    with_reaction = trial_demands(MechanismParameters(), result, "r")
    assert any("reaction force applied" in n for n in with_reaction.notes)
    without = trial_demands(MechanismParameters(), types.SimpleNamespace(
        model=model, motion=motion, classic=None, qp=None, dynamics=classic), "r")
    assert any("not applied" in n for n in without.notes)
    assert np.abs(with_reaction.forces - without.forces)[stance].max() > 10.0
