"""The command line's one-line progress bar on stderr (only on a terminal)."""
from __future__ import annotations

import sys


class ProgressBar:
    """Called with each Progress; :meth:`note` replaces the message under the same fraction (e.g. while numba
    compiles, when the step cannot report)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.last = ""
        self.fraction, self.stage = 0.0, ""

    def __call__(self, p) -> None:
        self.fraction, self.stage = p.fraction, p.stage
        self.note(p.message)

    def note(self, message: str) -> None:
        if not self.enabled:
            return
        filled = int(30 * self.fraction)
        line = f"\r[{'#' * filled}{'.' * (30 - filled)}] {100 * self.fraction:5.1f}% {self.stage}: {message}"
        line = line[:100].ljust(len(self.last))
        sys.stderr.write(line)
        sys.stderr.flush()
        self.last = line

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
