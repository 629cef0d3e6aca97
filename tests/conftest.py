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


@pytest.fixture
def report_options_asked(monkeypatch) -> list:
    """The report's options each report would be made with (``engine.io.report_file.trials_report_steps`` replaced by
    a recorder that writes nothing): the list the test reads."""
    from engine.io import report_file
    asked = []

    def recorded(path, analyses, origins=None, settings=None, options=None):
        asked.append(options)
        return path
        yield

    monkeypatch.setattr(report_file, "trials_report_steps", recorded)
    return asked
