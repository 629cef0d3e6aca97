"""The worker thread's progress (hybridgui.worker.StepsRunner): numba's compile listeners are global to the process,
so a kernel compiled in another thread while a run is going on (the muscle kernels loaded after the first window)
must not be reported as the run's: it would re-emit a step the run has already passed, and progress went backwards
(the report's bar, 0.12525 then 0.1215)."""
from __future__ import annotations

import threading

import numba

from engine.progress import Progress
from hybridgui.worker import StepsRunner


def test_another_threads_compile_is_not_reported_as_the_runs_progress(qtbot):
    compiled = threading.Event()
    reached = threading.Event()

    def other_thread():
        reached.wait(10)

        @numba.njit(cache=False)
        def fresh(x):                  # a new function: numba compiles it in this thread
            return x + 1

        fresh(1)
        compiled.set()

    def steps():
        yield Progress("first", 0.1, "one")
        reached.set()
        compiled.wait(30)
        yield Progress("second", 0.2, "two")
        return "done"

    runner = StepsRunner()
    seen = []
    runner.progress.connect(lambda p: seen.append((p.fraction, p.message)))
    thread = threading.Thread(target=other_thread)
    thread.start()
    with qtbot.waitSignal(runner.ended, timeout=60_000):
        runner.start_steps(steps())
    thread.join(10)
    assert compiled.is_set()
    assert seen == [(0.1, "one"), (0.2, "two")]
