"""Opening a study to browse it (the application's study dock reads it through ``study.browse``): a study file never
run lists its trials as not run and opening one says to run the batch; a folder without a manifest, or with
another file as one, is refused naming the file."""
import pytest

from engine.errors import DataError
from engine.progress import run
from study.browse import open_study, trial_result_steps


def _study(folder, test_data):
    g = test_data / "opensim" / "gait2354"
    path = folder / "study.yaml"
    path.write_text(f"""format: hybridlab-study
version: 1
subjects:
  - id: s01
    model: {g / 'subject01_simbody.osim'}
    trials:
      - id: walk1
        file: {g / 'subject01_walk1.trc'}
      - id: walk2
        file: {g / 'subject01_walk1.trc'}
""")
    return path


def test_a_study_never_run_lists_its_trials_as_not_run(tmp_path, test_data):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "study-manifest.json").write_text('{"source": "/another/study.yaml", "trials": {}}')
    table = open_study(_study(tmp_path, test_data))        # a batch folder of another study beside it is not its
    assert table.out is None and table.name == "study"
    assert [(r["subject"], r["trial"], r["status"]) for r in table.rows] == [("s01", "walk1", "not run"),
                                                                            ("s01", "walk2", "not run")]
    assert table.columns[:3] == ["subject", "trial", "status"] and table.columns[-1] == "error"
    with pytest.raises(DataError, match="has not been run: run 'hybrid batch study.yaml"):
        run(trial_result_steps(table, "s01", "walk1"))


def test_a_folder_without_a_manifest_or_with_another_file_as_one_is_refused(tmp_path):
    with pytest.raises(DataError, match="no readable study-manifest.json") as raised:
        open_study(tmp_path)
    assert "study-manifest.json" in str(raised.value.file)
    (tmp_path / "study-manifest.json").write_text('{"format": "hybridlab-results"}')
    with pytest.raises(DataError, match="not a study manifest written by 'hybrid batch'"):
        open_study(tmp_path / "study-manifest.json")
