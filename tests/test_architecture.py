"""The layering holds by contract: import-linter's contracts (pyproject.toml) are kept, and a deliberately wrong
import breaks them."""
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")
ROOT_PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"], cwd=root,
                          capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(root), "PATH": ""})


def test_the_import_contracts_are_kept():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 12 kept, 0 broken." in done.stdout


def test_a_wrong_import_breaks_them(tmp_path):
    for package in ROOT_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "engine" / "algorithms" / "_wrong.py").write_text(
        "from ..analysis import pipeline\nimport PySide6\nimport hip_mechanism.maps\n")
    (tmp_path / "hip_mechanism" / "_wrong.py").write_text("import pyqtgraph\n")
    (tmp_path / "hybridgui" / "_wrong.py").write_text("from engine.kernels import _passes\n")
    (tmp_path / "engine" / "model" / "_wrong.py").write_text("from ..io import model_schema\nfrom ..tree import Tree\n")
    document = tmp_path / "hybridgui" / "document.py"
    document.write_text(document.read_text() + "from PySide6.QtCore import QObject  # noqa\n")
    (tmp_path / "engine" / "contacts" / "_wrong.py").write_text(
        "from ..kernels._passes import kinematics\nfrom ..analysis import _ik\n")
    (tmp_path / "engine" / "muscles" / "forces" / "_wrong.py").write_text("from ..path import _kernels\n")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert "engine.algorithms is not allowed to import engine.analysis" in done.stdout
    assert "engine.algorithms._wrong -> engine.analysis.pipeline" in done.stdout
    assert "engine is not allowed to import PySide6" in done.stdout
    assert "hybridgui._wrong -> engine.kernels._passes" in done.stdout
    assert "hip_mechanism is not allowed to import pyqtgraph" in done.stdout
    assert "engine.algorithms._wrong -> hip_mechanism.maps" in done.stdout
    assert "engine.model is not allowed to import engine.io" in done.stdout
    assert "engine.model._wrong -> engine.io.model_schema" in done.stdout
    assert "engine.muscles.forces._wrong -> engine.muscles.path._kernels" in done.stdout
    assert "engine.model._wrong -> engine.tree" in done.stdout
    assert "engine.contacts._wrong -> engine.kernels._passes" in done.stdout
    assert "engine.contacts._wrong -> engine.analysis._ik" in done.stdout
    assert "hybridgui.document is not allowed to import PySide6" in done.stdout
    assert "Contracts: 2 kept, 10 broken." in done.stdout
