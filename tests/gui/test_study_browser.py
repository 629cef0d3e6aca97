"""File > Open study: a batch's study in a dock (one row per trial and cycle with its status, the failed trial's
error, the table's results), and a double-clicked trial's results in the main window, the very ones whose files the
batch wrote; a study changed since the batch is refused, saying why."""
import json

from distributed import Client
import pytest

from engine.io.analysis_outputs import write_outputs
from hybridgui import menus, study_browser
from study.description import load_study
from study.runner import run_study


@pytest.fixture(scope="module")
def batch(tmp_path_factory, test_data):
    """A study of gait2354's walk1 (0.5-1.3 s) and a corrupt trial, run by hybrid batch's runner into out/ beside
    the study file."""
    folder = tmp_path_factory.mktemp("study")
    g = test_data / "opensim" / "gait2354"
    (folder / "bad.trc").write_text("PathFileType\t4\t(X/Y/Z)\tbroken.trc\nthis is not a marker file\n")
    path = folder / "study.yaml"
    path.write_text(f"""format: hybridlab-study
version: 1
name: two-trials
settings: {{start: 0.5, end: 1.3}}
subjects:
  - id: s01
    model: {g / 'subject01_simbody.osim'}
    trials:
      - id: walk1
        file: {g / 'subject01_walk1.trc'}
        grf: {g / 'subject01_walk1_grf.mot'}
        external_loads: {g / 'subject01_walk1_grf.xml'}
      - id: corrupt
        file: {folder / 'bad.trc'}
""")
    with Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as client:
        run = run_study(load_study(path), folder / "out", client)
    assert run.count("done") == 1 and run.failed == 1
    return path


def test_a_study_opens_in_a_dock_and_a_trial_opens_with_the_batchs_results(make_window, qtbot, batch, tmp_path):
    window = make_window()
    assert any(a.text() == "Open stud&y..." for a in window.menuBar().actions()[0].menu().actions())
    study_browser.open_study_file(window, batch)           # the study file: its output folder found beside it
    browser = window.study_browser
    assert window.docks["study"].isVisible() and "two-trials" in browser.summary.text()
    table, study = browser.table, browser.study
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers[:3] == ["subject", "trial", "status"] and "ik rms mean mm" in headers
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    assert [(r[1], r[2]) for r in rows] == [("walk1", "done")] * (len(rows) - 1) + [("corrupt", "failed")]
    assert "bad.trc" in rows[-1][headers.index("error")]
    metrics = json.loads((batch.parent / "out" / "trials" / "s01" / "walk1" / "metrics.json").read_text())
    shown = float(rows[0][headers.index("ik rms mean mm")])
    assert shown == pytest.approx(1e3 * metrics["ik"]["marker_rms_mean_m"], rel=1e-3)     # 4 digits shown

    assert study_browser.open_trial(window, 0)
    qtbot.waitUntil(lambda: not window.study_runner.running, timeout=120000)
    result = window.document.result
    assert result is not None and window.document.trial is result.trial
    written = tmp_path / "again"
    written.mkdir()
    write_outputs(result, written)
    for name in ("ik.mot", "id.sto", "grf_measured.mot"):       # the files the batch wrote, to the byte
        assert (written / name).read_bytes() == (batch.parent / "out" / "trials" / "s01" / "walk1" / name).read_bytes()

    for other in (batch.parent / "out", batch.parent / "out" / "study-manifest.json"):   # the folder, its manifest
        study_browser.open_study_file(window, other)
        assert browser.study.rows == study.rows

    changed = batch.read_text().replace("end: 1.3", "end: 1.2")
    try:
        batch.write_text(changed)
        assert study_browser.open_trial(window, 0)
        qtbot.waitUntil(lambda: not window.study_runner.running, timeout=60000)
    finally:
        batch.write_text(changed.replace("end: 1.2", "end: 1.3"))
    assert "no finished outputs of the study as it is now" in window.reported[-1]
    assert window.document.result is result                 # what was shown stays


def test_the_menu_entry_opens_the_chosen_study(make_window, batch, monkeypatch):
    window = make_window()
    monkeypatch.setattr(study_browser.QFileDialog, "getOpenFileName", lambda *a, **k: (str(batch), ""))
    next(a for a in window.menuBar().actions()[0].menu().actions() if a.text() == "Open stud&y...").trigger()
    assert window.study_browser.study.source == batch and menus.study_browser is study_browser


def test_while_a_study_trial_loads_the_window_is_busy_and_cancel_reaches_it(make_window, batch):
    """A study trial's results computing in the background: nothing else opens or runs over them, and the progress
    panel's Cancel cancels it."""

    class Loading:
        running, cancelled = True, 0

        def cancel(self):
            self.cancelled += 1

    window = make_window()
    study_browser.open_study_file(window, batch)
    window.study_runner = loading = Loading()
    assert window.busy() and not window.run_analysis() and not study_browser.open_trial(window, 0)
    window.open_paths([batch])
    assert "the analysis is running" in window.reported[-1]
    window.progress.cancel.setEnabled(True)
    window.progress.cancel.click()
    assert loading.cancelled == 1
    loading.running = False
