"""Exports: CSV with a time column and units in the headers holding the engine's values, the OpenSim files,
figures as PNG, SVG and PDF, screenshots and a video; all written atomically."""
import csv

import numpy as np

from engine.analysis.series import result_series
from hybridgui import exports, menus
from hybridgui.exports import VideoExport


def test_csv_of_the_curves_shown_and_of_all_series(shown, tmp_path, monkeypatch):
    window, result = shown, shown.document.result
    target = tmp_path / "shown.csv"
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    menus.export_csv_dialog(window, shown=True)
    with open(target, newline="") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    body = np.array([[float(v) if v else np.nan for v in row] for row in rows[1:]])     # empty: not a number
    selected = window.curves.shown_series()
    assert {s.group for s in selected} == set(window.curves.groups)      # every group, its tab opened or not
    assert header == ["time [s]"] + [f"{s.label} [{s.unit}]" for s in selected]
    assert np.array_equal(body[:, 0], result.motion.time)
    for j, s in enumerate(selected, start=1):
        assert np.allclose(body[:, j], s.values, equal_nan=True, rtol=0, atol=0)
    every = tmp_path / "all.csv"
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(every), ""))
    menus.export_csv_dialog(window, shown=False)
    with open(every, newline="") as fh:
        header = next(csv.reader(fh))
    series = result_series(result, window.document.settings.forward)
    assert len(header) == 1 + len(series) and all(h.endswith("]") for h in header)


def test_opensim_files(shown, tmp_path):
    written = exports.export_opensim(tmp_path, shown.document.result)
    names = {p.name for p in written}
    assert {"ik.mot", "ik_marker_errors.sto", "id.sto", "metrics.json"} <= names
    assert all((tmp_path / n).stat().st_size > 0 for n in names)


def test_figures_in_three_formats(shown, tmp_path):
    plot = shown.curves.current_panel().plot
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = tmp_path / f"figure{suffix}"
        exports.export_figure(path, plot)
        data = path.read_bytes()
        assert data.startswith(magic) and len(data) > 1000, suffix
    assert b"<path" in (tmp_path / "figure.svg").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.pdf", "figure.png", "figure.svg"]  # no temporaries


def test_screenshot_of_the_view(shown, tmp_path):
    path = tmp_path / "view.png"
    exports.save_png(path, shown.view.image())
    assert path.read_bytes().startswith(b"\x89PNG")


def test_video_of_the_playback(shown, tmp_path, qtbot):
    window, doc = shown, shown.document

    def grab(frame):
        doc.set_frame(frame)
        return window.view.image()

    video = VideoExport(tmp_path / "playback.mp4", range(8), grab, 30.0, window)
    with qtbot.waitSignal(video.finished, timeout=60_000) as done:
        video.start()
    written = done.args[0]
    if written.endswith(".mp4"):
        data = (tmp_path / "playback.mp4").read_bytes()
        assert data[4:8] == b"ftyp" and len(data) > 1000
    else:   # no bundled encoder: numbered PNG frames
        assert len(list((tmp_path / "playback_frames").glob("frame_*.png"))) == 8
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]     # the temporary file was renamed
    assert doc.frame == 7
