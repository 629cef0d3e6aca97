"""ezc3d runs in a child process: crashes, hangs and runaway allocations become DataError (POSIX CI)."""
from __future__ import annotations

import signal

import pytest

import engine.child_process as child_process
import engine.io.c3d as c3d
from engine.errors import DataError
from engine.io.c3d import read_c3d


def mutated(test_data, tmp_path, name, offset, value):
    data = bytearray((test_data / "c3d" / name).read_bytes())
    data[offset] = value
    path = tmp_path / "mutated.c3d"
    path.write_bytes(bytes(data))
    return path


def test_a_file_that_crashes_ezc3d_gives_data_error(test_data, tmp_path):
    """One byte changed in the parameter section of Sample02/dec_int.c3d makes ezc3d 1.7 dereference
    garbage (segmentation fault when run in-process); the caller only sees a DataError."""
    path = mutated(test_data, tmp_path, "Sample02/dec_int.c3d", 2835, 236)
    with pytest.raises(DataError) as info:
        read_c3d(path)
    assert info.value.file == str(path)


@pytest.mark.parametrize("code,expected", [
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "crashed with signal SIGSEGV"),
    ("import os; os.abort()", "crashed with signal SIGABRT"),
    ("import sys; sys.exit(3)", "stopped with exit code 3"),
])
def test_child_crashes_are_reported(test_data, monkeypatch, code, expected):
    monkeypatch.setattr(c3d, "_worker_code", lambda: code)
    path = test_data / "c3d" / "Sample10" / "TYPE-2.C3D"
    with pytest.raises(DataError, match=expected) as info:
        read_c3d(path)
    assert info.value.file == str(path)


def test_a_hanging_reader_is_stopped(test_data, monkeypatch):
    """The reader sleeps 60 s: at its 1 s limit it is killed (SIGKILL, and reaped) before the DataError, not waited
    for (it would then have ended by itself, exit code 0)."""
    monkeypatch.setattr(c3d, "_worker_code", lambda: "import time; time.sleep(60)")
    started = []
    start = child_process.start_child
    monkeypatch.setattr(child_process, "start_child", lambda *a, **k: started.append(start(*a, **k)) or started[-1])
    with pytest.raises(DataError, match="did not finish reading the file within 1 s"):
        read_c3d(test_data / "c3d" / "Sample10" / "TYPE-2.C3D", timeout=1.0)
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL


def test_a_runaway_allocation_is_stopped_by_the_memory_limit(test_data, tmp_path):
    """One byte changed in Capture0002.c3d's parameters makes ezc3d try to allocate many gigabytes.
    (The limit is enforced on Linux, where CI runs.)"""
    path = mutated(test_data, tmp_path, "Sample26/Capture0002.c3d", 1425, 149)
    with pytest.raises(DataError, match="needed more than 256 MB of memory"):
        read_c3d(path, memory_limit=256 * 2 ** 20)


def test_missing_and_foreign_files(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        read_c3d(tmp_path / "nope.c3d")
    text = tmp_path / "walk.c3d"
    text.write_text("PathFileType\t4\t(X/Y/Z)\twalk.trc\n" * 40)
    with pytest.raises(DataError, match="not a C3D file"):
        read_c3d(text)
    short = tmp_path / "short.c3d"
    short.write_bytes(b"\x02\x50" + bytes(100))
    with pytest.raises(DataError, match="fewer than a C3D header"):
        read_c3d(short)


def test_the_parameters_of_many_files_are_read_in_one_process_as_read_c3d_reads_them(test_data, tmp_path,
                                                                                     monkeypatch):
    # read_c3d_parameters (hybrid study init) gives each file's subject and metadata as read_c3d's Trial has them,
    # the files it cannot read a DataError each; a crashing file among good ones fails alone (its reader process
    # crashes: all are read again one process each)
    from engine.io.c3d import C3DParameters, read_c3d_parameters
    names = ("Sample01/Eb015pi.c3d", "Sample28/dynamic.C3D", "Sample26/Capture0002.c3d", "Sample10/TYPE-2.C3D")
    files = [test_data / "c3d" / n for n in names]
    crash = mutated(test_data, tmp_path, "Sample02/dec_int.c3d", 2835, 236)
    mips = test_data / "c3d" / "Sample02" / "sgi_real.c3d"
    started, allowed = [], []
    run_child = c3d.run_child
    monkeypatch.setattr(c3d, "run_child", lambda command, **kw: started.append(command) or allowed.append(
        kw["timeout"]) or run_child(command, **kw))
    read = read_c3d_parameters([*files, mips, tmp_path / "gone.c3d"])
    assert len(started) == 1                          # one process for the four readable files
    # its time: one start, and the per-MB part of each file read (not a whole allowance per file)
    megabytes = sum(p.stat().st_size for p in files) / 2 ** 20      # the MIPS file fails at its header
    assert allowed == [pytest.approx(c3d.BASE_TIMEOUT + c3d.TIMEOUT_PER_MB * megabytes)]
    for path, got in zip(files, read):
        trial = read_c3d(path)
        assert isinstance(got, C3DParameters) and (got.subject, got.metadata, got.source) == (
            trial.subject, trial.metadata, str(path)), path
    assert isinstance(read[4], DataError) and "SGI/MIPS" in read[4].problem and read[4].file == str(mips)
    assert isinstance(read[5], DataError) and "does not exist" in read[5].problem
    started.clear()
    first, bad = read_c3d_parameters([files[0], crash])
    assert len(started) == 3                          # both together, crashed; then one each
    assert all("_extract_parameters" in " ".join(command) for command in started)   # the parameters alone, each time
    assert first.subject == read_c3d(files[0]).subject
    assert isinstance(bad, DataError) and bad.file == str(crash)


def test_a_file_out_of_memory_among_many_names_the_shared_process_limit(test_data, monkeypatch):
    """The reader process of several files may take the memory the largest needs: a file that ran out of it is told
    that limit, not the one it would have had alone."""
    import pickle
    import subprocess

    from engine.io.c3d import read_c3d_parameters
    small, large = test_data / "c3d" / "Sample01" / "Eb015pi.c3d", test_data / "c3d" / "Sample26" / "Capture0002.c3d"
    assert small.stat().st_size < large.stat().st_size
    result = pickle.dumps([("memory", None), ("memory", None)])
    monkeypatch.setattr(c3d, "run_child", lambda command, **kw: subprocess.CompletedProcess(command, 0, result, b""))
    read = read_c3d_parameters([small, large])
    shared = (c3d.BASE_MEMORY + c3d.MEMORY_PER_BYTE * large.stat().st_size) / 2 ** 20
    alone = (c3d.BASE_MEMORY + c3d.MEMORY_PER_BYTE * small.stat().st_size) / 2 ** 20
    assert f"{shared:.0f}" != f"{alone:.0f}"
    assert all(f"more than {shared:.0f} MB of memory" in r.problem for r in read)
