"""The hybrid command line: version, info, analyze, and its error messages."""
import re
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import __version__
from tests.subject_c3d import subject_c3d
from engine.cli.main import main
from engine.io.storage import read_storage

DATA = Path(__file__).parents[1] / "analysis" / "data"


def hybrid(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "engine.cli.main", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)


def test_version():
    out = hybrid("--version")
    assert out.returncode == 0 and out.stdout.startswith(f"hybrid {__version__} (build ")


def test_the_commands_list_imports_no_vtk():
    # every command's parser, the packages' beside the engine included (skin's simulate and socket-pressure)
    code = ("import sys; from engine.cli.main import build_parser; parser = build_parser(); "
            "print(sorted(parser._subparsers._group_actions[0].choices)); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('vtk', 'vtkmodules', 'PySide6')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    commands, loaded = out.stdout.splitlines()
    assert out.returncode == 0 and "'simulate'" in commands and "'socket-pressure'" in commands, out.stderr
    assert loaded == "[]"


def test_info_on_a_model_and_a_trial(test_data, capsys):
    assert main(["info", str(test_data / "opensim/gait10dof18musc/subject01.osim")]) == 0
    text = capsys.readouterr().out
    assert "degrees of freedom: nv = 10" in text and "muscles: 18" in text and "markers: 39" in text
    assert main(["info", str(test_data / "c3d/Sample01/Eb015pi.c3d")]) == 0
    text = capsys.readouterr().out
    assert "markers 50 Hz" in text and "FP1" in text and "peak vertical force" in text


def test_bad_input_gives_one_line_naming_the_file(tmp_path):
    broken = tmp_path / "broken.osim"
    broken.write_text("<OpenSimDocument Version='40000'><Model name='m'>")
    out = hybrid("info", broken)
    assert out.returncode == 2
    assert str(broken) in out.stderr and "Traceback" not in out.stderr
    out = hybrid("analyze", tmp_path / "missing.yaml", tmp_path / "missing.c3d")
    assert out.returncode == 2 and "missing.yaml" in out.stderr and "no such file" in out.stderr


def test_analyze_writes_opensim_files_and_metrics(test_data, tmp_path, capsys):
    d = test_data / "opensim" / "gait2354"
    out = tmp_path / "results"
    code = main(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                 "--external-loads", str(d / "subject01_walk1_grf.xml"),
                 "--ik-setup", str(d / "subject01_Setup_IK.xml"), "--contacts", str(DATA / "gait2354_contacts.yaml"),
                 "--estimate-grf", "--filter-loads", "6", "--out", str(out), "--quiet"])
    assert code == 0
    assert "model: <groups> at /forceset: not imported" in capsys.readouterr().out   # what reading the model said
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["id"]["filter_hz"] == metrics["id"]["loads_filter_hz"] == 6.0
    assert any("plates low-pass filtered at 6 Hz, then 6 Hz" in n for n in metrics["notes"])
    assert set(metrics["ik"]) >= {"marker_rms_mean_m", "marker_rms_max_m", "frames", "seconds"}
    assert metrics["ik"]["frames"] == 73 and metrics["ik"]["marker_rms_mean_m"] < 0.023
    assert set(metrics["id"]) >= {"frames", "seconds"}
    assert {(m["plate"], m["axis"]) for m in metrics["grf"]} == {(p, a) for p in ("right", "left")
                                                                 for a in ("vertical", "ap", "ml")}
    assert all(set(m) >= {"plate", "group", "axis", "rmse_N", "rrmse_pct", "r"} for m in metrics["grf"])
    ik = read_storage(out / "ik.mot")
    assert ik.in_degrees and "knee_angle_r" in ik.labels and len(ik.time) == 73
    reference = read_storage(test_data / "opensim/gait2354/reference/ik.mot")
    assert np.abs(ik.column("knee_angle_r") - reference.column("knee_angle_r")).max() < 1.0     # degrees
    ids = read_storage(out / "id.sto")
    assert "knee_angle_r_moment" in ids.labels and "pelvis_tx_force" in ids.labels
    # id.sto: the torques with the measured loads (as OpenSim's ID); the motion-only estimate's beside them
    assert metrics["id"]["mode"] == "measured loads" and metrics["id"]["ground_reactions_estimated"]
    # each stance of 0.4-1.6 s is on a plate: nothing is estimated, not even where the low-passed motion asks for
    # a load just before a plate reads one (the plates have no corners: their footprint comes from the feet on them)
    assert not any(n.startswith("contact group") for n in metrics["notes"])
    estimated = read_storage(out / "id_estimated.sto")
    assert estimated.labels == ids.labels and (out / "grf_measured.mot").is_file()
    assert not np.allclose(estimated.column("ankle_angle_r_moment"), ids.column("ankle_angle_r_moment"), atol=1.0)
    grf = read_storage(out / "grf_estimated.mot")
    assert {"foot_r_ground_force_vy", "foot_l_ground_force_py", "foot_r_ground_torque_y"} <= set(grf.labels)
    assert grf.column("foot_r_ground_force_vy").max() > 600.0


def test_lab_axes_that_contradict_the_trial_are_refused_before_the_analysis(test_data, tmp_path, capsys):
    """gait2354 read with the demo's lab axes (issue 17): refused, naming the setting and what the trial shows."""
    d = test_data / "opensim" / "gait2354"
    assert main(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"), "--axes",
                 "Z-up, X-forward", "--start", "0.6", "--end", "0.7", "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"the lab axes given as 'Z-up, X-forward' put up (8\d|9\d) degrees away from the trial's vertical",
                     err), err
    assert "clear the lab axes" in err and "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_height_or_mass_outside_its_range_or_with_a_model_is_refused_naming_the_option(test_data, tmp_path,
                                                                                          capsys):
    trial = Path(__file__).parents[1] / "data" / "c3d" / "Sample26" / "Capture0002.c3d"
    d = test_data / "opensim" / "gait2354"
    for argv, said in (([trial, "--height", "180"], "--height: must be the subject's height in metres, between 1 and "
                                                   "2.5; got 180"),
                       ([trial, "--height", "0.9"], "between 1 and 2.5; got 0.9"),
                       ([trial, "--height", "nan"], "got nan"),
                       ([d / "subject01_simbody.osim", d / "subject01_walk1.trc", "--height", "1.8"],
                        "--height is the stature of the default model made for a trial alone"),
                       (["--demo", "--height", "1.8"], "a MODEL is analysed as given"),
                       ([trial, "--mass", "0"], "--mass: must be the subject's body mass in kilograms, positive and "
                                                "between 20 and 250; got 0"),
                       ([trial, "--mass", "-70"], "got -70"),
                       ([trial, "--mass", "700"], "between 20 and 250; got 700"),
                       ([d / "subject01_simbody.osim", d / "subject01_walk1.trc", "--mass", "70"],
                        "--mass is the body mass of the default model made for a trial alone")):
        assert main(["analyze", *map(str, argv), "--out", str(tmp_path / "out"), "--quiet"]) == 2, argv
        assert said in capsys.readouterr().err, argv
    assert not (tmp_path / "out").exists()


def _chord_stature(trial) -> float:
    """The stature (m) an analysis gave the knee chords of ``trial`` (as analysed: the protocol's names), read back
    from the markers: the right lateral knee marker is half the knee width (0.055 of the stature, Heinz et al. 2003)
    plus a marker's radius (7 mm) from the knee centre in every frame (the chord's construction,
    tests/protocols/test_chord.py)."""
    m = trial.markers
    gap = np.linalg.norm(m.positions[:, m.index("RKJC")] - m.positions[:, m.index("RKNJNTLN")], axis=1)
    return float((2 * np.nanmedian(gap) - 0.014) / 0.055)


@pytest.mark.parametrize("weight, static_height, refused", [(120.0, 1.8, True), (80.0, 1.2, False)])
def test_a_mass_beside_a_refused_height_is_checked_by_the_stature_the_analysis_uses(test_data, tmp_path, weight,
                                                                                    static_height, refused):
    """``hybrid analyze TRIAL.c3d --static S``, the trial's SUBJECT:HEIGHT 17.8 refused (no stature; not replaced by
    the static trial's): the model is made with the stature the markers give, and the mass the trial records is
    checked by that stature (read back from the knee chords), not by the static trial's height, which the analysis
    does not use (and says so): 120 kg, 37 kg/m^2 with the static's 1.8 m, is over 50 with the stature used: refused,
    the model's 70 kg kept; 80 kg, 55.6 kg/m^2 with the static's 1.2 m, is within with it: taken. The notes say the
    stature and mass used, where each came from, and their body mass index."""
    from engine.cli.analyze import analysis_inputs, parse_arguments
    from engine.demo.athlete import MASS

    trial = subject_c3d(test_data, tmp_path / "typo.c3d", HEIGHT=17.8, WEIGHT=weight)
    static = subject_c3d(test_data, tmp_path / "static.c3d", HEIGHT=static_height)
    model, analysed, settings = analysis_inputs(parse_arguments([str(trial), "--static", str(static)]))
    stature, notes = _chord_stature(analysed), settings.ik.notes
    bmi = weight / stature ** 2
    assert (bmi > 50) is refused and (12 <= weight / static_height ** 2 <= 50) is refused    # the static's: the other
    assert model.total_mass == pytest.approx(MASS if refused else weight, rel=1e-9)
    assert (f"the static trial {static}'s SUBJECT:HEIGHT {static_height:g} m was not used as the subject's stature in "
            "place of the trial's: a value the trial records but refuses is not replaced (the trial may be another "
            "subject's)") in notes
    (said,) = [n for n in notes if n.startswith("the subject's stature is ")]
    assert said.startswith("the subject's stature is estimated: the model's 1.75 m times the ") and (
        f"the markers' distances give, {stature:.3f} m" in said)
    used = MASS if refused else weight
    assert (f"the subject's body mass index is {used / stature ** 2:.1f} kg/m^2 ({used:.3f} kg over the stature "
            f"{stature:.3f} m squared), within 12-50 kg/m^2") in notes
    if refused:
        (note,) = [n for n in notes if n.startswith(f"the trial's SUBJECT:WEIGHT {weight:g} was not used")]
        assert note.startswith(f"the trial's SUBJECT:WEIGHT {weight:g} was not used as the subject's body mass: taken "
                               "as kg, with the stature the analysis uses (the model's 1.75 m times the ")
        assert f"{stature:.3f} m) it gives a body mass index of {bmi:.1f} kg/m^2, not within 12-50" in note
        assert f"no body mass in the trial nor given: the model's is kept, {MASS:.3f} kg" in notes
    else:
        assert f"the subject's body mass is the trial's SUBJECT:WEIGHT {weight:g}, taken as kg (C3D gives no unit)" in notes


def test_a_mass_given_is_the_model_of_a_trial_alone_and_overrides_the_trials(test_data, tmp_path):
    # the moments (N m/kg) and ground reactions (%BW) of the report and the study table are divided by the model's
    # total mass: the mass given, else the one the trial records (Nexus's PROCESSING:Bodymass, added here by ezc3d
    # to a copy of Sample26's Capture0002, which records none)
    import ezc3d

    from engine.cli.analyze import analysis_inputs, parse_arguments
    from engine.demo.athlete import MASS
    source = test_data / "c3d" / "Sample26" / "Capture0002.c3d"
    model, _, settings = analysis_inputs(parse_arguments([str(source), "--mass", "64.5"]))
    assert model.total_mass == pytest.approx(64.5, rel=1e-12)
    assert ("the subject's body mass is the mass given with --mass on the command line, 64.500 kg; the trial gives "
            "none") in settings.ik.notes
    model, _, settings = analysis_inputs(parse_arguments([str(source)]))
    assert model.total_mass == pytest.approx(MASS, rel=1e-12)
    assert f"no body mass in the trial nor given: the model's is kept, {MASS:.3f} kg" in settings.ik.notes
    c3d = ezc3d.c3d(str(source))
    c3d.add_parameter("PROCESSING", "Bodymass", [81.25])
    c3d.write(str(tmp_path / "nexus.c3d"))
    model, _, settings = analysis_inputs(parse_arguments([str(tmp_path / "nexus.c3d")]))
    assert model.total_mass == pytest.approx(81.25, rel=1e-12)
    assert "the subject's body mass is the trial's PROCESSING:Bodymass 81.25 kg" in settings.ik.notes
    model, _, settings = analysis_inputs(parse_arguments([str(tmp_path / "nexus.c3d"), "--mass", "64.5"]))
    assert model.total_mass == pytest.approx(64.5, rel=1e-12)
    assert ("the subject's body mass is the mass given with --mass on the command line, 64.500 kg, instead of the "
            "trial's PROCESSING:Bodymass 81.25") in settings.ik.notes
