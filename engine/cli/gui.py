"""``hybrid gui``: start the desktop application (``hybridgui``) with the same arguments.

The application (PySide6, VTK) runs in a child process (``python -m hybridgui``), so the engine never imports
it and the rest of the command line works without a display or the GUI libraries. ``hybrid`` hands every
argument after ``gui`` to the application, which parses them itself (``hybrid gui --help`` shows them).
"""
from __future__ import annotations

import subprocess

from ..child_process import child_environment, python_command


def add_parser(sub) -> None:
    sub.add_parser("gui", add_help=False, help="start the desktop application (see 'hybrid gui --help')",
                   description="Start the HybridLab desktop application; arguments are the application's.")


def main(argv) -> int:
    """Run the application with ``argv`` (the arguments after ``gui``); returns its exit status."""
    return subprocess.call(python_command("-m", "hybridgui", *argv), env=child_environment())
