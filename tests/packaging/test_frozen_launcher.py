"""The frozen application's entry point (packaging/launcher.py) without building a bundle: a bundle is simulated
by ``sys.frozen`` and a stand-in executable that runs the launcher with this interpreter, so the C3D reader's and
make-demo's children really go through the worker mode; and numba's cache shipped the way build.py ships it
is loaded, not recompiled, after the bundle is moved. (The real bundle: packaging/check_bundle.py.)"""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine import child_process
from engine.cli import make_demo
from engine.demo.generate import PINNED_ENVIRONMENT
from engine.io.c3d import read_c3d

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


@pytest.fixture
def packaging(monkeypatch):
    """packaging/launcher.py and packaging/build.py as modules."""
    monkeypatch.syspath_prepend(str(PACKAGING))
    return importlib.import_module("launcher"), importlib.import_module("build")


@pytest.fixture
def frozen(tmp_path, monkeypatch, packaging):
    """A simulated bundle: ``sys.frozen`` set and ``sys.executable`` a program that logs its arguments to the
    returned file and runs the launcher with them (``python -P launcher.py ...``)."""
    log = tmp_path / "arguments.log"
    program = tmp_path / "hybrid"
    program.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> "{log}"\n'
                       f'exec "{sys.executable}" -P "{PACKAGING / "launcher.py"}" "$@"\n')
    program.chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(program))
    return log


def test_a_frozen_bundle_starts_itself_as_a_python_child(monkeypatch, packaging):
    launcher, _ = packaging
    monkeypatch.setattr(sys, "executable", "/opt/hybridlab/hybrid")
    assert child_process.python_command("-m", "x")[1] == "-P"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert child_process.python_command("-m", "x") == ["/opt/hybridlab/hybrid", launcher.WORKER_FLAG, "-m", "x"]


def test_the_c3d_reader_runs_in_the_bundles_worker_mode(test_data, request):
    path = test_data / "c3d" / "Sample01" / "Eb015pi.c3d"
    reference = read_c3d(path)                                          # python -P, as from a venv
    log = request.getfixturevalue("frozen")
    trial = read_c3d(path)
    arguments = log.read_text().splitlines()
    assert arguments[:2] == [child_process.WORKER_FLAG, "-c"] and str(path) in arguments
    assert trial.markers.names == reference.markers.names and len(trial.markers.names) > 0
    np.testing.assert_array_equal(trial.markers.positions, reference.markers.positions)


def test_make_demo_runs_its_generation_in_the_bundles_worker_mode(frozen, monkeypatch, capfd, tmp_path):
    for name in PINNED_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    args = argparse.Namespace(argv=["--version"], out=str(tmp_path / "demo"), no_analysis=True)
    assert make_demo.run_command(args) == 0
    assert frozen.read_text().splitlines() == [child_process.WORKER_FLAG, "-m", "engine.cli.main", "--version"]
    assert capfd.readouterr().out.startswith("hybrid ")


def test_the_program_is_the_application_or_the_command_line_by_its_name(packaging, monkeypatch, capsys):
    launcher, _ = packaging
    import hybridgui.app
    monkeypatch.setattr(hybridgui.app, "main", lambda argv: ("application", argv))
    assert launcher.main(["--screenshot", "x.png"], name="hybridgui") == ("application", ["--screenshot", "x.png"])
    with pytest.raises(SystemExit) as stop:
        launcher.main(["--version"], name="hybrid")
    assert stop.value.code == 0 and "(build " in capsys.readouterr().out


def test_a_worker_given_neither_code_nor_module_fails(packaging, capsys):
    launcher, _ = packaging
    assert launcher.main([launcher.WORKER_FLAG, "script.py"]) == 2
    assert "expected -c CODE or -m MODULE" in capsys.readouterr().err


KERNEL = textwrap.dedent("""
    from numba import njit

    @njit(cache=True)
    def twice(x):
        return 2.0 * x
""")
PROBE = textwrap.dedent("""
    import sys, types
    sys.frozen, sys._MEIPASS = True, sys.argv[1]
    module = sys.modules["twice"] = types.ModuleType("twice")   # compiled as PyInstaller does: the path in the bundle
    exec(compile(open(sys.argv[1] + "/kernels/twice.py").read(), "kernels/twice.py", "exec"), module.__dict__)
    module.twice(1.5)
    print(sum(module.twice.stats.cache_hits.values()), sum(module.twice.stats.cache_misses.values()))
""")


def _probe(internal: Path, cache: Path, launcher) -> list[int]:
    """(kernels loaded from the cache, kernels compiled) when ``internal``'s kernel first runs in a simulated
    bundle with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "NUMBA_CACHE_LOCATOR_CLASSES": launcher.CACHE_LOCATOR,
           "PYTHONPATH": os.pathsep.join([str(PACKAGING), *sys.path])}
    out = subprocess.run([sys.executable, "-P", "-c", PROBE, str(internal)], capture_output=True, text=True,
                         check=True, env=env).stdout
    return [int(n) for n in out.split()]


def test_kernels_compiled_at_build_time_are_loaded_from_the_user_cache_wherever_installed(packaging, tmp_path):
    launcher, build = packaging
    internal = tmp_path / "built" / "hybridlab" / "_internal"
    (internal / "kernels").mkdir(parents=True)
    (internal / "kernels" / "twice.py").write_text(KERNEL)
    assert _probe(internal, tmp_path / "scratch", launcher) == [0, 1]          # the build's warm-up compiles it
    assert build.ship_compiled_kernels(internal.parent, tmp_path / "scratch") == 1
    installed = tmp_path / "installed" / "hybridlab"
    shutil.copytree(internal.parent, installed)                                 # unpacked elsewhere
    user_cache = tmp_path / "user-cache"
    assert launcher.install_shipped_cache(installed / "_internal", user_cache) == 2    # index and code
    assert launcher.install_shipped_cache(installed / "_internal", user_cache) == 0    # once
    assert _probe(installed / "_internal", user_cache, launcher) == [1, 0]      # loaded, not compiled
    (installed / "_internal" / "kernels" / "twice.py").write_text(KERNEL + "# changed\n")
    assert _probe(installed / "_internal", user_cache, launcher) == [0, 1]      # another source: compiled
    (installed / "_internal" / launcher.BUILD_FILE).write_text("another-build\n")
    assert _probe(installed / "_internal", user_cache, launcher) == [0, 1]      # another build: compiled


def test_a_cache_folder_of_no_source_folder_is_not_shipped(packaging, tmp_path):
    _, build = packaging
    (tmp_path / "bundle" / "_internal" / "engine").mkdir(parents=True)
    (tmp_path / "bundle" / "_internal" / "engine" / "a.py").write_text("")
    (tmp_path / "scratch" / "elsewhere").mkdir(parents=True)
    (tmp_path / "scratch" / "elsewhere" / "f-1.py311.nbi").write_bytes(b"")
    with pytest.raises(SystemExit, match="elsewhere"):
        build.ship_compiled_kernels(tmp_path / "bundle", tmp_path / "scratch")


def test_the_version_names_the_build(monkeypatch, tmp_path):
    from engine import __version__, version
    root = Path(version.__file__).resolve().parents[1]
    described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip()
    assert version.version_text() == f"{__version__} (build {described})"
    (tmp_path / "BUILD").write_text("v9-abc-20260101T0000Z\n")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    version.build.cache_clear()
    try:
        assert version.version_text() == f"{__version__} (build v9-abc-20260101T0000Z)"
    finally:
        version.build.cache_clear()
