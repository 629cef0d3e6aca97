"""`hybrid batch`'s own behaviour around the study: its progress lines, its exit statuses, its lock on the output
folder (the study itself runs in tests/study/test_batch.py)."""
from study.cli_batch import progress_line
from study.runner import StudyRun


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
