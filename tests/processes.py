"""Helpers of the tests that watch child processes (Linux /proc): a C3D that takes seconds to read, the children
of a process, and whether a process still runs."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.io.c3d_write import write_c3d
from engine.trial.trial import Markers, Trial


def slow_c3d(path: Path) -> Path:
    """A valid C3D that ezc3d needs seconds to read: 200 markers over 4000 frames (12 MB)."""
    frames, markers = 4000, 200
    positions = np.random.default_rng(18).normal(size=(frames, markers, 3))
    write_c3d(path, Trial(markers=Markers([f"m{i}" for i in range(markers)], np.arange(frames) / 100.0,
                                          positions, 100.0)))
    return path


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (started by any of its threads)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:           # a thread that has just ended
            pass
    return found


def readers(pid: int) -> list[int]:
    """``pid``'s children that are C3D reader processes (``engine.io.c3d._extract``)."""
    found = []
    for child in children(pid):
        try:
            if "_extract" in Path(f"/proc/{child}/cmdline").read_text():
                found.append(child)
        except FileNotFoundError:
            pass
    return found


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (an exited child its new parent has not reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
