"""Property tests of the results and session loader: any bytes, and any mutation of a valid archive's document or
of its bytes, give contents or HybridLab's own error, never another exception."""
import io
import zipfile

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import HybridLabError
from engine.io.results_file import pack, unpack
from engine.progress import Progress
from engine.trial.trial import Event, Markers, Trial
from tests.io.fuzzing import FUZZ, mutated_text

TRIAL = Trial(markers=Markers(("a", "b"), np.arange(3) / 100.0, np.arange(18.0).reshape(3, 2, 3), 100.0),
              events=(Event("Foot Strike", "Right", 0.01),))
VALID = pack({"trial": TRIAL, "progress": Progress("ik", 0.5, "x"), "values": (1, 2.5, "x", None),
              "array": np.linspace(0.0, 1.0, 5)})


def _loads_or_refuses(data: bytes) -> None:
    try:
        contents = unpack(data)
    except HybridLabError:
        return
    assert isinstance(contents, dict)


def _with_document(text: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(VALID)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info.filename, text if info.filename == "document.yaml" else src.read(info.filename))
    return out.getvalue()


def test_the_valid_archive_loads():
    back = unpack(VALID)
    assert back["trial"].markers.names == ("a", "b") and back["values"] == (1, 2.5, "x", None)


@settings(FUZZ, max_examples=60)
@given(st.binary(max_size=2000))
def test_any_bytes(data):
    _loads_or_refuses(data)


@settings(FUZZ, max_examples=60)
@given(mutated_text(zipfile.ZipFile(io.BytesIO(VALID)).read("document.yaml").decode()))
def test_mutated_documents(text):
    _loads_or_refuses(_with_document(text))


@settings(FUZZ, max_examples=80)
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_bytes(changes):
    data = bytearray(VALID)
    for i, value in changes:
        data[i] = value
    _loads_or_refuses(bytes(data))
