"""Bad input to a scaling: each a clear error of the project's own type naming the file and the element; and a
static trial moving more than the setup allows, named in the notes as OpenSim warns of it."""
import shutil

import pytest

from engine.cli.main import main
from engine.errors import DataError, ModelError
from engine.io.osim.scale_setup import read_scale_setup
from engine.io.trc import read_trc, write_trc
from engine.io.scale_files import scale_from_files
from tests.scaling.gait2354_scale import FOLDER, SETUP


@pytest.fixture
def copy(tmp_path):
    """The scale folder copied, so that its files can be spoiled one at a time."""
    for f in FOLDER.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _replace(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_static_trial_missing_a_marker_a_measurement_needs(copy):
    trial = read_trc(copy / "subject01_static.trc")
    markers = trial.markers
    keep = [i for i, n in enumerate(markers.names) if n != "Top.Head"]
    spoiled = type(markers)(tuple(markers.names[i] for i in keep), markers.time, markers.positions[:, keep],
                            markers.rate)
    write_trc(copy / "subject01_static.trc", trial.derived(markers=spoiled))
    with pytest.raises(DataError) as err:
        scale_from_files(read_scale_setup(copy / "subject01_Setup_Scale.xml"))
    assert err.value.file.endswith("subject01_static.trc") and "Top.Head" in str(err.value)


def test_marker_set_naming_an_unknown_body(copy):
    _replace(copy / "gait2354_Scale_MarkerSet.xml", "<body> torso </body>", "<body> trunk </body>")
    with pytest.raises(ModelError) as err:
        scale_from_files(read_scale_setup(copy / "subject01_Setup_Scale.xml"))
    assert err.value.file.endswith("gait2354_Scale_MarkerSet.xml")
    assert "Sternum" in err.value.element and "'trunk'" in err.value.problem


@pytest.mark.parametrize("mass", ["0", "700", "5"])
def test_a_setup_mass_out_of_range_is_refused(copy, mass):
    """The setup's ``<mass>`` in the same 20-250 kg as every body mass given (a 700 was taken before)."""
    _replace(copy / "subject01_Setup_Scale.xml", "<mass>      72.60000000 </mass>", f"<mass> {mass} </mass>")
    with pytest.raises(DataError) as err:
        read_scale_setup(copy / "subject01_Setup_Scale.xml")
    assert err.value.file.endswith("subject01_Setup_Scale.xml") and "<mass>" in err.value.element
    assert "between 20 and 250" in err.value.problem


@pytest.mark.parametrize("mass", ["0", "700", "nan"])
def test_a_mass_out_of_range_on_the_command_line_is_refused_as_hybrid_analyze_refuses_it(capsys, mass):
    """The range of every body mass given (``check_mass``, 20-250 kg), not only a positive one."""
    code = main(["scale", str(FOLDER / "gait2354_simbody.osim"), "--setup", str(SETUP), "--mass", mass])
    assert code == 2
    assert f"--mass: must be the subject's body mass in kilograms, positive and between 20 and 250; got {mass}" in (
        capsys.readouterr().err)


@pytest.mark.parametrize("name, element", [("gait2354_simbody.osim", "<GenericModelMaker><model_file>"),
                                           ("gait2354_Scale_MarkerSet.xml", "<GenericModelMaker><marker_set_file>"),
                                           ("subject01_static.trc", "<ModelScaler><marker_file>")])
def test_setup_naming_a_file_that_does_not_exist(copy, name, element):
    (copy / name).unlink()
    with pytest.raises(DataError) as err:
        scale_from_files(read_scale_setup(copy / "subject01_Setup_Scale.xml"))
    assert err.value.file.endswith("subject01_Setup_Scale.xml")
    assert err.value.element == element and name in err.value.problem


def test_max_marker_movement_names_the_markers_that_moved(copy):
    _replace(copy / "subject01_Setup_Scale.xml", "<max_marker_movement>      -1.00000000 </max_marker_movement>",
             "<max_marker_movement> 0.001 </max_marker_movement>")
    setup = read_scale_setup(copy / "subject01_Setup_Scale.xml")
    note = next(n for n in scale_from_files(setup).result.notes if "max_marker_movement" in n)
    assert "0.001 mm" in note and "Top.Head" in note


def test_run_scale_refuses_a_mass_out_of_range_under_its_own_name_not_a_command_line_option():
    """The engine (the New Patient wizard calls it too) names no command-line option."""
    from engine.errors import SettingsError
    from engine.io.open import open_model
    from engine.scaling.tool import run_scale
    with pytest.raises(SettingsError) as err:
        run_scale(open_model(FOLDER / "gait2354_simbody.osim"), read_scale_setup(SETUP), mass=5.0)
    assert err.value.element == "mass" and "--mass" not in str(err.value)
