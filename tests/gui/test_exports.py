"""Exports: CSV with a time column and units in the headers holding the engine's values, the OpenSim files,
figures as PNG, SVG and PDF showing the chosen curves (axes parsed back against the data, rendered alike by librsvg
and poppler), screenshots and a video (MP4, or PNG frames saying why),
which can be cancelled; all written atomically."""
import csv
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QPushButton

from engine.analysis.series import result_series
from engine.clinical.summary import names
from hybridgui import exports, menus
from hybridgui.exports import VideoExport

SVG = "{http://www.w3.org/2000/svg}"


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


def _ticks(svg_root, axis: str) -> list[float]:
    """The labelled ticks of one axis of a matplotlib SVG (groups ``xtick_N`` / ``ytick_N``, text kept as text)."""
    ticks = []
    for g in svg_root.iter(f"{SVG}g"):
        if re.fullmatch(rf"{axis}tick_\d+", g.get("id", "")):
            ticks.append(float("".join(g.itertext()).strip().replace("\u2212", "-")))
    return ticks


def _covers(ticks, lo, hi) -> bool:
    """The labelled ticks bracket [lo, hi] to within one tick step and span at least half of it."""
    step = np.diff(ticks).min()
    return ticks[0] - step <= lo and hi <= ticks[-1] + step and ticks[-1] - ticks[0] >= 0.5 * (hi - lo)


def _ink(png, colour: str) -> np.ndarray:
    """Mask of the pixels of an image file within 60 (RGB summed) of ``colour`` '#rrggbb'."""
    image = QImage(str(png)).convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    rgb = rows[:, :3 * image.width()].reshape(image.height(), image.width(), 3).astype(int)
    return np.abs(rgb - [int(colour[i:i + 2], 16) for i in (1, 3, 5)]).sum(axis=2) < 60


@pytest.mark.parametrize("axis", ["time", "Right gait cycle"])
def test_figures_axes_match_the_data_and_render_alike(shown, tmp_path, axis):
    for tool in ("pdftoppm", "pdftotext", "pdfinfo", "rsvg-convert"):
        assert shutil.which(tool), f"{tool} (Debian's poppler-utils, librsvg2-bin) is needed; .ci/run installs them"
    window = shown
    window.curves.axis.setCurrentText(axis)
    panel = window.curves.current_panel()
    chosen = [s.label for s in panel.selected_series()]
    others = [s.label for s in panel.series if s.label not in chosen]
    assert chosen and others
    subject, trial = names(window.document.result.trial)
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        exports.export_figure(tmp_path / f"figure{suffix}", panel, subject, trial)
        assert (tmp_path / f"figure{suffix}").read_bytes().startswith(magic), suffix
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.pdf", "figure.png", "figure.svg"]  # no temporaries
    svg = (tmp_path / "figure.svg").read_text(encoding="utf-8")
    assert "vector-effect" not in svg                   # strokes in plain user units: librsvg draws them as is
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]
    title = next(t for t in texts if subject in t)
    assert trial in title and trial and subject != "(no subject name)"
    for label in chosen:                                # the legend names every curve drawn, and no other
        assert label in texts, label
    assert not set(others) & set(texts)
    drawn = [panel._drawn[label] for label in chosen]
    x = np.concatenate([d[0] for d in drawn])
    y = np.concatenate([d[1] + (0 if d[2] is None else s * d[2]) for d in drawn for s in (-1, 1)])
    assert _covers(_ticks(root, "x"), np.nanmin(x), np.nanmax(x)), _ticks(root, "x")
    assert _covers(_ticks(root, "y"), np.nanmin(y), np.nanmax(y)), (_ticks(root, "y"), np.nanmin(y), np.nanmax(y))
    width = float(root.get("width").removesuffix("pt"))
    sizes = [float(m) for m in re.findall(r"font-size: ([\d.]+)px", svg)] or \
        [float(m) for m in re.findall(r"font: ([\d.]+)px", svg)]
    assert sizes and min(sizes) >= 7 and max(sizes) <= 12 and width <= 600      # readable at print size
    # the PDF: its page is the figure (no blank half), its text the SVG's title and tick labels
    info = subprocess.run(["pdfinfo", str(tmp_path / "figure.pdf")], check=True, capture_output=True, text=True).stdout
    page = [float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups()]
    assert page == pytest.approx([width, float(root.get("height").removesuffix("pt"))], abs=1)
    text = subprocess.run(["pdftotext", str(tmp_path / "figure.pdf"), "-"], check=True, capture_output=True,
                          text=True).stdout.replace("\u2212", "-")
    assert title.split(":")[0] in text and subject in text
    for tick in (t for t in texts if re.fullmatch(r"-?[\d.]+", t.replace("\u2212", "-"))):
        assert tick.replace("\u2212", "-") in text, tick
    # librsvg, poppler and Agg draw the same curves: as much ink of each curve's colour, within 35 %
    subprocess.run(["rsvg-convert", "-d", "100", "-p", "100", "-o", str(tmp_path / "svg.png"),
                    str(tmp_path / "figure.svg")], check=True)
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", str(tmp_path / "figure.pdf"),
                    str(tmp_path / "pdf")], check=True)
    for label in chosen:
        colour = panel._curves[label].opts["pen"].color().name()
        svg_ink, pdf_ink = _ink(tmp_path / "svg.png", colour), _ink(tmp_path / "pdf.png", colour)
        assert abs(svg_ink.shape[0] - pdf_ink.shape[0]) <= 1 and pdf_ink.sum() > 100, label
        assert abs(int(svg_ink.sum()) - int(pdf_ink.sum())) <= 0.35 * pdf_ink.sum(), (label, svg_ink.sum(), pdf_ink.sum())


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


def test_the_video_s_frame_rate_is_asked_real_time_by_default(shown, tmp_path, monkeypatch):
    window, doc = shown, shown.document
    asked, started = [], []
    monkeypatch.setattr(menus.QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "v.mp4"), ""))
    monkeypatch.setattr(menus.QInputDialog, "getDouble", lambda *a, **k: asked.append(a) or (12.5, True))
    monkeypatch.setattr(menus, "start_video", lambda w, path, fps=None: started.append((path, fps)))
    menus.export_video_dialog(window)
    (args,) = asked
    assert args[3] == pytest.approx(1.0 / np.median(np.diff(doc.time)), rel=1e-6)   # proposed: real time
    assert "real time" in args[2]
    assert started == [(str(tmp_path / "v.mp4"), 12.5)]                              # the rate chosen is used
    monkeypatch.setattr(menus.QInputDialog, "getDouble", lambda *a, **k: (30.0, False))
    menus.export_video_dialog(window)                                                 # cancelled: no video
    assert len(started) == 1
