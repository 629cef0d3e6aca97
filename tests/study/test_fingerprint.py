"""A step's fingerprint holds the code that computes it: the digest of the installed sources changes with any byte of
them (not with Python's caches beside them), also in a frozen bundle (simulated), and a trial's and a subject's
fingerprints change with it."""
import hashlib
import sys
from pathlib import Path

import pytest

from study import fingerprint
from tests.study.walk_study import walk_study
from study.description import load_study


def test_the_source_digest_follows_every_byte_of_the_sources_and_not_their_caches(tmp_path):
    package = tmp_path / "engine"
    (package / "kernels").mkdir(parents=True)
    (package / "kernels" / "ik.py").write_text("GAIN = 1.0\n")
    (package / "__init__.py").write_text("")
    before = fingerprint.source_digest([package])
    (package / "kernels" / "__pycache__").mkdir()
    (package / "kernels" / "__pycache__" / "ik.cpython-311.pyc").write_bytes(b"compiled")
    (package / "kernels" / "__pycache__" / "ik.solve-3.py311.nbi").write_bytes(b"numba's index")
    assert fingerprint.source_digest([package]) == before
    (package / "kernels" / "ik.py").write_text("GAIN = 1.5\n")
    changed = fingerprint.source_digest([package])
    assert changed != before
    (package / "kernels" / "ik.py").rename(package / "kernels" / "id.py")     # same bytes, another module
    assert fingerprint.source_digest([package]) not in (before, changed)


def test_the_code_digest_covers_the_installed_engine_and_study_sources():
    import engine.kernels
    import study.tasks
    paths = fingerprint.code_paths()
    files = [p for p in paths if p.is_file()] + [f for p in paths if p.is_dir() for f in p.rglob("*.py")]
    assert {engine.kernels.__file__, study.tasks.__file__} <= {str(f) for f in files}
    assert fingerprint.code_digest() == fingerprint.source_digest(paths)
    assert fingerprint.code_digest() != hashlib.sha256(b"").hexdigest()


def test_a_changed_code_digest_changes_the_subject_and_trial_fingerprints(tmp_path, test_data, monkeypatch):
    study = load_study(walk_study(tmp_path, test_data))
    subject, trial = study.subjects[0], study.trials[0]
    before = fingerprint.subject_fingerprint(subject), fingerprint.trial_fingerprint(trial, "s")
    monkeypatch.setattr(fingerprint, "code_digest", lambda: "an edited kernel")
    after = fingerprint.subject_fingerprint(subject), fingerprint.trial_fingerprint(trial, "s")
    assert before[0] != after[0] and before[1] != after[1]


@pytest.fixture
def bundle(tmp_path, monkeypatch):
    """A simulated frozen bundle (PyInstaller's one folder): the programs ``hybrid`` and ``hybridgui`` (other bytes, as
    the windowed copy on Windows and macOS), and in ``_internal`` the engine's and study's sources the spec ships
    beside their byte code and the resources (an importable folder on ``sys.path``, as PyInstaller leaves it); the
    engine and study modules point there as frozen modules do (``__file__`` a .pyc in the bundle). Returns the
    bundle's folder; ``code_digest``'s once-per-process cache is emptied before and after."""
    import engine
    import hybridlab_resources
    import study
    root = tmp_path / "hybridlab"
    internal = root / "_internal"
    files = {"engine/__init__.py": "", "engine/kernels/ik.py": "GAIN = 1.0\n", "study/__init__.py": "",
             "study/tasks.py": "RETRIES = 0\n", "hybridlab_resources/__init__.py": "",
             "hybridlab_resources/athlete.yaml": "mass: 70\n", "hybridlab_resources/protocols/pig.yaml": "LASI: x\n",
             "hybridlab_resources/normative/gait.csv": "knee,60\n", "hybridlab_resources/demo/run.c3d": "a recording"}
    for name, text in files.items():
        (internal / name).parent.mkdir(parents=True, exist_ok=True)
        (internal / name).write_text(text)
    (root / "hybrid").write_bytes(b"console bootloader + the PYZ")
    (root / "hybridgui").write_bytes(b"windowed bootloader + the PYZ")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(internal), raising=False)
    monkeypatch.setattr(engine, "__file__", str(internal / "engine" / "__init__.pyc"))
    monkeypatch.setattr(study, "__file__", str(internal / "study" / "__init__.pyc"))
    monkeypatch.delitem(sys.modules, hybridlab_resources.__name__)     # put back after the test
    monkeypatch.syspath_prepend(str(internal))
    fingerprint.code_digest.cache_clear()
    yield root
    fingerprint.code_digest.cache_clear()


def _digest_run_as(program: Path, monkeypatch) -> str:
    """The code digest of a new process of the bundle started as ``program``."""
    monkeypatch.setattr(sys, "executable", str(program))
    fingerprint.code_digest.cache_clear()
    return fingerprint.code_digest()


def test_a_frozen_bundles_code_digest_is_its_shipped_code_whichever_program_runs(bundle, monkeypatch):
    internal = bundle / "_internal"
    paths = fingerprint.code_paths()
    assert paths[:2] == [internal / "engine", internal / "study"]
    assert all(internal / "hybridlab_resources" in p.parents for p in paths[2:])
    digest = _digest_run_as(bundle / "hybrid", monkeypatch)
    assert digest == fingerprint.source_digest(paths)
    # hybrid batch's results are opened by the application: the windowed program of the same bundle
    assert _digest_run_as(bundle / "hybridgui", monkeypatch) == digest


def test_a_frozen_bundles_code_digest_changes_with_its_sources_and_resources(bundle, monkeypatch):
    internal = bundle / "_internal"
    digests = [_digest_run_as(bundle / "hybrid", monkeypatch)]
    for name, text in [("study/tasks.py", "RETRIES = 1\n"), ("engine/kernels/ik.py", "GAIN = 1.5\n"),
                       ("hybridlab_resources/normative/gait.csv", "knee,61\n"),
                       ("hybridlab_resources/athlete.yaml", "mass: 71\n")]:
        (internal / name).write_text(text)
        digests.append(_digest_run_as(bundle / "hybrid", monkeypatch))
    assert len(set(digests)) == len(digests)
    (internal / "hybridlab_resources" / "demo" / "run.c3d").write_text("another recording")   # an input, not code
    assert _digest_run_as(bundle / "hybrid", monkeypatch) == digests[-1]
