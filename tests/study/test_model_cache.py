"""A worker's model cache: trials that share a model file read it once and write the very files they write when each
reads it anew; a file that changed is read again; the cache holds at most its capacity."""
import json
import shutil
from pathlib import Path

import pytest

from engine.io.open import open_model
from study.description import load_study
from study.model_cache import ModelCache
from study.tasks import analyse_trial


def _files(folder: Path) -> dict:
    """{name: bytes} of a trial's outputs, metrics.json and study-record.json without their timings (the one thing
    two runs do not share)."""
    out = {}
    for name in json.loads((folder / "manifest.json").read_text())["files"]:
        data = (folder / name).read_bytes()
        if name == "metrics.json":
            doc = json.loads(data)
            for part in ("ik", "id"):
                doc[part].pop("seconds")
            data = json.dumps(doc, sort_keys=True).encode()
        if name == "study-record.json":
            doc = json.loads(data)
            assert doc.pop("seconds") > 0 and doc.pop("cpu_seconds") > 0
            data = json.dumps(doc, sort_keys=True).encode()
        out[name] = data
    return out


def test_trials_sharing_a_cached_model_write_what_they_write_reading_it_anew(test_data, tmp_path):
    t = test_data / "opensim" / "gait10dof18musc"
    loads = f"        grf: {t / 'subject01_walk_grf.mot'}\n        external_loads: {t / 'subject01_walk_grf.xml'}\n"
    study_file = tmp_path / "study.yaml"
    study_file.write_text(f"""format: hybridlab-study
version: 1
subjects:
  - id: s
    model: {t / 'subject01.osim'}
    trials:
      - id: plain
        file: {t / 'subject01_walk.trc'}
{loads}        settings: {{start: 0.6, end: 0.9}}
      - id: estimated
        file: {t / 'subject01_walk.trc'}
{loads}        settings: {{start: 0.7, end: 1.0, filter: 8, estimate_grf: true}}
      - id: plain_again
        file: {t / 'subject01_walk.trc'}
{loads}        settings: {{start: 0.6, end: 0.9}}
""")
    study = load_study(study_file)
    model, cache = str(study.subjects[0].model), ModelCache()
    for trial in study.trials:                    # in turn, each after the others used (and could have changed) it
        assert analyse_trial(trial, model, tmp_path / "cached" / trial.id, "f", cache)["status"] == "done"
    assert cache.reads == 1                       # the three trials shared one model
    for trial in study.trials:
        assert analyse_trial(trial, model, tmp_path / "anew" / trial.id, "f", None)["status"] == "done"
        assert _files(tmp_path / "cached" / trial.id) == _files(tmp_path / "anew" / trial.id), trial.id
    again = _files(tmp_path / "cached" / "plain_again")
    assert {**_files(tmp_path / "cached" / "plain"), "study-record.json": None} == {**again, "study-record.json": None}


def test_a_changed_file_is_read_again_and_an_unchanged_one_is_not(test_data, tmp_path):
    path = tmp_path / "model.osim"
    shutil.copy(test_data / "opensim" / "gait10dof18musc" / "subject01.osim", path)
    cache = ModelCache()
    first = cache.open(path)
    assert cache.open(path) is first and cache.reads == 1
    text = path.read_text()
    heavier = text.replace("<mass>", "<mass>1", 1)       # the first body 10+ kg heavier (e.g. 11.77 -> 111.77)
    assert heavier != text
    path.write_text(heavier)
    second = cache.open(path)
    assert cache.reads == 2 and len(cache) == 1
    assert second.total_mass == pytest.approx(open_model(path).total_mass, rel=0, abs=0)
    assert second.total_mass > first.total_mass + 10


def test_the_cache_keeps_its_capacity_dropping_the_least_recently_used(test_data, tmp_path):
    paths = []
    for name in "abc":
        paths.append(tmp_path / f"{name}.osim")
        shutil.copy(test_data / "opensim" / "gait10dof18musc" / "subject01.osim", paths[-1])
    cache = ModelCache(capacity=2)
    a = cache.open(paths[0])
    cache.open(paths[1])
    assert cache.open(paths[0]) is a          # a used again: b is now the least recent
    cache.open(paths[2])                      # drops b
    assert len(cache) == 2 and cache.reads == 3
    assert cache.open(paths[0]) is a and cache.reads == 3
    cache.open(paths[1])
    assert cache.reads == 4 and len(cache) == 2


def test_an_unreadable_model_file_fails_as_open_model_says(tmp_path):
    from engine.errors import ModelError
    with pytest.raises(ModelError, match="no such file"):
        ModelCache().open(tmp_path / "missing.osim")
    with pytest.raises(ValueError, match="at least one"):
        ModelCache(capacity=0)
