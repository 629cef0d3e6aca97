"""A step's fingerprint holds the code that computes it: the digest of the installed sources changes with any byte of
them (not with Python's caches beside them), and a trial's and a subject's fingerprints change with it."""
import hashlib

from study import fingerprint
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
    g = test_data / "opensim" / "gait2354"
    study_file = tmp_path / "study.yaml"
    study_file.write_text(f"""format: hybridlab-study
version: 1
subjects:
  - id: s
    model: {g / 'subject01_simbody.osim'}
    trials:
      - id: walk1
        file: {g / 'subject01_walk1.trc'}
""")
    study = load_study(study_file)
    subject, trial = study.subjects[0], study.trials[0]
    before = fingerprint.subject_fingerprint(subject), fingerprint.trial_fingerprint(trial, "s")
    monkeypatch.setattr(fingerprint, "code_digest", lambda: "an edited kernel")
    after = fingerprint.subject_fingerprint(subject), fingerprint.trial_fingerprint(trial, "s")
    assert before[0] != after[0] and before[1] != after[1]
