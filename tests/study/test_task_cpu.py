"""A trial's ``cpu_seconds`` is its own processor time (``engine.work_cpu``), not its worker process's: on a worker
of two threads running two trials at once each reports about what the same trial reports alone; a helper thread's
share and the C3D reader process's are counted."""
import gc
import resource
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from distributed import Client, LocalCluster

from engine.io.c3d import read_c3d
from engine.work_cpu import counted, work_cpu
from tests.study.walk_study import walk_loads, walk_study
from study.description import load_study
from study.tasks import analyse_trial

ROOT = Path(__file__).resolve().parents[2]
BARRIER_GUARD = 60.0
"""Seconds the two trials wait for each other at most (a guard against a hang, not a measure)."""
_together = threading.Barrier(2)


def _walk(folder: Path, test_data):
    """A gait2354 walk (0.5-0.7 s, its plates' loads) with OpenSim's subject01 model."""
    extra = walk_loads(test_data) + "        settings: {start: 0.5, end: 0.7}\n"
    return load_study(walk_study(folder, test_data, extra)).trials[0]


def _timed(trial, folder, together: bool) -> dict:
    """``analyse_trial`` of ``trial`` (its model read anew) into ``folder``, started with the other such task when
    ``together``; the outcome with the trial's wall interval and the worker process's processor time over it."""
    if together:
        _together.wait(BARRIER_GUARD)
    start, process = time.perf_counter(), time.process_time()
    outcome = analyse_trial(trial, str(trial.file).replace("walk1.trc", "simbody.osim"), folder, "fp", models=None)
    return {**outcome, "interval": (start, time.perf_counter()), "process_cpu": time.process_time() - process}


def test_two_trials_at_once_on_a_two_thread_worker_each_report_their_own_processor_time(test_data, tmp_path):
    """Alone, the trial reports L (the least of three runs, after a warming one). Two copies started together on a
    worker of two threads overlap (each ran at least half its time beside the other), and the worker process spent
    over 1.6 L over each (the old measure: both trials, and Dask's threads); each reports its own, within 0.6-1.6 L.
    Measured on this shared 2-core VM (8 pairs, load 5-7): lone runs 0.155-0.19 s, each of a pair 1.0-1.42 L (the
    other trial's contention for the caches and cores), the process's time over each 2.9-3.2 L. Python's garbage
    collector is off while the trials run: a full collection of the process's objects (about 0.15 s) is done by
    whichever thread triggers it, and counted to that trial (1 run in 5 here, a lone one as often as one of a pair):
    a cost of the process, not of either trial's analysis."""
    trial = _walk(tmp_path, test_data)
    model = test_data / "opensim" / "gait2354" / "subject01_simbody.osim"
    assert str(trial.file).replace("walk1.trc", "simbody.osim") == str(model)
    gc.collect()
    gc.disable()
    try:
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as cluster, \
                Client(cluster) as client:
            lone = [client.submit(_timed, trial, tmp_path / f"lone{i}", False, pure=False).result()
                    for i in range(4)][1:]
            pair = client.gather([client.submit(_timed, trial, tmp_path / f"pair{i}", True, pure=False)
                                  for i in range(2)])
    finally:
        gc.enable()
    assert all(o["status"] == "done" for o in lone + pair), [o.get("error") for o in lone + pair]
    alone = min(o["cpu_seconds"] for o in lone)
    (a0, a1), (b0, b1) = pair[0]["interval"], pair[1]["interval"]
    overlap = min(a1, b1) - max(a0, b0)
    assert overlap >= 0.5 * max(a1 - a0, b1 - b0)
    for o in pair:
        assert o["process_cpu"] >= 1.6 * alone, (o["process_cpu"], alone)        # the process's: both trials
        assert 0.6 * alone <= o["cpu_seconds"] <= 1.6 * alone, (o["cpu_seconds"], alone)


def _spin(seconds: float) -> float:
    """Processor time spent in this thread, at least ``seconds`` of it."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass
    return time.thread_time() - start


def test_work_handed_to_helper_threads_is_counted_and_other_threads_are_not():
    """A block that spins 0.1 s itself and hands two spins of 0.1 s to helper threads (:func:`counted`) counts about
    0.3 s; a thread of its own beside it (not counted) spins too and adds nothing."""
    stop = threading.Event()
    beside = threading.Thread(target=lambda: [_spin(0.01) for _ in iter(stop.is_set, True)])
    beside.start()
    try:
        with work_cpu() as cpu, ThreadPoolExecutor(2) as pool:
            helpers = [pool.submit(counted(_spin), 0.1) for _ in range(2)]
            own = _spin(0.1)
            spent = own + sum(h.result() for h in helpers)
            seconds = cpu.seconds()
    finally:
        stop.set()
        beside.join()
    assert spent <= seconds <= spent + 0.05


def test_inverse_kinematics_parts_on_their_threads_are_counted(test_data, monkeypatch):
    """gait2354's 73 frames solved 20 times in two parts on two threads (parts of 36 frames, as test_ik does; about
    0.1 s): the block counts what this process spent over it (``process_time``; no other thread of this test process
    works meanwhile), within 10% or 5 ms, of which the second part's thread did a share (over a fifth of the block's
    count; uncounted, the block's count is its own thread's alone)."""
    from dataclasses import replace

    from engine.analysis import ik
    from engine.io.setup_xml import ik_settings_from_setup
    from tests.analysis.opensim_cases import load
    monkeypatch.setattr(ik, "MIN_PART_FRAMES", 32)
    model, trial, setup = load("gait2354", str(test_data))
    settings = replace(ik_settings_from_setup(model, setup), threads=2)
    ik.solve_ik(model, trial.markers, settings)                     # compiled or loaded before the measure
    with work_cpu() as cpu:
        process, thread = time.process_time(), time.thread_time()
        for _ in range(20):
            ik.solve_ik(model, trial.markers, settings)
        process, thread, seconds = time.process_time() - process, time.thread_time() - thread, cpu.seconds()
    assert abs(seconds - process) <= max(0.1 * process, 0.005), (seconds, process)
    assert seconds - thread >= 0.2 * seconds, (seconds, thread)


def test_muscle_path_chunks_on_their_threads_are_counted():
    """A wrapping model's paths at 480 poses on three threads (chunks of 160 poses), evaluated 5 times: the block
    counts what this process spent over it, within 10% or 5 ms, over a fifth of it on the helper threads."""
    import numpy as np

    from engine.muscles.path.geometry import MuscleGeometry
    from tests.muscles.path_models import random_poses, wrap_model
    model = wrap_model()
    Q = random_poses(model, np.random.default_rng(20261128), 480)
    with MuscleGeometry(model, threads=3) as geometry:
        geometry.compute(Q)                                          # compiled or loaded before the measure
        with work_cpu() as cpu:
            process, thread = time.process_time(), time.thread_time()
            for _ in range(5):
                geometry.compute(Q)
            process, thread, seconds = time.process_time() - process, time.thread_time() - thread, cpu.seconds()
    assert abs(seconds - process) <= max(0.1 * process, 0.005), (seconds, process)
    assert seconds - thread >= 0.2 * seconds, (seconds, thread)


def test_the_c3d_reader_process_s_processor_time_is_counted():
    """Reading a C3D file (its reader a child process) counts the reader's processor time: the block's count less
    this thread's is the child's time as the system accounts it for this process's waited-for children, less what
    the reader spends after its result (its exit: 0.02-0.03 s of 0.17-0.19 s here) and at least half of it."""
    path = ROOT / "tests" / "data" / "c3d" / "Sample01" / "Eb015pi.c3d"
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with work_cpu() as cpu:
        thread = time.thread_time()
        read_c3d(path)
        child = cpu.seconds() - (time.thread_time() - thread)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    system = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert 0.5 * system <= child <= system + 0.005, (child, system)
