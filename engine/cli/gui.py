"""``hybrid gui``: start the desktop application (``hybridgui``) with the same arguments.

The application (PySide6, VTK) is imported only when this command runs, so the rest of the
command line works without a display or the GUI libraries. ``hybrid`` hands every argument after
``gui`` to the application, which parses them itself (``hybrid gui --help`` shows them).
"""
from __future__ import annotations


def add_parser(sub) -> None:
    sub.add_parser("gui", add_help=False, help="start the desktop application (see 'hybrid gui --help')",
                   description="Start the HybridLab desktop application; arguments are the application's.")


def main(argv) -> int:
    """Run the application with ``argv`` (the arguments after ``gui``); returns its exit status."""
    from hybridgui.app import main as app_main
    return app_main(list(argv), prog="hybrid gui")
