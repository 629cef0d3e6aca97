"""``hybrid simulate``: a short coarse run of a built-in scene, its file and its errors; ``hybrid socket-pressure``'s
errors, warnings and CSV."""
from __future__ import annotations

import re

import numpy as np
import pytest

from engine.cli.main import main
from engine.demo import demo_results
from skin.cli_socket_pressure import COLUMNS
from skin.skinning import Skin
from skin.socket import Socket
from skin.socket_load import socket_loads
from skin.scenes import skinned_bodies


def test_simulate_back_pressure_writes_the_run(tmp_path, capsys):
    out = tmp_path / "run.npz"
    code = main(["simulate", "back-pressure", "--duration", "0.01", "--spacing", "0.03", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "back-pressure" in text and "simulated 0.01 s" in text
    assert "a sensor cell is left out where the skin is folded, its area under 0.5 of its rest area" in text
    assert len(re.findall(r"force +[\d.]+ N   \d+ cells left out", text)) == 4      # each watched region's count
    run = np.load(out)
    assert run["pressure"].shape == (len(run["time"]), len(run["skin_vertices"]))
    assert run["q"].shape[0] == len(run["time"])


def test_simulate_says_when_the_run_ends_before_the_hang(capsys):
    """A sling run too short for the hang window (it opens ``HANGING_SETTLE`` after the sling's hooks stop) says so,
    with both times, in place of the hang's sensor reading (it was left out silently)."""
    from skin.outcomes import HANGING_SETTLE
    from skin.scenes import scene
    opens = max(s.motion.end for s in scene("sling-lift", spacing=0.05).sheets if s.motion is not None) + HANGING_SETTLE
    assert main(["simulate", "sling-lift", "--duration", "0.01", "--spacing", "0.05"]) == 0
    text = capsys.readouterr().out
    assert (f"no reading over the hang: the run ends at 0.01 s, before the window opens at {opens:.2f} s" in text), text
    assert "sensor over the hang" not in text


def test_simulate_rejects_a_bad_spacing(capsys):
    assert main(["simulate", "sling-lift", "--spacing", "2"]) == 2
    assert "--spacing must be between" in capsys.readouterr().err


def test_socket_pressure_names_a_missing_weld(capsys):
    assert main(["socket-pressure", "--weld", "no_such_weld"]) == 2
    assert "has no joint 'no_such_weld' to hold the socket (its weld joints: 'socket_weld'" in capsys.readouterr().err


def test_socket_pressure_refuses_a_negative_friction(capsys):
    assert main(["socket-pressure", "--friction", "-0.1"]) == 2
    assert "--friction must be finite and non-negative, got -0.1" in capsys.readouterr().err


def test_socket_pressure_warns_of_frames_outside_the_small_displacements(capsys, tmp_path):
    """The slipping liner's solutions leave the model's small displacements in stance (docs/socket-pressure.md: up to
    9 mm of the 6 mm liner, whose linear law is assumed to hold to 1.8 mm, 0.3 rad): the command says so, naming the frames, as it does for frames that do not
    converge, and its CSV flags each row with what judges it; the bonded liner's stay within them, with no warning."""
    out = tmp_path / "socket.csv"
    assert main(["socket-pressure", "--spacing", "0.03", "--friction", "0.61", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    warning = re.search(r"warning: the liner's solution leaves the model's small displacements \(a compression beyond "
                        r"0.3 of a layer's thickness, the strain its linear law is assumed to hold to: the liner's 1.8 "
                        r"mm; or a socket rotation beyond 0.1 rad\) at (\d+) frames \((\d\.\d{3}), ", text)
    assert warning is not None, text
    rows = np.genfromtxt(out, delimiter=",", names=True)
    assert rows.dtype.names == COLUMNS
    outside = rows["in_range"] == 0
    assert 0 < outside.sum() < len(rows) and outside.sum() == int(warning[1])
    assert f"{rows['time'][outside][0]:.3f}" == warning[2]
    # each row's flag is its own compression and rotation against 0.3 of the liner's thickness and the rotation limit
    np.testing.assert_array_equal(~outside, (rows["compression_mm"] <= 0.3 * 6.0) & (rows["rotation_rad"] <= 0.1))
    assert rows["loaded"][outside].any() and rows["converged"][rows["loaded"] == 1].all()
    # rows against the frames computed here by the socket model: one flagged, one loaded and within range, one in the air
    result, settings = demo_results()
    model = result.model
    _, loads, _ = socket_loads(result, settings, "socket_weld")
    socket = Socket.from_stump(model, Skin.generate(model, spacing=0.03, bodies=skinned_bodies(model)),
                               "tibia_r", friction=0.61)
    within = np.flatnonzero(~outside & (rows["loaded"] == 1))
    for f in (np.flatnonzero(outside)[0], within[0], np.flatnonzero(rows["loaded"] == 0)[0]):
        m = socket.pressure(model, result.motion.q[f], loads[f])
        assert (rows["converged"][f], rows["in_range"][f]) == (m.converged, m.in_range)
        assert rows["loaded"][f] == (np.linalg.norm(loads[f, 3:]) > 200.0)
        assert rows["compression_mm"][f] == pytest.approx(m.compression * 1e3, abs=1e-3)
        assert rows["rotation_rad"][f] == pytest.approx(np.linalg.norm(m.u[:3]), abs=1e-5)
        assert rows["peak_kPa"][f] == pytest.approx(m.peak * 1e-3, abs=1e-3)
        np.testing.assert_allclose([rows[f"f{a}_N"][f] for a in "xyz"], m.carried[3:], rtol=0, atol=1e-3)
    assert main(["socket-pressure", "--spacing", "0.03"]) == 0
    assert "small displacements" not in capsys.readouterr().out


def test_socket_pressure_refuses_a_negative_tissue_or_fit(capsys):
    for option in ("--tissue", "--fit"):
        assert main(["socket-pressure", option, "-1"]) == 2
        assert f"{option} must be finite and non-negative, got -1.0" in capsys.readouterr().err
    assert main(["socket-pressure", "--tissue-modulus", "0"]) == 2
    assert "--tissue-modulus must be positive, got 0.0" in capsys.readouterr().err


def test_the_liner_s_limits_and_defaults_are_one_table_s(capsys):
    """The command line, a session's check and the application's dialogs take the liner's largest values from
    ``skin.liner_options.OPTIONS`` (the dialogs capped the friction at 10, the command line took any): a value beyond
    it is refused by both the command line and the check; the defaults are ``skin.socket_defaults``'."""
    import argparse

    from engine.errors import DataError
    from skin import socket_defaults
    from skin.liner_options import OPTIONS, add_arguments, checked, options
    assert OPTIONS["friction"][4] == 10.0
    for name, too_much in (("friction", 10.5), ("tissue", 0.25), ("tissue_modulus", 11e6), ("fit", 1.5e6)):
        flag, unit = OPTIONS[name][:2]
        assert main(["socket-pressure", flag, f"{too_much / unit:g}"]) == 2
        assert f"{flag} must be at most {OPTIONS[name][4] / unit:g}, got" in capsys.readouterr().err
        with pytest.raises(DataError, match=re.escape(f"s.hls: report option socket-pressure: the socket liner's "
                                                      f"{name} must be at most {OPTIONS[name][4]:g}, got")):
            checked({name: too_much}, "report option socket-pressure", "s.hls", DataError)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert options(parser.parse_args([])) == pytest.approx(
        {"thickness": socket_defaults.LINER_THICKNESS, "modulus": socket_defaults.LINER_MODULUS, "friction": None,
         "tissue": 0.0, "tissue_modulus": socket_defaults.TISSUE_MODULUS, "fit": 0.0})


def test_socket_pressure_takes_the_soft_tissue_and_the_fit(capsys):
    """``--tissue``, ``--tissue-modulus`` and ``--fit`` reach the socket: a uniform layer in series scales the socket's
    displacements by the liner's stiffness over the series one (E / t over 1 / (t / E + h / E_t): 14.33 for 20 mm at
    100 kPa under the 6 mm, 0.4 MPa liner), with or without a fit pressure, and leaves the maps
    (docs/socket-pressure.md)."""
    def rotation(*options):
        assert main(["socket-pressure", "--spacing", "0.03", "--friction", "0.61", "--fit", "40", *options]) == 0
        text = capsys.readouterr().out
        return text, float(text.split("mm, socket rotation ")[1].split(" rad")[0])

    text, alone = rotation()
    assert "on a rigid limb, pre-compressed to a nominal 40 kPa" in text
    # the fit's push through the open brim: 40 kPa over the axial part of the stump's vector area -sum A_i n_i (the
    # skin's own areas and normals at rest), and the zero-load pressures, not the nominal 40 kPa
    result, _ = demo_results()
    model = result.model
    skin = Skin.generate(model, spacing=0.03, bodies=skinned_bodies(model))
    stump = Socket.from_stump(model, skin, "tibia_r").vertices
    normals, areas = skin.mesh.normals_areas()
    opening = -(areas[stump] @ normals[stump])[1]
    fit = re.search(r"fit: the fit \(nominal 40 kPa\) pushes the limb out of the socket through its open brim with "
                    r"(\d+) N along the limb at zero load \(40 kPa over the opening's (\d+) cm\^2\); the limb settles "
                    r"[\d.]+ mm out, the liner's shear holding (\d+) N, and the zero-load pressures are "
                    r"([\d.]+)-([\d.]+) kPa, not the nominal 40\n", text)
    assert fit is not None, text
    assert int(fit[1]) == round(40e3 * opening) and int(fit[2]) == round(opening * 1e4)
    assert 0 < int(fit[3]) < int(fit[1]) and float(fit[4]) < 40.0
    text, on_tissue = rotation("--tissue", "20", "--tissue-modulus", "100")
    assert "on 20 mm of soft tissue at 100 kPa, pre-compressed to a nominal 40 kPa" in text
    assert "or the tissue's 6 mm; or a socket rotation" in text
    assert on_tissue == pytest.approx(alone * (1 + (0.02 / 100e3) / (0.006 / 0.4e6)), rel=0.02)
