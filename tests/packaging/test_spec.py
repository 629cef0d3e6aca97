"""packaging/hybridlab.spec read as PyInstaller reads it, without building: its build steps (Analysis, PYZ, EXE,
COLLECT, BUNDLE) and PyInstaller's hook helpers replaced by recorders, so that what it asks PyInstaller to ship can be
compared with what the bundle's code reads at run time."""
from __future__ import annotations

import sys
import types
from pathlib import Path

from study import fingerprint

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def spec_analysis(monkeypatch, tmp_path) -> dict:
    """The keyword arguments the spec gives PyInstaller's ``Analysis``."""
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda package: [package]
    hooks.copy_metadata = lambda name: [(f"{name}.dist-info", f"{name}.dist-info")]
    for name, module in [("PyInstaller", types.ModuleType("PyInstaller")),
                         ("PyInstaller.utils", types.ModuleType("PyInstaller.utils")),
                         ("PyInstaller.utils.hooks", hooks)]:
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setenv("HYBRIDLAB_BUILD_FILE", str(tmp_path / "BUILD"))
    given = {}

    def analysis(scripts, **kwargs):
        given.update(kwargs)
        return types.SimpleNamespace(pure=[], scripts=[], binaries=[], datas=[])

    spec = PACKAGING / "hybridlab.spec"
    steps = {name: (lambda *args, **kwargs: None) for name in ("PYZ", "EXE", "COLLECT", "BUNDLE")}
    exec(compile(spec.read_text(), str(spec), "exec"), {"SPECPATH": str(PACKAGING), "Analysis": analysis, **steps})
    return given


def test_the_bundle_ships_the_sources_and_resources_a_studys_code_digest_hashes(monkeypatch, tmp_path):
    analysis = spec_analysis(monkeypatch, tmp_path)
    with_sources = {name for name, mode in analysis["module_collection_mode"].items() if mode == "pyz+py"}
    shipped_folders = [Path(source).resolve() for source, _ in analysis["datas"] if Path(source).is_dir()]
    packages = [p for p in fingerprint.code_paths() if (p / "__init__.py").is_file()]
    assert {p.name for p in packages} == {"engine", "study"}
    assert {p.name for p in packages} <= with_sources
    for path in (p for p in fingerprint.code_paths() if p not in packages):
        assert any(folder in path.resolve().parents for folder in shipped_folders), path
