"""``hybridgui``: start the application on the demo (with its results), on files, or on a session; or render the
window to a PNG and exit (``--screenshot``), which works without a screen. ``--screenshot`` writes nothing and
exits with status 1 when what it should show cannot be opened or ``--time`` lies outside the frames; otherwise
it prints the file written and the time shown.

Without a display the Qt offscreen platform is used and the 3D view renders off screen (EGL); on a display
the 3D view is an interactive OpenGL widget.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback

SIZE = (1600, 1000)


def build_parser(prog: str = "hybridgui") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="HybridLab: motion analysis of athletes on flexible "
                                     "sport prostheses. Without arguments it opens the demo with its results.")
    parser.add_argument("files", nargs="*", help="model (.osim, .yaml), trial (.c3d, .trc with its loads .xml and "
                                                  "GRF .mot), session (.hls) or results (.hlr) files to open")
    parser.add_argument("--session", help="open this session file")
    parser.add_argument("--time", type=float, help="go to this time, s")
    parser.add_argument("--screenshot", metavar="FILE.png", help="render the whole window to FILE.png and exit")
    return parser


def prepare_environment(screenshot: bool) -> None:
    """Choose the Qt platform and VTK's OpenGL window before either starts: without any display, Qt's offscreen
    platform and VTK's EGL window (Mesa's surfaceless platform)."""
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if headless and (screenshot or not os.environ.get("QT_QPA_PLATFORM")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if headless:
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
        os.environ.setdefault("EGL_PLATFORM", "surfaceless")


def _open(window, args) -> list[str]:
    """Open what the command line names and go to ``--time``; returns the problems (one sentence each, also
    shown in the window), none when everything was done."""
    reported = len(window.reported)
    if args.session:
        window.attempt("Cannot open the session", window.open_session, args.session)
    elif args.files:
        window.open_paths(args.files)
    else:
        window.attempt("Cannot open the demo", window.open_demo)
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


def main(argv=None, prog: str = "hybridgui") -> int:
    """Run the application; returns the exit status."""
    args = build_parser(prog).parse_args(argv)
    prepare_environment(bool(args.screenshot))
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .screenshot import save_window
    app = QApplication.instance() or QApplication([prog])
    app.setOrganizationName("HybridLab")
    app.setApplicationName("HybridLab")
    window = MainWindow()
    sys.excepthook = lambda kind, exc, tb: window.report(exc, "Unexpected error",
                                                         "".join(traceback.format_exception(kind, exc, tb)))
    if args.screenshot:
        window.resize(*SIZE)
    elif window.store.value("geometry") is None:
        window.resize(*SIZE)
    problems = _open(window, args)
    window.show()
    if not args.screenshot:
        return app.exec()
    if problems:
        for problem in problems:
            print(f"{prog}: {problem}", file=sys.stderr)
        print(f"{prog}: no screenshot written", file=sys.stderr)
        window.close()
        return 1
    status = {"code": 0}

    def shoot():
        try:
            save_window(window, args.screenshot)
            doc = window.document
            print(f"{prog}: wrote {args.screenshot} at {doc.current_time:.6f} s (frame {doc.frame + 1} of "
                  f"{doc.n_frames})")
        except Exception as exc:
            print(f"{prog}: cannot write the screenshot: {exc}", file=sys.stderr)
            status["code"] = 2
        window.close()
        app.exit(status["code"])

    QTimer.singleShot(300, shoot)
    app.exec()
    return status["code"]


if __name__ == "__main__":
    sys.exit(main())
