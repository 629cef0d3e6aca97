"""The work of one Dask task, run in a worker process: a subject's scaling, a trial's analysis, or the analyses of
several trials of one subject one after the other (:func:`analyse_group`; ``study.trial_groups``).

Each writes its folder as a unit (``engine.io.output_folder``: staged, then moved in with its manifest), with a
record (:data:`RECORD`: the step's fingerprint, and a trial's rows of the study table and its ``seconds`` and
``cpu_seconds`` up to the record's writing, all of its work but moving its files in) inside the same unit, so a
folder holds either the complete outputs of one run and their record or its previous contents: a killed worker or
a cancelled study loses nothing done. A trial runs exactly what ``hybrid analyze`` runs on the same arguments
(``engine.cli.analyze``), with the model its worker read for an earlier trial when the file is the same
(``study.model_cache``). Each returns an outcome (a plain dict): ``status`` 'done' or 'failed', ``error``,
``seconds``, ``cpu_seconds`` (the step's own processor time, ``engine.work_cpu``: its thread's, the helper threads'
it hands work to and its C3D reader process's, not the other tasks' of a worker of several threads; fewer than
``seconds`` when the machine is shared), ``peak_rss_mb`` (the task's peak
resident memory, ``study.task_memory``; ``peak_is_task`` False when it is the worker's peak so far), and the scaled model or the rows. Invalid input (a HybridLabError) and a bug alike fail that step only; the error says which.

Each task carries the code digest of the study's client (``study.fingerprint.code_digest``), under which its results
are stored, and refuses to run (its trials failed, the error naming the worker and both digests) on a worker whose
own digest differs (:func:`other_code`): a worker that joined an existing cluster after the study started, with
another install, is checked as much as those there at its start (``study.cluster.same_code``).
"""
from __future__ import annotations

import json
import time
import traceback
from pathlib import Path

from engine.errors import HybridLabError
from engine.io.atomic import write_text
from engine.io.output_folder import MANIFEST, output_folder
from engine.work_cpu import work_cpu

from . import fingerprint as _fingerprint
from .description import analyze_arguments
from .model_cache import MODELS
from .table import trial_rows
from .task_memory import peak_memory

RECORD = "study-record.json"
SCALED_MODEL = "model.yaml"


def completed(folder, fingerprint: str):
    """The record of ``folder`` when it holds the complete outputs of a step with ``fingerprint``, else None."""
    folder = Path(folder)
    try:
        record = json.loads((folder / RECORD).read_text())
        files = json.loads((folder / MANIFEST).read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if record.get("fingerprint") != fingerprint or not all((folder / n).is_file() for n in files):
        return None
    return record


def _write_record(staging: Path, document: dict) -> Path:
    write_text(staging / RECORD, json.dumps(document, indent=1, allow_nan=False) + "\n")
    return staging / RECORD


def _error(exc: BaseException) -> str:
    if isinstance(exc, HybridLabError):
        return str(exc)
    where = traceback.extract_tb(exc.__traceback__)[-1]     # a bug: its type and where it happened, for the report
    return f"{type(exc).__name__}: {exc} (at {Path(where.filename).name}:{where.lineno})"


def other_code(code: str) -> str | None:
    """Why this process may not run a study's step whose client computes with the code of digest ``code``: its own
    digest (``study.fingerprint.code_digest``, computed once per process, on a worker as it starts:
    ``study.cluster.CodeDigest``) differs, and its results would be stored under fingerprints of other code; None
    when it is the same."""
    here = _fingerprint.code_digest()
    if here == code:
        return None
    from distributed import get_worker
    try:
        worker = f"the worker {get_worker().address}"
    except ValueError:                        # not in a worker's task
        worker = "this process"
    return (f"{worker} runs other HybridLab code than the study's client (its code digest {here}, the client's "
            f"{code}): its results would be stored as the client's code's; install the same HybridLab on every worker")


def failed_outcome(key: str, error: str) -> dict:
    """The outcome of a trial (or subject) ``key`` that failed with ``error`` before any work was measured: a refused
    task, a subject's files or scaling failed, a worker's death (``study.runner``)."""
    return {"key": key, "status": "failed", "error": error, "seconds": 0.0, "cpu_seconds": 0.0, "peak_rss_mb": None}


def _measured(key: str, work) -> dict:
    """The outcome of ``work(cpu)`` (a dict of the step's results: status 'done'; ``cpu`` its ``engine.work_cpu``
    account), or of its failure, with its key, seconds, processor seconds (the step's own, ``engine.work_cpu``: its
    thread's, its helper threads' and its C3D reader's, not those of the tasks beside it on a worker of several
    threads) and peak memory."""
    start = time.perf_counter()
    with work_cpu() as cpu, peak_memory() as memory:
        try:
            outcome = {"status": "done", **work(cpu)}
        except Exception as exc:
            outcome = {"status": "failed", "error": _error(exc)}
        cpu_seconds = cpu.seconds()
    return {"key": key, **outcome, "seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds, **memory}


def scale_subject(subject, folder, fingerprint: str, code: str) -> dict:
    """Scale ``subject`` into ``folder`` (``hybrid scale``'s outputs, the model as :data:`SCALED_MODEL`); the outcome
    holds ``model``, the scaled model's path, and the scaling's ``notes``; refused (failed) where this process's code
    digest is not ``code`` (:func:`other_code`)."""
    refused = other_code(code)
    if refused is not None:
        return failed_outcome(subject.id, refused)
    from engine.io.scale_files import scale_steps, write_scale_outputs
    from engine.progress import run as run_steps

    def work(cpu):
        with output_folder(folder) as staging:
            try:
                run, setup = run_steps(scale_steps(subject.scale_setup, subject.model, subject.static, subject.mass))
            except HybridLabError as exc:
                raise type(exc)(f"{_scaling(subject)} failed: {exc.problem}", exc.element, exc.file) from exc
            write_scale_outputs(run, setup, staging / SCALED_MODEL)
            _write_record(staging, {"fingerprint": fingerprint, "notes": list(run.result.notes)})
        return {"model": str(Path(folder) / SCALED_MODEL), "notes": list(run.result.notes)}
    return _measured(subject.id, work)


def _scaling(subject) -> str:
    """The scaling of ``subject`` in words naming its files, for its error (the step's own error may name none of
    them: "no model marker is found in the trial")."""
    static = f"the static trial {subject.static}" if subject.static else "the static trial its setup names"
    setup = f" with the ScaleTool setup {subject.scale_setup}" if subject.scale_setup else ""
    return f"scaling the model {subject.model} on {static}{setup}"


def analyse_trial(trial, model, folder, fingerprint: str, models=MODELS) -> dict:
    """Analyse ``trial`` with ``model`` (a model file, or its subject's scaling outcome) into ``folder``, as
    ``hybrid analyze`` does, the model file read through ``models`` (default this process's cache; None:
    read anew); the outcome holds the trial's ``rows`` of the study table."""
    from engine.cli.analyze import analyse_to_folder, parse_arguments
    if isinstance(model, dict) and model["status"] != "done":
        return failed_outcome(trial.key, f"its subject's scaling failed: {model['error']}")
    model = model["model"] if isinstance(model, dict) else model
    rows, start = [], time.perf_counter()

    def work(cpu):
        def record(result, settings, staging):
            rows.extend(trial_rows(trial.subject, trial.id, result, settings.forward))
            return [_write_record(staging, {"fingerprint": fingerprint, "rows": rows,
                                            "seconds": time.perf_counter() - start, "cpu_seconds": cpu.seconds()})]
        analyse_to_folder(parse_arguments(analyze_arguments(trial, model) + ["--out", str(folder), "--quiet"]),
                          record, None if models is None else models.open, trial.given_in)
        return {"rows": rows}
    return _measured(trial.key, work)


def analyse_single(started, analyse, trial, model, folder, fingerprint: str, code: str) -> dict:
    """``analyse(trial, model, folder, fingerprint)`` (a task of one trial; refused, failed, where this process's code
    digest is not ``code``: :func:`other_code`), after writing into the file ``started``
    the id of the worker it runs on (Dask's, unique to each worker process, also one restarted at the same address):
    when a worker dies, Dask fails every task it had sent to that worker, those waiting behind the running one too,
    and ``study.runner`` tells them apart by this file (a trial whose file does not name the worker that died never
    ran there, and is submitted again). Not synced to disk: :func:`analyse_group` says why."""
    from distributed import get_worker
    refused = other_code(code)
    if refused is not None:
        return failed_outcome(trial.key, refused)
    Path(started).write_text(get_worker().id)
    return analyse(trial, model, folder, fingerprint)


AGAIN = "again"
"""What :func:`analyse_group` returns when run a second time."""


def analyse_group(items, model, started, code: str, analyse=analyse_trial):
    """The trials of ``items`` (``(trial, folder, fingerprint)`` of one subject) analysed one after the other with
    ``model`` by ``analyse`` (default :func:`analyse_trial`): their outcomes, in order (a trial that fails fails alone:
    ``analyse`` returns its failure and the next trial runs); each refused (failed) where this process's code digest
    is not ``code`` (:func:`other_code`). ``started``: a file this task creates before its first
    trial; a task that finds it there is run again by Dask after its worker died (Dask reruns a task whose worker
    died), and returns :data:`AGAIN` without analysing anything, so that ``study.runner`` runs its unfinished trials
    one per task: a trial that kills its worker then fails alone, and the others complete. Before each trial, the
    task writes its index in ``items`` into ``started``: ``study.runner`` looks for the trials ended before it (done
    or failed: a failed trial leaves no record) and the running one, and no further. Written in place, not
    atomically: the file is a progress mark, not an output, and a reader that finds it empty looks again later.

    Nor synced to disk (no fsync; nor is :func:`analyse_single`'s): it is read only within one run of the study, by
    its runner and by this task run again; a worker killed (its process ended, by its nanny or the system) loses
    nothing it wrote (the file is in the kernel's cache once written, for every process, and on NFS on its server
    once closed); a power cut of the machine running the study ends that run, and the next removes these files
    before it submits anything (``study.runner.submit_study``). Lost all the same (a file server's crash while
    the study runs on), the cost is time, not results: a group run again by Dask analyses its trials again (each
    folder replaced as a unit, by the same outputs), a trial's lines come when its group ends, and a trial of its
    own whose worker id is lost is submitted again (``study.runner.REQUEUES``) instead of failing for its worker's
    death. An fsync would add 0.1-6 ms to each trial on this VM's disk (medians of 200-600 writes at load 3-7;
    tails over 100 ms), about 3% of a 0.2 s trial at worst, to guard none of these.

    Before each trial the task also asks whether Dask still wants its result (:func:`_released`): once its future
    was cancelled (a cancelled study, ``study.runner``) it starts no other trial and returns the outcomes of those
    it ran, fewer than ``items`` (the trial that was running has finished, its folder complete; the others are not
    done, and a rerun of the study runs them)."""
    refused = other_code(code)
    if refused is not None:
        return [failed_outcome(trial.key, refused) for trial, _, _ in items]
    try:
        with open(started, "x"):
            pass
    except FileExistsError:
        return AGAIN
    outcomes = []
    for index, (trial, folder, fingerprint) in enumerate(items):
        if _released():
            break
        Path(started).write_text(str(index))
        outcomes.append(analyse(trial, model, folder, fingerprint))
    return outcomes


def _released() -> bool:
    """Whether Dask has released the task this runs in: every client holding its future cancelled it or went away
    (its worker's task state is then "cancelled", Dask's "Worker State Machine"; Dask lets a running task finish, and
    forgets its result). The worker learns it from the scheduler's usual messages, so asking costs no message and
    no round trip, and it holds on any cluster, for a client that cancels as for one whose process was killed."""
    from distributed import get_worker
    worker = get_worker()
    return worker.state.tasks[worker.get_current_task()].state == "cancelled"
