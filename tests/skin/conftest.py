"""A coarse skin of the default athlete (the prosthesis left out), shared by the skin tests."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.demo.athlete import build_athlete
from skin.skinning import Skin


@pytest.fixture(scope="session")
def athlete():
    return build_athlete(with_muscles=False)


@pytest.fixture(scope="session")
def coarse_skin(athlete):
    return Skin.generate(athlete, spacing=0.03, bodies=[b.name for b in athlete.bodies if b.name != "socket_r"])


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
