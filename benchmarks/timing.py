"""Wall-clock timing shared by the benchmarks."""
from __future__ import annotations

import time


def timings(fn, repeats: int) -> list[float]:
    """Seconds of ``repeats`` calls of ``fn`` after one warm-up call (which compiles and fills caches)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times
