"""A study as Dask tasks: one scaling per subject that needs one, then its trials' analyses waiting for its scaled
model, several trials of one subject per task (``study.trial_groups``: Dask's handling of each task costs 8-10 ms of
processor); what is already done (same fingerprint, complete outputs) is skipped.

Output folder::

    subjects/<subject>/      the scaling's files (model.yaml, scale set, static pose, residuals) and its record
    trials/<subject>/<trial>/  the analysis's files (as ``hybrid analyze`` writes them) and its record
    study-manifest.json      every trial's fingerprint, status (done, skipped, failed), error, seconds, processor seconds
                             (its own: :data:`CPU_SECONDS`), peak memory, and the times it was submitted again
                             (``requeued``, below)
    study_table.csv, study_table.parquet, study_summary.json   (``study.table``)

Every trial keeps its own folder, written as a unit with its record by the task (``study.tasks``), whichever task
runs it: the trial folders decide what a later run skips (``study.tasks.completed``), also the trials a group had
finished before its worker died. A trial that fails in a group fails alone; the group's next trial runs. The trials
of a running group are reported as each ends: every :data:`POLL_INTERVAL` the runner reads, for each group that has
started (its file under :data:`STARTED` is there), the index of the trial it runs from that file, and looks at the
folders of that trial and of those that ended since the last look (no message through Dask; one look for its file a
group still queued), with the timings of their records; it takes their timings and memory from the group's result
when it ends (a group whose worker died gives none: its trials keep their records' timings). A failed trial leaves no
record: its outcome comes with the group's result. A trial whose status in the group's result differs from the one
seen in its folder is reported again, with the status of the result.

The manifest is rewritten (atomically) as trials end, at most once every :data:`MANIFEST_INTERVAL` (rewriting
it after every trial would write a 1,000-trial study's thousand entries a thousand times), and when the study ends or
is cancelled, so a cancelled study says what it had finished. A worker that dies is replaced by Dask's nanny and its
task run again elsewhere (up to ``distributed.scheduler.allowed-failures``); a group run again does nothing
(``study.tasks.analyse_group``), and its trials not complete in their folders are submitted again one per task, so
that a trial that keeps killing workers fails alone (KilledWorker), with its error saying when their nannies
restarted them for going over their memory limit (``study.cluster``), and the others complete.

A study is cancelled by an exception out of :func:`run_study` (Ctrl-C in ``hybrid batch``, or one raised by its
``progress``): its futures are cancelled, and the manifest written. Dask cannot stop a running task: a running group
ends the trial it runs (kept, complete in its folder) and starts no other (``study.tasks.analyse_group`` asks Dask
whether its future is still wanted before each trial); the trials it did not start are not done, and a rerun runs
them. A study run again while a group of its cancelled run still runs may run that group's running trial a second
time (the same result, written atomically: the rerun regroups what is left under new keys, and Dask, which has
forgotten the cancelled task, may send the new one to another worker), or find the group's file under :data:`STARTED`
and run its trials one per task, as those of a group whose worker died.

A worker's death counts against every task Dask had sent to that worker, the one it ran and those waiting behind it
(Dask sends a few tasks to a worker at once): a trial waiting behind one that kills its worker can fail with
KilledWorker although it never ran. Each task of one trial writes, as it starts, the id of its worker into its
file under :data:`STARTED` (``study.tasks.analyse_single``); a trial whose task ends in KilledWorker and whose file
does not name the worker that died never ran there, and is submitted again (at most :data:`REQUEUES` times; the
manifest's ``requeued`` counts them), so that only a trial running when its workers died fails for it.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import HybridLabError
from engine.io.atomic import write_text
from engine.io.output_folder import remove_stale_stagings

from . import fingerprint
from .fingerprint import subject_fingerprint, trial_fingerprint
from .table import study_rows, summary, write_summary, write_table
from .tasks import SCALED_MODEL, analyse_group, analyse_single, analyse_trial, completed, failed_outcome, scale_subject
from .trial_groups import group_trials, grouping_notes

MANIFEST = "study-manifest.json"
CPU_SECONDS = ("each trial's own processor seconds, also beside other trials on a worker of several threads: its "
               "thread's, those of the helper threads it hands work to (inverse kinematics' parts, muscle paths) and "
               "its C3D reader process's up to its result (not its exit, about 0.025 s); a garbage collection of the "
               "worker process that its thread runs counts to it")
"""What the manifest's ``cpu_seconds`` count (``engine.work_cpu``), said in the manifest."""
MANIFEST_INTERVAL = 1.0
"""Seconds between two rewrites of the manifest while trials end (module notes)."""
POLL_INTERVAL = 0.5
"""Seconds between two looks at the folders of the running groups' trials (per-trial progress, module notes)."""
STARTED = ".hybrid-started"
"""The folder in ``out`` of the files each task creates as it starts (``study.tasks.analyse_group``,
``study.tasks.analyse_single``): each removed once its task's end is handled, the folder when the study ends."""
REQUEUES = 10
"""Times a trial is submitted again after a worker died before the trial started on it (module notes). Each death is
charged to the trial it ran, which fails after ``distributed.scheduler.allowed-failures`` + 1 of them, so the deaths
a waiting trial sees are bounded by the trials that kill their workers; this bound is for workers that die for other
reasons (a batch system ending them) again and again."""


@dataclass
class StudyRun:
    """``outcomes``: {``subject/trial``: outcome} (status 'done', 'skipped' or 'failed'); ``rows`` the study
    table's rows in the study's order; ``tasks`` the tasks its trials were grouped into (``study.trial_groups``; the
    trials of a group whose worker died, submitted again one per task, not counted); ``poll_cpu_seconds`` the processor
    seconds of the runner's looks at the groups' trial folders (module notes)."""

    outcomes: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    seconds: float = 0.0
    tasks: int = 0
    poll_cpu_seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(o["status"] == status for o in self.outcomes.values())

    @property
    def failed(self) -> int:
        return self.count("failed")


def _skipped(key: str, record: dict) -> dict:
    return {"key": key, "status": "skipped", "rows": record["rows"], "seconds": 0.0, "peak_rss_mb": None}


def _worker_death(client, exc: Exception) -> str:
    """Why a task's future raised: its worker died under it (KilledWorker); said with the memory limit when the
    worker's nanny restarted it for going over it (Dask's "worker-restart-memory" events)."""
    worker = getattr(exc, "last_worker", None)
    address = getattr(worker, "address", None)
    restarts = [event for _, event in client.get_events("worker-restart-memory") if event.get("worker") == address]
    if address is None or not restarts:
        return f"its worker died ({type(exc).__name__}: {exc})"
    limit = getattr(worker, "memory_limit", None)
    held = f"{restarts[-1]['rss'] / 1e6:.0f} MB"
    over = f"over 95% of its limit of {limit / 1e6:.0f} MB" if limit else "over its memory limit"
    return (f"it needs more memory than a worker may use: its worker held {held}, {over}, and was restarted by "
            f"Dask (as was each worker that ran it); give each worker more memory (hybrid batch --memory-limit) "
            f"or run fewer workers")


@dataclass
class _Task:
    """A submitted task: its ``items`` (``(trial, folder, fingerprint)``), the ``model`` they are analysed with (a
    file, or their subject's scaling future), whether it is a group (``study.tasks.analyse_group``), the index of
    its first trial the poll has not passed (:func:`_seen`), and the times a task of its one trial was submitted again (module notes)."""

    items: list
    model: object
    group: bool
    next: int = 0
    requeued: int = 0


def submit_study(study, out: Path, client, outcomes: dict, fingerprints: dict, per_task="auto",
                 analyse=None) -> tuple[dict, str]:
    """Submit what ``study`` still needs to ``client``, its trials grouped into tasks by ``per_task``
    (``study.trial_groups``, on the cluster's worker threads); fills ``outcomes`` with the trials skipped or failed
    before any work (a subject's files unreadable), ``fingerprints`` with every trial's. Returns ({future: _Task},
    what the grouping chose and why). ``analyse``: each trial's function (default ``study.tasks.analyse_trial``)."""
    analyse = analyse or analyse_trial
    subjects, model_of = [], {}          # the trials to run per subject; each subject's model, by the subject's id
    for subject in study.subjects:
        try:
            subject_digest = subject_fingerprint(subject)
        except (HybridLabError, OSError) as exc:
            for trial in subject.trials:
                outcomes[trial.key] = failed_outcome(trial.key, f"its subject's files cannot be read: {exc}")
            continue
        pending = []
        for trial in subject.trials:
            digest = fingerprints[trial.key] = trial_fingerprint(trial, subject_digest)
            folder = out / "trials" / subject.id / trial.id
            record = completed(folder, digest)
            if record is not None:
                outcomes[trial.key] = _skipped(trial.key, record)
                remove_stale_stagings(folder)    # of a run killed while another completed it (engine.io.output_folder)
            else:
                pending.append((trial, folder, digest))
        if not pending:
            continue
        model = None if subject.model is None else str(subject.model)
        if subject.scaled:
            folder = out / "subjects" / subject.id
            model = str(folder / SCALED_MODEL) if completed(folder, subject_digest) is not None else client.submit(
                scale_subject, subject, folder, subject_digest, fingerprint.code_digest(),
                key=f"scale-{subject.id}-{subject_digest[:12]}",
                priority=2)                    # before every group: its subject's groups wait for it (_submit_all)
        subjects.append(pending)
        model_of[subject.id] = model
    threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values()) if subjects else 0
    groups = group_trials(subjects, threads, per_task)
    shutil.rmtree(out / STARTED, ignore_errors=True)         # a killed earlier run's
    if groups:
        (out / STARTED).mkdir()
    tasks = [_Task(items, model_of[items[0][0].subject], len(items) > 1) for items in groups]   # one subject a group
    return _submit_all(client, tasks, analyse, out), grouping_notes(groups, threads, per_task)


def _submit_all(client, tasks: list, analyse, out: Path) -> dict:
    """{future: task} of ``tasks`` submitted to ``client`` (:func:`_arguments`, :func:`_key`), in two messages to the scheduler
    (``client.map`` of the groups, then of the single trials), not one a task (about 1 ms each: a thousand-trial study
    spent half a second submitting). Within a map Dask ranks the tasks in the order given (``client.map``'s internal
    priority), which one message a task does not (tasks submitted within ``fifo_timeout`` of each other run in an order
    of Dask's choosing); the groups rank before the single trials (``priority``), which ``study.trial_groups`` makes
    the short tasks of the study's end. Dask ranks by priority only the tasks in one place: those it holds back in its
    scheduler's queue (the "root-ish" tasks of a task group larger than twice the cluster's threads), or those it has
    sent to one worker; a small task group goes to the workers at once, past a large one's queued tasks. All the
    analysis tasks are therefore one task group (:func:`_key`), so that they are queued, or sent, alike. The subjects'
    scalings rank before the groups (``submit_study``): one waiting behind the groups ready meanwhile (those of the
    subjects scaled already, or given their model) would put its subject's large groups at the study's end."""
    futures, code = {}, fingerprint.code_digest()
    for group in (True, False):
        chosen = [task for task in tasks if task.group == group]
        if not chosen:
            continue
        function = analyse_group if group else analyse_single
        columns = zip(*(_arguments(t, analyse, out, code) for t in chosen))    # one list per argument, as map takes
        submitted = client.map(function, *columns, key=[_key(out, t) for t in chosen], retries=0,
                               priority=1 if group else 0)
        futures.update(zip(submitted, chosen))
    return futures


def _arguments(task: _Task, analyse, out: Path, code: str) -> tuple:
    """The arguments of ``task``'s function (``study.tasks.analyse_group`` for a group, else
    ``study.tasks.analyse_single``), ``code`` the client's code digest."""
    if task.group:
        return task.items, task.model, _started(out, task), code, analyse
    trial, folder, digest = task.items[0]
    return _started(out, task), analyse, trial, task.model, folder, digest, code


def _started(out: Path, task: _Task) -> Path:
    """The file ``task`` creates as it starts (``study.tasks.analyse_group``, ``study.tasks.analyse_single``), under
    :data:`STARTED`, named for its first trial and its size."""
    trial, _, digest = task.items[0]
    return out / STARTED / f"{trial.subject}-{trial.id}-{len(task.items)}-{digest[:12]}"


def _submit_single(client, task: _Task, analyse, out: Path):
    """The task of one trial ``task`` submitted to ``client`` again (a trial requeued, or one of a group whose worker
    died: :func:`_submit_all` submits the study's tasks at first): its future, keyed by :func:`_key`."""
    return client.submit(analyse_single, *_arguments(task, analyse, out, fingerprint.code_digest()),
                         key=_key(out, task), retries=0)


def _key(out: Path, task: _Task) -> str:
    """The Dask key of ``task``: named for its first trial and its size (its file under :data:`STARTED`) and the
    times it was submitted again (a trial, module notes); "analyse-" then a number for every task, so that Dask puts
    them all in one task group ("analyse": its name is the key's words up to the first that is not all letters),
    whatever the subjects' and trials' ids (:func:`_submit_all`)."""
    again = f"-again{task.requeued}" if task.requeued else ""
    return f"analyse-{len(task.items)}-{_started(out, task).name}{again}"


def _ran_there(started: Path, exc: Exception) -> bool:
    """Whether the task of one trial whose file is ``started`` (``study.tasks.analyse_single``) was running when the
    worker whose death failed it (``exc``, KilledWorker) died: its file names that worker (any worker, when Dask does
    not say which died)."""
    try:
        ran_on = started.read_text()
    except OSError:
        return False
    last = getattr(getattr(exc, "last_worker", None), "server_id", None)
    return last is None or ran_on == last


def _in_folder(item) -> dict | None:
    """The outcome of the trial of a group's ``item`` (``(trial, folder, fingerprint)``) when it is complete in its
    folder, else None: its timings those of its record (``study.tasks``: when it has them), until its task's result
    gives them all, its peak memory too (a group whose worker died gives none)."""
    trial, folder, digest = item
    record = completed(folder, digest)
    if record is None:
        return None
    return {"key": trial.key, "status": "done", "rows": record["rows"], "seconds": record.get("seconds"),
            "cpu_seconds": record.get("cpu_seconds"), "peak_rss_mb": None}


def _seen(task: _Task, out: Path, outcomes: dict) -> list:
    """The trials of the group ``task`` newly complete in their folders and without an outcome in ``outcomes``, as
    outcomes (:func:`_in_folder`), once the task has started (module notes): the index of the trial it runs read from
    its file (``study.tasks.analyse_group``), the trials from the first not yet passed up to that one are looked at (the
    running one may have ended); those before it have ended and are passed (a failed one's outcome comes with the
    task's result). A task not started: one look for its file."""
    try:
        running = int(_started(out, task).read_text())
    except (OSError, ValueError):           # not started (queued), or its file just created
        return []
    looked = [_in_folder(item) for item in task.items[task.next:running + 1] if item[0].key not in outcomes]
    task.next = max(task.next, running)
    return [outcome for outcome in looked if outcome is not None]


def run_study(study, out, client, progress=None, per_task="auto", say=None, analyse=None) -> StudyRun:
    """Run ``study`` on the Dask ``client`` into the folder ``out`` (module notes), its trials grouped into tasks by
    ``per_task`` ("auto" or a number of trials, ``study.trial_groups``; ``say(text)`` is given what was chosen and
    why). ``progress(outcome, run)`` is called once for each trial as it ends (skipped ones first), also for a trial
    that ends inside a group (seen in its folder, at most :data:`POLL_INTERVAL` later), and again for such a trial whose
    group's result gives it another status (module notes). ``analyse``: each trial's
    function (default ``study.tasks.analyse_trial``). Returns the :class:`StudyRun`; the table and summary are
    written when every trial has ended."""
    start = time.perf_counter()
    analyse = analyse or analyse_trial
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    run, fingerprints = StudyRun(), {}
    futures, notes = submit_study(study, out, client, run.outcomes, fingerprints, per_task, analyse)
    run.tasks = len(futures)

    def ended(outcome: dict) -> None:
        """``outcome`` kept, and reported unless it was already, with the same status (seen in its folder)."""
        nonlocal written
        before = run.outcomes.get(outcome["key"])
        run.outcomes[outcome["key"]] = outcome
        if time.monotonic() - written >= MANIFEST_INTERVAL:
            write_manifest(out, study, run, fingerprints)
            written = time.monotonic()
        if progress is not None and (before is None or before["status"] != outcome["status"]):
            progress(outcome, run)
    finished = queue.SimpleQueue()        # futures as they end, put by Dask's callback thread

    from distributed import KilledWorker     # here: study.browse, in the application, imports this module

    def handle(task: _Task, result) -> None:
        """The end of ``task`` with ``result`` (its outcome or outcomes, :data:`AGAIN`, or the exception its worker's
        death gave it): its trials' outcomes kept and reported, or its trials submitted again (module notes); its file
        under :data:`STARTED` removed (while the workers work, not all at the study's end: a thousand of them took
        half a second to remove on this VM)."""
        started = _started(out, task)
        if not task.group:
            key = task.items[0][0].key
            died = isinstance(result, KilledWorker)
            if isinstance(result, dict):
                outcome = {**result, "requeued": task.requeued}
            elif died and task.requeued < REQUEUES and not _ran_there(started, result):
                started.unlink(missing_ok=True)
                task.requeued += 1              # it waited behind the trial that killed its worker
                again = _submit_single(client, task, analyse, out)
                futures[again] = task
                again.add_done_callback(finished.put)
                return
            else:                               # its worker died under it, or (no worker's death) Dask's own error
                why = _worker_death(client, result) if died else f"its task ended in {type(result).__name__}: {result}"
                outcome = {**failed_outcome(key, why), "requeued": task.requeued}
            ended(outcome)
        else:       # a group: its trials' outcomes; those it left without one run one per task (its worker died:
            for outcome in result if isinstance(result, list) else ():     # AGAIN or KilledWorker; or it stopped,
                ended(outcome)                                             # module notes)
            for item in task.items:
                if item[0].key in run.outcomes:
                    continue
                outcome = _in_folder(item)
                if outcome is not None:
                    ended(outcome)
                else:
                    single = _Task([item], task.model, False)
                    again = _submit_single(client, single, analyse, out)
                    futures[again] = single
                    again.add_done_callback(finished.put)
        started.unlink(missing_ok=True)

    try:                                  # from here, an exception cancels the study (module notes)
        if say is not None:
            say(notes)
        write_manifest(out, study, run, fingerprints)
        written = time.monotonic()
        for outcome in list(run.outcomes.values()):
            if progress is not None:
                progress(outcome, run)
        for future in futures:
            future.add_done_callback(finished.put)
        polled = time.monotonic()
        while futures:
            if time.monotonic() - polled >= POLL_INTERVAL:       # also while tasks keep ending
                cpu = time.thread_time()
                seen = [outcome for task in futures.values() if task.group for outcome in _seen(task, out, run.outcomes)]
                run.poll_cpu_seconds += time.thread_time() - cpu
                for outcome in seen:
                    ended(outcome)
                polled = time.monotonic()
            try:
                batch = [finished.get(timeout=max(0.0, polled + POLL_INTERVAL - time.monotonic()))]
            except queue.Empty:
                continue
            while True:                      # and every other task ended meanwhile: their results in one gather
                try:
                    batch.append(finished.get_nowait())
                except queue.Empty:
                    break
            results = _results(client, batch)
            for future in batch:
                task = futures.pop(future)   # released: its worker drops the outcome, the scheduler the task
                handle(task, results.pop(future))
            del future, batch
    finally:
        client.cancel(list(futures))
        write_manifest(out, study, run, fingerprints)
        shutil.rmtree(out / STARTED, ignore_errors=True)
    finish_study(study, out, run)
    run.seconds = time.perf_counter() - start
    return run


def _results(client, batch: list) -> dict:
    """{future: its result, or the exception it ended with} of the ended futures ``batch``: those that finished
    gathered from their workers in one call (each ``result()`` is a round trip of the client's event loop to the
    scheduler and the worker, some 5 ms on this 2-core VM while the workers are busy: at hundreds of trials a second
    on a cluster, the runner would fall behind its workers), the others' exceptions (a worker died under them,
    KilledWorker; the tasks themselves return their failures). A result lost before it was fetched (its worker
    died) is computed again by Dask, for this client still holds its future, and the gather waits for it (a group's rerun finds its file under
    :data:`STARTED` and returns :data:`~study.tasks.AGAIN`); should the gather fail all the same (its futures
    cancelled, the connection to the scheduler lost), each future's result is asked for alone, so that each task gets
    its own outcome."""
    done = [f for f in batch if f.status == "finished"]
    try:
        results = dict(zip(done, client.gather(done))) if done else {}
    except Exception:
        results = {}
    for future in batch:
        if future not in results:
            try:
                results[future] = future.result()
            except Exception as exc:
                results[future] = exc
    return results


def finish_study(study, out: Path, run: StudyRun) -> None:
    """Once every trial of ``study`` has its outcome in ``run``: the outcomes put in the study's order, their rows
    gathered (a failed trial's row too, ``study.table.study_rows``), the study table and summary written into
    ``out``."""
    run.outcomes = {t.key: run.outcomes[t.key] for t in study.trials}
    run.rows = study_rows(run.outcomes)
    write_table(run.rows, out / "study_table.csv", out / "study_table.parquet")
    write_summary(out / "study_summary.json", summary(run.rows, run.outcomes))


def write_manifest(out: Path, study, run: StudyRun, fingerprints: dict) -> None:
    """The manifest of ``run`` (module notes), written atomically into ``out``."""
    trials = {}
    for trial in study.trials:
        o = run.outcomes.get(trial.key, {"status": "pending"})
        trials[trial.key] = {"fingerprint": fingerprints.get(trial.key), "status": o["status"],
                             "error": o.get("error"), "seconds": o.get("seconds"),
                             "cpu_seconds": o.get("cpu_seconds"), "peak_rss_mb": o.get("peak_rss_mb"),
                             "peak_is_task": o.get("peak_is_task"), "requeued": o.get("requeued", 0)}
    document = {"study": study.name, "source": study_path(study.source, out), "cpu_seconds": CPU_SECONDS,
                "trials": trials}
    write_text(out / MANIFEST, json.dumps(document, indent=1) + "\n")


def study_path(source, out) -> str:
    """The manifest's path of the study file ``source``: relative to the output folder ``out`` (with ``..``), so that
    a study copied with its results (a lab's folder to a laptop) keeps them; absolute where there is no relative path
    (another drive, on Windows). ``study.browse`` joins it to the manifest's folder."""
    source, out = Path(source).resolve(), Path(out).resolve()
    try:
        return Path(os.path.relpath(source, out)).as_posix()
    except ValueError:
        return str(source)
