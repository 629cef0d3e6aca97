"""A HybridLab analysis's settings written as OpenSim setups: read back with the setup readers to the same settings,
and run by ``hybrid run`` (IK, then ID and SO on its output)."""
from __future__ import annotations

import numpy as np
import pytest

from engine.analysis.pipeline import AnalysisSettings
from engine.errors import SettingsError
from engine.io.osim import read_osim
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.io.storage import read_storage
from engine.io.tools.analyze_setup import read_analyze_setup
from engine.io.tools.id_setup import read_id_setup
from engine.io.tools.runs import run_setup
from engine.io.tools.write_setups import SetupFiles, write_opensim_setups
from engine.muscles.forces.static_optimization import MuscleForceSettings
from tests.io.tools.setup_folders import GAIT2354


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    model = read_osim(GAIT2354 / "subject01_simbody.osim")
    ik = ik_settings_from_setup(model, read_ik_setup(GAIT2354 / "subject01_Setup_IK.xml"))
    settings = AnalysisSettings(ik=ik, cutoff=6.0)
    files = SetupFiles(GAIT2354 / "subject01_simbody.osim", GAIT2354 / "subject01_walk1.trc",
                       GAIT2354 / "subject01_walk1_grf.xml", (GAIT2354 / "gait2354_CMC_Actuators.xml",))
    folder = tmp_path_factory.mktemp("setups")
    muscles = MuscleForceSettings(objective="opensim", muscle_physiology=False)
    return model, settings, folder, write_opensim_setups(folder, "walk", files, settings, model, muscles)


def test_setups_read_back_to_the_analysis_settings(written):
    model, settings, folder, paths = written
    assert [p.name for p in paths] == ["walk_Setup_IK.xml", "walk_Setup_ID.xml", "walk_Setup_SO.xml"]
    again = ik_settings_from_setup(model, read_ik_setup(paths[0]))
    weights = {m.name: settings.ik.marker_weights.get(m.name, 1.0) for m in model.markers}
    assert again.marker_weights == weights and again.coordinate_tasks == settings.ik.coordinate_tasks
    assert (again.start, again.end) == (0.4, 1.6)
    inverse = read_id_setup(paths[1])
    assert inverse.inputs.cutoff == 6.0 and inverse.inputs.external_loads_file.resolve() == (
        GAIT2354 / "subject01_walk1_grf.xml").resolve()
    assert inverse.inputs.coordinates_file == folder / "walk_ik.mot" and inverse.inputs.time_range == (0.4, 1.6)
    so = read_analyze_setup(paths[2])
    assert so.muscle_physiology is False and so.activation_exponent == 2 and so.inputs.time_range == (0.4, 1.6)
    assert [p.resolve() for p in so.force_set_files] == [(GAIT2354 / "gait2354_CMC_Actuators.xml").resolve()]


def test_written_setups_run(written):
    model, _, folder, paths = written
    runs = [run_setup(p) for p in paths]
    assert [r.tool for r in runs] == ["InverseKinematicsTool", "InverseDynamicsTool", "AnalyzeTool"]
    ik, forces = read_storage(folder / "walk_ik.mot"), read_storage(folder / "walk_StaticOptimization_force.sto")
    assert len(ik.time) == len(forces.time) == 73 and runs[2].result.success.all()
    # without muscle physiology a muscle's force is its activation times F_max
    activations = read_storage(folder / "walk_StaticOptimization_activation.sto")
    f_max = np.array([m.max_isometric_force for m in model.muscles])
    assert np.allclose(forces.data[:, :54], activations.data[:, :54] * f_max, rtol=1e-9, atol=1e-6)


def test_what_opensim_cannot_express_is_refused(written, tmp_path):
    model, settings, _, _ = written
    files = SetupFiles(tmp_path / "model.yaml", tmp_path / "trial.trc")
    with pytest.raises(SettingsError, match="osim"):
        write_opensim_setups(tmp_path, "x", files, settings, model)
    files = SetupFiles(GAIT2354 / "subject01_simbody.osim", GAIT2354 / "subject01_walk1.trc")
    with pytest.raises(SettingsError, match="objective"):
        write_opensim_setups(tmp_path, "x", files, settings, model, MuscleForceSettings())
