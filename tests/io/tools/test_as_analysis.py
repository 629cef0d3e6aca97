"""OpenSim setups read as one analysis (the application's File > Open OpenSim setup): an ExternalLoads document given
alone becomes the trial's plates; a ScaleTool setup's scaled model is the analysis's when the IK setup names its
output; what cannot make one analysis (no IK setup, setups naming different models, two IK setups, an IK model that
is not the scaling's output) is refused naming the element and the files."""
from pathlib import Path

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.io.open import open_model
from engine.io.tools.as_analysis import open_setup_analysis, plan_setups, setup_analysis_steps
from engine.progress import run
from tests.io.tools.setup_folders import GAIT2354, setup_folder

IK, ID = "subject01_Setup_IK.xml", "subject01_Setup_InverseDynamics.xml"


@pytest.fixture
def folder(tmp_path):
    return setup_folder(tmp_path / "setups", GAIT2354, (IK, ID))


def test_external_loads_given_alone_are_the_trials_plates(folder):
    plan = plan_setups([folder / IK, folder / "subject01_walk1_grf.xml"])
    assert plan.external_loads == (folder / "subject01_walk1_grf.xml").absolute()
    model, trial, settings = open_setup_analysis(plan)
    assert len(trial.plates) == 2 and sorted(settings.plate_bodies.values()) == ["calcn_l", "calcn_r"]
    assert settings.muscles is False and (settings.ik.start, settings.ik.end) == (0.4, 1.6)
    assert settings.axes == "Y-up, X-forward" and settings.ik.robust_loss is None
    assert any("no InverseDynamicsTool" in n for n in settings.ik.notes)


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_what_cannot_be_one_analysis_is_refused_naming_it(folder):
    with pytest.raises(SettingsError, match="InverseKinematicsTool") as caught:
        plan_setups([folder / ID])
    assert ID in str(caught.value)
    with pytest.raises(SettingsError, match="two InverseKinematicsTool"):
        plan_setups([folder / IK, folder / IK])
    (folder / "other.osim").symlink_to(GAIT2354 / "scale" / "gait2354_simbody.osim")
    _rewrite(folder / ID, "subject01_simbody.osim", "other.osim")
    with pytest.raises(SettingsError, match="different models") as caught:
        plan_setups([folder / IK, folder / ID])
    assert IK in str(caught.value) and ID in str(caught.value) and "other.osim" in str(caught.value)


def test_a_scale_setup_gives_the_analysis_its_scaled_model(tmp_path):
    folder = setup_folder(tmp_path / "scale", GAIT2354 / "scale", ("subject01_Setup_Scale.xml",))
    for name in ("subject01_walk1.trc", "subject01_walk1_grf.mot", "subject01_walk1_grf.xml"):
        (folder / name).symlink_to(GAIT2354 / name)
    (folder / IK).write_text((GAIT2354 / IK).read_text().replace("<time_range> 0.4 1.6</time_range>",
                                                                  "<time_range> 0.4 0.6</time_range>"))
    plan = plan_setups([folder / "subject01_Setup_Scale.xml", folder / IK])
    assert plan.scale_setup == folder / "subject01_Setup_Scale.xml"
    model, trial, settings, result = run(setup_analysis_steps(plan))
    # OpenSim's own scaling of this setup: the bodies' masses within 0.5 % (the scaling issue's tolerance)
    reference = open_model(GAIT2354 / "scale" / "reference" / "subject01_simbody.osim")
    ours = {b.name: b.mass for b in model.bodies}
    for body in reference.bodies:
        assert abs(ours[body.name] - body.mass) <= 5e-3 * max(body.mass, 1e-3), body.name
    assert result.model.name == model.name and np.nanmean(result.ik.rms) < 0.03
    _rewrite(folder / IK, "<model_file>subject01_simbody.osim", "<model_file>gait2354_simbody.osim")
    with pytest.raises(SettingsError, match="subject01_simbody.osim") as caught:
        plan_setups([folder / "subject01_Setup_Scale.xml", folder / IK])
    assert "<InverseKinematicsTool>/<model_file>" in str(caught.value)


def test_body_forces_an_id_setup_asks_for_are_said_not_written(folder):
    _rewrite(folder / ID, "</output_gen_force_file>", "</output_gen_force_file><joints_to_report_body_forces> ALL "
             "</joints_to_report_body_forces>")
    plan = plan_setups([folder / IK, folder / ID])
    assert any("<joints_to_report_body_forces> not written" in n for n in plan.notes)


def test_setups_that_filter_differently_are_refused_naming_both(tmp_path):
    """An ID setup filtering at 6 Hz and an SO setup not filtering cannot both be this analysis's filter."""
    folder = setup_folder(tmp_path / "filters", GAIT2354, (IK, ID))
    (folder / "so_setup.xml").write_text((GAIT2354 / "reference" / "so_setup.xml").read_text().replace(
        "<lowpass_cutoff_frequency_for_coordinates>6<", "<lowpass_cutoff_frequency_for_coordinates>-1<"))
    with pytest.raises(SettingsError, match="low-pass the coordinates differently") as caught:
        open_setup_analysis(plan_setups([folder / IK, folder / ID, folder / "so_setup.xml"]))
    assert "6 Hz" in str(caught.value) and "no filter" in str(caught.value) and ID in str(caught.value)
