"""OpenSim setups in the application (issue 25, item 2): gait2354's IK, ID and SO setups opened with File > Open
OpenSim setup run as one analysis in the worker and give what `hybrid run` writes for the same setups (coordinates,
generalized forces, muscle forces and activations); the analysis saved as OpenSim setups runs in `hybrid run` back to
the application's result; dropped setups open the same way; a setup HybridLab does not run is refused naming its element."""
from pathlib import Path

import numpy as np
import pytest

from engine.analysis.coordinate_values import coordinate_values
from engine.cli.main import main
from engine.io.storage import read_storage
from engine.tree import compile_tree
from hybridgui import opensim_setups
from tests.io.tools.setup_folders import GAIT2354, setup_folder

SETUPS = ("subject01_Setup_IK.xml", "subject01_Setup_InverseDynamics.xml", "reference/so_setup.xml")


def _folder(path: Path) -> list:
    folder = setup_folder(path, GAIT2354, SETUPS)
    return [folder / Path(s).name for s in SETUPS]


def _open(window, qtbot, paths):
    with qtbot.waitSignal(window.runner.ended, timeout=120_000):
        window.open_paths(paths)              # as dropped: tool setups open as one analysis
    assert window.last_error is None, window.reported
    return window.document.result


@pytest.fixture
def opened(make_window, qtbot, tmp_path):
    window = make_window()
    return window, _open(window, qtbot, _folder(tmp_path / "gui"))


def test_setups_open_as_an_analysis_equal_to_hybrid_run(opened, tmp_path):
    window, result = opened
    assert window.document.model is result.model and result.muscles is not None
    assert any("coordinates_file" in n and "not read" in n for n in result.notes)        # said, not ignored
    assert any("optimizer_max_iterations" in n for n in result.notes)
    # hybrid run on the same setups, in its own folder (its ID and SO read the coordinates its IK writes)
    cli = _folder(tmp_path / "cli")
    assert main(["run", *map(str, cli)]) == 0
    folder = cli[0].parent
    ik = read_storage(folder / "subject01_walk1_ik.mot")
    names, values = coordinate_values(result.model, result.ik.q)        # degrees, metres
    assert np.allclose(result.ik.time, ik.time, atol=1e-9)
    for label in ik.labels:
        assert np.allclose(values[:, names.index(label)], ik.column(label), atol=1e-6), label
    forces = read_storage(folder / "ResultsInverseDynamics" / "inverse_dynamics.sto")
    tau = result.dynamics.tau
    for label in forces.labels:
        coordinate = label.rsplit("_", 1)[0]
        column = tau[:, compile_tree(result.model).coordinates[coordinate].vi]
        assert np.allclose(column, forces.column(label), atol=1e-6 * max(np.ptp(forces.column(label)), 1.0)), label
    so = result.muscles.result
    muscle_forces = read_storage(folder / "so_StaticOptimization_force.sto")
    activations = read_storage(folder / "so_StaticOptimization_activation.sto")
    for k, muscle in enumerate(so.muscle_names):
        assert np.allclose(so.forces[:, k], muscle_forces.column(muscle), atol=1e-4), muscle
        assert np.allclose(so.activations[:, k], activations.column(muscle), atol=1e-6, equal_nan=True), muscle


def test_the_analysis_saved_as_setups_runs_back_to_it(opened, tmp_path):
    window, result = opened
    written = opensim_setups.save_setups(window, tmp_path / "saved")
    assert [p.name for p in written] == ["subject01_walk1_Setup_IK.xml", "subject01_walk1_Setup_ID.xml",
                                         "subject01_walk1_Setup_SO.xml"]
    assert main(["run", *map(str, written)]) == 0
    ik = read_storage(tmp_path / "saved" / "subject01_walk1_ik.mot")
    names, values = coordinate_values(result.model, result.ik.q)
    for label in ik.labels:
        assert np.allclose(values[:, names.index(label)], ik.column(label), atol=1e-6), label
    forces = read_storage(tmp_path / "saved" / "subject01_walk1_StaticOptimization_force.sto")
    assert "calcn_l_left_Fy" in forces.labels                # the plates' loads, from the ExternalLoads written
    so = result.muscles.result
    for k, muscle in enumerate(so.muscle_names):
        assert np.allclose(so.forces[:, k], forces.column(muscle), atol=1e-4), muscle


def test_a_setup_we_do_not_run_is_refused_naming_its_element(make_window, tmp_path):
    window = make_window()
    paths = _folder(tmp_path / "refused")
    cmc = paths[0].parent / "cmc_setup.xml"
    cmc.write_text('<OpenSimDocument Version="40000"><CMCTool name="walk"><model_file>subject01_simbody.osim'
                   '</model_file></CMCTool></OpenSimDocument>')
    so = paths[2].read_text().replace("<StaticOptimization name=\"StaticOptimization\">",
                                      "<MuscleAnalysis name=\"lengths\"><on>true</on></MuscleAnalysis>"
                                      "<StaticOptimization name=\"StaticOptimization\">")
    paths[2].unlink()
    paths[2].write_text(so)
    for chosen, element in (([paths[0], cmc], "<CMCTool name='walk'>"),
                            (paths, "<MuscleAnalysis name='lengths'>"),
                            (paths[1:], "<InverseKinematicsTool>")):
        window.last_error = None
        window.attempt("Cannot open the OpenSim setups", opensim_setups.open_setups, window, chosen)
        assert window.last_error is not None and element in window.last_error.text(), window.last_error.text()
        assert not window.runner.running and window.document.result is None


def test_a_cancelled_setup_run_leaves_the_window_as_it_was(make_window, qtbot, tmp_path):
    window = make_window()
    with qtbot.waitSignal(window.runner.cancelled, timeout=60_000):
        opensim_setups.open_setups(window, _folder(tmp_path / "cancel"))
        window.runner.cancel()
    qtbot.waitUntil(lambda: not window.runner.running)
    assert window.document.result is None and window.document.model is None and window.preparing is None
    assert "cancelled" in window.progress.message.text() and window.last_error is None


def test_plates_without_their_external_loads_file_are_refused_not_dropped(opened, tmp_path):
    window, _ = opened
    window.setup_files.clear()            # as after a session: the ExternalLoads file is not known
    window.attempt("Cannot write the OpenSim setups", opensim_setups.save_setups, window, tmp_path / "none")
    assert "ExternalLoads" in window.last_error.text() and not (tmp_path / "none").exists()
