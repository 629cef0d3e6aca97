"""File > Open study: a batch's study in a dock (one row per trial and cycle with its status, the failed trial's
error, the table's results), and a double-clicked trial's results in the main window, the very ones whose files the
batch wrote; a study changed since the batch is refused, saying why."""
import json
from pathlib import Path

from distributed import Client
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
import pytest

from engine.io.analysis_outputs import write_outputs
from hybridgui import menus, study_browser
from study.browse import StudyTable
from study.description import load_study
from study.runner import run_study


def texts(table) -> tuple[list, list]:
    """The view's header texts and the texts of its rows, as shown (in the order shown)."""
    model = table.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return headers, [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


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
    study = browser.study
    headers, rows = texts(browser.table)
    assert headers[:3] == ["subject", "trial", "status"] and "ik rms mean mm" in headers
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


ROWS = [("P1", "walk2", "done", 9.5, 1), ("P1", "walk10", "done", 10.25, 2), ("P2", "walk1", "failed", None, None),
        ("P10", "run1", "done", 100.0, 1), ("P2", "run3", "pending", None, None), ("P1", "walk3", "done", 2.0, 1)]
"""Trials whose speeds sort otherwise as texts ('10.25' < '2'), and names whose digits do ('walk10' < 'walk2')."""


@pytest.fixture
def browser(qtbot):
    columns = ["subject", "trial", "status", "speed_m_per_s", "cycle", "error"]
    rows = [dict(zip(columns, row + ("bad.trc: not a marker file" if row[2] == "failed" else None,)))
            for row in ROWS]
    widget = study_browser.StudyBrowser()
    qtbot.addWidget(widget)
    widget.show_study(StudyTable("lab", Path("study.yaml"), Path("out"), rows, columns))
    widget.resize(900, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def click_header(table, name: str) -> int:
    header, model = table.horizontalHeader(), table.model()
    column = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == name)
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    return column


def test_a_click_on_a_header_sorts_by_the_columns_values_empty_last_and_the_selection_stays(browser):
    table = browser.table
    headers, rows = texts(table)
    assert [r[1] for r in rows] == [r[1] for r in ROWS]                 # the study's order until a header is clicked
    table.selectRow(0)                                                  # P1 walk2
    speeds = sorted(r[3] for r in ROWS if r[3] is not None)
    empty = sum(r[3] is None for r in ROWS)
    for order in (speeds, speeds[::-1]):                                # a click: ascending, another: descending
        column = click_header(table, "speed m per s")
        _, rows = texts(table)
        assert [float(r[column]) for r in rows[:len(speeds)]] == order      # as numbers, not as texts
        assert [r[column] for r in rows[len(speeds):]] == [""] * empty      # empty cells last either way
        assert [(r[0], r[1], float(r[column])) for r in rows[:len(speeds)]] == sorted(
            [(r[0], r[1], r[3]) for r in ROWS if r[3] is not None], key=lambda r: r[2], reverse=order[0] > order[1])
        selected = table.selectionModel().selectedRows()
        assert [(i.data(), i.siblingAtColumn(1).data()) for i in selected] == [("P1", "walk2")]
    column = click_header(table, "trial")
    assert [r[column] for r in texts(table)[1]] == ["run1", "run3", "walk1", "walk2", "walk3", "walk10"]
    column = click_header(table, "subject")
    assert [r[column] for r in texts(table)[1]] == ["P1", "P1", "P1", "P2", "P2", "P10"]


def test_the_filter_keeps_the_rows_whose_subject_trial_or_status_match_and_a_double_click_opens_the_trial_shown(
        browser, qtbot):
    table = browser.table
    QTest.keyClicks(browser.filter, "p1 WALK")                          # every word, any case, any of the three
    assert [(r[0], r[1]) for r in texts(table)[1]] == [("P1", "walk2"), ("P1", "walk10"), ("P1", "walk3")]
    browser.filter.clear()
    QTest.keyClicks(browser.filter, "failed")
    assert [(r[0], r[1]) for r in texts(table)[1]] == [("P2", "walk1")]
    browser.filter.clear()
    assert len(texts(table)[1]) == len(ROWS)
    click_header(table, "speed m per s")
    QTest.keyClicks(browser.filter, "done")
    index = table.model().index(0, 0)                                   # the slowest done trial: P1 walk3
    where = table.visualRect(index).center()
    with qtbot.waitSignal(browser.opened) as opened:
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=where)      # a double click's first press
        QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert browser.trial_at(opened.args[0]) == ("P1", "walk3") and opened.args[0] == 5
