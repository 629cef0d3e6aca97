"""One ``hybrid batch`` at a time in an output folder: an exclusive lock file, :data:`LOCK`, in ``--out`` for the
run's length.

Two runs writing into one folder would delete each other's marks of started tasks (``study.runner.STARTED``) and
rewrite each other's manifest. The lock is a file created with ``O_CREAT | O_EXCL`` (atomic, also on the network file
systems a cluster's nodes share, where ``flock`` may not be), holding its run's process id, host, the process's start
time and the time it took the lock; the run removes it as it ends (also cancelled, or by an error). A lock left by a
run whose process is no longer running on this host (killed, the machine restarted) is taken over, and said so; its
process is told from a later one given the same id by the process's start time. A lock of a run on another host
cannot be checked from here: the refusal names that run, and the file to remove if it is gone.
"""
from __future__ import annotations

import json
import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

LOCK = ".hybrid-batch.lock"
TAKE_OVER_TRIES = 3
"""Attempts at creating the lock when the one found was left by a process no longer running (each may be lost to
another run taking it over at the same moment, which then holds it)."""


class OutputInUse(Exception):
    """Another ``hybrid batch`` holds the output folder's lock (its message names that run and the lock file)."""


def _this_run() -> dict:
    return {"pid": os.getpid(), "host": socket.gethostname(), "process_started": psutil.Process().create_time(),
            "locked": time.strftime("%Y-%m-%d %H:%M:%S %z")}


def _holder(path: Path) -> dict | None:
    """The run recorded in the lock file ``path``; None when there is none (removed meanwhile); a dict without
    ``pid`` when the file cannot be read as a lock (being written, or not one)."""
    try:
        holder = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}
    return holder if isinstance(holder, dict) else {}


def _gone(holder: dict) -> bool:
    """Whether the run ``holder`` (a lock's content) is known to have ended: its process, on this host, no longer
    runs (no process with its id, or one started at another time)."""
    if holder.get("host") != socket.gethostname() or not isinstance(holder.get("pid"), int):
        return False
    try:
        return psutil.Process(holder["pid"]).create_time() != holder.get("process_started")
    except psutil.NoSuchProcess:
        return True


def _describe(holder: dict) -> str:
    if "pid" not in holder:
        return "a run whose lock cannot be read"
    return f"the run of process {holder['pid']} on {holder.get('host')}, since {holder.get('locked')}"


def _take_over(path: Path, stale: dict) -> bool:
    """The stale lock ``stale`` at ``path`` moved aside and removed; False when ``path`` held another lock by then
    (a run took it over first: it is put back)."""
    aside = path.with_name(f"{path.name}.{os.getpid()}.stale")
    try:
        os.replace(path, aside)
    except FileNotFoundError:
        return True                            # removed meanwhile: try to create it
    if _holder(aside) != stale:
        os.replace(aside, path)                # another run's fresh lock: its own again
        return False
    aside.unlink()
    return True


@contextmanager
def output_lock(out, say=print):
    """Context manager holding the lock of the output folder ``out`` (created if missing) for its block (module
    notes); ``say(text)`` is told of a stale lock taken over. :class:`OutputInUse` when another run holds it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path, me = out / LOCK, _this_run()
    for _ in range(TAKE_OVER_TRIES):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = _holder(path)
            if holder is None:
                continue
            if not _gone(holder) or not _take_over(path, holder):
                raise OutputInUse(f"{out} is being written by another 'hybrid batch' ({_describe(_holder(path) or holder)}): "
                                  f"wait for it to end, give another --out, or, if that run is no longer running, "
                                  f"remove {path}") from None
            say(f"took over the lock of {out} left by {_describe(holder)}, no longer running")
            continue
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(me) + "\n")
        break
    else:
        raise OutputInUse(f"{out}: its lock {path} kept being taken by other runs; try again")
    try:
        yield path
    finally:
        if _holder(path) == me:
            path.unlink()
