"""Coarse skins of the default athlete (the prosthesis left out), shared by the skin tests: one generated in the
neutral pose, one in the A-pose (``skin.rest_pose``, separate limbs)."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.demo.athlete import build_athlete
from skin.rest_pose import a_pose
from skin.skinning import Skin
from skin.scenes import skinned_bodies


@pytest.fixture(scope="session")
def athlete():
    return build_athlete(with_muscles=False)


@pytest.fixture(scope="session")
def coarse_skin(athlete):
    return Skin.generate(athlete, spacing=0.03, bodies=skinned_bodies(athlete))


@pytest.fixture(scope="session")
def a_pose_skin(athlete):
    return Skin.generate(athlete, q_rest=a_pose(athlete), spacing=0.03, bodies=skinned_bodies(athlete))


@pytest.fixture(scope="session", params=["neutral", "a-pose"])
def any_skin(request):
    """Each coarse skin in turn: eq. 3 and its Jacobian hold whatever the rest pose."""
    return request.getfixturevalue("coarse_skin" if request.param == "neutral" else "a_pose_skin")


def random_pose(model, rng, scale=0.3):
    """A random configuration near neutral (every coordinate moved, the base rotated and shifted)."""
    from engine.algorithms import integrate
    return integrate(model, neutral(model), scale * rng.standard_normal(model.nv))


@pytest.fixture
def pose(athlete, rng):
    return random_pose(athlete, rng)


@pytest.fixture
def velocity(athlete, rng):
    return rng.standard_normal(athlete.nv)


__all__ = ["random_pose", "np"]
