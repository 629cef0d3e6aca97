"""Memory per task: each task's own peak resident memory (the kernel's high-water mark reset before it), and a local
worker over its memory limit restarted by Dask with the trial's failure naming the limit."""

import dask
import numpy as np
import pytest
from distributed import Client, LocalCluster

from engine.cli.main import main
from study.cluster import LOCAL_CLUSTER_CONFIG
from study.runner import _worker_death
from study.task_memory import peak_memory

MB = 1e6


def test_the_peak_is_each_blocks_own():
    import psutil
    with peak_memory() as big:
        before = psutil.Process().memory_info().rss
        block = np.ones(300 * 2 ** 20 // 8)          # 300 MiB, every page touched
        del block
    with peak_memory() as small:
        np.ones(1000).sum()
    assert big["peak_rss_mb"] >= (before + 300 * 2 ** 20) / MB * 0.99
    assert small["peak_rss_mb"] < big["peak_rss_mb"] - 250 * 2 ** 20 / MB      # the first block's peak is gone
    assert big["peak_is_task"] and small["peak_is_task"]


def test_a_peak_that_cannot_be_reset_is_said_to_be_the_workers(monkeypatch, tmp_path):
    import study.task_memory as task_memory
    monkeypatch.setattr(task_memory, "_CLEAR", tmp_path / "missing" / "clear_refs")     # writing it fails
    with peak_memory() as measured:
        pass
    assert measured["peak_rss_mb"] > 0 and measured["peak_is_task"] is False


def _hog():
    import time
    block = np.ones(600 * 2 ** 20 // 8)              # 600 MiB: over a 300 MB worker's limit
    time.sleep(5)                                    # the nanny checks every 0.1 s
    return float(block[0])


def test_a_worker_over_its_limit_is_restarted_and_the_failure_names_the_limit():
    with dask.config.set({**LOCAL_CLUSTER_CONFIG, "distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=1, threads_per_worker=1, memory_limit="300MB", dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        future = client.submit(_hog, pure=False)
        with pytest.raises(Exception) as raised:
            future.result(timeout=60)
        text = _worker_death(client, raised.value)
    assert "more memory than a worker may use" in text and "limit of 300 MB" in text, text


@pytest.mark.parametrize("given, problem", [("lots", "a size such as 2GB"), ("50MB", "under 100 MB")])
def test_memory_limits_that_cannot_work_are_refused(tmp_path, capsys, given, problem):
    study = tmp_path / "study.yaml"
    study.write_text("format: hybridlab-study\nversion: 1\nsubjects: []\n")
    assert main(["batch", str(study), "--out", str(tmp_path / "out"), "--memory-limit", given]) == 2
    assert problem in capsys.readouterr().err


def _measured_in_task():
    from study.task_memory import _high_water_mb
    before = _high_water_mb()
    with peak_memory() as measured:
        pass
    return before, measured


@pytest.mark.parametrize("threads", [1, 2])
def test_on_a_worker_of_several_threads_the_peak_is_the_worker_s_and_not_reset(threads):
    """A worker of several threads runs tasks side by side in one process: the high-water mark is left alone (a task
    would reset its neighbours' peaks) and the peak is said to be the worker's; on a worker of one thread, the task's."""
    with LocalCluster(n_workers=1, threads_per_worker=threads, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        before, measured = client.submit(_measured_in_task, pure=False).result(timeout=60)
    assert measured["peak_is_task"] is (threads == 1)
    if threads > 1:
        assert measured["peak_rss_mb"] >= before            # the process's peak so far, kept
