"""`hybrid batch`'s own behaviour around the study: its progress lines, its exit statuses, its lock on the output
folder (the study itself runs in tests/study/test_batch.py)."""
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import dask
import psutil
import pytest

from engine.cli.main import build_parser, main
from study.cli_batch import EXIT, OUT_IN_USE, SCHEDULER_UNREACHABLE, failed_status, progress_line
from study.output_lock import LOCK, OutputInUse, output_lock
from study.runner import StudyRun
from tests.study.walk_study import walk_study


def _study(folder, test_data, extra=""):
    return walk_study(folder, test_data, extra)


def test_a_resumed_run_reports_the_trials_done_before_as_skipped_not_as_done():
    """A resumed run of 5 trials, 2 done before: its first lines count them as skipped, none as done; the trials it
    analyses then count as done."""
    run, lines = StudyRun(), []
    for key in ("s/a", "s/b"):
        run.outcomes[key] = {"key": key, "status": "skipped", "rows": [], "seconds": 0.0, "peak_rss_mb": None}
        lines.append(progress_line(run.outcomes[key], run, 5))
    run.outcomes["s/c"] = {"key": "s/c", "status": "done", "seconds": 1.25, "peak_rss_mb": 310.4, "peak_is_task": True}
    lines.append(progress_line(run.outcomes["s/c"], run, 5))
    run.outcomes["s/d"] = {"key": "s/d", "status": "failed", "error": "bad.trc: no markers", "seconds": 0.0,
                           "peak_rss_mb": None}
    lines.append(progress_line(run.outcomes["s/d"], run, 5))
    assert lines[0].endswith("done 0, skipped 1, failed 0, remaining 4  s/a: skipped (done before, same fingerprint)")
    assert "done 0, skipped 2, failed 0, remaining 3  s/b: skipped" in lines[1]
    assert lines[2].endswith("done 1, skipped 2, failed 0, remaining 2  s/c: done (1.2 s, peak 310 MB)")
    assert lines[3].endswith("done 1, skipped 2, failed 1, remaining 1  s/d: failed (bad.trc: no markers)")
    assert [line.count("#") for line in lines] == [6, 12, 18, 24]         # the bar: the trials ended, of 30


def test_the_exit_statuses_tell_an_invalid_study_an_unreachable_scheduler_and_failed_trials_apart(tmp_path,
                                                                                                   test_data, capsys):
    assert {0, 1, 2, "3-63", 69, 75, 130, 143} == set(EXIT)
    statuses = [failed_status(n) for n in range(1, 300)]
    assert statuses[:3] == [3, 4, 5] and max(statuses) == 63 < 64      # the count, below sysexits' and signals' codes
    assert not set(statuses) & {0, 1, 2, 130, 143, SCHEDULER_UNREACHABLE, OUT_IN_USE}
    bad = _study(tmp_path, test_data, "        grf: missing_grf.mot\n")
    assert main(["batch", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert "missing_grf.mot" in capsys.readouterr().err
    good = _study(tmp_path, test_data)
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):      # Dask's default: 30 s
        status = main(["batch", str(good), "--out", str(tmp_path / "out"), "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert status == SCHEDULER_UNREACHABLE == 69, err
    assert "no Dask scheduler answered at tcp://127.0.0.1:1 within 1s" in err and "Traceback" not in err
    assert main(["batch", str(good), "--out", str(tmp_path / "out"), "--scheduler", "not an address"]) == 2
    assert "--scheduler 'not an address' is not a Dask scheduler's address" in capsys.readouterr().err


class _Idle:
    """A stand-in for a Dask client with no worker and no dashboard."""
    dashboard_link = None

    def scheduler_info(self):
        return {"workers": {}}


@pytest.mark.parametrize("ending, status", [(KeyboardInterrupt, 130), ("SIGTERM", 143), ("one failed", 3),
                                            ("none", 0)])
def test_a_cancelled_run_and_a_run_with_failed_trials_have_their_statuses(tmp_path, test_data, monkeypatch, ending,
                                                                         status):
    import study.cluster
    import study.runner

    def run_study(study, out, client, progress, *args):
        if ending is KeyboardInterrupt:
            raise KeyboardInterrupt
        if ending == "SIGTERM":                     # as a batch system ends a job: the signal, then a wait
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        run = StudyRun()
        run.outcomes["s/walk1"] = {"key": "s/walk1", "status": "failed" if ending == "one failed" else "done",
                                   "error": "bad", "seconds": 0.0}
        return run
    monkeypatch.setattr(study.cluster, "study_client", lambda *a: contextlib.nullcontext(_Idle()))
    monkeypatch.setattr(study.runner, "run_study", run_study)
    assert main(["batch", str(_study(tmp_path, test_data)), "--out", str(tmp_path / "out"), "--scheduler",
                 "tcp://nowhere:8786"]) == status


def test_the_help_lists_every_exit_status(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["batch", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for code, meaning in EXIT.items():
        assert f"{code} {meaning}" in text


def test_the_documented_exit_statuses_are_the_command_s_in_its_order():
    """docs/batch.md's table of exit statuses lists those the command gives (``EXIT``), in the same order."""
    import re
    docs = (Path(__file__).parents[2] / "docs" / "batch.md").read_text()
    table = docs[docs.index("| status | meaning |"):].split("\n\n")[0]
    documented = re.findall(r"^\s*\| ([0-9][0-9-]*) \|", table, re.M)
    assert documented == [str(code) for code in EXIT]


def test_a_second_run_into_the_same_output_folder_is_refused_naming_the_first(tmp_path, test_data, capsys):
    """While a run holds --out's lock, another run into it is refused (its status 75) before it connects to any
    scheduler, naming the first's process and host; the first's lock is kept, and removed when it ends."""
    out, said = tmp_path / "out", []
    with output_lock(out, said.append) as lock:
        holder = json.loads(lock.read_text())
        assert (holder["pid"], holder["host"]) == (os.getpid(), socket.gethostname())
        with pytest.raises(OutputInUse, match=f"process {os.getpid()} on {socket.gethostname()}"):
            with output_lock(out):
                pass
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            status = main(["batch", str(_study(tmp_path, test_data)), "--out", str(out), "--scheduler",
                           "tcp://127.0.0.1:1"])
        err = capsys.readouterr().err
        assert status == OUT_IN_USE == 75, err
        assert f"{out} is being written by another 'hybrid batch' (the run of process {os.getpid()}" in err
        assert json.loads(lock.read_text()) == holder
    assert not lock.exists() and said == []


def test_a_lock_left_by_a_run_that_died_is_taken_over_and_said_so(tmp_path):
    ended = subprocess.run([sys.executable, "-c", "import os, psutil; print(os.getpid(), "
                                                  "psutil.Process().create_time())"],
                           capture_output=True, text=True, check=True).stdout.split()
    out = tmp_path / "out"
    out.mkdir()
    stale = {"pid": int(ended[0]), "host": socket.gethostname(), "process_started": float(ended[1]),
             "locked": "2026-11-28 09:00:00 +0000"}
    (out / LOCK).write_text(json.dumps(stale))
    said = []
    with output_lock(out, said.append) as lock:
        assert json.loads(lock.read_text())["pid"] == os.getpid()
    assert said == [f"took over the lock of {out} left by the run of process {stale['pid']} on "
                    f"{socket.gethostname()}, since 2026-11-28 09:00:00 +0000, no longer running"]
    assert sorted(p.name for p in out.iterdir()) == []


@pytest.mark.parametrize("host", ["node17.cluster", None])
def test_a_lock_of_a_run_that_may_still_run_is_never_taken_over(tmp_path, host):
    """A lock of a run on another host (not checkable from here), or of a process on this host that still runs
    (this test's parent), is refused, naming it, and left in place."""
    parent = psutil.Process(os.getppid())
    lock = {"pid": parent.pid, "host": host or socket.gethostname(), "process_started": parent.create_time(),
            "locked": "2026-11-28 09:00:00 +0000"}
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK).write_text(json.dumps(lock))
    with pytest.raises(OutputInUse, match=f"process {parent.pid} on {lock['host']}.*remove {out / LOCK}"):
        with output_lock(out):
            pass
    assert json.loads((out / LOCK).read_text()) == lock
