"""Results files: an analysis result saved and loaded back equal, atomically, with clear errors."""
import dataclasses
import io
import zipfile

import numpy as np
import pytest

from engine.analysis.results_file import load_result, pack, save_result, unpack
from engine.analysis.progress import Progress
from engine.errors import DataError
from engine.model import Model

from .gait2354_result import analysed as gait2354_analysed


@pytest.fixture(scope="module")
def analysed(test_data):
    return gait2354_analysed(str(test_data))


def assert_same(a, b, where="result"):
    """Equal objects, field by field; arrays equal bit for bit (NaN where NaN), same types (NumPy scalars come
    back as the equal Python numbers)."""
    a, b = (x.item() if isinstance(x, np.generic) else x for x in (a, b))
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, where
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), where
    elif isinstance(a, Model):
        assert a == b, where
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), where
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def test_a_result_with_muscles_and_its_settings_round_trip(analysed, tmp_path):
    result, settings = analysed
    assert result.qp is not None and result.classic is not None and result.muscles is not None
    path = tmp_path / "walk1.npz"
    save_result(result, path, settings)
    loaded, loaded_settings = load_result(path)
    assert_same(result, loaded)
    assert_same(settings, loaded_settings)
    assert loaded.trial.frame == "model" and loaded.trial.plates[0].name == "right"
    assert loaded.model is not result.model and loaded.model == result.model


def test_a_failed_write_leaves_the_previous_file(analysed, tmp_path):
    result, _ = analysed
    path = tmp_path / "walk1.npz"
    save_result(result, path)
    before = path.read_bytes()

    class NotStorable:
        pass

    with pytest.raises(DataError, match="notes"):
        save_result(dataclasses.replace(result, notes=[NotStorable()]), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["walk1.npz"]


def test_damaged_or_foreign_files_raise_data_errors_naming_the_file(analysed, tmp_path):
    result, _ = analysed
    text = tmp_path / "notes.npz"
    text.write_text("not an archive")
    with pytest.raises(DataError, match="notes.npz.*not a zip archive"):
        load_result(text)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(pack({"result": result})[:5000])
    with pytest.raises(DataError, match="truncated.npz"):
        load_result(truncated)
    with pytest.raises(DataError, match="missing.npz: cannot be read"):
        load_result(tmp_path / "missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(DataError, match="document.yaml"):
        load_result(other)


def test_pack_keeps_plain_values_tuples_and_non_text_keys():
    contents = {"a": (1, 2.5, "x"), "b": {(1, 2): [None, True]}, "c": np.arange(4.0), "d": float("nan")}
    back = unpack(pack(contents))
    assert back["a"] == (1, 2.5, "x") and back["b"] == {(1, 2): [None, True]}
    assert np.array_equal(back["c"], np.arange(4.0)) and np.isnan(back["d"])
    assert unpack(pack({"p": Progress("ik", 0.5)}))["p"] == Progress("ik", 0.5)


def test_only_engine_dataclasses_are_rebuilt(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("document.yaml", "format: hybridlab-result\nversion: 1\n"
                                          "contents: {x: {object: 'os:system', fields: {}}}\n")
    forged = tmp_path / "forged.npz"
    forged.write_bytes(buffer.getvalue())
    with pytest.raises(DataError, match="forged.npz: x: 'os:system' is not a HybridLab class"):
        load_result(forged)
