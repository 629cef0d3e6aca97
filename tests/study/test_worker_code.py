"""Every study task checks that its worker runs the study's client's code (its code digest) and refuses to run
otherwise, also on a worker that joins an existing cluster after the study started: its trials fail, the error naming
the worker and both digests, and nothing is stored under the client's fingerprints."""
import time
from pathlib import Path
from types import SimpleNamespace

from distributed import WorkerPlugin

from study.cluster import study_client
from study.description import load_study
from study.fingerprint import code_digest
from study.runner import run_study
from study.tasks import RECORD, analyse_group, analyse_single, scale_subject

GUARD = 60.0
"""Seconds after which a gated trial goes on whatever happened (a guard against a hang, not a measure)."""
OTHER = "another install's digest"


def _study(folder: Path, test_data, n: int):
    """A study of one subject's ``n`` gait2354 walks (its OpenSim model; the files are only fingerprinted here)."""
    g = test_data / "opensim" / "gait2354"
    trials = "".join(f"      - id: w{i}\n        file: {g / 'subject01_walk1.trc'}\n" for i in range(n))
    path = folder / "study.yaml"
    path.write_text("format: hybridlab-study\nversion: 1\nsubjects:\n  - id: s\n"
                    f"    model: {g / 'subject01_simbody.osim'}\n    trials:\n{trials}")
    return load_study(path)


def _refusal(error: str, where: str, here: str, client_code: str) -> bool:
    return error.startswith(f"{where} runs other HybridLab code") and f"its code digest {here}," in error \
        and f"the client's {client_code})" in error


def test_each_task_refuses_to_run_on_other_code_and_writes_nothing(test_data, tmp_path):
    """Called in a process (no worker) whose digest is not the task's: every task function returns failures naming
    this process, its digest and the task's, and writes no folder and no started file."""
    study = _study(tmp_path, test_data, 2)
    items = [(t, tmp_path / "out" / t.id, "fp") for t in study.trials]
    here = code_digest()
    outcomes = analyse_group(items, "model", tmp_path / "started-group", OTHER)
    assert [o["key"] for o in outcomes] == ["s/w0", "s/w1"] and all(o["status"] == "failed" for o in outcomes)
    assert all(_refusal(o["error"], "this process", here, OTHER) for o in outcomes)
    single = analyse_single(tmp_path / "started-single", None, study.trials[0], "model", tmp_path / "out" / "w0",
                            "fp", OTHER)
    assert single["status"] == "failed" and _refusal(single["error"], "this process", here, OTHER)
    scaled = scale_subject(SimpleNamespace(id="s"), tmp_path / "subject", "fp", OTHER)   # nothing but its id read
    assert scaled["status"] == "failed" and _refusal(scaled["error"], "this process", here, OTHER)
    assert scaled["key"] == "s" and [p.name for p in tmp_path.iterdir()] == ["study.yaml"]


def _edit_code_digest(digest: str) -> None:
    """In a worker: its code digest made ``digest`` for the rest of its process (as if it ran another install)."""
    import study.fingerprint as fingerprint
    fingerprint.code_digest = lambda: digest


class OtherCodeOnNewWorkers(WorkerPlugin):
    """A worker not among ``first`` (addresses) gets :data:`OTHER` as its code digest as it starts."""

    name = "test-other-code-on-new-workers"

    def __init__(self, first):
        self.first = set(first)

    def setup(self, worker) -> None:
        if worker.address not in self.first:
            _edit_code_digest(OTHER)


def _gated(trial, model, folder, fingerprint: str) -> dict:
    """A trial's stand-in: done at once (``w0``), or once the file ``joined`` is beside the study's ``out`` (GUARD at
    most); its record written, its worker's address in the outcome."""
    from distributed import get_worker
    joined = Path(folder).parents[3] / "joined"
    deadline = time.monotonic() + GUARD
    while trial.id != "w0" and not joined.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    Path(folder).mkdir(parents=True)
    (Path(folder) / RECORD).write_text(fingerprint)
    return {"key": trial.key, "status": "done", "rows": [], "seconds": 0.0, "peak_rss_mb": None,
            "worker": get_worker().address}


def test_a_worker_that_joins_with_other_code_after_the_study_started_runs_none_of_its_trials(test_data, tmp_path):
    """One worker when the study starts; once its first trial ended a second joins, whose digest differs (a plugin
    registered by the test, as another install would), and takes the trials still queued while the first worker's
    next one waits: each of them fails, naming that worker and both digests, with nothing stored; the first worker's
    trials are done."""
    study = _study(tmp_path, test_data, 6)
    out = tmp_path / "out"
    with study_client(workers=1, warm_up=False) as client:
        first = set(client.scheduler_info()["workers"])
        client.register_plugin(OtherCodeOnNewWorkers(first))

        def join_after_the_first_trial(outcome, run):
            if len(client.scheduler_info()["workers"]) == 1:
                client.cluster.scale(2)
                client.wait_for_workers(2, timeout=GUARD)
                (tmp_path / "joined").touch()
        run = run_study(study, out, client, join_after_the_first_trial, per_task=1, analyse=_gated)
        late, = set(client.scheduler_info()["workers"]) - first
    done = [o for o in run.outcomes.values() if o["status"] == "done"]
    failed = [o for o in run.outcomes.values() if o["status"] == "failed"]
    assert len(done) + len(failed) == 6 and run.outcomes["s/w0"]["status"] == "done" and failed
    assert all(o["worker"] in first for o in done)
    assert all(_refusal(o["error"], f"the worker {late}", OTHER, code_digest()) for o in failed)
    assert all(not (out / "trials" / o["key"]).exists() for o in failed)
