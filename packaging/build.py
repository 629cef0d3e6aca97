"""Build the frozen HybridLab: ``python packaging/build.py [--out FOLDER]`` from a venv with ``pip install -e
".[package]"``.

Steps, all under ``--out`` (default ``build/packaging``, ignored by git; wiped first):

1. the build stamp ``BUILD`` (``git describe --always --dirty`` of the sources and the UTC date), which the bundle
   carries and ``hybrid --version`` and the About box show;
2. PyInstaller on ``packaging/hybridlab.spec``: the one-folder bundle ``dist/hybridlab`` (program ``hybrid``,
   ``hybridgui`` beside it, Python, the libraries, the default model and the demo in ``_internal``);
3. the kernels compiled by the bundle itself (``hybrid warm-up``, then ``hybridgui --screenshot`` offscreen for
   what the first window adds, then a few steps of ``hybrid simulate`` for the skin's, with ``NUMBA_CACHE_DIR`` in
   a scratch folder, so numba's index records the hashes of the bundle's own source files) and stored in
   ``_internal/numba_cache/<source folder>``, from where the bundle copies them to the user's cache folder on its
   first run (``packaging/launcher.py``);
4. on Linux, ``hybridlab-<version>-linux-<machine>.tar.gz``: the bundle with ``hybridlab.desktop`` and
   ``install-desktop-entry.sh`` (adds the menu entry for the folder it was unpacked to). On Windows the installer
   is then made from ``dist/hybridlab`` by NSIS (``makensis packaging/hybridlab.nsi``), on macOS the disk image
   from ``dist/HybridLab.app`` (see packaging/README.md).

Runs at lowered priority (``--nice``, default 10): the build takes minutes of both cores.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from launcher import BUILD_FILE, SHIPPED_CACHE

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SKIN_WARM_UP = ["sling-lift", "--duration", "0.002", "--spacing", "0.03"]
"""``hybrid simulate``'s arguments that compile every kernel of the package ``skin`` a simulation calls."""


def build_stamp() -> str:
    """``<git describe --always --dirty>-<UTC date>``, usable as a folder name."""
    described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    return f"{described}-{datetime.datetime.now(datetime.timezone.utc):%Y%m%dT%H%MZ}"


def ship_compiled_kernels(bundle: Path, scratch: Path) -> int:
    """Copy the kernels numba cached in ``scratch`` (by their source folder in the bundle:
    packaging/bundle_cache.py) into ``<bundle>/_internal/numba_cache``; returns the number of compiled kernels. A
    folder that is no source folder of the bundle is an error (the warm-up compiled sources from elsewhere)."""
    internal = bundle / "_internal"
    for folder in {p.parent for p in scratch.rglob("*.nbi")}:
        if not any((internal / folder.relative_to(scratch)).glob("*.py")):
            raise SystemExit(f"build.py: numba cached kernels of {folder.relative_to(scratch)}, which is no source "
                             "folder of the bundle")
    shutil.copytree(scratch, internal / SHIPPED_CACHE)
    return sum(1 for _ in scratch.rglob("*.nbc"))


def run(command: list, **kwargs) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run(command, check=True, **kwargs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "packaging"), help="build folder (wiped first)")
    parser.add_argument("--nice", type=int, default=10, help="lower the build's priority by this much")
    args = parser.parse_args(argv)
    if hasattr(os, "nice"):
        os.nice(args.nice)
    out = Path(args.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    stamp_file = out / BUILD_FILE
    stamp_file.write_text(build_stamp() + "\n", encoding="utf-8")
    started = time.monotonic()

    run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", out / "dist",
         "--workpath", out / "work", HERE / "hybridlab.spec"], env={**os.environ, "HYBRIDLAB_BUILD_FILE": str(stamp_file)})
    frozen = time.monotonic()
    bundle = out / "dist" / "hybridlab"
    if sys.platform.startswith("linux"):
        (bundle / "hybridgui").symlink_to("hybrid")

    scratch = out / "kernels"
    warm = {**os.environ, "NUMBA_CACHE_DIR": str(scratch)}
    run([bundle / "hybrid", "warm-up"], env=warm)
    # what the application's first window compiles beyond the warm-up (the hip mechanism's Devices panel)
    run([bundle / ("hybridgui.exe" if sys.platform == "win32" else "hybridgui"), "--screenshot", out / "window.png"],
        env={**warm, "QT_QPA_PLATFORM": "offscreen"})
    # the skinned body's kernels (hybrid simulate, the Simulation panel), which neither reaches: a few steps of the
    # sling scene (its kernels include the other scenes'), on a coarse skin (the kernels do not depend on its size)
    run([bundle / "hybrid", "simulate", *SKIN_WARM_UP], env=warm)
    kernels = ship_compiled_kernels(bundle, scratch)
    if sys.platform == "darwin":       # the .app's own copy of the folder (its _MEIPASS); sign it after this
        shutil.copytree(bundle / "_internal" / SHIPPED_CACHE,
                        out / "dist" / "HybridLab.app" / "Contents" / "Frameworks" / SHIPPED_CACHE)
    warmed = time.monotonic()

    archive = None
    if sys.platform.startswith("linux"):
        for name in ("hybridlab.desktop", "install-desktop-entry.sh"):
            shutil.copy2(HERE / name, bundle / name)
        from importlib.metadata import version
        archive = out / f"hybridlab-{version('hybridlab')}-linux-{platform.machine()}.tar.gz"
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(bundle, arcname="hybridlab")
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"bundle {bundle} ({size / 2 ** 20:.0f} MB, {kernels} compiled kernels)"
          + (f"; archive {archive} ({archive.stat().st_size / 2 ** 20:.0f} MB)" if archive else ""))
    print(f"RESULT freeze_s={frozen - started:.0f} warm_up_s={warmed - frozen:.0f} "
          f"total_s={time.monotonic() - started:.0f} bundle_mb={size / 2 ** 20:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
