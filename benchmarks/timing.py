"""Wall-clock timing shared by the benchmarks."""
from __future__ import annotations

import time


def cpu_timings(fn, repeats: int) -> list[float]:
    """CPU seconds of this process (all its threads) in each of ``repeats`` calls of ``fn`` after one warm-up call:
    on a machine shared with other processes, a single-threaded step's figure that their load does not inflate."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return times


def timings(fn, repeats: int) -> list[float]:
    """Seconds of ``repeats`` calls of ``fn`` after one warm-up call (which compiles and fills caches)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times
