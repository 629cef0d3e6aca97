"""Results files: an analysis result saved and loaded back equal, atomically, with clear errors."""
import dataclasses
import io
import os
import tracemalloc
import zipfile

import numpy as np
import pytest

from engine.io.results_file import load_result, pack, read_archive, save_result, unpack, write_archive
from engine.progress import Progress
from engine.errors import DataError
from engine.model import Model

from tests.analysis.gait2354_result import analysed as gait2354_analysed


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


def _archive(document: str, members=()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("document.yaml", document)
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("version, entry", [
    (2, "{type: 'os:system', fields: {}}"),
    (2, "{type: Trial.__init__, fields: {}}"),
    (1, "{object: 'os:system', fields: {}}"),
    (1, "{object: 'engine.io.results_file:np.lib.format', fields: {}}"),
    (1, "{object: 'engine.trial.trial:Trial.__class__', fields: {}}"),
    (2, "{object: 'engine.trial.trial:Trial', fields: {}}"),     # version 2 never reads module paths
])
def test_a_file_cannot_choose_what_is_rebuilt(tmp_path, version, entry):
    forged = tmp_path / "forged.hlr"
    forged.write_bytes(_archive(f"format: hybridlab-result\nversion: {version}\ncontents: {{x: {entry}}}\n"))
    with pytest.raises(DataError, match="forged.hlr: x: .*(not a kind of object|not a HybridLab class|unexpected)"):
        load_result(forged)


def test_files_of_format_1_still_open(test_data, tmp_path):
    """A results file and a session written by the release that named classes by module path (tests/data
    /results_v1) open, and say the same once saved again in the current format."""
    from engine.io.session_file import load_session, save_session
    folder = test_data / "results_v1"
    result, settings = load_result(folder / "gait2354_walk1.hlr")
    assert result.trial.plates[0].name == "right" and result.muscles is not None
    assert result.ik.q.shape == (len(result.ik.time), result.model.nq) and 20 <= len(result.ik.time) <= 30
    assert settings.estimate_grf and settings.muscles and settings.ik.marker_weights
    save_result(result, tmp_path / "again.hlr", settings)
    again, again_settings = load_result(tmp_path / "again.hlr")
    assert_same(result, again)
    assert_same(settings, again_settings)

    session = load_session(folder / "gait2354_walk1.hls")
    assert session.events[0].label == "Foot Strike" and session.time == 0.8
    assert session.view == {"markers": True, "camera": [1.0, 2.0, 3.0]}
    assert session.model == session.result.model
    save_session(tmp_path / "again.hls", session)
    assert_same(load_session(tmp_path / "again.hls").result, session.result)


def test_identical_contents_give_identical_bytes_without_the_machine_s_paths(analysed, tmp_path):
    result, settings = analysed
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    save_result(result, tmp_path / "a" / "walk1.hlr", settings)
    save_result(result, tmp_path / "b" / "walk1.hlr", settings)
    first, second = ((tmp_path / d / "walk1.hlr").read_bytes() for d in "ab")
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        document = archive.read("document.yaml").decode()
    source = result.trial.source
    assert source.startswith("/") and f"source: {source}\n" not in document
    stored = os.path.relpath(source, tmp_path / "a").replace(os.sep, "/")
    assert f"source: {stored}" in document
    assert load_result(tmp_path / "a" / "walk1.hlr")[0].trial.source == source


def _counting_unpacked(monkeypatch) -> list:
    """``[bytes]``: from now on, the bytes read from archives' members (the one counter the refusals use)."""
    unpacked = [0]
    read = zipfile.ZipExtFile.read

    def counted(member, n=-1):
        data = read(member, n)
        unpacked[0] += len(data)
        return data
    monkeypatch.setattr(zipfile.ZipExtFile, "read", counted)
    return unpacked


def _refusal(fn, monkeypatch):
    """(bytes unpacked from the archive's members, peak traced bytes, message) of ``fn()``, which must raise
    DataError. (The time a refusal takes is printed by benchmarks/bench_refusals.py.)"""
    unpacked = _counting_unpacked(monkeypatch)
    tracemalloc.start()
    try:
        with pytest.raises(DataError) as info:
            fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return unpacked[0], peak, str(info.value)


def test_the_counter_of_unpacked_bytes_counts_a_valid_archive(tmp_path, monkeypatch):
    """The positive control of ``unpacked == 0`` below: the same counter sees the bytes of a small valid archive
    read as a results file is (``read_archive``, which ``load_result`` starts with)."""
    small = tmp_path / "small.hlr"
    x = np.arange(100.0)
    write_archive(small, {"x": x}, "test archive")
    unpacked = _counting_unpacked(monkeypatch)
    assert np.array_equal(read_archive(small)["x"], x)
    assert unpacked[0] >= x.nbytes


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path, monkeypatch):
    bomb = tmp_path / "bomb.hlr"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("document.yaml", "format: hybridlab-result\nversion: 2\n"
                                          "contents: {x: {array: arrays/0.npy}}\n")
        with archive.open("arrays/0.npy", "w", force_zip64=True) as member:
            chunk = bytes(2**24)
            for _ in range(32):             # 512 MB of zeros, about 0.5 MB compressed
                member.write(chunk)
    assert bomb.stat().st_size < 2**21
    unpacked, peak, message = _refusal(lambda: load_result(bomb), monkeypatch)
    assert "bomb.hlr" in message and "unpack to 512 MB" in message
    assert unpacked == 0 and peak < 100 * 2**20       # refused from the sizes the archive's directory declares


def test_an_array_header_declaring_more_than_its_member_holds_is_refused(tmp_path, monkeypatch):
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10**11,)})
    forged = tmp_path / "huge.hlr"
    forged.write_bytes(_archive("format: hybridlab-result\nversion: 2\ncontents: {x: {array: arrays/0.npy}}\n",
                                [("arrays/0.npy", b"\x93NUMPY\x01\x00" + header.getvalue()[8:] + bytes(8))]))
    unpacked, peak, message = _refusal(lambda: load_result(forged), monkeypatch)
    assert "huge.hlr" in message and "declares a 100000000000 array of float64" in message
    assert peak < 100 * 2**20                         # refused before the 800 GB it declares are allocated
