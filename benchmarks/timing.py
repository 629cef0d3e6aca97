"""Timing shared by the benchmarks: wall-clock, or CPU seconds of this process."""
from __future__ import annotations

import time


def timings(fn, repeats: int, clock=time.perf_counter) -> list[float]:
    """Seconds of ``repeats`` calls of ``fn`` after one warm-up call (which compiles and fills caches), by ``clock``."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return times


def cpu_timings(fn, repeats: int) -> list[float]:
    """CPU seconds of this process (all its threads) in each of ``repeats`` calls of ``fn`` after one warm-up call:
    on a machine shared with other processes, a single-threaded step's figure that their load does not inflate."""
    return timings(fn, repeats, clock=time.process_time)


def paired_timings(fn, repeats: int) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds of this process) of each of ``repeats`` calls of ``fn`` after one warm-up call, both
    clocks read around the same call."""
    fn()
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu
