"""Engine step generators in a worker thread (napari's pattern): a QObject in a QThread drives a generator (the
analysis, ``engine.analysis.pipeline.analysis_steps``; the report, ``engine.io.report_file.trials_report_steps``), emits
each Progress, and stops at the next yield when cancelled; while numba compiles (a run before the kernels were warmed up), each kernel compiled is reported as
the message of the last Progress. The GUI thread only receives signals; a failed or cancelled run leaves the
shown result alone."""
from __future__ import annotations

import copy
import threading
import traceback
from dataclasses import replace

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine.analysis.pipeline import analysis_steps
from engine.progress import Progress
from engine.warmup import counting_compiles


class _StepRunner(QObject):
    """Runs one generator step to its end in the thread it lives in, then ends that thread's event loop."""

    progress = Signal(object)
    returned = Signal(object)
    failed = Signal(object, str)
    cancelled = Signal()

    def __init__(self, steps, stop: threading.Event):
        super().__init__()
        self._steps = steps
        self._stop = stop

    @Slot()
    def run(self) -> None:
        last = [Progress("preparing", 0.0)]
        here = threading.get_ident()

        def compiling(kernel: str, count: int) -> None:      # a run before the kernels were warmed up
            if threading.get_ident() != here:    # numba's listeners are global: another thread's compile (the muscle
                return                           # kernels loaded after the first window) would re-emit a stale step
            self.progress.emit(replace(last[0], message=f"compiling the kernels, first run only ({count})"))
        try:
            with counting_compiles(compiling):
                self._run(last)
        except Exception as exc:    # every failure reaches the GUI as a message, never a crash
            self.failed.emit(exc, traceback.format_exc())
        finally:
            QThread.currentThread().quit()

    def _run(self, last: list) -> None:
        while True:
            if self._stop.is_set():
                self._steps.close()
                self.cancelled.emit()
                return
            try:
                last[0] = next(self._steps)
            except StopIteration as end:
                self.returned.emit(end.value)
                return
            self.progress.emit(last[0])


class StepsRunner(QObject):
    """Runs one engine step generator at a time in a new thread. Signals: ``started``, ``progress(Progress)``,
    ``returned(value)``, ``failed(exception, details)``, ``cancelled`` and ``ended`` (after any of the last
    three)."""

    started = Signal()
    progress = Signal(object)
    returned = Signal(object)
    failed = Signal(object, str)
    cancelled = Signal()
    ended = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._thread: QThread | None = None
        self._runner: _StepRunner | None = None
        self._stop = threading.Event()

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start_steps(self, steps) -> None:
        """Drive the generator ``steps`` in a new thread."""
        if self.running:
            raise RuntimeError("a run is already going on")
        self._stop = threading.Event()
        self._thread = QThread()
        self._runner = _StepRunner(steps, self._stop)
        self._runner.moveToThread(self._thread)
        self._thread.started.connect(self._runner.run)
        self._runner.progress.connect(self.progress)
        self._runner.returned.connect(self._on_returned)
        self._runner.failed.connect(self._on_failed)
        self._runner.cancelled.connect(self._on_cancelled)
        self._thread.start()
        self.started.emit()

    def cancel(self) -> None:
        """Stop the running steps at their next progress report."""
        self._stop.set()

    def wait(self, ms: int = 30000) -> bool:
        """Block until the thread has ended (for shutdown); True if it did."""
        return self._thread is None or self._thread.wait(ms)

    def _join(self) -> None:
        thread, self._thread = self._thread, None
        thread.wait()
        self._runner.deleteLater()
        thread.deleteLater()
        self._runner = None

    def _on_returned(self, value) -> None:
        self._join()
        self.returned.emit(value)
        self.ended.emit()

    def _on_failed(self, exc, details: str) -> None:
        self._join()
        self.failed.emit(exc, details)
        self.ended.emit()

    def _on_cancelled(self) -> None:
        self._join()
        self.cancelled.emit()
        self.ended.emit()


class AnalysisRunner(StepsRunner):
    """Starts analyses one at a time; besides :class:`StepsRunner`'s signals, ``finished(result, settings)``
    (before ``ended``) for :meth:`start`, ``prepared(value)`` for :meth:`start_with_inputs`."""

    finished = Signal(object, object)
    prepared = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._settings = None
        self._with_inputs = False
        self.returned.connect(self._on_value)

    def _on_value(self, value) -> None:
        if self._with_inputs:
            self.prepared.emit(value)
        else:
            self.finished.emit(value, self._settings)

    def start(self, model, trial, settings) -> None:
        """Analyse ``trial`` with ``model`` and a copy of ``settings`` in a new thread."""
        if self.running:
            raise RuntimeError("an analysis is already running")
        self._settings = copy.deepcopy(settings)
        self._with_inputs = False
        self.start_steps(analysis_steps(model, trial, self._settings))

    def start_with_inputs(self, steps) -> None:
        """Run an analysis that also makes its model and trial (OpenSim setups read, a trial's default model
        fitted): ``steps`` a generator that ends in ``analysis_steps``; its value is emitted by ``prepared``."""
        if self.running:
            raise RuntimeError("an analysis is already running")
        self._with_inputs = True
        self.start_steps(steps)
