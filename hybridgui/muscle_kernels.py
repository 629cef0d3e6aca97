"""Whether the 3D view may draw muscle paths yet, and the 3D view's kernels compiled in child processes on a first
launch.

Drawing the demo compiles 81 numba kernels (64 of them for the muscle paths; numba 0.68): compiled in the window's process they
would hold its GIL (numba compiles mostly in Python) for most of a minute of CPU. :class:`MusclePreparation`
starts a compile child as soon as the first window is shown (:meth:`MusclePreparation.launch`, the startup thread's
first step, before the window's process reads anything). When the kernels are in numba's cache the child waits for the window's process, which loads
them from there to draw and so checks them anyway, and ends when told that they all were (:meth:`MusclePreparation.release`,
its standard input closed); on a first launch, or when the window's process finds one missing
(:meth:`MusclePreparation.start`), it compiles them with a helper of its own, the two sharing both cores (``engine.warmup.compile_display``: the bodies' and the blade's first, which the
window's process loads from the cache once it has imported its main window's modules, then the muscle paths'). The
window shows the bodies meanwhile, the muscle layer draws nothing (:data:`PATHS`) and the status bar says why. When
the child ends the kernels are loaded from the cache it filled (in a worker thread: compiled there if the child
could not), :data:`PATHS` becomes ready on the GUI thread and the muscles appear; when the worker cannot compile them
either, :data:`PATHS` stays not ready (the muscles are not drawn, the rest of the window works) and :class:`Outcome`
says why. When it cannot read the demo that types them (after a failed warm-up, which may have failed on it),
:data:`PATHS` becomes ready all the same: they compile where first drawn, for the model the user opens (a pause
then), and :class:`Outcome` says why. Closing the application kills the child (``cancel``), and the children die with the
application (``engine.child_process``).
"""
from __future__ import annotations

import subprocess
import tempfile
import threading
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal as QtSignal, Slot

CHILD = ("-c", "from engine.child_process import die_with_parent; die_with_parent(); "
               "from engine.warmup import compile_display, told_to_compile; compile_display(needed=told_to_compile)")
"""The child's Python arguments: compile the 3D view's kernels into numba's cache unless they are there (the window's
process says so on the child's standard input when the general joint's kernel is cached)."""


class PathKernels:
    """``ready``: the muscle paths' kernels can be called without compiling them on the GUI thread (true unless a
    first launch is compiling them, or they could not be compiled); it becomes true on the GUI thread, before
    ``MusclePreparation.finished``."""

    def __init__(self):
        self.ready = True


PATHS = PathKernels()


@dataclass(frozen=True)
class Outcome:
    """How the muscle paths' kernels were prepared: ``problem`` why the compile child did not prepare them ("": it
    did); ``error`` the exception that kept the window's process from loading them from numba's cache or compiling
    them itself (None: loaded, the muscles drawn; else they are not, unless ``on_first_use``), ``details`` its
    traceback, after the child's problem if any; ``on_first_use`` when ``error`` is the demo's reading, not compiling:
    the kernels compile where the muscles are first drawn (:data:`PATHS` ready)."""

    problem: str = ""
    error: Exception | None = None
    details: str = ""
    on_first_use: bool = False


class MusclePreparation(QObject):
    """Starts the compile child (:meth:`launch`), waits for it and loads the muscle paths' kernels in a worker thread
    once :meth:`start` is called, then makes :data:`PATHS` ready on the GUI thread (create this object there) unless
    they could be neither loaded nor compiled. ``finished(outcome)`` (an :class:`Outcome`, kept as ``outcome``;
    None until then) follows, on the GUI thread. ``command``: the child's command line (tests; default
    :data:`CHILD`)."""

    finished = QtSignal(object)
    _done = QtSignal(object)

    def __init__(self, command: list[str] | None = None):
        super().__init__()
        self.command = command
        self.cancelled = threading.Event()
        self.thread: threading.Thread | None = None
        self.child_ended = threading.Event()
        self._child = None               # the child's Popen, or the exception that kept it from starting
        self._lock = threading.Lock()    # launch (startup thread) and cancel (GUI thread): one of them kills the child
        self._stderr = None
        self.outcome: Outcome | None = None
        self._done.connect(self._finish)

    def launch(self) -> None:
        """Start the compile child now, unless cancelled (this imports the engine package: numba, about 0.5 CPU-s, so
        it is called from the startup thread, not the GUI thread; nothing of the demo is read). A :meth:`cancel` while
        the child is being started kills it here once started."""
        if self.cancelled.is_set():
            return
        from engine.child_process import child_environment, python_command, start_child
        self._stderr = tempfile.TemporaryFile()
        try:
            child = start_child(self.command or python_command(*CHILD), env=child_environment(), capture=False,
                                stderr=self._stderr, stdin=subprocess.PIPE)
        except Exception as exc:       # said by _run, where the kernels are then compiled in this process
            child = exc
        with self._lock:
            self._child = child
            cancelled = self.cancelled.is_set()      # cancel ran meanwhile and found no child to kill
        if cancelled and not isinstance(child, Exception):
            child.kill()
            child.wait()

    def start(self, result):
        """The kernels are not all cached, or the warm-up that would have told failed (``result``: the demo's
        AnalysisResult, whose model types them; None: read here, in the worker thread): the muscles are not drawn until
        the child has ended and they are loaded (the child is launched now if it was not). Returns a callable telling whether the child still runs (its bodies' and blade's kernels are awaited
        by ``engine.warmup.display_steps``)."""
        PATHS.ready = False
        if self._child is None:
            self.launch()
        if self._piped():       # unless it found the general joint's kernel missing, the child waits for this word
            from engine.warmup import COMPILE
            try:
                self._child.stdin.write(COMPILE)
                self._child.stdin.flush()
            except OSError:             # the child has ended: its status says why (``_run``)
                pass
        self.thread = threading.Thread(target=self._run, args=(result,), name="hybridlab-muscle-kernels", daemon=True)
        self.thread.start()
        return lambda: not self.child_ended.is_set()

    def release(self) -> None:
        """The 3D view's kernels were all found in numba's cache (:meth:`start` was not called): the child, waiting for
        that word on a launch that is not the first, ends (its standard input closed)."""
        if self._piped():
            self._child.stdin.close()

    def _piped(self) -> bool:
        """Whether the child runs with its standard input still open."""
        child = self._child
        return child is not None and not isinstance(child, Exception) and child.stdin is not None \
            and not child.stdin.closed

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def cancel(self) -> None:
        """Stop: the child is killed (within 0.1 s while :meth:`start`'s thread waits for it) and nothing more is
        loaded or compiled (a child :meth:`launch` is still starting is killed there once started)."""
        with self._lock:
            self.cancelled.set()
            child = self._child
        if not self.running and child is not None and not isinstance(child, Exception):
            if child.poll() is None:
                child.kill()
            child.wait()

    def _run(self, result) -> None:
        from engine.child_process import Cancelled, wait_child
        from engine.warmup import compile_muscle_paths, muscle_paths_cached
        problem = ""
        try:
            if isinstance(self._child, Exception):
                raise self._child
            code = wait_child(self._child, cancel=self.cancelled).returncode
            if code != 0:
                self._stderr.seek(0)
                problem = (f"the process compiling them ended with status {code}: "
                           f"{self._stderr.read().decode(errors='replace').strip()[-500:]}")
        except Cancelled:
            return
        except Exception as exc:
            problem = f"the process compiling them could not run: {exc}"
        finally:
            self.child_ended.set()
        if self.cancelled.is_set():
            return
        before = f"The compile child did not prepare them: {problem}\n\nNor did this process:\n" if problem else ""
        if result is None:
            try:
                from engine.demo import demo_results
                result = demo_results()[0]
            except Exception as exc:        # nothing to type the kernels with: compiled where first drawn
                self._done.emit(Outcome(problem, exc, before + traceback.format_exc(), on_first_use=True))
                return
        try:
            if not muscle_paths_cached(result):     # the child failed, or could not write numba's cache
                compile_muscle_paths(result)
        except Exception as exc:
            self._done.emit(Outcome(problem, exc, before + traceback.format_exc()))
            return
        self._done.emit(Outcome(problem))

    @Slot(object)
    def _finish(self, outcome: Outcome) -> None:
        PATHS.ready = outcome.error is None or outcome.on_first_use
        self.outcome = outcome
        self.finished.emit(outcome)
