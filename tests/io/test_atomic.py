"""Atomic writes by name: the target appears only when the writer succeeded; a failure leaves it untouched."""
from pathlib import Path

import pytest

from engine.errors import DataError
from engine.io.atomic import atomic_path


def test_replaces_the_target_on_success(tmp_path):
    target = tmp_path / "video.mp4"
    target.write_bytes(b"old")
    with atomic_path(target) as tmp:
        assert tmp.parent == tmp_path and tmp.suffix == ".mp4" and tmp != target
        tmp.write_bytes(b"new")
        assert target.read_bytes() == b"old"
    assert target.read_bytes() == b"new" and list(tmp_path.iterdir()) == [target]


def test_failure_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "video.mp4"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("encoder crashed")
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]
    with pytest.raises(DataError, match="does not exist"):
        with atomic_path(tmp_path / "missing" / "v.mp4"):
            pass


def test_new_files_get_ordinary_permissions_and_replaced_files_keep_theirs(tmp_path):
    """Temporary files are private (0600); the finished file must not be: a new one gets 0666 less the umask,
    a replaced one keeps its mode."""
    import os
    from engine.io.atomic import write_text
    mask = os.umask(0)
    os.umask(mask)
    new = tmp_path / "new.txt"
    write_text(new, "x")
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    write_text(kept, "new")
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() == "new"


def _record_disk_calls(monkeypatch):
    """Every fsync (of the file or folder it names, via /proc) and rename, in order."""
    import os
    events = []
    fsync, replace = os.fsync, os.replace

    def recorded_fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        fsync(fd)

    def recorded_replace(src, dst):
        events.append(("replace", str(src), str(dst)))
        replace(src, dst)

    monkeypatch.setattr(os, "fsync", recorded_fsync)
    monkeypatch.setattr(os, "replace", recorded_replace)
    return events


def test_files_synced_together_are_each_on_disk_before_their_rename_and_the_folder_after(tmp_path, monkeypatch):
    """Inside the block no target changes; at its end every temporary is fsynced before it replaces its target,
    the folder is fsynced after the last rename, and the files hold what was written (durable and atomic as
    separate writes)."""
    from engine.io.atomic import synced_together, write_bytes, write_text
    old = tmp_path / "a.txt"
    old.write_text("old")
    events = _record_disk_calls(monkeypatch)
    with synced_together():
        write_text(old, "new a")
        write_bytes(tmp_path / "b.bin", b"new b")
        write_text(tmp_path / "c.txt", "new c")
        assert old.read_text() == "old" and not (tmp_path / "b.bin").exists()
        assert not [e for e in events if e[0] == "replace"]
    assert [old.read_text(), (tmp_path / "b.bin").read_bytes(), (tmp_path / "c.txt").read_text()] == \
        ["new a", b"new b", "new c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin", "c.txt"]
    renames = [e for e in events if e[0] == "replace"]
    assert [Path(dst).name for _, _, dst in renames] == ["a.txt", "b.bin", "c.txt"]
    for _, tmp, _ in renames:
        assert ("fsync", tmp) in events[:events.index(renames[0])]
    assert ("fsync", str(tmp_path)) in events[events.index(renames[-1]):]


def test_a_failure_in_a_synced_block_replaces_no_file_and_leaves_no_temporary(tmp_path):
    from engine.io.atomic import synced_together, write_text
    old = tmp_path / "a.txt"
    old.write_text("old")
    with pytest.raises(RuntimeError):
        with synced_together():
            write_text(old, "new a")
            write_text(tmp_path / "b.txt", "new b")
            raise RuntimeError("the third file cannot be made")
    assert old.read_text() == "old" and list(tmp_path.iterdir()) == [old]
    write_text(tmp_path / "c.txt", "after")       # outside the block, writes are immediate again
    assert (tmp_path / "c.txt").read_text() == "after"
