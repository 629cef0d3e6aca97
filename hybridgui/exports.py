"""Exports, every file written atomically (``engine.io.atomic``): CSV tables of series, the OpenSim files of
``hybrid analyze``, plot figures (PNG, SVG, PDF), viewport screenshots, and videos of the playback (MP4 through
the ``imageio-ffmpeg`` encoder, else numbered PNG frames, saying why), which can be cancelled."""
from __future__ import annotations

import contextlib
import traceback
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QTimer, Signal
from PySide6.QtGui import QImage

from engine.io.analysis_outputs import OUTPUT_NAMES, write_outputs
from engine.io.series_csv import write_series_csv
from engine.errors import DataError
from engine.io.plot_figure import write_plot
from engine.io.atomic import atomic_path, write_bytes
from engine.io.output_folder import output_folder


def export_csv(path, series) -> None:
    """A CSV table of ``series`` (time column, units in headers)."""
    write_series_csv(path, series)


def export_opensim(folder, result) -> list:
    """The files ``hybrid analyze`` writes (ik.mot, id.sto, grf_*.mot, metrics.json ...), into ``folder`` as a unit
    (``engine.io.output_folder``: an earlier export's files this one does not write are removed)."""
    with output_folder(folder, OUTPUT_NAMES) as staging:
        written = write_outputs(result, staging)
    return [Path(folder) / path.name for path in written]


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data)


def save_png(path, image: QImage) -> None:
    write_bytes(path, png_bytes(image))


def export_figure(path, panel, subject: str, trial: str) -> None:
    """The curves a :class:`~hybridgui.curves.panel.CurvePanel` shows as PNG, SVG or PDF (by the suffix of
    ``path``), drawn by the engine's figure code (``engine.io.plot_figure``, the report's), titled with ``subject``
    and ``trial``."""
    write_plot(path, panel.figure_plot(subject, trial))


def _encoder():
    """``(write_frames, None)``: imageio-ffmpeg's frame writer; ``(None, why)`` when it is not available."""
    try:
        import imageio_ffmpeg
    except ImportError:
        return None, "the imageio-ffmpeg package is not installed"
    try:
        imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as exc:
        return None, f"imageio-ffmpeg finds no ffmpeg program ({exc})"
    return imageio_ffmpeg.write_frames, None


class VideoExport(QObject):
    """Writes the playback to a video one frame per timer tick, so the window stays responsive.

    ``grab(frame)`` must show ``frame`` and return the viewport's QImage. MP4 when the encoder is available
    (written to a temporary file, renamed at the end), else PNG frames in the folder ``<name>_frames``; ``note``
    then says why (after :meth:`start`). Signals: ``progress(done, total)``, ``finished(path)``,
    ``failed(exception, details)``, ``cancelled(frames written)`` (a cancelled MP4 leaves no file; PNG frames
    written stay).
    """

    progress = Signal(int, int)
    finished = Signal(str)
    failed = Signal(object, str)
    cancelled = Signal(int)

    def __init__(self, path, frames, grab, fps: float, parent=None):
        super().__init__(parent)
        self.path = Path(path)
        self.frames = list(frames)
        self.grab = grab
        self.fps = fps
        self._done = 0
        self._stack = contextlib.ExitStack()
        self._writer = None
        self._folder = None
        self.note = ""
        self.running = False
        self._stepping = False
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)

    def start(self) -> None:
        if self.path.suffix.lower() == ".mp4":
            write_frames, why = _encoder()
        else:
            write_frames, why = None, f"only MP4 videos are encoded, not {self.path.suffix or 'files without suffix'}"
        if write_frames is not None:
            self._temporary = self._stack.enter_context(atomic_path(self.path))
            self._write_frames = write_frames
        else:
            self._folder = self.path.with_name(self.path.stem + "_frames")
            if not self._folder.parent.is_dir():
                raise DataError("the folder does not exist", file=self._folder.parent)
            self._folder.mkdir(exist_ok=True)
            self.note = f"{why}: PNG frames are written to {self._folder} instead of {self.path.name}"
        self.running = True
        self._timer.start()

    def cancel(self) -> None:
        """Stop after the frame being written; an MP4 is not written, PNG frames written so far stay."""
        if not self.running:
            return
        self.running = False
        self._timer.stop()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        error = RuntimeError("video export cancelled")      # makes atomic_path remove the temporary file
        self._stack.__exit__(type(error), error, None)
        self.cancelled.emit(self._done)

    def _step(self) -> None:
        if self._stepping or not self.running:      # a progress dialog may turn the event loop inside a step
            return
        self._stepping = True
        try:
            self._write(self.grab(self.frames[self._done]).convertToFormat(QImage.Format.Format_RGB888))
            self._done += 1
            last = self._done == len(self.frames)
            if last:
                self.running = False
                self._timer.stop()
                if self._writer is not None:
                    self._writer.close()
                self._stack.close()
        except Exception as exc:
            self._fail(exc, traceback.format_exc())
            return
        finally:
            self._stepping = False
        self.progress.emit(self._done, len(self.frames))
        if last:
            self.finished.emit(str(self._folder or self.path))

    def _write(self, image: QImage) -> None:
        if self._folder is not None:
            save_png(self._folder / f"frame_{self._done + 1:05d}.png", image)
            return
        w, h = image.width() // 2 * 2, image.height() // 2 * 2      # the encoder needs even sizes
        rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
        rgb = np.ascontiguousarray(rows[:h, :3 * w])
        if self._writer is None:
            self._writer = self._write_frames(str(self._temporary), (w, h), fps=self.fps, quality=8,
                                              macro_block_size=1)
            self._writer.send(None)
        self._writer.send(rgb.tobytes())

    def _fail(self, exc, details: str) -> None:
        self.running = False
        self._timer.stop()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._stack.__exit__(type(exc), exc, exc.__traceback__)
        self.failed.emit(exc, details)
