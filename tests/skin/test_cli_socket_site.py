"""``hybrid socket-pressure --weld NAME``: the socket held by any weld of the model, whatever its body is named; the
default is the weld to the body named ``socket...``; a weld that is not one is an error naming the results file, the
model and the weld, listing the welds there are."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.cli.main import main
from engine.demo import demo_files, demo_results
from engine.errors import ModelError
from engine.io.model_file import load_model, save_model
from engine.io.results_file import save_result
from skin.socket_site import socket_site


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    """The demo's results with its socket's body and weld named otherwise (``pylon_r``, ``pylon_lock``), as a user's
    own model may name them: the model written, renamed in its file, and read again."""
    folder = tmp_path_factory.mktemp("renamed")
    result, settings = demo_results()
    save_model(result.model, folder / "demo.yaml")
    text = (folder / "demo.yaml").read_text()
    assert "socket_r" in text and "socket_weld" in text
    (folder / "renamed.yaml").write_text(text.replace("socket_r", "pylon_r").replace("socket_weld", "pylon_lock"))
    model = load_model(folder / "renamed.yaml")
    assert not any(b.name.startswith("socket") for b in model.bodies)
    path = folder / "renamed.hlr"
    save_result(replace(result, model=model), path, settings)
    return path, model


def _csv(tmp_path, *arguments):
    out = tmp_path / f"{len(list(tmp_path.iterdir()))}.csv"
    assert main(["socket-pressure", *arguments, "--spacing", "0.04", "--out", str(out)]) == 0
    return np.genfromtxt(out, delimiter=",", names=True)


def test_any_weld_holds_the_socket_when_named(renamed, tmp_path, capsys):
    """The renamed model's socket by ``--weld pylon_lock`` gives the demo's own map (found by the default lookup on the
    demo), frame by frame; the limb is the weld's parent unless given."""
    path, _ = renamed
    mine = _csv(tmp_path, str(path), "--weld", "pylon_lock")
    assert "socket on tibia_r (weld pylon_lock)" in capsys.readouterr().out
    demo = _csv(tmp_path, str(demo_files().results))
    assert "socket on tibia_r (weld socket_weld)" in capsys.readouterr().out
    assert demo["loaded"].sum() > 10
    for name in ("peak_kPa", "mean_kPa", "loaded_area_cm2", "fx_N", "fy_N", "fz_N"):
        np.testing.assert_array_equal(mine[name], demo[name])
    given = _csv(tmp_path, str(path), "--weld", "pylon_lock", "--limb", "tibia_r")
    np.testing.assert_array_equal(given["peak_kPa"], mine["peak_kPa"])


def test_a_weld_that_is_not_one_is_named_with_the_file_and_the_welds_there_are(renamed, capsys):
    path, model = renamed
    welds = "its weld joints: 'pylon_lock' (tibia_r to pylon_r)"
    for arguments, problem in ((["--weld", "no_such_weld"], "has no joint 'no_such_weld' to hold the socket"),
                               (["--weld", "knee_r"], f"has a {type(model.joint('knee_r')).__name__}, not a weld, "
                                                      "named 'knee_r' to hold the socket"),
                               ([], "has no residual limb in a socket (no weld joint to a body named socket...); name "
                                    "its weld joint")):
        assert main(["socket-pressure", str(path), *arguments]) == 2
        err = capsys.readouterr().err
        assert f"{path}: model '{model.name}': {problem} ({welds})" in err, err
    assert main(["socket-pressure", str(path), "--weld", "pylon_lock", "--limb", "no_such_limb"]) == 2
    assert "has no body 'no_such_limb' for the residual limb in the socket welded by 'pylon_lock'" in \
        capsys.readouterr().err


def test_the_site_defaults_to_the_socket_s_weld_and_its_parent():
    model = demo_results()[0].model
    assert socket_site(model) == ("socket_weld", "tibia_r")
    assert socket_site(model, "socket_weld", "femur_r") == ("socket_weld", "femur_r")
    with pytest.raises(ModelError, match="'socket_weld' \\(tibia_r to socket_r\\)"):
        socket_site(model, "hip_r")


def test_the_skinned_bodies_leave_out_the_weld_s_child_whatever_it_is_named(renamed):
    """One rule for the scenes' skins and the socket map's: every body but the socket's, the child of the socket's
    weld (by default the weld to the body named ``socket...``), so a renamed prosthesis body needs no edit."""
    from skin.socket_site import skinned_bodies
    _, model = renamed
    demo = demo_results()[0].model
    names = [b.name for b in model.bodies]
    assert skinned_bodies(model, "pylon_lock") == [n for n in names if n != "pylon_r"]
    assert skinned_bodies(demo) == skinned_bodies(demo, "socket_weld") == \
        [b.name for b in demo.bodies if b.name != "socket_r"]
    assert skinned_bodies(model) == names                   # no weld to a body named socket...: no socket to leave out
