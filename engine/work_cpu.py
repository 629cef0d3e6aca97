"""The processor time of one piece of work (a study's trial) that runs in one thread beside others in its process.

``time.process_time`` counts every thread of the process: on a Dask worker of several threads, a trial's reading
would hold the trials beside it. :func:`work_cpu` counts the thread running the work (``time.thread_time``), and what
the work hands to other threads and processes, each counting its own: a helper thread's share through
:func:`counted` (IK's parts of a trial, ``engine.analysis.ik``; the muscle paths' chunks,
``engine.muscles.path.geometry``), a child process's through :func:`add_child` (the C3D reader,
``engine.io.c3d``, reports its own processor time up to its result: its start-up included, its exit not). Outside a
:func:`work_cpu` block both do nothing. Pure standard library; no thread is sampled, nothing polled.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

_current: ContextVar = ContextVar("hybridlab_work_cpu", default=None)


class WorkCpu:
    """The processor time of a :func:`work_cpu` block: :meth:`seconds`, read in the block's thread."""

    def __init__(self):
        self._start = time.thread_time()
        self._others: list = []          # seconds of helper threads and child processes (list.append: thread-safe)

    def seconds(self) -> float:
        """Processor seconds so far: this thread's since the block began, and those of the helper threads and child
        processes that have reported theirs (a helper's once its call returned). Call it in the block's thread."""
        return time.thread_time() - self._start + sum(self._others)


@contextmanager
def work_cpu():
    """Context manager yielding a :class:`WorkCpu` that counts the processor time of the block's work (module notes):
    this thread's, and what it hands to helper threads (:func:`counted`) and child processes (:func:`add_child`)."""
    account = WorkCpu()
    token = _current.set(account)
    try:
        yield account
    finally:
        _current.reset(token)


def counted(function):
    """``function`` to run in a helper thread on behalf of this thread's :func:`work_cpu` block: its processor time
    in the helper thread is added to that block's (wrap it in the block's thread, where it is submitted); ``function``
    itself outside a block."""
    account = _current.get()
    if account is None:
        return function

    def run(*args, **kwargs):
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            account._others.append(time.thread_time() - start)
    return run


def add_child(seconds: float) -> None:
    """A child process's processor ``seconds``, run for this thread's :func:`work_cpu` block, added to it (nothing
    outside a block)."""
    account = _current.get()
    if account is not None:
        account._others.append(seconds)
