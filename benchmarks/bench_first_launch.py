"""How long a user waits when starting ``hybridgui``: from launching the process to its first visible window
(the first window that says what is being prepared) and to the main window showing the demo, cold (numba's
cache empty, as after a fresh install: ``NUMBA_CACHE_DIR`` points at an empty folder, so every kernel is
compiled) and warm (the same cache, filled by the cold run: every later launch).

Each launch is a child ``hybridgui --print-startup --screenshot FILE`` under the Qt platform in use (offscreen
without a display), with its own settings folder; the times are when this script reads the child's lines.
Goal: first visible under 3 s cold. Warm: the median of ``WARM`` launches. The machine's load average is printed
beside the figures (the project's machines are shared).

Last line: RESULT first_visible_s=.. first_window_cold_s=.. first_window_warm_s=..
(first_visible_s is the cold launch's; the warm launches' are printed above it).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM = 3
EVENTS = ("first window shown", "main window shown")


def launch(cache: Path, work: Path) -> dict:
    """Start the application once with numba's cache in ``cache``; seconds from launch to each of ``EVENTS``."""
    environ = dict(os.environ, NUMBA_CACHE_DIR=str(cache), XDG_CONFIG_HOME=str(work / "config"))
    if not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        environ["QT_QPA_PLATFORM"] = "offscreen"
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "hybridgui.app", "--print-startup", "--screenshot",
                              str(work / "window.png")], cwd=ROOT, env=environ, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    seen = {}
    for line in child.stdout:
        if line.startswith("startup: "):
            seen[line.removeprefix("startup: ").strip()] = time.perf_counter() - t0
    if child.wait(timeout=3600) != 0 or set(seen) != set(EVENTS):
        raise SystemExit(f"hybridgui failed (status {child.returncode}, saw {sorted(seen)})")
    return seen


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cache = work / "numba-cache"
        cache.mkdir()
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        cold = launch(cache, work)
        print(f"cold: first visible {cold[EVENTS[0]]:.2f} s, main window {cold[EVENTS[1]]:.2f} s "
              f"(load average {os.getloadavg()[0]:.1f})")
        warm = [launch(cache, work) for _ in range(WARM)]
        for w in warm:
            print(f"warm: first visible {w[EVENTS[0]]:.2f} s, main window {w[EVENTS[1]]:.2f} s")
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    first_window_warm = statistics.median(w[EVENTS[1]] for w in warm)
    print(f"RESULT first_visible_s={cold[EVENTS[0]]:.2f} first_window_cold_s={cold[EVENTS[1]]:.1f} "
          f"first_window_warm_s={first_window_warm:.1f}")


if __name__ == "__main__":
    main()
