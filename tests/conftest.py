"""Shared test fixtures: seeded random generators and the path to the repository's test data (tests/data)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


@pytest.fixture(scope="session")
def test_data() -> Path:
    """tests/data: the OpenSim models, trials and references and the C3D samples (see its README.md)."""
    return DATA
