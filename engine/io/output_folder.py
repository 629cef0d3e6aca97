"""An output folder written as a unit: checked before the work, filled in a staging folder, then swapped in.

``with output_folder(path, known) as staging:`` creates ``path`` if needed and a staging folder inside it
(``.hybrid-staging-*``: the same file system, so moving a file in is a rename) before the caller computes
anything, so a folder that cannot be written is an error before the work. The caller writes its files into
``staging``. On success every file is moved into ``path``, the files of an earlier run that this one did not
write are removed (those listed in the earlier ``manifest.json``, and the names in ``known``: files written
by versions before the manifest), ``manifest.json`` lists exactly this run's files, and files and folder are
fsynced. On any failure (a full disk, an interrupted analysis) the staging folder is removed and ``path``
keeps its previous contents. A run killed outright (SIGKILL, a power cut) cannot remove its staging folder: the
next run in the folder removes the staging folders whose process is gone (their names carry its id) and says so;
a process killed but not yet reaped by its parent is gone (:func:`_running`). A file system error is a :class:`~engine.errors.DataError` naming the file.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from ..errors import DataError
from .atomic import fsync_folder, write_text

MANIFEST = "manifest.json"
STAGING = ".hybrid-staging-"
PF_EXITING = 0x4
"""Linux's flag of a process that has begun to exit (``/proc/PID/stat``'s ninth field, ``include/linux/sched.h``)."""


@contextlib.contextmanager
def output_folder(path, known=(), reserve: int = 0, inputs=(), said: list | None = None):
    """Context manager yielding the staging folder (a Path) of the output folder ``path`` (see the module).
    ``reserve``: bytes that must fit on the disk (and under the process's file size limit) before the work
    starts; they are allocated in the staging folder and released at once (where the system can allocate).
    ``inputs``: files the run reads, never removed as an earlier run's (an edited ``contacts.yaml`` given back).
    ``said``: a list that receives a line for each staging folder of a killed earlier run removed."""
    path = Path(path)
    created = not path.exists()
    try:
        if not created and not path.is_dir():
            raise DataError("the output folder is a file", file=path)
        path.mkdir(parents=True, exist_ok=True)
        remove_stale_stagings(path, said)
        staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=path))
    except OSError as exc:
        raise DataError(f"the output folder cannot be written ({exc.strerror or exc})", file=path) from None
    committing = False
    try:
        try:
            _reserve(staging, reserve)
        except OSError as exc:
            raise DataError(f"the output folder has no room for the results ({exc.strerror or exc}; about "
                            f"{reserve / 2 ** 20:.1f} MB needed)", file=path) from None
        yield staging
        committing = True
        _commit(path, staging, set(known), {Path(p).resolve() for p in inputs if p})
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):
                path.rmdir()
        if isinstance(exc, OSError):
            raise DataError(f"writing the results failed ({exc.strerror or exc})"
                            + ("" if committing else "; the folder keeps its previous files"),
                            file=exc.filename or path) from None
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def remove_stale_stagings(path, said: list | None = None) -> None:
    """The staging folders in the output folder ``path`` of runs that were killed (their process is gone) removed,
    a line for each appended to ``said`` (None: not said); also for a folder that a later run found complete and
    does not write again (``study.runner``: a trial skipped), where a killed run's staging would stay otherwise."""
    for stale in _stale_stagings(Path(path)):
        shutil.rmtree(stale, ignore_errors=True)
        if said is not None:
            said.append(f"removed {stale.name}, the unfinished files of an earlier run that was killed"
                        if not stale.exists() else
                        f"{stale.name}, the unfinished files of an earlier run that was killed, could not all be "
                        "removed (remove it by hand)")


def _stale_stagings(path: Path) -> list[Path]:
    """The staging folders in ``path`` whose process no longer runs (a staging name without a process id is
    from a version before the ids: stale as well)."""
    stale = []
    for folder in sorted(path.glob(STAGING + "*")):
        pid = folder.name[len(STAGING):].split("-")[0]
        if folder.is_dir() and not (pid.isdigit() and _running(int(pid))):
            stale.append(folder)
    return stale


def _running(pid: int) -> bool:
    """Whether the process ``pid`` runs: it exists (another user's too) and, on Linux, has not begun to exit."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # another user's process
        pass
    return not _exiting(pid)


def _exiting(pid: int) -> bool:
    """Whether the process ``pid`` is killed but still there, on Linux: a zombie its parent has not reaped (state Z,
    or X as it is reaped), or a process being torn down (PF_EXITING: set before the kernel closes its files, so
    before anyone sees its connections close). A Dask worker killed in the middle of a trial is one of these for a
    moment after the scheduler has given its trial to another worker, whose run would take it for running and leave
    its staging folder (elsewhere, or when /proc cannot be read: False)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return fields[0] in ("Z", "X", "x") or int(fields[6]) & PF_EXITING != 0
    except (OSError, IndexError, ValueError):
        return False


def _reserve(staging: Path, size: int) -> None:
    """Allocate ``size`` bytes in a file of ``staging`` and remove it (OSError where they do not fit)."""
    if size <= 0 or not hasattr(os, "posix_fallocate"):
        return
    reservation = staging / "reservation"
    fd = os.open(reservation, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.posix_fallocate(fd, 0, size)
    finally:
        os.close(fd)
        reservation.unlink()


def _commit(path: Path, staging: Path, known: set, inputs: set) -> None:
    names = sorted(p.name for p in staging.iterdir() if p.is_file())      # each fsynced by its atomic write
    previous = set(known)
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        previous |= {n for n in json.loads((path / MANIFEST).read_text())["files"] if isinstance(n, str)}
    for name in names:
        os.replace(staging / name, path / name)
    for name in sorted(previous - set(names) - {MANIFEST}):
        if Path(name).name == name and (path / name).is_file() and (path / name).resolve() not in inputs:
            (path / name).unlink()
    write_text(path / MANIFEST, json.dumps({"files": names}, indent=1) + "\n")
    fsync_folder(path)
