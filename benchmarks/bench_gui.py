"""The desktop application's responsiveness, on the shipped demo with its results:

* time to first window: from launching a fresh Python process to the window shown with its first 3D frame
  rendered and the demo's analysis results loaded;
* redraw time per frame while scrubbing with every muscle shown: from changing the frame to the 3D view, the
  plot cursor, the values table and the timeline all redrawn (median over two passes through every frame);
* longest stall of the event loop while an analysis runs in the worker thread (a 1 ms timer's largest gap
  until the analysis reports it is done, worst of three runs after a first one), and how long showing the new
  result takes.

Runs under the Qt platform in use (offscreen and EGL without a display). Targets: redraw <= 16 ms median and <= 25 ms p95,
stall < 50 ms. The OpenGL renderer used is printed (software OpenGL: Mesa's llvmpipe). Last line: RESULT
first_window_s=.. redraw_ms=.. redraw_p95_ms=.. max_stall_ms=..
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hybridgui.app import prepare_environment  # noqa: E402

prepare_environment(screenshot=False)

import numpy as np  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

SIZE = (1600, 1000)
FIRST_WINDOW = """
import sys, tempfile
sys.path.insert(0, {root!r})
from hybridgui.app import prepare_environment
prepare_environment(screenshot=False)
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from hybridgui.main_window import MainWindow
app = QApplication([])
window = MainWindow(QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat))
window.resize({w}, {h})
window.view.rendered.connect(lambda: (print("RENDERED", flush=True), app.exit(0)))
{open_line}
window.show()
app.exec()
"""


def first_window_seconds(open_line: str) -> float:
    """Launch a fresh interpreter that opens the window; seconds until its first 3D frame is rendered."""
    script = FIRST_WINDOW.format(root=str(ROOT), w=SIZE[0], h=SIZE[1], open_line=open_line)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True)
        for line in child.stdout:
            if line.startswith("RENDERED"):
                best = min(best, time.perf_counter() - t0)
                break
        child.wait(timeout=120)
    return best


def redraw_ms(app, window) -> tuple[float, float, float, float]:
    """Median and 95th percentile of a whole redraw per frame while scrubbing, the median of the 3D render alone, and
    the median CPU time of this process per redraw (all its threads, OpenGL's included: on a shared machine the wall
    clock also counts the other processes) (ms)."""
    doc, view = window.document, window.view
    renders = []
    view.rendered.connect(lambda: renders.append(time.perf_counter()))
    totals, render_only, cpu = [], [], []
    frames = list(range(doc.n_frames)) * 2
    doc.set_frame(frames[-1])
    app.processEvents()
    for f in frames:
        c0, t0 = time.process_time(), time.perf_counter()
        doc.set_frame(f)
        app.processEvents()         # the grouped render request, the plot cursor, the table and the timeline
        totals.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        r0 = time.perf_counter()
        view.render()
        render_only.append(time.perf_counter() - r0)
    assert len(renders) >= len(frames), "a frame change did not render the 3D view"
    return (1000 * float(np.median(totals)), 1000 * float(np.percentile(totals, 95)),
            1000 * float(np.median(render_only)), 1000 * float(np.median(cpu)))


def max_stall_ms(app, window, inputs) -> tuple[float, float, float]:
    """Largest gap (ms) between ticks of a 1 ms timer while analyses run in the worker (worst of three, after a
    first run that also loads the compiled kernels from numba's cache, whose gap is returned too), and the
    longest time (ms) the window then took to show the new result."""
    model, trial, settings = inputs
    doc = window.document
    doc.settings = settings
    doc.set_inputs(model=model, trial=trial)
    settle = QEventLoop()
    QTimer.singleShot(300, settle.quit)         # the window is drawn before the measurement starts
    settle.exec()
    gaps_of_runs, shown = [], 0.0
    for _ in range(4):
        gaps, done = [], []
        clock = QElapsedTimer()
        clock.start()
        last = [clock.nsecsElapsed()]

        def tick():
            now = clock.nsecsElapsed()
            if not done:
                gaps.append((now - last[0]) / 1e6)
            last[0] = now

        def progress(p):
            if p.stage == "done":
                done.append(clock.nsecsElapsed())

        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(1)
        loop = QEventLoop()
        window.runner.progress.connect(progress)
        window.runner.ended.connect(loop.quit)
        window.run_analysis()
        loop.exec()
        window.runner.ended.disconnect(loop.quit)
        window.runner.progress.disconnect(progress)
        timer.stop()
        gaps_of_runs.append(max(gaps[1:], default=0.0))
        shown = max(shown, (clock.nsecsElapsed() - done[0]) / 1e6)
    return max(gaps_of_runs[1:]), shown, gaps_of_runs[0]


def main():
    app = QApplication.instance() or QApplication([])
    from hybridgui.main_window import MainWindow
    from engine.demo import demo_inputs, demo_results
    result, settings = demo_results()
    inputs = demo_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        first = first_window_seconds("window.open_demo()")
        window = MainWindow(QSettings(str(Path(tmp) / "bench.ini"), QSettings.Format.IniFormat))
        window.resize(*SIZE)
        window.document.set_inputs(model=result.model, trial=result.trial)
        window.document.set_result(result, settings)
        window.show()
        app.processEvents()
        for layer in ("bodies", "blade", "muscles", "markers", "grf"):
            window.set_layer_visible(layer, True)
        median, p95, render, cpu = redraw_ms(app, window)
        stall, shown, first_run = max_stall_ms(app, window, inputs)
        view = window.view
        renderer = next((line.split(":", 1)[1].strip() for line in view.window.ReportCapabilities().splitlines()
                         if line.startswith("OpenGL renderer string")), "unknown")
        print(f"OpenGL renderer: {renderer}")
        print(f"demo: {result.ik.n_frames} frames, {len(result.model.muscles)} muscles shown, Qt platform "
              f"'{app.platformName()}', 3D view {view.width()}x{view.height()} px ({type(view).__name__})")
        print(f"time to first window (fresh process, results loaded, first 3D frame): {first:.2f} s")
        print(f"redraw per frame while scrubbing: median {median:.1f} ms, 95th percentile {p95:.1f} ms "
              f"(3D render alone {render:.1f} ms; {cpu:.1f} CPU ms per redraw; target <= 16 ms; load average "
              f"{os.getloadavg()[0]:.1f})")
        print(f"longest event-loop stall while an analysis runs: {stall:.1f} ms (target < 50 ms; {first_run:.0f} ms "
              f"in the session's first run, which loads the compiled kernels); the new result was then shown in "
              f"{shown:.0f} ms")
        window.close()
    print(f"RESULT first_window_s={first:.2f} redraw_ms={median:.1f} redraw_p95_ms={p95:.1f} max_stall_ms={stall:.1f}")


if __name__ == "__main__":
    main()
