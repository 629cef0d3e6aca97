"""How long a user waits when starting ``hybridgui``: from launching the process to its first visible window
(the first window that says what is being prepared) and to the main window showing the demo, cold (numba's
cache empty, as after a fresh install: ``NUMBA_CACHE_DIR`` points at an empty folder, so every kernel the first
window needs is compiled) and warm (the same cache, filled by the cold run: every later launch); and how long the
first analysis of OpenSim's gait2354 walking trial takes in a fresh process (``hybrid analyze`` with its IK setup
and plates, from launching the process to its exit, numba's cache warm: the median of ``WARM`` runs after one
that fills the cache with what the analysis of this model compiles).

Each launch is a child ``hybridgui --print-startup --screenshot FILE`` under the Qt platform in use (offscreen
without a display), with its own settings folder; the times are when this script reads the child's lines.
On a first launch the main window shows the bodies while a child process compiles the muscle paths' kernels; the
muscles appear later (``muscles_cold_s``; the screenshot waits for them). Goals (issue 20): first visible under 3 s
cold, main window under 10 s cold and 2 s warm (the median of ``WARM``
launches), first analysis under 3 s. The machine's load average and each child's CPU seconds are printed beside
the figures (the project's machines are shared: on a loaded machine the CPU seconds say more than the wall clock).

Last line: RESULT first_visible_s=.. first_window_cold_s=.. muscles_cold_s=.. first_window_warm_s=..
first_window_warm_cpu_s=.. first_analysis_s=.. compile_child_warm_cpu_s=.. (first_visible_s is the cold launch's; the
warm launches' are printed above it; first_window_warm_cpu_s: the median CPU seconds the window's process (its
threads, not its children) had used when it showed the main window on the warm launches, the figure to compare two
trees by on a shared machine: in one session of 21 warm launches of one tree, its main window took 2.0 to 15 s with
the load while this stayed within 2.0 to 2.9 CPU-s; compile_child_warm_cpu_s: the median CPU seconds of the compile
child run alone on the warm cache, as a later launch starts it on the second core, :func:`compile_child_cpu`).
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WARM = 3
EVENTS = ("first window shown", "main window shown")
MUSCLES = "muscle paths drawn"
"""After the main window on a first launch: the muscle paths' kernels, compiled by a child process meanwhile, loaded
and the muscles drawn (warm launches draw them with the main window)."""
GAIT2354 = ROOT / "tests" / "data" / "opensim" / "gait2354"


def environment(cache: Path, work: Path) -> dict:
    """This process's environment with numba's cache in ``cache``, the application's settings in ``work`` and
    Python's compiled bytecode in ``work`` too (written, as on a user's machine, even where this shell says not to:
    the cold launch compiles the project's modules, later launches load them)."""
    environ = dict(os.environ, NUMBA_CACHE_DIR=str(cache), XDG_CONFIG_HOME=str(work / "config"),
                   PYTHONPYCACHEPREFIX=str(work / "pycache"))
    environ.pop("PYTHONDONTWRITEBYTECODE", None)
    return environ


def child_cpu() -> float:
    """CPU seconds (user and system) of this process's ended children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def launch(cache: Path, work: Path) -> dict:
    """Start the application once with numba's cache in ``cache``; seconds from launch to each of ``EVENTS``, and
    the CPU seconds the process used ("cpu": to its exit, which follows the screenshot)."""
    environ = environment(cache, work)
    if not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        environ["QT_QPA_PLATFORM"] = "offscreen"
    cpu0, t0 = child_cpu(), time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "hybridgui.app", "--print-startup", "--screenshot",
                              str(work / "window.png")], cwd=ROOT, env=environ, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    seen = {}
    for line in child.stdout:
        if line.startswith("startup: "):
            what, cpu = line.removeprefix("startup: ").rstrip(" s)\n").split(" (cpu ")
            seen[what] = time.perf_counter() - t0
            seen[f"{what} cpu"] = float(cpu)
    if child.wait(timeout=3600) != 0 or {k for k in seen if not k.endswith(" cpu")} - {MUSCLES} != set(EVENTS):
        raise SystemExit(f"hybridgui failed (status {child.returncode}, saw {sorted(seen)})")
    seen["cpu"] = child_cpu() - cpu0
    return seen


def compile_child_cpu(cache: Path, work: Path) -> float:
    """CPU seconds of the application's compile child (``hybridgui.muscle_kernels.CHILD``) run alone with numba's cache
    in ``cache``, its standard input closed at once: on a warm cache, what a later launch's child costs the second core
    when the window's process finds every kernel of the 3D view cached."""
    from hybridgui.muscle_kernels import CHILD
    cpu0 = child_cpu()
    subprocess.run([sys.executable, "-P", *CHILD], cwd=ROOT, env=dict(environment(cache, work), PYTHONPATH=str(ROOT)),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return child_cpu() - cpu0


def analyse(cache: Path, work: Path) -> tuple[float, float]:
    """Seconds of one ``hybrid analyze`` of gait2354 in a fresh process with numba's cache in ``cache``, and the CPU
    seconds it used."""
    command = [sys.executable, "-m", "engine.cli.main", "analyze", str(GAIT2354 / "subject01_simbody.osim"),
               str(GAIT2354 / "subject01_walk1.trc"), "--grf", str(GAIT2354 / "subject01_walk1_grf.mot"),
               "--external-loads", str(GAIT2354 / "subject01_walk1_grf.xml"), "--ik-setup",
               str(GAIT2354 / "subject01_Setup_IK.xml"), "--out", str(work / "gait2354"), "--quiet"]
    cpu0, t0 = child_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=environment(cache, work), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"hybrid analyze failed (status {done.returncode}): {done.stderr.strip()[-2000:]}")
    return seconds, child_cpu() - cpu0


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cache = work / "numba-cache"
        cache.mkdir()
        print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
        cold = launch(cache, work)
        print(f"cold: main window at {cold[EVENTS[1] + ' cpu']:.1f} CPU s of the window's process (its threads, not its "
              f"children)")
        print(f"cold: first visible {cold[EVENTS[0]]:.2f} s, main window {cold[EVENTS[1]]:.2f} s, muscles drawn "
              f"{cold.get(MUSCLES, cold[EVENTS[1]]):.2f} s, {cold['cpu']:.1f} CPU s of the window's process and its "
              f"children (load average {os.getloadavg()[0]:.1f})")
        warm = [launch(cache, work) for _ in range(WARM)]
        for w in warm:
            print(f"warm: first visible {w[EVENTS[0]]:.2f} s, main window {w[EVENTS[1]]:.2f} s (at "
                  f"{w[EVENTS[1] + ' cpu']:.1f} CPU s of the window's process), {w['cpu']:.1f} CPU s "
                  f"(load average {os.getloadavg()[0]:.1f})")
        children = [compile_child_cpu(cache, work) for _ in range(WARM)]
        print("warm: the compile child alone (its input closed: every kernel cached) " +
              ", ".join(f"{c:.2f}" for c in children) + " CPU s")
        filling = analyse(cache, work)
        analyses = [analyse(cache, work) for _ in range(WARM)]
        print(f"first analysis of gait2354 (fresh process): {filling[0]:.2f} s ({filling[1]:.1f} CPU s) filling the "
              "cache, then " + ", ".join(f"{a:.2f} s ({c:.1f} CPU s)" for a, c in analyses))
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    first_window_warm = statistics.median(w[EVENTS[1]] for w in warm)
    first_window_warm_cpu = statistics.median(w[EVENTS[1] + " cpu"] for w in warm)
    print(f"RESULT first_visible_s={cold[EVENTS[0]]:.2f} first_window_cold_s={cold[EVENTS[1]]:.1f} "
          f"muscles_cold_s={cold.get(MUSCLES, cold[EVENTS[1]]):.1f} first_window_warm_s={first_window_warm:.2f} "
          f"first_window_warm_cpu_s={first_window_warm_cpu:.2f} "
          f"first_analysis_s={statistics.median(a for a, _ in analyses):.2f} "
          f"compile_child_warm_cpu_s={statistics.median(children):.2f}")

if __name__ == "__main__":
    main()
