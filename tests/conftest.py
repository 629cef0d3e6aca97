"""Shared test fixtures: seeded random generators and the path to ../shared data."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("HYBRIDLAB_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not DATA.is_dir():
        raise FileNotFoundError(f"the shared reference data is missing: expected {DATA} "
                                "(set HYBRIDLAB_SHARED to the folder holding data/ and seeds/)")
    return DATA
