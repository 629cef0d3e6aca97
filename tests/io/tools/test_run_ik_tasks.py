"""IK coordinate tasks as OpenSim 4.6 reads them, against its output for the same setup
(tests/data/opensim/gait2354/ik_tasks, made by make_ik_tasks.py there): a manual_value in radians (0.3 held
mtp_angle_r at 17.19 degrees in OpenSim's output), from_file tasks following their column of the setup's
coordinate_file (knee_angle_r there is the dataset's IK less 15 degrees, so the file, not the markers, sets it)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import DataError
from engine.io.osim import read_osim
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.io.storage import read_storage
from engine.io.tools.runs import run_setup
from engine.io.tools.write_setups import SetupFiles, write_opensim_setups
from tests.io.tools.setup_folders import GAIT2354, setup_folder

TASKS = GAIT2354 / "ik_tasks"


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    folder = setup_folder(tmp_path_factory.mktemp("ik_tasks"), GAIT2354, ("ik_tasks/setup_ik_tasks.xml",),
                          links={"knee_shifted.mot": TASKS / "knee_shifted.mot"})
    run = run_setup(folder / "setup_ik_tasks.xml")
    return run, read_storage(folder / "ik_tasks.mot"), read_storage(TASKS / "reference" / "ik_tasks.mot")


def test_manual_value_is_in_radians_as_opensim_reads_it(ran):
    _, ours, theirs = ran
    assert np.allclose(theirs.column("mtp_angle_r"), np.degrees(0.3), atol=0.01)     # what OpenSim did
    assert np.allclose(ours.column("mtp_angle_r"), theirs.column("mtp_angle_r"), atol=0.05)


def test_from_file_tasks_follow_the_coordinates_file_as_in_opensim(ran):
    run, ours, theirs = ran
    assert len(ours.time) == len(theirs.time) == 19 and not any("coordinate_file" in n for n in run.notes)
    shifted = read_storage(TASKS / "knee_shifted.mot")
    knee = np.interp(ours.time, shifted.time, shifted.column("knee_angle_r"))
    assert np.abs(ours.column("knee_angle_r") - knee).max() < 0.5           # 15 degrees from what the markers say
    for label in theirs.labels:
        rms = np.sqrt(np.mean((ours.column(label) - theirs.column(label)) ** 2))
        assert rms < (0.5 if label in ("knee_angle_r", "subtalar_angle_r") else 2.0 if "_t" not in label[-3:]
                      else 2e-3), label


def test_a_from_file_task_needs_the_file_and_its_column(tmp_path):
    text = (TASKS / "setup_ik_tasks.xml").read_text()
    model = read_osim(GAIT2354 / "subject01_simbody.osim")
    (tmp_path / "knee_shifted.mot").symlink_to(TASKS / "knee_shifted.mot")
    none = tmp_path / "none.xml"
    none.write_text(re.sub(r"<coordinate_file>.*?</coordinate_file>", "<coordinate_file />", text))
    with pytest.raises(DataError, match=re.escape("<IKCoordinateTask name='subtalar_angle_r'>") + ".*coordinate_file"):
        ik_settings_from_setup(model, read_ik_setup(none))
    other = tmp_path / "other.xml"
    other.write_text(text.replace('<IKCoordinateTask name="knee_angle_r">', '<IKCoordinateTask name="knee_angle_l">'))
    (tmp_path / "knee_shifted.mot").unlink()
    (tmp_path / "knee_shifted.mot").write_text((TASKS / "knee_shifted.mot").read_text().replace("knee_angle_l",
                                                                                              "knee_l"))
    with pytest.raises(DataError, match="no column 'knee_angle_l'"):
        ik_settings_from_setup(model, read_ik_setup(other))


def test_written_setups_keep_manual_values_in_radians_and_the_coordinates_file(tmp_path):
    model = read_osim(GAIT2354 / "subject01_simbody.osim")
    ik = ik_settings_from_setup(model, read_ik_setup(TASKS / "setup_ik_tasks.xml"))
    files = SetupFiles(GAIT2354 / "subject01_simbody.osim", GAIT2354 / "subject01_walk1.trc")
    written = write_opensim_setups(tmp_path, "walk", files, AnalysisSettings(ik=ik), model)
    again = ik_settings_from_setup(model, read_ik_setup(written[0]))
    assert again.coordinate_tasks["mtp_angle_r"] == (1000.0, 0.3)
    track, back = ik.coordinate_tasks["knee_angle_r"][1], again.coordinate_tasks["knee_angle_r"][1]
    assert np.array_equal(track.values, back.values) and np.allclose(back.values[:3], np.radians(
        read_storage(TASKS / "knee_shifted.mot").column("knee_angle_r")[:3]))


def test_settings_with_a_from_file_task_are_kept_in_a_results_file():
    from engine.io.results_file import pack, unpack
    model = read_osim(GAIT2354 / "subject01_simbody.osim")
    ik = ik_settings_from_setup(model, read_ik_setup(TASKS / "setup_ik_tasks.xml"))
    again = unpack(pack({"settings": AnalysisSettings(ik=ik)}))["settings"].ik
    track, back = ik.coordinate_tasks["knee_angle_r"][1], again.coordinate_tasks["knee_angle_r"][1]
    assert np.array_equal(back.time, track.time) and np.array_equal(back.values, track.values)
    assert back.source.endswith("knee_shifted.mot") and again.coordinate_tasks["mtp_angle_r"] == (1000.0, 0.3)
