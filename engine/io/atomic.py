"""Atomic file writes: write to a temporary file beside the target, fsync it, rename it, fsync the folder.

A failed or interrupted write leaves the previous file untouched; after a write returns, the file survives a
power cut (the folder's entry is on disk too).
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ..errors import DataError


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# temporary files are created private (0600); the finished file gets the permissions an ordinary
# open() would give it, or keeps those of the file it replaces
_NEW_FILE_MODE = 0o666 & ~_read_umask()


def fsync_folder(folder) -> None:
    """Flush a folder's entries (a rename into it) to disk; nothing where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _finish(tmp, path: Path) -> None:
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = _NEW_FILE_MODE
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    fsync_folder(path.parent if str(path.parent) else ".")


@contextlib.contextmanager
def atomic_write(path, mode: str = "w", encoding: str | None = "utf-8"):
    """Context manager yielding a file object; on success the file replaces ``path`` atomically."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(f"the folder {str(directory)!r} does not exist", file=path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": ""}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _finish(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_path(path):
    """Context manager yielding a temporary file name beside ``path``, for writers that need a name rather than
    a file object (a video encoder); on success the file replaces ``path`` atomically, on failure it is removed."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(f"the folder {str(directory)!r} does not exist", file=path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=f".tmp{path.suffix}", dir=directory)
    os.close(fd)
    try:
        yield Path(tmp)
        _finish(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path, text: str) -> None:
    with atomic_write(path) as fh:
        fh.write(text)


def write_bytes(path, data: bytes) -> None:
    with atomic_write(path, "wb", None) as fh:
        fh.write(data)
