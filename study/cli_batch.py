"""``hybrid batch STUDY --out DIR``: a whole study on Dask (docs/batch.md), its exit status one of :data:`EXIT`."""
from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

SCHEDULER_UNREACHABLE, OUT_IN_USE, FAILED_BASE = 69, 75, 2
EXIT = {0: "every trial done (or skipped, done before)",
        1: "an error of hybrid itself, with its traceback",
        2: "an invalid study file or option, named (also a --scheduler cluster whose workers run other HybridLab "
           "code)",
        "3-63": "2 + the number of trials that failed, the others done (63: 61 or more; which: the last lines and "
                "study_summary.json)",
        SCHEDULER_UNREACHABLE: "the Dask scheduler given by --scheduler cannot be reached (sysexits' EX_UNAVAILABLE)",
        OUT_IN_USE: "another hybrid batch is writing into --out, named (sysexits' EX_TEMPFAIL: try again later)",
        130: "cancelled (Ctrl-C: 128 + SIGINT)",
        143: "ended by SIGTERM (a batch system cancelling the job or ending it at its time limit, kill), as Ctrl-C "
             "cancels: the manifest written, the finished trials kept"}
"""``hybrid batch``'s exit statuses and their meanings, as command-line tools give them: 0 success, 1 a crash (Python's
own), 2 a usage error (argparse's, and every ``hybrid`` command's invalid input), 69 and 75 from BSD's sysexits.h, 130 the
shell's for an interrupted command (the shell's 128 + a signal's number for one killed by a signal); the number of
failed trials counted above :data:`FAILED_BASE`, below sysexits' 64 (a count alone would read as a crash or an
invalid study at 1 and 2)."""


def failed_status(failed: int) -> int:
    """The exit status of a study of which ``failed`` trials failed (:data:`EXIT`)."""
    return FAILED_BASE + min(failed, 61) if failed else 0


def add_parser(sub) -> None:
    p = sub.add_parser("batch", help="analyse a whole study (study.yaml) on Dask, resumably",
                       description="Runs a study (study.yaml, see 'hybrid study init'): each subject's scaling, then "
                                   "every trial's analysis as 'hybrid analyze' runs it, as Dask tasks, by default on a "
                                   "local cluster of one worker process per core. A trial whose outputs exist with "
                                   "the same inputs and settings is skipped; a failing trial is reported and the "
                                   "rest goes on. Writes trials/<subject>/<trial>/, subjects/<subject>/, "
                                   "study_table.csv/.parquet (one row per trial and gait cycle), "
                                   "study_summary.json and study-manifest.json.",
                       epilog="exit status: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT.items()))
    p.add_argument("study", help="study file (study.yaml)")
    p.add_argument("--out", required=True, help="output folder (created if missing; reused to resume)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://host:8786 "
                                                          "(default: a local cluster)")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    p.add_argument("--memory-limit", metavar="SIZE", default="auto",
                   help="memory each worker of the local cluster may use, e.g. 2GB or 1500MB (default: an equal share "
                        "of the machine's memory); a worker over 95%% of it is restarted, and a trial that keeps "
                        "going over it fails saying so")
    p.add_argument("--trials-per-task", metavar="N|auto", default="auto",
                   help="trials of one subject each Dask task analyses, one after the other (default auto: up to "
                        "1000 frames of trials a task, fewer towards the end of the study so that no worker waits "
                        "for a long last task; on the 2-core VM where it was measured, Dask spent 8-10 ms of "
                        "processor on each task, about 5%% of a 0.2 s trial). Each trial keeps its own folder, resume and failure; 1: one task per trial")
    p.add_argument("--no-warm-up", action="store_true", help="workers do not compile the kernels before their "
                                                             "first task (they compile on first use)")
    p.set_defaults(run=run_command)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C's KeyboardInterrupt is, so that the study is cancelled the same way
    (``study.runner.run_study``: its tasks cancelled, its manifest written; exit status 143)."""


def _terminated(signum, frame):
    raise Terminated


def run_command(args) -> int:
    """``hybrid batch``, with SIGTERM handled as Ctrl-C (:class:`Terminated`: SLURM and PBS send it to a job they
    cancel or that reaches its time limit, and Python would otherwise end without writing the manifest)."""
    if threading.current_thread() is not threading.main_thread():
        return _batch(args)
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        return _batch(args)
    except Terminated:
        print("hybrid batch: ended by SIGTERM", file=sys.stderr)
        return 143
    finally:
        signal.signal(signal.SIGTERM, previous)


def _batch(args) -> int:
    from engine.errors import SettingsError

    from .cluster import SchedulerUnreachable
    from .description import load_study
    from .output_lock import OutputInUse, output_lock
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise SettingsError(f"--workers must be between 1 and 1024, got {args.workers}", "--workers")
    memory_limit = _memory_limit(args)
    per_task = _trials_per_task(args.trials_per_task)
    study = load_study(args.study)
    print(f"study '{study.name}': {len(study.subjects)} subjects, {len(study.trials)} trials -> {Path(args.out).resolve()}")
    try:
        with output_lock(args.out):
            run = _run(args, study, per_task, memory_limit)
    except SchedulerUnreachable as exc:
        print(f"hybrid batch: error: {exc}", file=sys.stderr)
        return SCHEDULER_UNREACHABLE
    except OutputInUse as exc:
        print(f"hybrid batch: error: {exc}", file=sys.stderr)
        return OUT_IN_USE
    print(f"{run.count('done')} analysed, {run.count('skipped')} skipped (done before), {run.failed} failed in "
          f"{run.seconds:.1f} s; {len(run.rows)} rows in {Path(args.out, 'study_table.csv').resolve()}")
    for key, outcome in run.outcomes.items():
        if outcome["status"] == "failed":
            print(f"failed: {key}: {outcome['error']}")
    return failed_status(run.failed)


def _run(args, study, per_task, memory_limit):
    """The :class:`study.runner.StudyRun` of ``study`` on the cluster of ``args``, its progress printed."""
    from .cluster import dashboard, local_cluster_notes, study_client
    from .runner import run_study
    total = len(study.trials)
    with study_client(args.scheduler, args.workers, not args.no_warm_up, memory_limit) as client:
        print(f"Dask: {len(client.scheduler_info()['workers'])} workers; dashboard {dashboard(client)}", flush=True)
        if not args.scheduler:
            print("Dask settings of this local cluster (docs/batch.md):\n" + "\n".join(
                f"  {note}" for note in local_cluster_notes()), flush=True)

        run = run_study(study, args.out, client, lambda outcome, run: print(progress_line(outcome, run, total),
                                                                          flush=True),
                        per_task, lambda notes: print(notes, flush=True))
    return run


def progress_line(outcome: dict, run, total: int) -> str:
    """The progress line of ``outcome`` (a trial that ended, ``study.runner``) in ``run`` of ``total`` trials: a bar
    of the trials ended, the trials analysed by this run, those skipped (done before: a resumed run's first lines),
    failed and remaining, then the trial's status with its error or its seconds and peak memory."""
    done, skipped, failed = run.count("done"), run.count("skipped"), run.failed
    filled = int(30 * (done + skipped + failed) / max(total, 1))
    if outcome["status"] == "skipped":
        detail = "done before, same fingerprint"
    else:
        detail = outcome.get("error") or (f"{outcome['seconds']:.1f} s, peak {outcome['peak_rss_mb']:.0f} MB"
                                          + ("" if outcome.get("peak_is_task", True) else " (the worker's so far)")
                                          if outcome.get("peak_rss_mb") else "")
    return (f"[{'#' * filled}{'.' * (30 - filled)}] done {done}, skipped {skipped}, failed {failed}, remaining "
            f"{total - done - skipped - failed}  {outcome['key']}: {outcome['status']}"
            + (f" ({detail})" if detail else ""))


def _memory_limit(args):
    """``--memory-limit`` as bytes ("auto" kept); SettingsError for a size Dask cannot read, one under 100 MB, or
    one given with ``--scheduler`` (an existing cluster's workers have their own)."""
    from dask.utils import parse_bytes

    from engine.errors import SettingsError
    if args.memory_limit == "auto":
        return "auto"
    if args.scheduler:
        raise SettingsError("--memory-limit sets the local cluster's workers; an existing cluster's (--scheduler) "
                            "have the limit they were started with", "--memory-limit")
    try:
        limit = parse_bytes(args.memory_limit)
    except (ValueError, TypeError):
        raise SettingsError(f"--memory-limit must be a size such as 2GB or 1500MB, got {args.memory_limit!r}",
                            "--memory-limit") from None
    if limit < 100e6:
        raise SettingsError(f"--memory-limit {args.memory_limit!r} is under 100 MB: a gait2354 walk's analysis "
                            "peaks at about 310 MB", "--memory-limit")
    return limit


def _trials_per_task(given: str):
    """``--trials-per-task`` as "auto" or a whole number of at least 1; SettingsError otherwise."""
    from engine.errors import SettingsError
    if given == "auto":
        return given
    try:
        n = int(given)
    except ValueError:
        n = 0
    if n < 1:
        raise SettingsError(f"--trials-per-task must be auto or a whole number of at least 1, got {given!r}",
                            "--trials-per-task")
    return n
