"""Python child processes that run this same engine: the running interpreter with ``-P`` (so that the working
directory cannot stand in for one of its packages) and this process's import path."""
from __future__ import annotations

import os
import sys


def python_command(*args: str) -> list[str]:
    """The command line of a Python child given ``args`` (e.g. ``"-m", "engine.cli.main", ...``)."""
    return [sys.executable, "-P", *args]


def child_environment(extra: dict | None = None) -> dict:
    """This process's environment with its import path as ``PYTHONPATH``, and the variables in ``extra``."""
    path = os.pathsep.join(p for p in sys.path if isinstance(p, str) and p)
    return {**os.environ, "PYTHONPATH": path, **(extra or {})}
