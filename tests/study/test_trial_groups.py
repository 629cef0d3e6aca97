"""How a study's trials are grouped into tasks (``study.trial_groups``): from each trial's own frames, one subject a
task, short tasks towards the end when several workers share the study, a fixed count when asked."""
from pathlib import Path

import numpy as np
import pytest

from engine.io.trc import read_trc
from study.description import TrialSpec
from study.trial_groups import TAIL_FACTOR, TASK_FRAMES, analysed_frames, group_trials, grouping_notes

WALK = Path("opensim/gait2354/subject01_walk1.trc")         # 151 frames at 60 Hz, from 0 s


def _trial(test_data, subject: str, i: int, **settings) -> TrialSpec:
    return TrialSpec(subject, f"t{i}", test_data / WALK, None, None, settings)


@pytest.mark.parametrize("settings", [{}, {"start": 0.5, "end": 0.7}, {"start": 0.51}, {"end": 1.0001},
                                      {"start": -1.0, "end": 99.0}])
def test_the_frames_analysed_are_those_of_the_file_between_start_and_end(test_data, settings):
    time = read_trc(test_data / WALK).markers.time
    inside = (time >= settings.get("start", -np.inf)) & (time <= settings.get("end", np.inf))
    assert analysed_frames(_trial(test_data, "s", 0, **settings)) == inside.sum()


def test_a_trial_whose_header_cannot_be_read_has_no_frames_and_a_task_of_its_own(test_data, tmp_path):
    bad = tmp_path / "bad.trc"
    bad.write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    trials = [_trial(test_data, "s", i) for i in range(2)]
    trials.insert(1, TrialSpec("s", "bad", bad, None, None, {}))
    assert analysed_frames(trials[1]) is None
    groups = group_trials([[(t,) for t in trials]], 1)
    assert [[item[0].id for item in g] for g in groups] == [["t0"], ["bad"], ["t1"]]


def test_one_worker_thread_gets_tasks_of_up_to_the_target_frames_one_subject_each(test_data):
    per = TASK_FRAMES // 151                       # whole walks in a task
    subjects = [[(_trial(test_data, s, i),) for i in range(n)] for s, n in (("a", per + 2), ("b", 3))]
    groups = group_trials(subjects, 1)
    assert [len(g) for g in groups] == [per, 2, 3]
    assert [{item[0].subject for item in g} for g in groups] == [{"a"}, {"a"}, {"b"}]
    assert [item for g in groups for item in g] == [item for items in subjects for item in items]     # order kept


def test_several_worker_threads_get_shorter_tasks_towards_the_end(test_data):
    subjects = [[(_trial(test_data, "s", i),) for i in range(40)]]
    groups = group_trials(subjects, 2)
    sizes = [len(g) for g in groups]
    assert [item for g in groups for item in g] == subjects[0]
    left = 40
    for size in sizes:                              # each at most 1/(2 x threads) of what was left, at least 1 trial
        assert size == max(1, min(TASK_FRAMES // 151, left // (TAIL_FACTOR * 2)))
        left -= size
    assert sizes[0] > 1 and sizes[-4:] == [1, 1, 1, 1]
    assert [len(g) for g in group_trials([subjects[0][:4]], 2)] == [1, 1, 1, 1]      # enough tasks for both workers


def test_no_worker_thread_yet_groups_as_one_thread_and_the_notes_say_so(test_data):
    """A cluster with no worker when the study starts (workers still to come): tasks of consecutive walks up to the
    target frames each, as on one thread, none shortened at the end, and the notes say what was assumed."""
    subjects = [[(_trial(test_data, "s", i),) for i in range(40)]]
    groups = group_trials(subjects, 0)
    assert [item for g in groups for item in g] == subjects[0]
    assert [len(g) for g in groups] == [TASK_FRAMES // 151] * (40 // (TASK_FRAMES // 151)) + [40 % (TASK_FRAMES // 151)]
    notes = grouping_notes(groups, 0, "auto")
    assert notes.startswith(f"trials per task: auto: {len(groups)} tasks for 40 trials on no worker thread yet (none "
                            "connected when the study started)")
    assert "as for one worker thread, for how many will come is unknown" in notes and "0 worker" not in notes


def test_a_number_of_trials_per_task_is_kept_within_each_subject(test_data):
    subjects = [[(_trial(test_data, s, i),) for i in range(n)] for s, n in (("a", 5), ("b", 2))]
    assert [len(g) for g in group_trials(subjects, 2, 2)] == [2, 2, 1, 2]
    assert [len(g) for g in group_trials(subjects, 2, 1)] == [1] * 7
    assert "--trials-per-task 2" in grouping_notes(group_trials(subjects, 2, 2), 2, 2)
    notes = grouping_notes(group_trials(subjects, 2), 2, "auto")
    assert f"up to {TASK_FRAMES} frames" in notes
    assert "on the 2-core VM where it was measured, Dask spent 8-10 ms" in notes      # not a fact of any machine


@pytest.mark.parametrize("given", ["0", "-2", "many", "1.5"])
def test_a_trials_per_task_that_is_no_count_is_refused(tmp_path, capsys, given):
    from engine.cli.main import main
    study = tmp_path / "study.yaml"
    study.write_text("format: hybridlab-study\nversion: 1\nsubjects: []\n")
    assert main(["batch", str(study), "--out", str(tmp_path / "out"), "--trials-per-task", given]) == 2
    assert "--trials-per-task must be auto or a whole number" in capsys.readouterr().err
