"""Atomic writes by name: the target appears only when the writer succeeded; a failure leaves it untouched."""
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
