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


def test_a_study_copied_with_its_results_to_another_folder_is_browsed_there(tmp_path, test_data):
    """A lab's folder (its study file naming its trial's files relative to it) and the results beside it
    (``--out lab_results``), copied elsewhere and the originals gone: the copy's study file finds the copied results,
    the copied results name the copied study file, and a trial's results are computed again from the copy."""
    import json
    import shutil

    from distributed import Client

    from engine.io.analysis_outputs import write_outputs
    from study.description import load_study
    from study.runner import run_study
    g = test_data / "opensim" / "gait2354"
    lab = tmp_path / "first" / "lab"
    (lab / "s01").mkdir(parents=True)
    for name in ("subject01_simbody.osim", "subject01_walk1.trc", "subject01_walk1_grf.mot",
                 "subject01_walk1_grf.xml"):
        shutil.copy(g / name, lab / "s01" / name)
    (lab / "study.yaml").write_text("""format: hybridlab-study
version: 1
settings: {start: 0.5, end: 0.7}
subjects:
  - id: s01
    model: s01/subject01_simbody.osim
    trials:
      - id: walk1
        file: s01/subject01_walk1.trc
        grf: s01/subject01_walk1_grf.mot
        external_loads: s01/subject01_walk1_grf.xml
""")
    with Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None) as client:
        assert run_study(load_study(lab / "study.yaml"), tmp_path / "first" / "lab_results", client).count("done") == 1
    before = open_study(lab / "study.yaml")
    assert before.out == tmp_path / "first" / "lab_results"              # beside the study's folder
    assert json.loads((before.out / "study-manifest.json").read_text())["source"] == "../lab/study.yaml"
    shutil.copytree(tmp_path / "first", tmp_path / "laptop")
    shutil.rmtree(tmp_path / "first")
    moved = tmp_path / "laptop"
    by_study, by_results = open_study(moved / "lab" / "study.yaml"), open_study(moved / "lab_results")
    assert by_study.out == moved / "lab_results" and by_results.source == moved / "lab" / "study.yaml"
    assert by_study.rows == by_results.rows == before.rows and {r["status"] for r in before.rows} == {"done"}
    result, _ = run(trial_result_steps(by_results, "s01", "walk1"))
    write_outputs(result, tmp_path / "again")
    assert (tmp_path / "again" / "ik.mot").read_bytes() == (moved / "lab_results" / "trials" / "s01" / "walk1" /
                                                            "ik.mot").read_bytes()
