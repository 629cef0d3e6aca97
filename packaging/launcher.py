"""Entry point of the frozen application (PyInstaller's script; ``packaging/hybridlab.spec``).

One program for every role, chosen by its first argument or the name it was started under:

* ``--python-worker -c CODE ARGS`` / ``--python-worker -m MODULE ARGS``: the bundle standing in for ``python -P``
  when the engine starts a child (:func:`engine.child_process.python_command` adds the flag when ``sys.frozen``):
  the C3D reader and ``hybrid make-demo``'s generation run here in their own process, as from a virtual
  environment. Nothing else is done first, so the reader starts as fast as the bundle can;
* started as ``hybridgui`` (a link to, or on Windows and macOS a windowed copy of, the program): the application;
* otherwise (``hybrid``): the command line.

Before the application or the command line loads numba, the frozen program points ``NUMBA_CACHE_DIR`` to
``<the platform's user cache folder>/HybridLab/numba/<build>`` (never the install folder, which may be
read-only) and, on this build's first run, copies there the kernels ``build.py`` compiled into the bundle
(``numba_cache/<source folder>/``); numba finds them with :class:`bundle_cache.BundleCacheLocator`. Numba's own
index then checks each kernel against the hash of its source file and this machine's processor; whatever does not
match is compiled again, as without a shipped cache. A ``NUMBA_CACHE_DIR`` the user set is left alone.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

WORKER_FLAG = "--python-worker"
"""The first argument that makes the program a Python child (engine.child_process.WORKER_FLAG)."""
SHIPPED_CACHE = "numba_cache"
"""The bundle's folder (beside its Python sources) of kernels compiled at build time, by source folder."""
BUILD_FILE = "BUILD"
"""The bundle's file that names its build (``build.py`` writes it; ``engine.version`` reads it)."""
CACHE_LOCATOR = "bundle_cache.BundleCacheLocator"
"""numba's cache locator for the bundle's kernels (packaging/bundle_cache.py)."""
GUI_NAMES = ("hybridgui",)


def run_worker(args: list[str]) -> int:
    """Run ``-c CODE ARGS`` or ``-m MODULE ARGS`` as ``python -P`` would (``sys.argv`` as Python sets it);
    returns the exit status (a ``SystemExit`` in the code ends the process with its own)."""
    if len(args) < 2 or args[0] not in ("-c", "-m"):
        print(f"{WORKER_FLAG}: expected -c CODE or -m MODULE, got {args[:1]}", file=sys.stderr)
        return 2
    if args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        return 0
    import runpy
    sys.argv = [args[1], *args[2:]]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    return 0


def install_shipped_cache(bundle: Path, cache_dir: Path) -> int:
    """Copy the bundle's compiled kernels into ``cache_dir`` unless done before; returns the number of files
    copied. A marker written last makes an interrupted copy start again."""
    shipped = bundle / SHIPPED_CACHE
    marker = cache_dir / "installed"
    if not shipped.is_dir() or marker.is_file():
        return 0
    shutil.copytree(shipped, cache_dir, dirs_exist_ok=True)
    partial = marker.with_suffix(".partial")
    partial.write_text(str(bundle), encoding="utf-8")
    os.replace(partial, marker)
    return sum(1 for p in shipped.rglob("*") if p.is_file())


def prepare_frozen() -> None:
    """In the bundle: numba's cache in the user's cache folder (unless ``NUMBA_CACHE_DIR`` is set) and filled from
    the bundle on this build's first run (see the module's docstring); numba told to find it with
    :class:`bundle_cache.BundleCacheLocator`. A failure to copy is said on stderr (numba then compiles)."""
    os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", CACHE_LOCATOR)
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import platformdirs
    bundle = Path(sys._MEIPASS)
    build_file = bundle / BUILD_FILE
    build = build_file.read_text(encoding="utf-8").strip() if build_file.is_file() else "unstamped"
    cache_dir = Path(platformdirs.user_cache_dir("HybridLab", appauthor=False)) / "numba" / build
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        install_shipped_cache(bundle, cache_dir)
    except OSError as exc:
        print(f"HybridLab: the compiled kernels shipped with this build could not be copied to {cache_dir} "
              f"({exc}); they are compiled again on first use", file=sys.stderr)


def main(argv: list[str] | None = None, name: str | None = None) -> int:
    """Dispatch on the first argument and the program's name (see the module's docstring)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == [WORKER_FLAG]:
        return run_worker(argv[1:])
    if getattr(sys, "frozen", False):
        prepare_frozen()
    name = (name or Path(sys.argv[0]).stem).lower()
    if name in GUI_NAMES:
        from hybridgui.app import main as application
        return application(argv)
    from engine.cli.main import main as command_line
    return command_line(argv)


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()    # a worker process of hybrid batch's local Dask cluster (spawned) runs here
    sys.exit(main())
