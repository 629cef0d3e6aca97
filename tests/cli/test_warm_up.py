"""The warm-up compiles every kernel the application's first window and the analysis use, and numba's on-disk cache
keeps them: after it, an analysis compiles nothing, and a later process (``hybrid warm-up`` again, as a later
launch) loads every kernel from the cache."""
import subprocess
import sys
import threading
from dataclasses import replace

import numba
import pytest

from engine.analysis.pipeline import analysis_steps
from engine.progress import run
from engine.demo import demo_results
from engine import warmup
from engine.warmup import _show_demo, counting_compiles, loads_cached, warm_up_steps


@numba.njit
def _twice(x):
    return 2 * x


def test_compiles_are_counted():
    seen = []
    with counting_compiles(lambda kernel, count: seen.append((kernel, count))) as compiled:
        assert _twice(2.0) == 4.0
    assert compiled == [f"{__name__}._twice"] and seen == [(compiled[0], 1)]


def test_after_the_warm_up_nothing_compiles_again():
    progress = []
    report = run(warm_up_steps(), progress.append)
    fractions = [p.fraction for p in progress]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    result, settings = demo_results()
    t0 = float(result.trial.markers.time[0])
    settings = replace(settings, ik=replace(settings.ik, start=t0 + 0.2, end=t0 + 0.5))
    with counting_compiles() as compiled:         # another stretch of the trial, and what the 3D view computes
        run(analysis_steps(result.model, result.trial, settings))
        _show_demo(result)
    assert compiled == [], compiled
    later = subprocess.run([sys.executable, "-m", "engine.cli.main", "warm-up", "--quiet"], capture_output=True,
                           text=True, timeout=600)
    assert later.returncode == 0, later.stderr
    assert "every kernel was in numba's cache" in later.stdout, (later.stdout, report.compiled)


def test_loads_cached_refuses_this_threads_compiles_only():
    @numba.njit
    def here(x):
        return x + 1.0

    @numba.njit
    def elsewhere(x):
        return x * 2.0

    assert not loads_cached(lambda: here(1.0)) and here.signatures == []     # stopped before compiling
    assert here(1.0) == 2.0 and loads_cached(lambda: here(3.0))               # compiled now: runs
    other = threading.Thread(target=elsewhere, args=(1.0,))
    assert loads_cached(lambda: (other.start(), other.join())) and elsewhere.signatures != []


def test_refused_compiles_are_not_counted():
    @numba.njit
    def refused(x):
        return x - 1.0

    seen = []
    with counting_compiles(lambda kernel, count: seen.append(kernel)) as compiled:
        assert not any(loads_cached(lambda: refused(1.0)) for _ in range(3))
        assert refused.signatures == [] and compiled == [] and seen == []
        assert refused(1.0) == 0.0                  # compiled now: counted once
    assert compiled == seen == [f"{__name__}.{refused.py_func.__qualname__}"]


def test_the_first_window_leaves_uncached_muscle_paths_to_its_caller(monkeypatch):
    monkeypatch.setattr(warmup, "muscle_paths_cached", lambda result: False)
    monkeypatch.setattr(warmup, "POLL", 0.01)
    looks = []

    def drawing_cached(work):     # the child has cached the bodies' and the blade's kernels at the third look
        looks.append("look")
        return looks.count("look") >= 3

    monkeypatch.setattr(warmup, "loads_cached", drawing_cached)
    deferred = []
    report = run(warmup.display_steps(defer_muscles=lambda result: deferred.append(result) or (lambda: True),
                                      meanwhile=lambda: looks.append("meanwhile")))
    assert deferred == [report.demo[0]]                   # left to the caller's child, with the demo's result
    assert looks == ["meanwhile", "look", "look", "look"]   # the caller's work, then awaited, not compiled beside it


def test_the_compile_child_of_a_later_launch_leaves_the_check_to_the_window(monkeypatch):
    """With the general joint's kernel in numba's cache, the compile child asks the window's process (which loads the
    3D view's kernels to draw, and so checks them) whether anything is missing: told no, it ends without reading the
    demo; told yes, it reads the demo to check and compile."""
    from engine.algorithms.joint_kernels import compile_joint_kernel
    from engine import demo

    compile_joint_kernel("general")             # compiled (and written to numba's cache) or loaded from it
    assert warmup.general_kernel_indexed()

    def read_demo():
        raise LookupError("the demo was read")

    monkeypatch.setattr(demo, "demo_results", read_demo)
    asked = []
    warmup.compile_display(needed=lambda: asked.append("asked") or False)
    assert asked == ["asked"]
    with pytest.raises(LookupError, match="the demo was read"):
        warmup.compile_display(needed=lambda: True)


def test_the_compile_child_is_told_by_one_line_or_by_the_end_of_its_input():
    told = "from engine.warmup import told_to_compile; print(told_to_compile())"
    for given, answer in ((warmup.COMPILE, "True"), (b"", "False"), (b"something else\n", "False")):
        done = subprocess.run([sys.executable, "-c", told], input=given, capture_output=True, timeout=120)
        assert done.stdout.decode().strip() == answer, done.stderr.decode()[-2000:]


def test_a_cache_written_from_other_sources_is_not_taken_for_a_later_launch(monkeypatch):
    from engine.algorithms.joint_kernels import compile_joint_kernel, joint_kernel

    compile_joint_kernel("general")
    assert warmup.general_kernel_indexed()
    monkeypatch.setattr(joint_kernel("general")._cache._cache_file, "_source_stamp", "another tree's sources")
    assert not warmup.general_kernel_indexed()
