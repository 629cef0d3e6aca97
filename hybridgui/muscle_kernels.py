"""Whether the 3D view may draw muscle paths yet, and their kernels compiled in a child process on a first launch.

Drawing the muscle paths calls 65 of the 3D view's 82 numba kernels: compiled in the window's process they would
hold its GIL (numba compiles mostly in Python) for half a minute of CPU. On a first launch (numba's cache empty:
``engine.warmup.display_steps`` finds them missing) :class:`MusclePreparation` compiles them in a child process
instead, after the bodies' and the blade's (which the window's process loads from the cache once it has imported
its main window's modules), so the two use both cores and the GUI thread stays free; the
window shows the bodies meanwhile, the muscle layer draws nothing (:data:`PATHS`) and the status bar says why. When
the child ends the kernels are loaded from the cache it filled (in a worker thread: compiled there if the child
could not), :data:`PATHS` becomes ready on the GUI thread and the muscles appear. Closing the application kills the
child (``cancel``), and the child dies with the application (``engine.child_process``).
"""
from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QObject, Signal as QtSignal, Slot

CHILD = ("-c", "from engine.child_process import die_with_parent; die_with_parent(); "
               "from engine.warmup import compile_muscle_paths; compile_muscle_paths()")
"""The child's Python arguments: compile the 3D view's kernels into numba's cache (bodies', blade's, then muscle
paths')."""


class PathKernels:
    """``ready``: the muscle paths' kernels can be called without compiling them on the GUI thread (true unless a
    first launch is compiling them); it becomes true on the GUI thread, before ``MusclePreparation.finished``."""

    def __init__(self):
        self.ready = True


PATHS = PathKernels()


class MusclePreparation(QObject):
    """Compiles the muscle paths' kernels in a child process (:meth:`start`, from any thread), then loads them in
    a worker thread and makes :data:`PATHS` ready on the GUI thread (create this object there). ``finished(problem)``
    ("" when the child compiled them) follows, on the GUI thread. ``command``: the child's command line (tests)."""

    finished = QtSignal(str)
    _done = QtSignal(str)

    def __init__(self, command: list[str] | None = None):
        super().__init__()
        self.command = command
        self.cancelled = threading.Event()
        self.thread: threading.Thread | None = None
        self.child_ended = threading.Event()
        self._done.connect(self._finish)

    def start(self, result):
        """Start compiling (``result``: the demo's AnalysisResult, whose model types the kernels); the muscles are
        not drawn until they are loaded. Returns a callable telling whether the child still runs (its bodies' and
        blade's kernels are awaited by ``engine.warmup.display_steps``)."""
        PATHS.ready = False
        self.thread = threading.Thread(target=self._run, args=(result,), name="hybridlab-muscle-kernels", daemon=True)
        self.thread.start()
        return lambda: not self.child_ended.is_set()

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def cancel(self) -> None:
        """Stop: the child is killed within 0.1 s and nothing more is loaded or compiled."""
        self.cancelled.set()

    def _run(self, result) -> None:
        from engine.child_process import Cancelled, child_environment, python_command, run_child
        from engine.warmup import compile_muscle_paths, muscle_paths_cached
        problem = ""
        try:
            done = run_child(self.command or python_command(*CHILD), env=child_environment(), cancel=self.cancelled)
            if done.returncode != 0:
                problem = (f"the process compiling them ended with status {done.returncode}: "
                           f"{done.stderr.decode(errors='replace').strip()[-500:]}")
        except Cancelled:
            return
        except Exception as exc:
            problem = f"the process compiling them could not run: {exc}"
        finally:
            self.child_ended.set()
        if self.cancelled.is_set():
            return
        try:
            if not muscle_paths_cached(result):     # the child failed, or could not write numba's cache
                compile_muscle_paths(result)
        except Exception:
            problem = traceback.format_exc()
        self._done.emit(problem)

    @Slot(str)
    def _finish(self, problem: str) -> None:
        PATHS.ready = True
        self.finished.emit(problem)
