"""``hybrid analyze --muscles --actuators FILE`` with OpenSim's static optimisation options, and the muscle step's
metrics (actuator use per coordinate, frames the muscles alone cannot balance, activation sums, time)."""
from __future__ import annotations

import json

import numpy as np

from engine.cli.main import main
from engine.io.osim import read_osim
from engine.io.storage import read_storage

GAIT = "opensim/gait2354/"


def test_actuators_and_static_optimization_options(test_data, tmp_path):
    d = test_data / GAIT
    out = tmp_path / "results"
    code = main(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                 "--external-loads", str(d / "subject01_walk1_grf.xml"), "--ik-setup", str(d / "subject01_Setup_IK.xml"),
                 "--measured-loads-only", "--muscles", "--objective", "opensim", "--activation-exponent", "2",
                 "--actuators", str(d / "gait2354_CMC_Actuators.xml"), "--out", str(out), "--quiet"])
    assert code == 0
    muscles = json.loads((out / "metrics.json").read_text())["muscles"]
    assert muscles["objective"] == "opensim" and muscles["solved_frames"] == muscles["frames"] == 73
    # the residual actuators carry the pelvis (muscles are internal forces), the reserves the toes no muscle of
    # gait2354 crosses; nothing is left unproduced (OpenSim's equality constraints)
    assert {"pelvis_tx", "pelvis_ty", "mtp_angle_r"} <= set(muscles["by_coordinate"])
    assert set(muscles["coordinates_no_muscle_crosses"]) == {"pelvis_tilt", "pelvis_list", "pelvis_rotation",
                                                             "pelvis_tx", "pelvis_ty", "pelvis_tz", "mtp_angle_r",
                                                             "mtp_angle_l"}
    assert "knee_angle_r" not in muscles["coordinates_no_muscle_crosses"]
    assert all(v.get("unproduced", {"max_abs": 0.0})["max_abs"] < 1e-6 for v in muscles["by_coordinate"].values())
    assert len(muscles["times_muscles_alone_unbalanced"]) == muscles["frames_muscles_alone_unbalanced"] <= 73
    forces = read_storage(out / "muscle_forces.sto")
    activations = read_storage(out / "activations.sto")
    model = read_osim(d / "subject01_simbody.osim")
    assert forces.labels[:54] == tuple(m.name for m in model.muscles) and forces.labels[54:57] == ("FX", "FY", "FZ")
    sums = np.sum(activations.data[:, :54], axis=1)
    assert np.isclose(muscles["activation_sum"]["max"], sums.max()) and muscles["seconds"] > 0


def test_muscle_options_without_the_muscle_step_are_refused(test_data, tmp_path, capsys):
    d = test_data / GAIT
    code = main(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                 "--actuators", str(d / "gait2354_CMC_Actuators.xml"), "--out", str(tmp_path / "r"), "--quiet"])
    assert code == 2 and "add --muscles" in capsys.readouterr().err
