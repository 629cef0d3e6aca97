"""Atomic file writes: write to a temporary file beside the target, fsync it, rename it, fsync the folder.

A failed or interrupted write leaves the previous file untouched; after a write returns, the file survives a
power cut (the folder's entry is on disk too). Several files written at once (the outputs of one scaling) can
share the waits for the disk: inside :func:`synced_together` each file's fsync and rename wait for the end of
the block, where all are fsynced at once and each folder once.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor, wait
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


def _folder(path: Path):
    return path.parent if str(path.parent) else Path(".")


def _replace(tmp, path: Path) -> None:
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = _NEW_FILE_MODE
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def _finish(tmp, path: Path) -> None:
    _replace(tmp, path)
    fsync_folder(_folder(path))


_pending: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("atomic_pending", default=None)
"""The innermost :func:`synced_together` block's thread pool and its (temporary, target, fsync future) triples,
or None outside one."""


def _fsync_file(name) -> None:
    fd = os.open(name, os.O_RDWR)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def synced_together():
    """Context manager: the atomic writes of the block (this thread's :func:`atomic_write`, :func:`write_text` and
    :func:`write_bytes`; not :func:`atomic_path`) put their data in temporary files beside their targets, each
    fsynced by a thread of the block as soon as it is written (so the disk works while the next file is made, and
    the file system commits concurrent fsyncs together); at the end of the block, once every fsync has returned,
    the temporary files are renamed onto their targets in the order written and each folder is fsynced once.
    When the block returns, every file is in place and on disk, as after separate writes, with about one wait for
    the disk instead of two per file.

    If the block raises, no target is replaced (not even those written before the failure) and the temporary
    files are removed. A file written in the block is not at its name before the block ends.
    """
    pending: list = []
    renamed = 0
    with ThreadPoolExecutor(max_workers=8, thread_name_prefix="fsync") as pool:
        token = _pending.set((pool, pending))
        try:
            try:
                yield
            finally:
                _pending.reset(token)
                wait([synced for _, _, synced in pending])     # whatever the block did
            for _, _, synced in pending:
                synced.result()         # an fsync's error
            for tmp, path, _ in pending:
                _replace(tmp, path)
                renamed += 1
        except BaseException:
            _discard(pending[renamed:])
            raise
        finally:
            for folder in dict.fromkeys(_folder(path) for _, path, _ in pending[:renamed]):
                fsync_folder(folder)


def _discard(pending) -> None:
    for tmp, *_ in pending:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


@contextlib.contextmanager
def atomic_write(path, mode: str = "w", encoding: str | None = "utf-8"):
    """Context manager yielding a file object; on success the file replaces ``path`` atomically (at the end of
    the enclosing :func:`synced_together` block, if any)."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(f"the folder {str(directory)!r} does not exist", file=path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    pending = _pending.get()
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": ""}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            if pending is None:
                os.fsync(fh.fileno())
        if pending is None:
            _finish(tmp, path)
        else:       # fsynced now, renamed at the end of synced_together's block
            pool, written = pending
            written.append((tmp, path, pool.submit(_fsync_file, tmp)))
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
