"""Python child processes that run this same engine: the running interpreter with ``-P`` (so that the working
directory cannot stand in for one of its packages) and this process's import path. In a frozen bundle
(``sys.frozen``, PyInstaller) ``sys.executable`` is the application itself: the child is the bundle started again
with :data:`WORKER_FLAG` before the same ``-c``/``-m`` arguments, which its entry point (``packaging/launcher.py``)
runs as ``python -P`` would, in a process of its own owned in the same way.

A child is owned by its parent: on Linux it asks the kernel to kill it when its parent dies
(:func:`die_with_parent`, called first thing in the child: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so a SIGTERM or
SIGKILL to ``hybrid info`` leaves no reader running), and :func:`run_child` (:func:`wait_child` for a child started
earlier by :func:`start_child`) kills it on a timeout, on a cancel request and on any exception in the parent
(Ctrl+C included) before returning.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

PARENT_VARIABLE = "HYBRIDLAB_PARENT_PID"
"""The environment variable through which a child learns the process id of the parent it dies with."""
WORKER_FLAG = "--python-worker"
"""First argument of a frozen bundle started as a Python child (packaging/launcher.py reads it)."""


class Cancelled(Exception):
    """The user cancelled the work a child process was doing (the child is killed)."""


def python_command(*args: str) -> list[str]:
    """The command line of a Python child given ``args`` (e.g. ``"-m", "engine.cli.main", ...``): this
    interpreter with ``-P``, or in a frozen bundle the bundle in its worker mode."""
    if getattr(sys, "frozen", False):
        return [sys.executable, WORKER_FLAG, *args]
    return [sys.executable, "-P", *args]


def child_environment(extra: dict | None = None) -> dict:
    """This process's environment with its import path as ``PYTHONPATH``, its process id as the parent to die
    with (:func:`die_with_parent`), and the variables in ``extra``."""
    path = os.pathsep.join(p for p in sys.path if isinstance(p, str) and p)
    return {**os.environ, "PYTHONPATH": path, PARENT_VARIABLE: str(os.getpid()), **(extra or {})}


def die_with_parent() -> None:
    """In a child started with :func:`child_environment`: be killed (SIGKILL) when the parent dies, or exit now if
    it already has. Linux only (elsewhere nothing). Self-contained: the C3D reader runs its source as is."""
    import os
    import sys
    parent = os.environ.get("HYBRIDLAB_PARENT_PID")
    if not parent or not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)        # PR_SET_PDEATHSIG
    if os.getppid() != int(parent):                     # the parent died before the request
        os._exit(1)


def start_child(command: list[str], *, env: dict, capture: bool = True, stderr=None,
                stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start ``command`` (stdout and stderr piped when ``capture``; else ``stderr``, a file or None: this
    process's; its standard input ``stdin``, nothing by default) and return it; :func:`wait_child` waits for it
    (closing a piped standard input first)."""
    pipe = subprocess.PIPE if capture else None
    return subprocess.Popen(command, stdin=stdin, stdout=pipe, stderr=pipe if capture else stderr,
                            env=env, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))


def wait_child(proc: subprocess.Popen, *, timeout: float | None = None, cancel=None) -> subprocess.CompletedProcess:
    """Wait for ``proc`` (:func:`start_child`) to end and return its CompletedProcess (what it wrote to its pipes,
    as bytes). ``timeout`` s: the child is killed and ``subprocess.TimeoutExpired`` raised; ``cancel`` (a
    ``threading.Event``, polled every 0.1 s): the child is killed and :class:`Cancelled` raised. Any exception
    in the parent while waiting kills the child too."""
    command = proc.args
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        while True:
            wait = 0.1 if cancel is not None else None
            if deadline is not None:
                wait = max(0.0, min(deadline - time.monotonic(), wait if wait is not None else float("inf")))
            try:
                out, err = proc.communicate(timeout=wait)
                return subprocess.CompletedProcess(command, proc.returncode, out, err)
            except subprocess.TimeoutExpired:
                if cancel is not None and cancel.is_set():
                    raise Cancelled() from None
                if deadline is not None and time.monotonic() >= deadline:
                    raise subprocess.TimeoutExpired(command, timeout) from None
    finally:
        if proc.returncode is None:
            proc.kill()
            proc.communicate()


def run_child(command: list[str], *, env: dict, timeout: float | None = None, cancel=None,
              capture: bool = True) -> subprocess.CompletedProcess:
    """Run ``command`` to its end and return its CompletedProcess (stdout and stderr as bytes when ``capture``),
    killed on a ``timeout``, a ``cancel`` or an exception as :func:`wait_child` says."""
    return wait_child(start_child(command, env=env, capture=capture), timeout=timeout, cancel=cancel)
