"""`hybrid batch` on a real local Dask cluster of two worker processes: each trial's files are those `hybrid analyze`
writes for it (and the subject's model `hybrid scale`'s), a corrupt trial fails alone, a killed worker and a
cancelled study lose nothing and a rerun redoes nothing, and the workers never import Qt."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from engine.cli.main import main
from engine.io.analysis_outputs import write_outputs
from engine.io.open import open_model
from engine.io.output_folder import MANIFEST
from engine.io.storage import read_storage
from engine.progress import run as run_steps
from tests.study.walk_study import walk_loads, walk_study
from study.browse import open_study, trial_result_steps
from study.cluster import WORKER_ENVIRONMENT, study_client
from study.description import load_study
from study.runner import STARTED, _seen, _Task, run_study
from study.tasks import RECORD, analyse_trial, completed

ROOT = Path(__file__).resolve().parents[2]
ENVIRONMENT_BEFORE = dict(os.environ)
"""This process's environment before any cluster of this module started."""
HOLD_GUARD = 60.0
"""Seconds after which a held event loop lets go whatever happened (a guard against a hang, not a measure)."""


@pytest.fixture(scope="module")
def client():
    with study_client(workers=2) as c:
        yield c


def _write(folder: Path, text: str) -> Path:
    path = folder / "study.yaml"
    path.write_text("format: hybridlab-study\nversion: 1\n" + text)
    return path


def _loads(d, stem):
    return f"        grf: {d / f'{stem}_grf.mot'}\n        external_loads: {d / f'{stem}_grf.xml'}\n"


def _one_walk(folder: Path, test_data) -> Path:
    """A study of one gait2354 walk (0.5-0.7 s, its plates' loads) with OpenSim's subject01 model (an OpenSim pelvis:
    the first pose fitted on one frame), written in ``folder``."""
    return walk_study(folder, test_data, walk_loads(test_data) + "        settings: {start: 0.5, end: 0.7}\n")


def _metrics(path: Path) -> dict:
    doc = json.loads(path.read_text())
    for part in ("ik", "id"):
        doc[part].pop("seconds")          # timings, the one thing two runs do not share
    if "muscles" in doc:
        doc["muscles"].pop("seconds")
        doc["muscles"].pop("qp_seconds")
    return doc


def _record(folder: Path) -> dict:
    return json.loads((folder / "study-record.json").read_text())


def _untimed_record(folder: Path) -> dict:
    doc = _record(folder)
    assert doc.pop("seconds") > 0 and doc.pop("cpu_seconds") > 0       # timings, which two runs do not share
    return doc


def _as_analyze(out: Path, direct: dict, folder: Path, given_in: str = "") -> None:
    """Each trial ``key`` of ``direct`` analysed by ``hybrid analyze`` on its arguments into ``folder/key``: the batch
    wrote the same files into ``out``/trials/``key`` (and its record), to the byte; metrics.json the same but for its
    timings and for the notes saying where a height or mass was given (``given_in``, where the command line says
    'on the command line')."""
    for key, argv in direct.items():
        here = folder / key
        assert main(["analyze", *argv, "--out", str(here), "--quiet"]) == 0
        there = out / "trials" / key
        names = json.loads((here / "manifest.json").read_text())["files"]
        assert sorted(json.loads((there / "manifest.json").read_text())["files"]) == sorted(
            names + ["study-record.json"])
        for name in names:
            if name == "metrics.json":
                direct_metrics = _metrics(here / name)
                direct_metrics["notes"] = [n.replace("with --height on the command line", given_in).replace(
                    "with --mass on the command line", given_in) for n in direct_metrics["notes"]]
                assert _metrics(there / name) == direct_metrics, key
            else:
                assert (there / name).read_bytes() == (here / name).read_bytes(), (key, name)


def test_study_matches_hybrid_analyze_per_trial_and_a_corrupt_trial_fails_alone(client, test_data, tmp_path, capsys):
    g, t = test_data / "opensim" / "gait2354", test_data / "opensim" / "gait10dof18musc"
    (tmp_path / "bad.trc").write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    study_file = _write(tmp_path, f"""settings: {{start: 0.5, end: 0.9}}
subjects:
  - id: s2354
    model: {g / 'scale' / 'gait2354_simbody.osim'}
    scale_setup: {g / 'scale' / 'subject01_Setup_Scale.xml'}
    trials:
      - id: walk1
        file: {g / 'subject01_walk1.trc'}
{_loads(g, 'subject01_walk1')}  - id: s10dof
    model: {t / 'subject01.osim'}
    settings: {{start: 0.0, end: 2.5}}
    trials:
      - id: walk
        file: {t / 'subject01_walk.trc'}
{_loads(t, 'subject01_walk')}      - id: walk_8hz
        file: {t / 'subject01_walk.trc'}
{_loads(t, 'subject01_walk')}        settings: {{filter: 8, start: 0.6, end: 1.4}}
      - id: corrupt
        file: {tmp_path / 'bad.trc'}
  - id: demo
    model: {ROOT / 'resources' / 'athlete.yaml'}
    trials:
      - id: run
        file: {ROOT / 'resources' / 'demo' / 'run.c3d'}
        settings: {{start: 0.1, end: 0.3}}
  - id: alone
    height: 1.8
    mass: 64.5
    settings: {{start: 0.1, end: 0.3}}
    trials:
      - id: run
        file: {ROOT / 'resources' / 'demo' / 'run.c3d'}
""")
    out = tmp_path / "out"
    status = main(["batch", str(study_file), "--out", str(out), "--scheduler", client.scheduler.address,
                   "--no-warm-up"])
    printed = capsys.readouterr().out
    assert status == 3, printed              # a trial failed (study.cli_batch.failed_status)
    assert "remaining 0" in printed and "dashboard" in printed
    assert "settings of this local cluster" not in printed        # an existing cluster keeps its own
    summary = json.loads((out / "study_summary.json").read_text())
    assert summary["done"] == 5 and list(summary["failed"]) == ["s10dof/corrupt"]
    assert "bad.trc" in summary["failed"]["s10dof/corrupt"]

    scaled = tmp_path / "direct" / "s2354.yaml"
    scaled.parent.mkdir()
    assert main(["scale", str(g / "scale" / "gait2354_simbody.osim"), "--setup",
                 str(g / "scale" / "subject01_Setup_Scale.xml"), "--out", str(scaled)]) == 0
    assert (out / "subjects" / "s2354" / "model.yaml").read_bytes() == scaled.read_bytes()
    direct = {"s2354/walk1": [str(scaled), str(g / "subject01_walk1.trc"), "--start", "0.5", "--end", "0.9",
                              "--grf", str(g / "subject01_walk1_grf.mot"),
                              "--external-loads", str(g / "subject01_walk1_grf.xml")],
              "s10dof/walk": [str(t / "subject01.osim"), str(t / "subject01_walk.trc"), "--start", "0", "--end",
                              "2.5", "--grf", str(t / "subject01_walk_grf.mot"),
                              "--external-loads", str(t / "subject01_walk_grf.xml")],
              "s10dof/walk_8hz": [str(t / "subject01.osim"), str(t / "subject01_walk.trc"), "--start", "0.6",
                                  "--end", "1.4", "--filter", "8", "--grf", str(t / "subject01_walk_grf.mot"),
                                  "--external-loads", str(t / "subject01_walk_grf.xml")],
              "demo/run": [str(ROOT / "resources" / "athlete.yaml"), str(ROOT / "resources" / "demo" / "run.c3d"),
                           "--start", "0.1", "--end", "0.3"],
              "alone/run": [str(ROOT / "resources" / "demo" / "run.c3d"), "--height", "1.8", "--mass", "64.5", "--start",
                            "0.1", "--end", "0.3"]}
    given_in = f"for subject alone in the study {study_file.resolve()}"      # the notes name where, not the options
    _as_analyze(out, direct, tmp_path / "direct", given_in)
    capsys.readouterr()
    notes = json.loads((out / "trials" / "alone" / "run" / "metrics.json").read_text())["notes"]
    assert f"the subject's stature is the height given {given_in}, 1.800 m, instead of the trial's " \
           "SUBJECT:HEIGHT '1.75 m'" in notes          # the subject's height reached the trial analysed alone
    mass_note = f"the subject's body mass is the mass given {given_in}, 64.500 kg"
    assert any(n.startswith(mass_note) for n in notes)
    result, _ = run_steps(trial_result_steps(open_study(study_file), "alone", "run"))      # browsed: computed again alike
    assert any(n.startswith(mass_note) for n in result.notes)
    write_outputs(result, tmp_path / "browsed")
    assert (tmp_path / "browsed" / "ik.mot").read_bytes() == (out / "trials" / "alone" / "run" / "ik.mot").read_bytes()

    rows = pq.read_table(out / "study_table.parquet").to_pylist()
    assert [r["trial"] for r in rows if r["cycle"] is None] == ["walk1", "walk_8hz", "corrupt", "run", "run"]  # no cycle
    assert [(r["trial"], r["status"]) for r in rows if r["status"] != "done"] == [("corrupt", "failed")]
    cycles = [r for r in rows if r["trial"] == "walk"]
    assert len(cycles) >= 2 and {r["side"] for r in cycles} == {"Left", "Right"}
    assert (out / "study_table.csv").read_text().count("\n") == len(rows) + 1
    for key in direct:
        subject, trial = key.split("/")
        ik = json.loads((tmp_path / "direct" / key / "metrics.json").read_text())["ik"]
        for r in (r for r in rows if (r["subject"], r["trial"]) == (subject, trial)):
            assert r["ik_rms_mean_mm"] == pytest.approx(1e3 * ik["marker_rms_mean_m"], rel=1e-12)
    mass = open_model(t / "subject01.osim").total_mass          # peak moments from the id.sto `hybrid analyze` wrote
    tau = read_storage(tmp_path / "direct" / "s10dof" / "walk" / "id.sto")
    for r in cycles:
        side = r["side"][0].lower()
        stance = (tau.time >= r["cycle_start_s"]) & (tau.time <= r["cycle_start_s"] + r["contact_time_s"] + 1e-9)
        column = tau.data[stance, tau.labels.index(f"hip_flexion_{side}_moment")]
        assert r["peak_hip_flexion_moment_stance_n_m_per_kg"] == pytest.approx(np.max(column) / mass, rel=1e-12)
        assert r["peak_hip_extension_moment_stance_n_m_per_kg"] == pytest.approx(-np.min(column) / mass, rel=1e-12)
    loaded = client.run(lambda: sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "pyqtgraph",
                                                                                 "vtkmodules", "hybridgui")))
    assert len(loaded) == 2 and not any(loaded.values())      # the workers stayed headless


def test_a_study_with_muscles_writes_the_muscle_files_hybrid_analyze_writes(client, test_data, tmp_path):
    """Static optimisation in the workers: gait10dof18musc's walk and the demo's run (another copy of it than the
    study above: 8 Hz, 0.1-0.2 s), muscles on for the whole study; each trial's muscle forces, activations (and the
    demo's EMG comparison) are `hybrid analyze --muscles`'s, to the byte."""
    t, demo = test_data / "opensim" / "gait10dof18musc", ROOT / "resources" / "demo" / "run.c3d"
    study_file = _write(tmp_path, f"""settings: {{muscles: true}}
subjects:
  - id: s10dof
    model: {t / 'subject01.osim'}
    trials:
      - id: walk
        file: {t / 'subject01_walk.trc'}
{_loads(t, 'subject01_walk')}        settings: {{start: 0.6, end: 0.8}}
  - id: demo
    model: {ROOT / 'resources' / 'athlete.yaml'}
    trials:
      - id: run_8hz
        file: {demo}
        settings: {{start: 0.1, end: 0.2, filter: 8}}
""")
    out = tmp_path / "out"
    assert main(["batch", str(study_file), "--out", str(out), "--scheduler", client.scheduler.address,
                 "--no-warm-up"]) == 0
    direct = {"s10dof/walk": [str(t / "subject01.osim"), str(t / "subject01_walk.trc"), "--start", "0.6", "--end",
                              "0.8", "--grf", str(t / "subject01_walk_grf.mot"),
                              "--external-loads", str(t / "subject01_walk_grf.xml"), "--muscles"],
              "demo/run_8hz": [str(ROOT / "resources" / "athlete.yaml"), str(demo), "--start", "0.1", "--end", "0.2",
                               "--filter", "8", "--muscles"]}
    _as_analyze(out, direct, tmp_path / "direct")
    for key, muscles in (("s10dof/walk", 18), ("demo/run_8hz", None)):
        files = json.loads((out / "trials" / key / "manifest.json").read_text())["files"]
        assert {"muscle_forces.sto", "activations.sto"} <= set(files), key         # the muscles did run
        forces = read_storage(out / "trials" / key / "muscle_forces.sto")
        assert muscles is None or len(forces.labels) == muscles
        assert np.isfinite(forces.data).all() and np.abs(forces.data).max() > 0
    assert "emg_comparison.csv" in json.loads((out / "trials" / "demo" / "run_8hz" / "manifest.json").read_text())[
        "files"]


def test_the_workers_compute_with_one_thread_each_for_numba_openblas_and_openmp(client):
    """In each worker process: the environment its later libraries and its own processes read, every BLAS and OpenMP
    pool it has loaded (numpy's OpenBLAS among them, loaded before Dask sets the environment, with one thread per
    core), as threadpoolctl reads the libraries themselves, and numba's thread count, which the muscle paths' threads
    follow: one each, the workers share the cores. Numba's own thread pool (for parallel kernels, sized at numba's
    import) was never started: the warmed-up analysis has no parallel kernel."""
    def threads():
        import numba
        import numba.np.ufunc.parallel
        import scipy.linalg  # noqa: F401  (its own OpenBLAS, loaded by the analysis)
        from threadpoolctl import threadpool_info
        return (dict(os.environ), {(i["internal_api"], i["num_threads"]) for i in threadpool_info()},
                numba.config.NUMBA_NUM_THREADS, numba.np.ufunc.parallel._is_initialized)
    seen = client.run(threads)
    assert len(seen) == 2
    for env, pools, numba_threads, numba_pool_started in seen.values():
        assert env.items() >= WORKER_ENVIRONMENT.items() and numba_threads == 1, (env, numba_threads)
        assert not numba_pool_started
        assert ("openblas", 1) in pools and {n for _, n in pools} == {1}, pools


def test_a_running_cluster_leaves_this_process_s_environment_and_its_children_s_alone(client):
    """The processes this process starts while a local cluster runs (a GUI's, a benchmark's loop) get no thread
    limits from the cluster: not in this process's environment, not in a child's. Once a cluster closed, a process's
    environment is as before it, ``PYTHONHASHSEED`` too (which Dask's nanny sets in it while the cluster runs, and
    its ``__DASK_PARENT_PID``)."""
    names = sorted(WORKER_ENVIRONMENT)
    child = subprocess.run([sys.executable, "-c", f"import os; print([os.environ.get(n) for n in {names!r}])"],
                           capture_output=True, text=True, check=True).stdout
    assert [os.environ.get(n) for n in names] == [ENVIRONMENT_BEFORE.get(n) for n in names]
    assert child.strip() == str([ENVIRONMENT_BEFORE.get(n) for n in names])
    script = ("import os\nfrom study.cluster import study_client\nbefore = dict(os.environ)\n"
              "with study_client(workers=1, warm_up=False) as c:\n    during = os.environ.get('PYTHONHASHSEED')\n"
              "print(during, dict(os.environ) == before)\n")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "__DASK_PARENT_PID")}
    after = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                           env=environment).stdout.split()
    assert after == ["6640", "True"]          # Dask's seed while the cluster ran, not after


def _cold_work(trial, model, folder):
    """A trial's analysis in a worker, with the kernels it compiled and those it loaded from numba's cache."""
    from numba.core import caching

    from engine.warmup import counting_compiles
    loaded, original = [], caching.Cache.load_overload
    caching.Cache.load_overload = lambda self, *args: loaded.append(self._name) or original(self, *args)
    try:
        with counting_compiles() as compiled:
            outcome = analyse_trial(trial, model, folder, "cold")
    finally:
        caching.Cache.load_overload = original
    return outcome["status"], loaded, list(compiled)


def test_a_warmed_worker_neither_compiles_nor_loads_a_kernel_for_a_trial(client, test_data, tmp_path):
    study = load_study(_one_walk(tmp_path, test_data))
    for worker in client.scheduler_info()["workers"]:
        status, loaded, compiled = client.submit(_cold_work, study.trials[0], str(study.subjects[0].model),
                                                 tmp_path / worker.split(":")[-1], workers=[worker],
                                                 pure=False).result()
        assert status == "done" and loaded == [] and compiled == [], (loaded, compiled)


def _worker_overheads(dask_worker) -> tuple:
    return "profile" in dask_worker.periodic_callbacks, dask_worker._tick_interval


def test_a_local_cluster_has_its_settings_and_hybrid_batch_prints_each_with_its_reason(client, test_data, tmp_path,
                                                                                      capsys, monkeypatch):
    import contextlib

    import study.cluster
    from study.cluster import LOCAL_CLUSTER_SETTINGS
    assert set(client.run(_worker_overheads).values()) == {(False, 1.0)}      # no profiler; health checks once a second
    assert client.run_on_scheduler(lambda dask_scheduler: dask_scheduler._tick_interval) == 1.0
    study_file = _one_walk(tmp_path, test_data)
    monkeypatch.setattr(study.cluster, "study_client", lambda *a: contextlib.nullcontext(client))   # the local one
    assert main(["batch", str(study_file), "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    for name, (value, reason) in LOCAL_CLUSTER_SETTINGS.items():
        assert f"  {name}={value!r}: {reason}\n" in printed and reason
    assert "trials per task: auto: 1 task for 1 trial on 2 worker threads" in printed      # the grouping and why


def test_a_study_gets_its_results_on_its_own_client_while_a_newer_client_s_loop_is_held(client, test_data, tmp_path):
    """run_study waits for its futures on its own client's event loop (``Future.add_done_callback`` runs there), not
    on the newest client's (distributed's default): with a second client alive and its loop held, the study
    still ends, and it ends while that loop is still held (the hold lets go only when the study has ended, or after
    HOLD_GUARD seconds so that the test cannot hang; the assertion is the order of the two events, no duration)."""
    from distributed import Client
    study = load_study(_one_walk(tmp_path, test_data))
    held, release, timed_out = threading.Event(), threading.Event(), threading.Event()

    def hold():                     # runs on the second client's loop, which does nothing else meanwhile
        held.set()
        if not release.wait(HOLD_GUARD):
            timed_out.set()
    with Client(client.scheduler.address) as newer:       # the newest client: distributed's default from now on
        newer.loop.add_callback(hold)
        assert held.wait(HOLD_GUARD)
        try:
            run = run_study(study, tmp_path / "out", client)
            ended_while_held = not timed_out.is_set()
        finally:
            release.set()
    assert [o["status"] for o in run.outcomes.values()] == ["done"]
    assert ended_while_held, "the study's results waited for the newer client's loop"


class _Cancelled(Exception):
    pass


def test_a_killed_worker_and_a_cancelled_study_lose_nothing_and_a_rerun_redoes_nothing(client, test_data, tmp_path):
    t = test_data / "opensim" / "gait10dof18musc"
    trials = "".join(f"      - id: w{i}\n        file: {t / 'subject01_walk.trc'}\n{_loads(t, 'subject01_walk')}"
                     f"        settings: {{start: {0.2 + 0.1 * i:.1f}, end: {1.0 + 0.1 * i:.1f}}}\n" for i in range(6))
    study = load_study(_write(tmp_path, f"subjects:\n  - id: s\n    model: {t / 'subject01.osim'}\n    trials:\n"
                                        f"{trials}"))
    out, ended = tmp_path / "out", []

    def fault(outcome, run):        # kill a worker process after the first trial, cancel after the second
        ended.append(outcome["key"])
        if len(ended) == 1:
            os.kill(next(iter(client.run(os.getpid).values())), signal.SIGKILL)
        if len(ended) == 2:
            raise _Cancelled
    with pytest.raises(_Cancelled):
        run_study(study, out, client, fault)
    deadline = time.monotonic() + 60              # the tasks still running finish; the killed worker is replaced
    while (any(client.processing().values()) or len(client.scheduler_info()["workers"]) < 2) \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    first = json.loads((out / "study-manifest.json").read_text())["trials"]
    done_first = {k for k, v in first.items() if v["status"] == "done"}
    assert set(ended) == done_first and len(done_first) == 2

    second = run_study(study, out, client)
    skipped = {k for k, o in second.outcomes.items() if o["status"] == "skipped"}
    redone = {k for k, o in second.outcomes.items() if o["status"] == "done"}
    assert second.failed == 0 and skipped | redone == {tr.key for tr in study.trials}
    assert done_first <= skipped and not done_first & redone
    keys = [(r["trial"], r["side"], r["cycle"]) for r in second.rows]
    assert len(keys) == len(set(keys)) and {r["trial"] for r in second.rows} == {f"w{i}" for i in range(6)}
    for i in range(6):
        folder = out / "trials" / "s" / f"w{i}"
        assert not list(folder.glob(".hybrid-staging-*"))
        assert all((folder / n).is_file() for n in json.loads((folder / "manifest.json").read_text())["files"])
    third = run_study(study, out, client)         # nothing left to do
    assert {o["status"] for o in third.outcomes.values()} == {"skipped"} and third.rows == second.rows


def _control(folder) -> Path:
    """The control folder of a test study whose trial folder is ``folder`` (``tmp/out/trials/<subject>/<trial>``)."""
    return Path(folder).parents[3] / "control"


def _held_trial(trial, model, folder, fingerprint: str) -> dict:
    """``analyse_trial``, with each start of a trial logged (a file ``started-<trial>-<pid>-<n>`` in the control
    folder) and its worker's process id left (``pid-<trial>``); while the file ``hold`` is there, a trial that succeeded
    is followed by a wait until the runner has reported it (the file ``reported-<trial>``, left by the test's progress
    callback; HOLD_GUARD at most): so the task of a group is still running when each of its trials is reported."""
    control = _control(folder)
    (control / f"pid-{trial.id}").write_text(str(os.getpid()))
    (control / f"started-{trial.id}-{os.getpid()}-{time.monotonic_ns()}").touch()
    outcome = analyse_trial(trial, model, folder, fingerprint)
    deadline = time.monotonic() + HOLD_GUARD
    while outcome["status"] == "done" and (control / "hold").exists() and time.monotonic() < deadline \
            and not (control / f"reported-{trial.id}").exists():
        time.sleep(0.01)
    return {**outcome, "pid": os.getpid()}


def _walks(tmp_path: Path, test_data, n: int, corrupt_at=()) -> Path:
    """A study of one subject's ``n`` short gait2354 walks (0.5-0.7 s, each its own filter), corrupt trials at the
    positions ``corrupt_at`` (ids ``bad``, ``bad2``, ...); with the control folder of :func:`_held_trial`, its ``hold`` file there."""
    g = test_data / "opensim" / "gait2354"
    (tmp_path / "bad.trc").write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    items = [f"      - id: w{i}\n        file: {g / 'subject01_walk1.trc'}\n{_loads(g, 'subject01_walk1')}"
             f"        settings: {{filter: {5 + i}}}\n" for i in range(n)]
    for n, at in enumerate(sorted(corrupt_at)):
        items.insert(at, f"      - id: bad{n + 1 if n else ''}\n        file: {tmp_path / 'bad.trc'}\n")
    (tmp_path / "control").mkdir()
    (tmp_path / "control" / "hold").touch()
    return _write(tmp_path, f"settings: {{start: 0.5, end: 0.7}}\nsubjects:\n  - id: s\n"
                            f"    model: {g / 'subject01_simbody.osim'}\n    trials:\n{''.join(items)}")


def _reporter(control: Path, reported: list, also=None):
    """A progress callback that records each outcome, calls ``also(outcome)``, then lets the held trial's group go
    on (:func:`_held_trial`): ``also`` acts while that group waits."""
    def progress(outcome, run):
        reported.append(outcome)
        if also is not None:
            also(outcome)
        (control / f"reported-{outcome['key'].split('/')[1]}").touch()
    return progress


def _started(control: Path) -> list:
    return sorted(p.name.split("-")[1] for p in control.glob("started-*"))


def _first_held(trial, model, folder, fingerprint: str) -> dict:
    """``analyse_trial``, with each start of a trial logged (:func:`_held_trial`'s ``started-`` files); the trial
    ``w0`` waits, before its analysis, for the file ``go`` in the control folder (HOLD_GUARD at most)."""
    control = _control(folder)
    (control / f"started-{trial.id}-{os.getpid()}-{time.monotonic_ns()}").touch()
    deadline = time.monotonic() + HOLD_GUARD
    while trial.id == "w0" and not (control / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return analyse_trial(trial, model, folder, fingerprint)


def _task_states(client) -> list:
    """The states of the tasks every worker holds (Dask's worker state machine: a running task whose future was
    cancelled is "cancelled" until it returns)."""
    held = client.run(lambda dask_worker: [ts.state for ts in dask_worker.state.tasks.values()])
    return sorted(state for states in held.values() for state in states)


def _wait(condition, what: str) -> None:
    deadline = time.monotonic() + HOLD_GUARD
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_cancelled_study_s_running_group_ends_its_running_trial_and_starts_no_other(client, test_data, tmp_path):
    """A group of four trials, cancelled while its first runs (held, :func:`_first_held`): once the study has given
    up (run_study raised, its futures cancelled), the group finishes that trial, whose folder is complete, and starts
    none of the three others; the manifest calls them all pending, and a rerun skips the first and does the rest."""
    study = load_study(_walks(tmp_path, test_data, 4))
    control, out = tmp_path / "control", tmp_path / "out"

    def cancel_once_started(notes):
        _wait(lambda: _started(control), "the group did not start")
        raise _Cancelled
    with pytest.raises(_Cancelled):
        run_study(study, out, client, per_task=4, say=cancel_once_started, analyse=_first_held)
    _wait(lambda: "cancelled" in _task_states(client), "the worker was not told of the cancel")
    (control / "go").touch()
    _wait(lambda: not _task_states(client), "the cancelled group did not end")
    assert _started(control) == ["w0"]
    trials = json.loads((out / "study-manifest.json").read_text())["trials"]
    assert {v["status"] for v in trials.values()} == {"pending"}
    assert completed(out / "trials" / "s" / "w0", trials["s/w0"]["fingerprint"]) is not None
    assert not any((out / "trials" / "s" / f"w{i}").exists() for i in (1, 2, 3))
    again = run_study(study, out, client)
    assert {k: o["status"] for k, o in again.outcomes.items()} == {
        "s/w0": "skipped", "s/w1": "done", "s/w2": "done", "s/w3": "done"}


def test_a_study_submitted_before_any_worker_comes_is_grouped_as_on_one_thread_and_runs_when_one_comes(test_data,
                                                                                                      tmp_path):
    """A cluster with no worker when the study is submitted (as an adaptive one, or batch jobs still queued), which
    gets one (a worker thread in this process) once the tasks are submitted: three short walks in one task, as on
    one thread (on two, three tasks: test_trial_groups), said so, and all done."""
    from distributed import Client, LocalCluster
    study = load_study(_walks(tmp_path, test_data, 3))
    said = []
    with LocalCluster(n_workers=0, processes=False, threads_per_worker=1, dashboard_address=":0") as cluster, \
            Client(cluster) as no_workers:
        def scale_once_submitted(notes):
            said.append((notes, len(no_workers.scheduler_info()["workers"])))
            cluster.scale(1)
        run = run_study(study, tmp_path / "out", no_workers, say=scale_once_submitted)
    (notes, workers), = said
    assert workers == 0 and notes.startswith("trials per task: auto: 1 task for 3 trials on no worker thread yet")
    assert "as for one worker thread" in notes
    assert run.tasks == 1 and [o["status"] for o in run.outcomes.values()] == ["done"] * 3


def test_trials_grouped_in_tasks_give_one_task_per_trial_s_results_each_reported_as_it_ends(client, test_data,
                                                                                          tmp_path, monkeypatch):
    """A group of four trials, a corrupt one among them, against one task per trial: the same files (but the
    timings in metrics.json), table and outcomes; the corrupt trial fails alone and the group's next trials run; each
    trial is reported once, while its group still runs (:func:`_held_trial` holds the group until then), with its
    timings and memory in the outcome once the group ended."""
    import study.runner
    monkeypatch.setattr(study.runner, "POLL_INTERVAL", 0.05)
    study = load_study(_walks(tmp_path, test_data, 3, corrupt_at=(1,)))
    control, reported, said = tmp_path / "control", [], []
    grouped = run_study(study, tmp_path / "out", client, _reporter(control, reported), per_task=4, say=said.append,
                        analyse=_held_trial)
    assert said == ["trials per task: 4: 1 task for 4 trials on 2 worker threads (4 to 4 trials a task) "
                    "(--trials-per-task 4, each task 4 trials of one subject)"]
    assert [o["key"] for o in reported] == ["s/w0", "s/w1", "s/w2", "s/bad"]      # the failure with the group's end
    for o in reported[:3]:                       # seen in their folders: their records' timings, no memory
        record = _record(tmp_path / "out" / "trials" / o["key"])
        assert o["seconds"] == record["seconds"] and o["peak_rss_mb"] is None
        assert 0 < record["seconds"] <= grouped.outcomes[o["key"]]["seconds"]
    assert len({o["pid"] for o in grouped.outcomes.values() if "pid" in o}) == 1     # one task ran them all
    (control / "hold").unlink()
    single = run_study(study, tmp_path / "single", client, per_task=1)
    assert grouped.rows == single.rows and [r["status"] for r in grouped.rows] == ["done", "failed", "done", "done"]
    assert {k: o["status"] for k, o in grouped.outcomes.items()} == {k: o["status"] for k, o in single.outcomes.items()}
    assert grouped.outcomes["s/bad"]["error"] == single.outcomes["s/bad"]["error"] and "bad.trc" in single.outcomes[
        "s/bad"]["error"]
    for key, outcome in grouped.outcomes.items():
        assert outcome["status"] == "failed" or (outcome["seconds"] > 0 and outcome["peak_rss_mb"] > 0), key
    for name in ("w0", "w1", "w2"):
        here, there = tmp_path / "out" / "trials" / "s" / name, tmp_path / "single" / "trials" / "s" / name
        files = json.loads((here / "manifest.json").read_text())["files"]
        assert files == json.loads((there / "manifest.json").read_text())["files"]
        for file in files:
            if file == "metrics.json":
                assert _metrics(here / file) == _metrics(there / file)
            elif file == "study-record.json":
                assert _untimed_record(here) == _untimed_record(there)
            else:
                assert (here / file).read_bytes() == (there / file).read_bytes(), (name, file)
    for table in ("study_table.csv", "study_summary.json"):
        assert (tmp_path / "out" / table).read_bytes() == (tmp_path / "single" / table).read_bytes()
    manifests = [json.loads((tmp_path / run / "study-manifest.json").read_text())["trials"] for run in ("out", "single")]
    assert [(k, v["fingerprint"], v["status"], v["error"]) for k, v in manifests[0].items()] == [
        (k, v["fingerprint"], v["status"], v["error"]) for k, v in manifests[1].items()]
    assert not (tmp_path / "out" / ".hybrid-started").exists()


def _failed_after_its_folder(trial, model, folder, fingerprint: str) -> dict:
    """:func:`_held_trial`, but the walk ``w2``'s outcome says failed after its folder was complete and reported."""
    outcome = _held_trial(trial, model, folder, fingerprint)
    return {**outcome, "status": "failed", "error": "failed after its folder"} if trial.id == "w2" else outcome


def test_failed_trials_in_a_row_hold_back_no_progress_and_a_trial_seen_done_then_failed_is_reported_again(
        client, test_data, tmp_path, monkeypatch):
    """One group: a walk, two corrupt trials, two walks. Each walk is reported while the group runs (held until then,
    :func:`_held_trial`), the two failed trials before them passed over; the last walk, seen done in its folder, is
    failed by its task's result (:func:`_failed_after_its_folder`) and reported again as failed, so that the counts
    of the progress lines (``hybrid batch``) are those of the outcomes."""
    import study.runner
    monkeypatch.setattr(study.runner, "POLL_INTERVAL", 0.05)
    study = load_study(_walks(tmp_path, test_data, 3, corrupt_at=(1, 2)))
    control, reported = tmp_path / "control", []
    run = run_study(study, tmp_path / "out", client, _reporter(control, reported), per_task=5,
                    analyse=_failed_after_its_folder)
    assert [(o["key"], o["status"]) for o in reported] == [
        ("s/w0", "done"), ("s/w1", "done"), ("s/w2", "done"), ("s/bad", "failed"), ("s/bad2", "failed"),
        ("s/w2", "failed")]
    assert all(o["peak_rss_mb"] is None for o in reported[:3])            # seen in their folders, the group running
    assert run.failed == 3 and run.outcomes["s/w2"]["error"] == "failed after its folder"
    assert run.tasks == 1 and run.poll_cpu_seconds > 0
    manifest = json.loads((tmp_path / "out" / "study-manifest.json").read_text())["trials"]
    assert [v["status"] for v in manifest.values()] == ["done", "failed", "failed", "done", "failed"]


def test_the_poll_looks_only_at_started_groups_up_to_their_running_trial_and_passes_failed_ones(tmp_path,
                                                                                                monkeypatch):
    """A group of five trials, the second and third failed (no record in their folders): queued, none of its
    folders is read; running its fourth, its first four are, the complete ones reported; running its fifth, the fifth
    alone (the failed ones are not read again: their outcomes come with the group's result)."""
    import study.runner
    read, completed = [], study.runner.completed
    monkeypatch.setattr(study.runner, "completed", lambda folder, digest: read.append(folder.name) or completed(
        folder, digest))
    items = []
    for i in range(5):
        folder = tmp_path / "trials" / "s" / f"t{i}"
        folder.mkdir(parents=True)
        if i not in (1, 2):
            (folder / RECORD).write_text(json.dumps({"fingerprint": f"d{i}", "rows": [], "seconds": 0.1}))
            (folder / MANIFEST).write_text(json.dumps({"files": []}))
        items.append((type("Trial", (), {"key": f"s/t{i}", "subject": "s", "id": f"t{i}"}), folder, f"d{i}"))
    task, outcomes = _Task(items, None, True), {}
    (tmp_path / STARTED).mkdir()
    assert _seen(task, tmp_path, outcomes) == [] and read == []                                  # queued
    marker = tmp_path / STARTED / "s-t0-5-d0"                   # study.runner._started's name for it
    assert marker == study.runner._started(tmp_path, task)
    marker.write_text("3")
    outcomes.update((o["key"], o) for o in _seen(task, tmp_path, outcomes))
    assert sorted(outcomes) == ["s/t0", "s/t3"] and read == ["t0", "t1", "t2", "t3"]
    marker.write_text("4")
    assert [o["key"] for o in _seen(task, tmp_path, outcomes)] == ["s/t4"] and read[4:] == ["t4"]


def test_a_worker_killed_in_a_group_loses_nothing_and_its_unfinished_trials_run_one_per_task(client, test_data,
                                                                                           tmp_path, monkeypatch):
    """Two groups of three trials; the worker running the first is killed once its first trial is reported (the
    group held there, :func:`_held_trial`): that trial is not run again, Dask's second run of the group does nothing,
    its two other trials run one per task, the other group completes; every trial run once and reported once.
    A rerun skips them all."""
    import study.runner
    monkeypatch.setattr(study.runner, "POLL_INTERVAL", 0.05)
    study = load_study(_walks(tmp_path, test_data, 6))
    control, reported, killed = tmp_path / "control", [], []

    def kill(outcome):
        if not killed:
            killed.append(int((control / f"pid-{outcome['key'].split('/')[1]}").read_text()))
            os.kill(killed[0], signal.SIGKILL)
            (control / "hold").unlink()
    run = run_study(study, tmp_path / "out", client, _reporter(control, reported, kill), per_task=3,
                    analyse=_held_trial)
    keys = [tr.key for tr in study.trials]
    assert sorted(o["key"] for o in reported) == sorted(keys)                      # each reported once
    assert run.failed == 0 and [o["status"] for o in run.outcomes.values()] == ["done"] * 6
    assert _started(control) == [f"w{i}" for i in range(6)]                        # each run once
    first = reported[0]["key"]
    group = ["w0", "w1", "w2"] if first in ("s/w0", "s/w1", "s/w2") else ["w3", "w4", "w5"]
    pids = {o["key"].split("/")[1]: o["pid"] for o in run.outcomes.values() if "pid" in o}
    assert first.split("/")[1] not in pids and all(pids[name] != killed[0] for name in group[1:])   # run elsewhere
    manifest = json.loads((tmp_path / "out" / "study-manifest.json").read_text())["trials"]
    assert manifest[first]["seconds"] == _record(tmp_path / "out" / "trials" / first)["seconds"] > 0   # its record's
    assert all(v["seconds"] > 0 for v in manifest.values())
    keys_rows = [(r["trial"], r["side"], r["cycle"]) for r in run.rows]
    assert len(keys_rows) == len(set(keys_rows)) and {r["trial"] for r in run.rows} == {f"w{i}" for i in range(6)}
    again = run_study(study, tmp_path / "out", client, per_task=3)
    assert {o["status"] for o in again.outcomes.values()} == {"skipped"} and again.rows == run.rows


def test_a_rerun_by_other_code_analyses_again_what_this_code_had_done(client, test_data, tmp_path, monkeypatch):
    """Resume never serves the results of other code: the same study, inputs and settings, rerun with another digest
    of the sources (an edited kernel, in this process and the workers), analyses its trial again; rerun with that
    code again, it skips it."""
    import study.fingerprint as fingerprint
    walk = load_study(_one_walk(tmp_path, test_data))
    out = tmp_path / "out"
    assert run_study(walk, out, client).outcomes["s/walk1"]["status"] == "done"
    assert run_study(walk, out, client).outcomes["s/walk1"]["status"] == "skipped"
    edited = "the sources with an edited kernel"
    monkeypatch.setattr(fingerprint, "code_digest", lambda: edited)
    client.run(_edit_code_digest, edited)
    try:
        assert run_study(walk, out, client).outcomes["s/walk1"]["status"] == "done"
        assert run_study(walk, out, client).outcomes["s/walk1"]["status"] == "skipped"
    finally:
        client.run(_edit_code_digest)


def _edit_code_digest(digest=None) -> None:
    """In a worker: its code digest made ``digest`` (None: its own again)."""
    import study.fingerprint as fingerprint
    if digest is None:
        fingerprint.code_digest = fingerprint._real_code_digest
    else:
        fingerprint._real_code_digest = getattr(fingerprint, "_real_code_digest", fingerprint.code_digest)
        fingerprint.code_digest = lambda: digest


def test_workers_running_other_code_are_named_and_the_study_refused(client):
    from engine.errors import SettingsError
    from study.cluster import same_code
    same_code(client)                                    # the local workers run this code
    worker = sorted(client.scheduler_info()["workers"])[0]
    client.run(_edit_code_digest, "another release", workers=[worker])
    try:
        with pytest.raises(SettingsError, match="other HybridLab code") as raised:
            same_code(client)
    finally:
        client.run(_edit_code_digest, workers=[worker])
    assert worker in str(raised.value) and len(client.scheduler_info()["workers"]) == 2
    assert sum(w in str(raised.value) for w in client.scheduler_info()["workers"]) == 1
    same_code(client)


def test_the_printed_dashboard_address_answers_with_dask_s_dashboard(client):
    import urllib.request

    from study.cluster import dashboard
    link = dashboard(client)
    assert link == client.dashboard_link and link.startswith("http://")
    with urllib.request.urlopen(link, timeout=HOLD_GUARD) as answer:
        page = answer.read().decode()
    assert answer.status == 200 and "<title>Dask" in page and "needs bokeh" not in page


NO_BOKEH = """import sys, urllib.request
sys.modules["bokeh"] = None                                    # as if bokeh were not installed
from distributed import Client, LocalCluster
from study.cluster import dashboard
with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster, Client(cluster) as client:
    print(dashboard(client))
    print(urllib.request.urlopen(client.dashboard_link, timeout=60).read().decode())
"""


def test_without_bokeh_the_dashboard_is_said_missing_not_given_as_a_dead_address():
    said, page = subprocess.run([sys.executable, "-c", NO_BOKEH], capture_output=True, text=True, check=True,
                                timeout=HOLD_GUARD).stdout.split("\n", 1)
    assert "Dask needs bokeh" in page                        # what the address would have shown
    assert said.startswith("not available: the scheduler's Python has no bokeh>=") and "http" not in said, said


def test_a_skipped_trial_s_folder_loses_the_staging_folder_of_a_killed_run(client, test_data, tmp_path):
    """A run killed while another completed the trial (a Dask worker killed mid-trial, its trial done elsewhere
    before the killed process was gone) leaves its staging folder beside complete outputs; the next run, which
    skips the trial, removes it (the process named in it is gone), and nothing else."""
    study = load_study(_one_walk(tmp_path, test_data))
    assert [o["status"] for o in run_study(study, tmp_path / "out", client).outcomes.values()] == ["done"]
    folder = tmp_path / "out" / "trials" / study.trials[0].subject / study.trials[0].id
    files = sorted(p.name for p in folder.iterdir())
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()                                   # a process id that no process has now
    stale = folder / f".hybrid-staging-{dead.pid}-killed"
    stale.mkdir()
    (stale / "ik.mot").write_text("half written")
    again = run_study(study, tmp_path / "out", client)
    assert [o["status"] for o in again.outcomes.values()] == ["skipped"]
    assert sorted(p.name for p in folder.iterdir()) == files


def _raising(trial, model, folder, fingerprint):
    raise ValueError("not a worker's death")


def test_a_task_that_raises_fails_its_trial_with_its_error_not_as_a_worker_s_death(client, test_data, tmp_path):
    """Only KilledWorker is a worker's death (said so, or the trial requeued when it never ran there); any other
    exception a task ends in fails its trial with that exception, once."""
    study = load_study(_one_walk(tmp_path, test_data))
    run = run_study(study, tmp_path / "out", client, per_task=1, analyse=_raising)
    [outcome] = run.outcomes.values()
    assert outcome["status"] == "failed" and outcome["requeued"] == 0
    assert outcome["error"] == "its task ended in ValueError: not a worker's death"
