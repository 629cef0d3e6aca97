"""Fuzzing: mutated TRC / MOT text and mutated C3D bytes give a result or a DataError, nothing else.

C3D files are parsed by ezc3d in a child process, so a mutation that crashes ezc3d
(several do, see test_c3d_guard.py) cannot take this test process down; it must come
back as a DataError.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DataError
from engine.io.c3d import read_c3d
from engine.io.external_loads import load_external_loads
from engine.io.storage import read_storage
from engine.io.trc import read_trc
from tests.io.fuzzing import FUZZ, head, mutated_text

@pytest.fixture(scope="module")
def trc_seed(test_data):
    text = (test_data / "opensim" / "gait2354" / "subject01_walk1.trc").read_text()
    return head(text, 30).replace("\t151\t41\t", "\t24\t41\t")     # 24 frames keep each example fast


@pytest.fixture(scope="module")
def mot_seed(test_data):
    text = (test_data / "opensim" / "gait2354" / "subject01_walk1_grf.mot").read_text()
    return head(text, 40).replace("nRows=1501", "nRows=33")


@pytest.fixture(scope="module")
def work_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_mutated_trc(trc_seed, work_dir, data):
    path = work_dir / "fuzz.trc"
    path.write_text(data.draw(mutated_text(trc_seed)), encoding="utf-8")
    try:
        trial = read_trc(path)
    except DataError as err:
        assert err.file == str(path)
        return
    assert trial.markers.positions.shape == (trial.markers.n_frames, len(trial.markers.names), 3)
    assert np.all(np.diff(trial.markers.time) > 0)


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_mutated_mot_and_loads(mot_seed, work_dir, test_data, data):
    path = work_dir / "subject01_walk1_grf.mot"
    path.write_text(data.draw(mutated_text(mot_seed)), encoding="utf-8")
    try:
        table = read_storage(path)
    except DataError as err:
        assert err.file == str(path)
        return
    assert table.data.shape == (len(table.time), len(table.labels))
    try:
        load_external_loads(test_data / "opensim" / "gait2354" / "subject01_walk1_grf.xml", data=table)
    except DataError:
        pass


@st.composite
def mutated_bytes(draw, seeds):
    """One of the seed files with a few bytes changed (mostly in the header and parameter section,
    where ezc3d is fragile) and possibly truncated."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        span = draw(st.sampled_from([512, 4096, len(data)]))
        data[draw(st.integers(0, min(span, len(data)) - 1))] = draw(st.integers(0, 255))
    if draw(st.integers(0, 3)) == 0:
        data = data[:draw(st.integers(0, len(data)))]
    return bytes(data)


@pytest.fixture(scope="module")
def c3d_seeds(test_data):
    names = ["Sample10/TYPE-2.C3D", "Sample02/dec_int.c3d", "Sample26/Capture0002.c3d", "Sample10/TYPE-4.C3D"]
    return [(test_data / "c3d" / n).read_bytes() for n in names]


@settings(FUZZ, max_examples=80)
@given(data=st.data())
def test_mutated_c3d(c3d_seeds, work_dir, data):
    path = work_dir / "fuzz.c3d"
    path.write_bytes(data.draw(mutated_bytes(c3d_seeds)))
    try:
        trial = read_c3d(path, timeout=30, memory_limit=256 * 2 ** 20)
    except DataError as err:
        assert err.file == str(path)
        return
    for plate in trial.plates:
        assert np.all(np.isfinite(plate.force))
