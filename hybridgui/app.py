"""``hybridgui``: start the application on the demo (with its results), on files, or on a session; or render the
window to a PNG and exit (``--screenshot``), which works without a screen. ``--screenshot`` writes nothing and
exits with status 1 when what it should show cannot be opened or ``--time`` lies outside the frames; otherwise
it prints the file written and the time shown.

Without a display the Qt offscreen platform is used and the 3D view renders off screen (EGL); on a display
the 3D view is an interactive OpenGL widget.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time

from . import system_libraries

SIZE = (1600, 1000)


def build_parser(prog: str = "hybridgui") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="HybridLab: motion analysis of athletes on flexible "
                                     "sport prostheses. Without arguments it opens the demo with its results.")
    parser.add_argument("files", nargs="*", help="model (.osim, .yaml), trial (.c3d, .trc with its loads .xml and "
                                                  "GRF .mot), session (.hls) or results (.hlr) files to open")
    parser.add_argument("--session", help="open this session file")
    parser.add_argument("--time", type=float, help="go to this time, s")
    parser.add_argument("--screenshot", metavar="FILE.png", help="render the whole window to FILE.png and exit")
    parser.add_argument("--print-startup", action="store_true", help="print a line when the first window and the "
                        "main window are shown (for benchmarks/bench_first_launch.py)")
    return parser


def prepare_environment(screenshot: bool) -> None:
    """Choose the Qt platform and VTK's OpenGL window before either starts: without any display, Qt's offscreen
    platform and VTK's EGL window (Mesa's surfaceless platform); and numba's plain error messages (before numba is
    imported; the child processes inherit them)."""
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if headless and (screenshot or not os.environ.get("QT_QPA_PLATFORM")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # numba formats an error message for every overload it tries while typing a kernel, wrapping the terminal's
    # streams with colorama (pyqtgraph installs it) each time unless told not to: 7% of a first launch's compiling
    os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
    if headless:
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
        os.environ.setdefault("EGL_PLATFORM", "surfaceless")


def _open(window, args, demo=None) -> list[str]:
    """Open what the command line names (without names, the demo: ``demo`` its ``(result, settings)`` if already
    read) and go to ``--time``; returns the problems (one sentence each, also shown in the window), none when
    everything was done."""
    reported = len(window.reported)
    if args.session:
        window.attempt("Cannot open the session", window.open_session, args.session)
    elif args.files:
        window.open_paths(args.files)
    else:
        window.attempt("Cannot open the demo", window.open_demo, demo)
    problems = window.reported[reported:]
    if args.time is not None:
        doc = window.document
        if not doc.n_frames:
            problems.append(f"--time {args.time:g} s: nothing is open")
        elif not doc.time[0] <= args.time <= doc.time[-1]:
            problems.append(f"--time {args.time:g} s lies outside the frames shown ({doc.time[0]:g} to "
                            f"{doc.time[-1]:g} s); the time is not changed")
            window.statusBar().showMessage(problems[-1], 15000)
        else:
            doc.set_time(args.time)
    return problems


def _note(args, what: str) -> None:
    """``--print-startup``: say on stdout that ``what`` happened and the CPU seconds this process (all its threads,
    not its children) used until then (read by benchmarks/bench_first_launch.py)."""
    if args.print_startup:
        print(f"startup: {what} (cpu {time.process_time():.2f} s)", flush=True)


def _shown(app, args, what: str) -> None:
    """Told by the launcher on the GUI thread (``what``, as :func:`_note`): once the main window is shown, the cycle
    collector runs there on a timer (its modules were imported with the main window's)."""
    if what == "main window shown" and not hasattr(app, "cycle_collector"):
        from pyqtgraph.util.garbage_collector import GarbageCollector
        app.cycle_collector = GarbageCollector(interval=0.5)   # kept alive until the application ends
    _note(args, what)


def main(argv=None, prog: str = "hybridgui") -> int:
    """Run the application; returns the exit status. The system libraries Qt needs are checked first (a missing
    one ends with the line that installs it); then the first window shows while the engine is loaded and its
    kernels warmed up (``startup``), and the main window replaces it."""
    args = build_parser(prog).parse_args(argv)
    prepare_environment(bool(args.screenshot))
    problem = system_libraries.check()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    # Python's cycle collector runs on the GUI thread only, on a timer (pyqtgraph's GarbageCollector, from when the
    # main window shows, _shown): run by a worker thread (the analysis allocates there), it would destroy the Qt objects
    # of a closed window in that thread and deadlock or crash Qt. Until then it does not run: its passes over what the
    # startup imports cost about a tenth of the warm first window's processor time.
    gc.disable()
    from PySide6.QtWidgets import QApplication

    from .muscle_kernels import MusclePreparation
    from .splash import Splash
    from .startup import Launcher, Startup
    app = QApplication.instance() or QApplication([prog])
    app.setOrganizationName("HybridLab")
    app.setApplicationName("HybridLab")
    splash = Splash()
    splash.show()
    app.processEvents()
    _note(args, "first window shown")
    muscles = MusclePreparation()    # its child compiles the 3D view's kernels on a first launch, else ends at once
    app.aboutToQuit.connect(muscles.cancel)
    launcher = Launcher(app, splash, lambda window, demo: _open(window, args, demo), args.screenshot, SIZE, prog,
                        lambda what: _shown(app, args, what), muscles)
    startup = Startup(muscles.start, muscles.launch)   # the child launched first, before anything is read
    startup.progress.connect(splash.report)
    startup.compiling.connect(splash.compiling)
    startup.ready.connect(launcher.show_main)
    startup.failed.connect(launcher.warm_up_failed)
    startup.start()
    code = app.exec()
    return launcher.code if args.screenshot else code


if __name__ == "__main__":
    sys.exit(main())
