"""What happens behind the first window: the engine and the 3D view's libraries are imported and the kernels that
drawing the demo needs warmed up (``engine.warmup.display_steps``: compiled on the first launch, then loaded from
numba's cache) in a background thread, while the GUI thread keeps the first window painted and up to date (so this
module imports nothing of the engine at its top). The analysis's kernels are not waited for: ``hybrid warm-up``
prepares them, else the first analysis compiles them and says so in its progress. Widgets are created only on the
GUI thread, after ``ready``."""
from __future__ import annotations

import html
import sys
import tempfile
import threading
import traceback
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel

from .muscle_kernels import PATHS

PREPARING = ("Preparing the muscle paths (their kernels are not in numba's cache, as on a first launch: they are "
             "compiled once for this computer)...")
"""The status bar while the compile child prepares the muscle paths' kernels the warm-up found missing."""
PREPARING_AFTER_FAILURE = ("Preparing the muscle paths (the warm-up failed: another process loads their kernels from "
                           "numba's cache or compiles those missing)...")
"""The status bar while the compile child prepares them after a failed warm-up, which did not look for them."""


class Startup(QObject):
    """Signals: ``progress(Progress)``, ``compiling(kernel, count)``, ``ready(report)`` (the warm-up's
    ``WarmUpReport``) or ``failed(exception, details)``; each emitted from the background thread."""

    progress = Signal(object)
    compiling = Signal(str, int)
    ready = Signal(object)
    failed = Signal(object, str)

    def __init__(self, defer_muscles=None, first=None):
        super().__init__()
        self.defer_muscles = defer_muscles   # given the demo's result when the muscle paths' kernels are not cached
        self.first = first                   # called first in the background thread (the compile child's launch)

    def start(self) -> None:
        threading.Thread(target=self._run, name="hybridlab-startup", daemon=True).start()

    def _run(self) -> None:
        try:
            if self.first is not None:
                self.first()
            from engine.progress import Progress        # the engine's first import: in this thread
            self.progress.emit(Progress("preparing", 0.0, "loading the engine and the 3D view (NumPy, SciPy, numba, "
                                                           "VTK)"))
            from engine.warmup import display_steps
            steps = display_steps(lambda kernel, count: self.compiling.emit(kernel, count), self.defer_muscles,
                                  _import_main_window)
            while True:
                try:
                    self.progress.emit(next(steps))
                except StopIteration as end:
                    self.ready.emit(end.value)
                    return
        except Exception as exc:       # the window opens anyway; what is drawn compiles what is missing
            self.failed.emit(exc, traceback.format_exc())


def _import_main_window() -> None:
    """Off the GUI thread, while a first launch's child process compiles the 3D view's kernels."""
    from . import main_window  # noqa: F401


class Launcher(QObject):
    """Replaces the first window (``splash``) by the main window on the GUI thread when :class:`Startup` is
    done: ``open_work(window, demo)`` opens what the command line names (``demo``: the demo the warm-up read, or
    None) and returns the problems; with ``screenshot``
    (a path) the window is written there and the application quits with ``code`` (0 written, 1 nothing to show,
    2 not written; the window has settings of its own, :func:`screenshot_settings`). ``note(what)`` is told when the
    main window is shown."""

    def __init__(self, app, splash, open_work, screenshot, size, prog: str, note, muscles=None):
        super().__init__()
        self.app, self.splash, self.open_work, self.screenshot = app, splash, open_work, screenshot
        self.size, self.prog, self.note = size, prog, note
        self.muscles = muscles       # the MusclePreparation of a first launch, or None
        self.code = 0
        self.window = None
        self.failure = None          # the status bar's notice of a failed warm-up (failure_notice)
        self.muscles_failure = None  # its notice that the muscle paths' kernels could not be compiled (muscles_notice)
        self._preparing = PREPARING  # the status bar while the muscle paths are prepared: why
        self._settings_folder = None  # a screenshot's: holds its window's settings (screenshot_settings)

    @Slot(object, str)
    def warm_up_failed(self, exc, details: str) -> None:
        """The warm-up failed (``details``: its traceback): the window opens as without one, its kernels compiled
        where first used, the muscle paths' by the compile child as on a first launch (started now unless the warm-up
        had started it); the status bar says so and why until the application ends, the details a click away."""
        print(f"{self.prog}: the kernels could not be prepared ahead (they compile when first used): {exc}",
              file=sys.stderr)
        if self.muscles is not None and self.muscles.thread is None:
            self.muscles.start(None)
            self._preparing = PREPARING_AFTER_FAILURE
        self.show_main(None)
        self.failure = failure_notice(self.window, exc, details)
        self.window.statusBar().addPermanentWidget(self.failure)

    @Slot(object)
    def show_main(self, report) -> None:
        if self.muscles is not None and self.muscles.thread is None:
            self.muscles.release()      # the 3D view's kernels were loaded from numba's cache: the child ends
        from .main_window import MainWindow
        store = None
        if self.screenshot:
            self._settings_folder = tempfile.TemporaryDirectory(prefix="hybridgui-screenshot-")
            store = screenshot_settings(self._settings_folder.name)
        window = self.window = MainWindow(store)
        sys.excepthook = lambda kind, exc, tb: window.report(exc, "Unexpected error",
                                                             "".join(traceback.format_exception(kind, exc, tb)))
        if window.store.value("geometry") is None:       # a screenshot's window too (screenshot_settings)
            window.resize(*self.size)
        problems = self.open_work(window, None if report is None else report.demo)
        window.show()
        self.splash.close()
        self.note("main window shown")
        muscles = self.muscles
        preparing = muscles is not None and muscles.outcome is None and not PATHS.ready
        if preparing:
            window.statusBar().showMessage(self._preparing)
            muscles.finished.connect(self._muscles_ready)
        elif muscles is not None and muscles.outcome is not None:      # prepared before the window showed
            self._say_muscles(muscles.outcome)
        if not self.screenshot:
            return
        if problems:
            for problem in problems:
                print(f"{self.prog}: {problem}", file=sys.stderr)
            print(f"{self.prog}: no screenshot written", file=sys.stderr)
            self._quit(1)
        elif not preparing:              # else once the muscles are drawn: the picture a user sees
            QTimer.singleShot(300, self._shoot)

    @Slot(object)
    def _muscles_ready(self, outcome) -> None:
        """The muscle paths' kernels were prepared (``outcome``, a ``muscle_kernels.Outcome``): the status bar's note
        replaced by what came of it (:meth:`_say_muscles`)."""
        if self.window.statusBar().currentMessage() == self._preparing:
            self.window.statusBar().clearMessage()
        self._say_muscles(outcome)
        self.note("muscle paths drawn" if outcome.error is None else
                  "muscle paths compiled on first use" if outcome.on_first_use else "muscle paths not drawn")
        if self.screenshot:
            QTimer.singleShot(300, self._shoot)

    def _say_muscles(self, outcome) -> None:
        """The muscles drawn, and the status bar saying it when the window's process compiled their kernels (the
        child's problem); or, when it could not read the demo that types them, a notice that they compile where the
        muscles are first drawn (:func:`first_use_notice`); or, when it could not compile them, a notice that they are
        not drawn; each saying why until the application ends, the details a click away (:func:`muscles_notice`)."""
        window = self.window
        if outcome.on_first_use:
            print(f"{self.prog}: the muscle paths' kernels could not be prepared ahead (they compile when the muscles "
                  f"are first drawn): {outcome.error}", file=sys.stderr)
            self.muscles_failure = first_use_notice(window, outcome)
            window.statusBar().addPermanentWidget(self.muscles_failure)
            window._on_frame(window.document.frame)
            return
        if outcome.error is not None:
            print(f"{self.prog}: the muscle paths' kernels could not be compiled (the muscles are not drawn): "
                  f"{outcome.error}", file=sys.stderr)
            self.muscles_failure = muscles_notice(window, outcome)
            window.statusBar().addPermanentWidget(self.muscles_failure)
            return
        window._on_frame(window.document.frame)
        if outcome.problem:
            window.statusBar().showMessage(f"The muscle paths' kernels were compiled in the window's process: "
                                           f"{outcome.problem.splitlines()[-1]}", 15000)

    def _shoot(self) -> None:
        from .screenshot import save_window
        try:
            save_window(self.window, self.screenshot)
        except Exception as exc:
            print(f"{self.prog}: cannot write the screenshot: {exc}", file=sys.stderr)
            self._quit(2)
            return
        doc = self.window.document
        print(f"{self.prog}: wrote {self.screenshot} at {doc.current_time:.6f} s (frame {doc.frame + 1} of "
              f"{doc.n_frames})")
        self._quit(0)

    def _quit(self, code: int) -> None:
        self.code = code
        self.window.close()
        if self._settings_folder is not None:
            self.window.store.sync()         # written now, so that nothing is left to write into the folder removed
            self._settings_folder.cleanup()
        self.app.exit(code)


WARM_UP_FAILED = "The warm-up failed"
"""The title of a failed warm-up's details (:func:`failure_notice`)."""


def failure_notice(window, exc, details: str) -> QLabel:
    """The status bar's notice that the warm-up failed, saying why, with a link to ``details`` (its traceback, shown
    by ``window.report`` as every error is)."""
    return _notice(window, WARM_UP_FAILED, exc, details, "the kernels compile when first used",
                   "The numerical kernels could not be prepared ahead: the 3D view's compile as they are first drawn, "
                   "the analysis's during the first analysis (its progress says so).")


MUSCLES_FAILED = "The muscle paths' kernels could not be compiled"
"""The title of the details of muscle paths' kernels that could not be compiled (:func:`muscles_notice`)."""


def muscles_notice(window, outcome) -> QLabel:
    """The status bar's notice that the muscle paths' kernels could be neither loaded nor compiled (``outcome``, a
    ``muscle_kernels.Outcome`` with its error), saying why and that the window works without the muscles, with a
    link to its details (the traceback)."""
    return _notice(window, MUSCLES_FAILED, outcome.error, outcome.details,
                   "the muscles are not drawn, the rest of the window works",
                   "Neither the compile process nor the window's could load the muscle paths' kernels from numba's "
                   "cache or compile them: the 3D view draws everything but the muscles until the application is "
                   "started again.")


MUSCLES_ON_FIRST_USE = "The muscle paths' kernels could not be prepared ahead"
"""The title of the details of muscle paths' kernels left to compile where first drawn (:func:`first_use_notice`)."""


def first_use_notice(window, outcome) -> QLabel:
    """The status bar's notice that the muscle paths' kernels could be neither loaded nor compiled ahead because the
    demo that types them could not be read (``outcome``, a ``muscle_kernels.Outcome`` with ``on_first_use``): they
    compile when the muscles are first drawn, for the model opened (the window pauses then), with a link to the
    details (the traceback)."""
    return _notice(window, MUSCLES_ON_FIRST_USE, outcome.error, outcome.details,
                   "they compile when the muscles are first drawn (the window pauses then)",
                   "The demo, whose model types the muscle paths' kernels, could not be read: they are compiled for "
                   "the model opened when its muscles are first drawn, which holds the window for up to a minute "
                   "once.")


def _notice(window, title: str, exc, details: str, consequence: str, tooltip: str) -> QLabel:
    """A status bar's notice: ``title`` (``exc``): ``consequence``, with a link to ``details`` (a traceback, shown by
    ``window.report`` under ``title`` as every error is), ``tooltip`` saying more."""
    notice = QLabel(f"{title} ({html.escape(f'{type(exc).__name__}: {exc}')}): {consequence}. "
                    "<a href='details'>Details...</a>")
    notice.setToolTip(tooltip)
    notice.linkActivated.connect(lambda _: window.report(exc, title, details))
    return notice


def screenshot_settings(folder) -> QSettings:
    """The settings of a screenshot's window, in a file of ``folder``: the user's preferences (mesh folders, the C3D
    reader's time) copied, not the remembered layout and geometry (``main_window.LAYOUT``): the picture shows the
    default layout, and what the window writes (its layout when it closes, a session opened among the recent files)
    stays out of the user's settings."""
    from .main_window import LAYOUT, user_settings
    user = user_settings()
    own = QSettings(str(Path(folder) / "HybridLab.ini"), QSettings.Format.IniFormat)
    for key in user.allKeys():
        if key not in LAYOUT:
            own.setValue(key, user.value(key))
    return own
