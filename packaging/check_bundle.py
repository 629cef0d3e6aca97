"""Build the Linux bundle in a clean folder and check it, run from the bundle only: ``python packaging/check_bundle.py
[--out FOLDER] [--no-build] [--nice N]`` from the venv (``pip install -e ".[package,test]"``).

The archive build.py makes is unpacked into a fresh folder (another path than the build's, as on a user's machine)
and its programs run with an environment holding no venv, no ``PYTHONPATH`` and an empty home and cache folder:

1. ``hybrid --version`` names the version and the build stamp;
2. ``hybrid warm-up`` compiles nothing: the kernels shipped in the bundle were copied to the user's cache folder
   and numba loaded them (the warm-up counts numba's compilations);
3. ``hybrid analyze --demo`` writes the same figures (``metrics.json``) as the venv's;
4. ``hybrid info`` of a C3D sample (read in the bundle's worker-mode child) says the same as the venv's, and
   ``hybrid simulate`` (a few steps of the sling scene) compiles nothing: the skin's kernels were shipped too
   (compiling would write to numba's cache folder);
5. ``hybrid batch`` of a two-trial study (the demo's run, two windows and filters) on a local Dask cluster of two
   worker processes, which the bundle starts as itself (multiprocessing's spawn, ``freeze_support`` in the
   launcher), holding its output folder's lock (psutil tells its process), each trial's ``metrics.json`` the same
   as the venv's ``hybrid analyze`` of it, the workers' warm-up compiling nothing, and the dashboard's address
   printed (its scheduler serves one); then Dask's dashboard served by the bundle's Python (:data:`DASHBOARD_PROBE`):
   its status page and every script and style sheet it names (bokeh's JavaScript, distributed's style sheets),
   which PyInstaller ships as data files only by pyinstaller-hooks-contrib's hooks for bokeh and distributed;
6. ``hybridgui --screenshot`` (offscreen, a fresh cache folder again: the first launch on a new machine) writes a
   picture that is not blank; the time to its first window and to the main window is printed.

Ends with ``RESULT build_s=.. bundle_mb=.. archive_mb=.. first_window_cold_s=.. main_window_cold_s=..``; exits 1
on the first failed check.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import numpy as np
from build import SKIN_WARM_UP
from launcher import WORKER_FLAG

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
C3D_SAMPLE = ROOT / "tests" / "data" / "c3d" / "Sample01" / "Eb015pi.c3d"
BATCH_TRIALS = {"early": ["--start", "0.1", "--end", "0.3"],
                "late_8hz": ["--start", "0.2", "--end", "0.4", "--filter", "8"]}
"""The study ``hybrid batch`` runs from the bundle: the demo's run twice, as ``hybrid analyze`` options."""

DASHBOARD_PROBE = """
import json, re, sys, urllib.request
from distributed import LocalCluster
with LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                  dashboard_address="127.0.0.1:0") as cluster:
    base = cluster.dashboard_link.rsplit("/", 1)[0] + "/"

    def fetch(name):
        with urllib.request.urlopen(base + name, timeout=60) as answer:
            body = answer.read()
        if not body:
            sys.exit(f"the dashboard's {name} is empty")
        print(f"dashboard: {name.split('?')[0]} {len(body)} bytes")
        return body

    plots = json.loads(fetch("individual-plots.json"))
    if not any(uri.startswith("/individual-") for uri in plots.values()):
        sys.exit(f"the dashboard lists no plot of bokeh: {plots}")
    files = set(re.findall(r'(?:src|href)="(statics?/[^"]+)"', fetch("status").decode()))
    files |= {uri.lstrip("/") for uri in plots.values() if uri.startswith("/statics/")}
    if not any(f.startswith("static/js/bokeh") for f in files) or not any(f.startswith("statics/") for f in files):
        sys.exit(f"the dashboard's status page names no bokeh script or no file of distributed: {sorted(files)}")
    for name in sorted(files):
        fetch(name)
"""
"""Python code that starts a Dask scheduler with its dashboard in this process and fetches the list of its plots
(``individual-plots.json``, which ``hybrid batch`` asks: ``study.cluster.dashboard``), its status page, every file of
the bundle that page loads (``static/``: bokeh's, ``statics/``: distributed's) and distributed's pages in the list,
printing each with its size; exits with a message when the list holds no bokeh plot, the page names no file of
either, or one is empty (a missing one fails the request: HTTP 404; an error in the server, HTTP 500)."""


def fail(message: str) -> None:
    raise SystemExit(f"check_bundle: FAILED: {message}")


def bundle_environment(home: Path) -> dict:
    """A user's environment: system PATH only, an empty home and cache, no display."""
    keep = {name: os.environ[name] for name in ("LANG", "TZ", "USER") if name in os.environ}
    return {**keep, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_CONFIG_HOME": str(home / "config"), "QT_QPA_PLATFORM": "offscreen"}


def run(command: list, env: dict | None = None, cwd: Path | None = None) -> str:
    """Run ``command``; its stdout (stderr too in the failure message)."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env, cwd=cwd)
    if done.returncode != 0:
        fail(f"{' '.join(map(str, command))} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout + done.stderr


def same_figures(a, b, where: str = "") -> None:
    """``a`` and ``b`` (metrics.json) hold the same keys and numbers (to 1e-9 relative), timings (``seconds``,
    ``qp_seconds``: keys ending in ``seconds``) aside."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            fail(f"metrics.json{where}: keys differ: {sorted(set(a) ^ set(b))}")
        for key in (key for key in a if not key.endswith("seconds")):
            same_figures(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            same_figures(x, y, f"{where}[{i}]")
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if not np.isclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True):
            fail(f"metrics.json{where}: bundle {b!r}, venv {a!r}")
    elif a != b:
        fail(f"metrics.json{where}: bundle {b!r}, venv {a!r}")


def cache_files(folder: Path) -> dict:
    """Each file under ``folder`` (numba's cache) with its size and modification time: numba writes there only
    when it compiles."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def batch_study(folder: Path) -> Path:
    """Write the study of :data:`BATCH_TRIALS` (the demo's model and run) into ``folder``; its path."""
    trials = ""
    for name, options in BATCH_TRIALS.items():
        settings = ", ".join(f"{flag.removeprefix('--')}: {value}" for flag, value in zip(options[::2], options[1::2]))
        trials += f"      - id: {name}\n        file: {ROOT / 'resources' / 'demo' / 'run.c3d'}\n" \
                  f"        settings: {{{settings}}}\n"
    folder.mkdir(parents=True)
    study = folder / "study.yaml"
    study.write_text(f"format: hybridlab-study\nversion: 1\nsubjects:\n  - id: demo\n"
                     f"    model: {ROOT / 'resources' / 'athlete.yaml'}\n    trials:\n{trials}", encoding="utf-8")
    return study


def first_window(program: Path, env: dict, picture: Path) -> dict:
    """Start ``hybridgui --print-startup --screenshot``; seconds to its startup events."""
    started = time.perf_counter()
    child = subprocess.Popen([program, "--print-startup", "--screenshot", picture], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = {}
    for line in child.stdout:
        if line.startswith("startup: "):
            seen[line.removeprefix("startup: ").strip()] = time.perf_counter() - started
    if child.wait(timeout=1800) != 0:
        fail(f"hybridgui --screenshot exited with {child.returncode}: {child.stderr.read()}")
    return seen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "check-bundle"), help="build and check folder")
    parser.add_argument("--no-build", action="store_true", help="check the archive already in --out")
    parser.add_argument("--nice", type=int, default=10, help="build.py's --nice: lower the build's priority by this "
                        "much beyond this script's")
    parser.add_argument("--folder", help="check a copy of this bundle folder (build.py's dist/hybridlab) instead "
                        "of building and unpacking the archive")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    started = time.monotonic()
    if not (args.no_build or args.folder):
        run([sys.executable, HERE / "build.py", "--out", out / "build", "--nice", args.nice])
    built = time.monotonic()
    archives = sorted((out / "build").glob("hybridlab-*-linux-*.tar.gz"))
    if not (archives or args.folder):
        fail(f"no archive in {out / 'build'}")
    place = out / "unpacked"
    subprocess.run(["rm", "-rf", place, out / "home", out / "venv-demo", out / "bundle-demo", out / "batch"],
                   check=True)
    if args.folder:
        place.mkdir(parents=True)
        subprocess.run(["cp", "-a", Path(args.folder).resolve(), place / "hybridlab"], check=True)
    else:
        with tarfile.open(archives[-1]) as tar:
            tar.extractall(place, filter="tar")
    hybrid, hybridgui = place / "hybridlab" / "hybrid", place / "hybridlab" / "hybridgui"
    home = out / "home"
    env = bundle_environment(home)

    version = run([hybrid, "--version"], env).strip()
    stamp = (place / "hybridlab" / "_internal" / "BUILD").read_text().strip()
    if not re.fullmatch(rf"hybrid \d+\.\d+\.\d+\S* \(build {re.escape(stamp)}\)", version):
        fail(f"--version says {version!r}, the bundle's stamp is {stamp!r}")
    print(f"ok: {version}")

    warm = run([hybrid, "warm-up"], env)
    if "every kernel was in numba's cache" not in warm:
        fail(f"the first warm-up from the bundle compiled kernels (the shipped cache was not used):\n{warm}")
    print(f"ok: warm-up on a fresh user cache compiled nothing ({warm.strip().splitlines()[-1]})")

    run([hybrid, "analyze", "--demo", "--out", out / "bundle-demo"], env)
    run([Path(sys.executable).parent / "hybrid", "analyze", "--demo", "--out", out / "venv-demo"])
    same_figures(json.loads((out / "venv-demo" / "metrics.json").read_text()),
                 json.loads((out / "bundle-demo" / "metrics.json").read_text()))
    print("ok: hybrid analyze --demo: the same metrics.json as from the venv")

    ours = run([hybrid, "info", C3D_SAMPLE], env)
    theirs = run([Path(sys.executable).parent / "hybrid", "info", C3D_SAMPLE])
    if ours != theirs:
        fail(f"hybrid info {C3D_SAMPLE.name}: the bundle says\n{ours}\nthe venv says\n{theirs}")
    print(f"ok: hybrid info {C3D_SAMPLE.name} (read in the worker-mode child) as from the venv")

    numba_cache = home / "cache" / "HybridLab" / "numba" / stamp
    before = cache_files(numba_cache)
    if not before:
        fail(f"no numba cache in {numba_cache}")
    run([hybrid, "simulate", *SKIN_WARM_UP], env)
    if cache_files(numba_cache) != before:
        fail(f"hybrid simulate {' '.join(SKIN_WARM_UP)} compiled kernels: the skin's were not shipped")
    print(f"ok: hybrid simulate {' '.join(SKIN_WARM_UP)} compiled nothing")

    study, venv_hybrid = batch_study(out / "batch"), Path(sys.executable).parent / "hybrid"
    before, batch_started = cache_files(numba_cache), time.monotonic()
    said = run([hybrid, "batch", study, "--out", out / "batch" / "bundle", "--workers", "2"], env)
    batch_s = time.monotonic() - batch_started
    if cache_files(numba_cache) != before:
        fail("hybrid batch's workers compiled kernels (they did not load the shipped ones)")
    if "Dask: 2 workers" not in said or f"{len(BATCH_TRIALS)} analysed" not in said:
        fail(f"hybrid batch from the bundle did not analyse {len(BATCH_TRIALS)} trials on 2 workers:\n{said}")
    if not re.search(r"; dashboard http://\S+/status$", said, re.MULTILINE):
        fail(f"hybrid batch from the bundle printed no dashboard address that answers (study.cluster.dashboard):"
             f"\n{said}")
    for name, options in BATCH_TRIALS.items():
        run([venv_hybrid, "analyze", ROOT / "resources" / "athlete.yaml", ROOT / "resources" / "demo" / "run.c3d",
             *options, "--out", out / "batch" / "venv" / name, "--quiet"])
        same_figures(json.loads((out / "batch" / "venv" / name / "metrics.json").read_text()),
                     json.loads((out / "batch" / "bundle" / "trials" / "demo" / name / "metrics.json").read_text()),
                     f" ({name})")
    print(f"ok: hybrid batch of {len(BATCH_TRIALS)} trials on a local cluster of 2 bundle worker processes in "
          f"{batch_s:.0f} s, compiling nothing: the same metrics.json as the venv's hybrid analyze of each")
    served = run([hybrid, WORKER_FLAG, "-c", DASHBOARD_PROBE], env)
    print(f"ok: Dask's dashboard from the bundle: its status page and the {served.count('dashboard: ')} scripts and "
          "style sheets it loads (bokeh's and distributed's)")

    cold_env = {**env, "XDG_CACHE_HOME": str(home / "cold-cache")}
    picture = out / "window.png"
    times = first_window(hybridgui, cold_env, picture)
    import imageio.v3 as iio
    pixels = iio.imread(picture)
    if pixels.ndim != 3 or pixels.shape[0] < 500 or np.ptp(pixels[..., :3].reshape(-1, 3), axis=0).max() < 64 \
            or len(np.unique(pixels[..., :3].reshape(-1, 3), axis=0)) < 100:
        fail(f"the screenshot {picture} is blank or tiny ({pixels.shape})")
    print(f"ok: hybridgui --screenshot {picture} ({pixels.shape[1]}x{pixels.shape[0]}, "
          f"{len(np.unique(pixels[..., :3].reshape(-1, 3), axis=0))} colours); "
          f"first window {times.get('first window shown', float('nan')):.1f} s, "
          f"main window {times.get('main window shown', float('nan')):.1f} s")

    size = sum(p.stat().st_size for p in (place / "hybridlab").rglob("*") if p.is_file() and not p.is_symlink())
    print(f"RESULT build_s={built - started:.0f} check_s={time.monotonic() - built:.0f} bundle_mb={size / 2 ** 20:.0f} "
          + (f"archive_mb={archives[-1].stat().st_size / 2 ** 20:.0f} " if archives else "") +
          f"first_window_cold_s={times.get('first window shown', float('nan')):.2f} "
          f"main_window_cold_s={times.get('main window shown', float('nan')):.2f} batch_s={batch_s:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
