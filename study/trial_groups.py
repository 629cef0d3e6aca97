"""How a study's trials are grouped into Dask tasks: several trials of one subject per task, sized from each trial's
own length, never from an earlier run.

Why: Dask spends 8-10 ms of processor on each task in its own handling of it, whatever its settings (about 4 ms on
the worker's event loop, sharing the GIL with the trial, and 5-6 ms in the scheduler's, nannies' and client's event
loops: ``benchmarks/bench_task_cpu.py``, docs/batch.md "Dask's overhead"), about 5% of a gait2354 trial's 0.18-0.25
s. Dask's own advice for small tasks is fewer, larger ones. A task of several trials runs them one after the other
(``study.tasks.analyse_group``); each trial still has its own folder, record, outcome and failure.

``auto`` (the default): a trial's weight is the number of its frames the analysis covers (between its start and end
settings), read from its marker file's header (:func:`analysed_frames`: a few hundred bytes, not the data). A task
takes consecutive trials of one subject (they share its model, and its scaling when it is scaled) up to
:data:`TASK_FRAMES` frames, and, when the cluster has more than one worker thread, up to 1/(2 x threads) of the frames
not yet given to a task (guided self-scheduling with a factor of 2): the tasks get shorter towards the end of the
study, so that when one worker has nothing left the others finish within about one short task, and a study too small
to fill the workers gets one trial per task (4 equal trials on 2 threads: 4 tasks). With one worker thread nobody
waits for a tail, and a task is up to :data:`TASK_FRAMES` frames. With no worker thread when the study starts (its
workers still to come: an adaptive cluster, which starts them for the tasks it is given, or batch jobs still queued),
how many will share the study is unknown: the tasks are those of one thread, each up to :data:`TASK_FRAMES` frames
(about 1.5 s of gait2354 trials), none shortened towards the end; the grouping's notes say so. A trial whose header
gives no frame count (a file that cannot be read, whose analysis will say why, or a C3D of more frames than its
header's 16 bits hold) is a task of its own. A number N instead: N consecutive trials of one subject per task (1: one
task per trial).
"""
from __future__ import annotations

import math

from engine.errors import HybridLabError

TASK_FRAMES = 1000
"""Frames a task of ``auto`` holds at most: about 1.2-1.7 s of analysis of a gait2354 trial with its plates on this
2-core VM (151 frames in 0.18-0.25 s, ``benchmarks/bench_batch.py``'s loop), so that Dask's 8-10 ms a task is under
1% of it; frames of a model with muscles or of a larger model cost more, which makes the task longer, and Dask's share
smaller. No longer: beyond it Dask's share hardly falls further (a cancelled study's running task stops after the
trial it runs whatever its length, ``study.tasks.analyse_group``)."""

TAIL_FACTOR = 2
"""A task of ``auto`` on several worker threads holds at most 1/(TAIL_FACTOR x threads) of the frames left (module
notes)."""


def analysed_frames(trial) -> int | None:
    """The number of frames of ``trial``'s marker file between its ``start`` and ``end`` settings (all of them
    without), from the file's header alone; None when the header gives no count (module notes)."""
    from engine.io.c3d import read_c3d_span
    from engine.io.trc import read_trc_span
    read = read_c3d_span if trial.file.suffix.lower() == ".c3d" else read_trc_span
    try:
        t0, rate, frames = read(trial.file)
    except (HybridLabError, OSError):
        return None
    if frames is None:
        return None
    start, end = trial.settings.get("start"), trial.settings.get("end")
    first = 0 if start is None else max(0, math.ceil((start - t0) * rate - 1e-9))
    last = frames - 1 if end is None else min(frames - 1, math.floor((end - t0) * rate + 1e-9))
    return max(1, last - first + 1)


def group_trials(subjects: list, threads: int, per_task: int | str = "auto") -> list:
    """``subjects``: per subject, the list of its items (tuples whose first element is a trial) still to run, in the
    study's order; ``threads``: the cluster's worker threads (0: none yet, grouped as for one); ``per_task``: "auto"
    or a number of trials (module notes). Returns the groups, each a list of one subject's consecutive items, in the
    study's order."""
    if per_task != "auto":
        return [items[i:i + per_task] for items in subjects for i in range(0, len(items), per_task)]
    weights = [[analysed_frames(item[0]) for item in items] for items in subjects]
    left = sum(w for ws in weights for w in ws if w is not None)
    groups = []
    for items, ws in zip(subjects, weights):
        i = 0
        while i < len(items):
            group, weight = [items[i]], ws[i]
            i += 1
            if weight is not None:
                limit = TASK_FRAMES if threads <= 1 else min(TASK_FRAMES, left / (TAIL_FACTOR * threads))
                while i < len(items) and ws[i] is not None and weight + ws[i] <= limit:
                    group.append(items[i])
                    weight += ws[i]
                    i += 1
                left -= weight
            groups.append(group)
    return groups


def grouping_notes(groups: list, threads: int, per_task: int | str) -> str:
    """What :func:`group_trials` chose for ``groups`` on ``threads`` worker threads and why, to print."""
    sizes = [len(g) for g in groups]
    trials = sum(sizes)
    if not groups:
        return f"trials per task: {per_task}; no trial to run"
    on = _count(threads, "worker thread") if threads else "no worker thread yet (none connected when the study started)"
    chosen = (f"trials per task: {per_task}: {_count(len(groups), 'task')} for {_count(trials, 'trial')} on {on} "
              f"({min(sizes)} to {max(sizes)} trials a task)")
    if per_task != "auto":
        return chosen + f" (--trials-per-task {per_task}, each task {per_task} trials of one subject)"
    why = ("(on the 2-core VM where it was measured, Dask spent 8-10 ms of processor on each task, about 5% of a 0.2 s "
           "trial: docs/batch.md); --trials-per-task N sets it")
    if not threads:
        return (chosen + f": as for one worker thread, for how many will come is unknown (an adaptive cluster's or "
                f"queued batch jobs' workers): a task takes consecutive trials of one subject up to {TASK_FRAMES} "
                f"frames (their frames between start and end, from each file's header), the last tasks no shorter "
                f"(start the study once its workers are up for short last tasks) " + why)
    return (chosen + f": a task takes consecutive trials of one subject up to {TASK_FRAMES} frames (their frames "
            f"between start and end, from each file's header), and with several worker threads at most "
            f"1/({TAIL_FACTOR} x threads) of the frames left, so that the last tasks are short " + why)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
