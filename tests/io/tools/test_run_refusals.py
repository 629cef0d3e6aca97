"""What a setup asks that HybridLab does not do is refused naming the element, or listed in the run's notes."""
from __future__ import annotations

import re

import pytest

from engine.cli.main import main
from engine.errors import SettingsError
from engine.io.tools.analyze_setup import read_analyze_setup
from engine.io.tools.documents import tool_element
from engine.io.tools.id_setup import read_id_setup
from engine.io.tools.runs import run_setup
from tests.io.tools.setup_folders import GAIT2354

SO_SETUP = (GAIT2354 / "reference" / "so_setup.xml").read_text()
ID_SETUP = (GAIT2354 / "subject01_Setup_InverseDynamics.xml").read_text()


def write(tmp_path, text, name="setup.xml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_cmc_tool_is_refused_naming_it(tmp_path, capsys):
    path = write(tmp_path, '<OpenSimDocument Version="40000"><CMCTool name="cmc"><model_file>m.osim</model_file>'
                           "</CMCTool></OpenSimDocument>")
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "<CMCTool name='cmc'>" in err and "does not run" in err and str(path) in err


def test_another_analysis_that_is_on_is_refused_naming_it(tmp_path):
    text = SO_SETUP.replace("<AnalysisSet name=\"Analyses\"><objects>", "<AnalysisSet name=\"Analyses\"><objects>"
                            "<MuscleAnalysis name=\"ma\"><on>true</on></MuscleAnalysis>")
    with pytest.raises(SettingsError, match=re.escape("<MuscleAnalysis name='ma'>")):
        read_analyze_setup(write(tmp_path, text))


def test_a_joint_reaction_analysis_is_refused_saying_why(tmp_path):
    text = SO_SETUP.replace("<AnalysisSet name=\"Analyses\"><objects>", "<AnalysisSet name=\"Analyses\"><objects>"
                            "<JointReaction name=\"jr\"><on>true</on><forces_file>so_force.sto</forces_file>"
                            "<joint_names>ALL</joint_names><express_in_frame>child</express_in_frame>"
                            "</JointReaction>")
    with pytest.raises(SettingsError, match=re.escape("<JointReaction name='jr'>") + ".*muscle forces"):
        read_analyze_setup(write(tmp_path, text))


def test_an_analysis_that_is_off_is_listed_not_run(tmp_path):
    text = SO_SETUP.replace("<AnalysisSet name=\"Analyses\"><objects>", "<AnalysisSet name=\"Analyses\"><objects>"
                            "<Kinematics name=\"kin\"><on>false</on></Kinematics>")
    setup = read_analyze_setup(write(tmp_path, text))
    assert any("<Kinematics name='kin'> is off, not run" in n for n in setup.notes)
    assert setup.analysis == "StaticOptimization" and setup.activation_exponent == 2 and setup.muscle_physiology
    assert [p.name for p in setup.force_set_files] == ["gait2354_CMC_Actuators.xml"]
    assert setup.inputs.cutoff == 6 and setup.inputs.time_range == (0.4, 1.6)


@pytest.mark.parametrize("old, new, element", [
    ("<activation_exponent>2</activation_exponent>", "<activation_exponent>3</activation_exponent>",
     "<activation_exponent>"),
    ("<step_interval>1</step_interval>", "<step_interval>2</step_interval>", "<step_interval>"),
    ("<replace_force_set>false</replace_force_set>", "<replace_force_set>true</replace_force_set>",
     "<replace_force_set>"),
    ("<use_model_force_set>true</use_model_force_set>", "<use_model_force_set>false</use_model_force_set>",
     "<use_model_force_set>"),
    ("<results_directory>.</results_directory>", "<results_directory>.</results_directory>"
     "<states_file>states.sto</states_file>", "<states_file>"),
])
def test_static_optimization_options_we_do_not_solve_are_refused(tmp_path, old, new, element):
    assert old in SO_SETUP
    with pytest.raises(SettingsError, match=re.escape(element)):
        read_analyze_setup(write(tmp_path, SO_SETUP.replace(old, new)))


def test_an_element_we_do_not_use_is_listed(tmp_path):
    text = ID_SETUP.replace("</InverseDynamicsTool>", "<coordinates_in_degrees>true</coordinates_in_degrees>"
                            "</InverseDynamicsTool>")
    setup = read_id_setup(write(tmp_path, text))
    assert any("<coordinates_in_degrees> is not used" in n for n in setup.notes)
    assert setup.output_file == tmp_path / "ResultsInverseDynamics" / "inverse_dynamics.sto"
    assert setup.forces_to_exclude == ("Muscles",) and setup.inputs.model_file == tmp_path / "subject01_simbody.osim"


def test_muscles_not_excluded_from_inverse_dynamics_are_refused(tmp_path):
    text = ID_SETUP.replace("<forces_to_exclude> Muscles </forces_to_exclude>", "<forces_to_exclude />")
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "subject01_simbody.osim").symlink_to(GAIT2354 / "subject01_simbody.osim")
    with pytest.raises(SettingsError, match=re.escape("<forces_to_exclude>")):
        run_setup(write(folder, text))


def test_a_document_without_a_tool(tmp_path):
    path = write(tmp_path, '<OpenSimDocument Version="40000"><ForceSet name="f"/></OpenSimDocument>')
    with pytest.raises(SettingsError, match="not a tool setup"):
        tool_element(path)
