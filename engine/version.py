"""This copy's version and build: ``hybrid --version`` and the application's About box say both.

The version is the package's (``engine.__version__``, the same as pyproject.toml's). The build names the exact
sources: in a frozen bundle the stamp ``packaging/build.py`` wrote into it (the file ``BUILD`` in the bundle's
folder: ``git describe`` of the sources it was built from, and the date); from a git checkout, ``git describe
--always --dirty`` of that checkout; otherwise (an installed wheel) "release".
"""
from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

from . import __version__


@functools.lru_cache(maxsize=None)
def build() -> str:
    """The build of the running copy (see the module's docstring)."""
    if getattr(sys, "frozen", False):
        stamp = Path(getattr(sys, "_MEIPASS", "")) / "BUILD"
        return stamp.read_text(encoding="utf-8").strip() if stamp.is_file() else "frozen, unstamped"
    checkout = Path(__file__).resolve().parent.parent
    if not (checkout / ".git").exists():
        return "release"
    try:
        described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=checkout, capture_output=True,
                                   text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return "source checkout (git unavailable)"
    return described.stdout.strip() or "source checkout (git describe failed)"


def version_text() -> str:
    """``"<version> (build <build>)"``."""
    return f"{__version__} (build {build()})"
