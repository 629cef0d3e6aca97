"""Exports: CSV with a time column and units in the headers holding the engine's values, the OpenSim files,
figures as PNG, SVG and PDF showing the chosen curves, screenshots and a video (MP4, or PNG frames saying why),
which can be cancelled; all written atomically."""
import csv
import re
import zlib

import numpy as np
from PySide6.QtWidgets import QPushButton

from engine.analysis.series import result_series
from hybridgui import exports, menus
from hybridgui.exports import VideoExport


def pdf_text(data: bytes) -> str:
    """The characters a PDF written by Qt draws (``<glyphs> Tj``), in drawing order, through its ToUnicode maps."""
    streams = []
    for raw in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            streams.append(zlib.decompress(raw))
        except zlib.error:
            streams.append(raw)
    to_unicode = {}
    for s in streams:
        for block in re.findall(rb"beginbfrange(.*?)endbfrange", s, re.S):
            for lo, hi, target in re.findall(rb"<(\w+)>\s*<(\w+)>\s*(\[[^\]]*\]|<\w+>)", block):
                lo, hi = int(lo, 16), int(hi, 16)
                if target.startswith(b"["):
                    for k, code in enumerate(re.findall(rb"<(\w+)>", target)):
                        to_unicode[lo + k] = chr(int(code, 16))
                else:
                    for k in range(hi - lo + 1):
                        to_unicode[lo + k] = chr(int(target[1:-1], 16) + k)
        for block in re.findall(rb"beginbfchar(.*?)endbfchar", s, re.S):
            for glyph, code in re.findall(rb"<(\w+)>\s*<(\w+)>", block):
                to_unicode[int(glyph, 16)] = chr(int(code, 16))
    assert to_unicode, "the PDF has no text"
    return "".join(to_unicode.get(int(glyphs[i:i + 4], 16), "\ufffd") for s in streams
                   for glyphs in re.findall(rb"<(\w+)>\s*Tj", s) for i in range(0, len(glyphs), 4))


def _squeezed(text: str) -> str:
    return "".join(text.split())


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
    panel = shown.curves.current_panel()
    chosen = [s.label for s in panel.selected_series()]
    others = [s.label for s in panel.series if s.label not in chosen]
    assert chosen and others
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = tmp_path / f"figure{suffix}"
        exports.export_figure(path, panel.plot)
        data = path.read_bytes()
        assert data.startswith(magic) and len(data) > 1000, suffix
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.pdf", "figure.png", "figure.svg"]  # no temporaries
    svg = (tmp_path / "figure.svg").read_text(encoding="utf-8")
    for label in chosen:        # every curve chosen is drawn, in its colour
        colour = panel._curves[label].opts["pen"].color().name()
        assert re.search(rf'<g [^>]*stroke="{colour}"[^>]*>\s*<polyline', svg), (label, colour)
    texts = [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    pdf = _squeezed(pdf_text((tmp_path / "figure.pdf").read_bytes()))
    for label in chosen:        # the legend names every curve drawn ...
        assert label in texts, label
        assert _squeezed(label) in pdf, label
    for label in others:        # ... and no other
        assert label not in texts and _squeezed(label) not in pdf, label
    assert "time (s)" in texts and _squeezed(panel.plot.getAxis("left").labelText) in pdf


def test_screenshot_of_the_view(shown, tmp_path):
    path = tmp_path / "view.png"
    exports.save_png(path, shown.view.image())
    assert path.read_bytes().startswith(b"\x89PNG")


def _export_video(window, path, frames, qtbot):
    """Run a VideoExport of ``frames`` of the window's view to ``path``; returns it and the path it wrote."""
    def grab(frame):
        window.document.set_frame(frame)
        return window.view.image()

    video = VideoExport(path, frames, grab, 30.0, window)
    with qtbot.waitSignal(video.finished, timeout=60_000) as done:
        video.start()
    return video, done.args[0]


def test_video_of_the_playback(shown, tmp_path, qtbot):
    window, doc = shown, shown.document
    video, written = _export_video(window, tmp_path / "playback.mp4", range(8), qtbot)
    assert written == str(tmp_path / "playback.mp4") and video.note == ""    # imageio-ffmpeg is a dependency
    data = (tmp_path / "playback.mp4").read_bytes()
    assert data[4:8] == b"ftyp" and len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["playback.mp4"]     # the temporary file was renamed
    assert doc.frame == 7


def test_without_an_encoder_the_frames_are_written_and_the_user_told_why(shown, tmp_path, qtbot, monkeypatch):
    window = shown
    monkeypatch.setattr(exports, "_encoder", lambda: (None, "the imageio-ffmpeg package is not installed"))
    video, written = _export_video(window, tmp_path / "playback.mp4", range(4), qtbot)
    assert written == str(tmp_path / "playback_frames")
    assert len(list((tmp_path / "playback_frames").glob("frame_*.png"))) == 4
    assert not (tmp_path / "playback.mp4").exists()
    assert "imageio-ffmpeg package is not installed" in video.note and "playback_frames" in video.note
    # from the menu: the progress dialog says why, and so does the status bar when it ends (here cancelled)
    video = menus.start_video(window, tmp_path / "again.mp4", fps=30.0)
    assert "imageio-ffmpeg package is not installed" in window.video_dialog.labelText()
    with qtbot.waitSignal(video.cancelled, timeout=60_000):
        video.progress.connect(lambda n, total: window.video_dialog.findChild(QPushButton).click() if n == 2 else None)
    assert window.statusBar().currentMessage() == "Video export cancelled: 2 PNG frames written to again_frames stay there."
    assert len(list((tmp_path / "again_frames").glob("frame_*.png"))) == 2


def test_a_video_export_is_cancelled_from_its_progress_dialog(shown, tmp_path, qtbot):
    window = shown
    video = menus.start_video(window, tmp_path / "playback.mp4", fps=30.0)
    dialog = window.video_dialog
    assert dialog.isVisible() and dialog.maximum() == window.document.n_frames
    cancel = dialog.findChild(QPushButton)
    assert cancel.text() == "Cancel"
    with qtbot.waitSignal(video.cancelled, timeout=60_000) as stopped:
        video.progress.connect(lambda done, total: cancel.click() if done == 3 else None)
    assert stopped.args == [3] and not video.running
    qtbot.wait(50)                                      # no frame is written after the cancel
    assert video._done == 3
    assert list(tmp_path.iterdir()) == []               # no video, no temporary file
    assert "cancelled" in window.statusBar().currentMessage() and not dialog.isVisible()
    assert window.last_error is None                    # a cancel is not an error
