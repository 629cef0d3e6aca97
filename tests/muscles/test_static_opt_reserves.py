"""Residual/reserve actuator files: reading (OpenSim's gait2354 file, defaults, disabled actuators,
errors naming the element) and their generalized forces against virtual work by finite differences."""
from __future__ import annotations

import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.errors import DataError, SettingsError
from engine.io.osim import read_osim
from engine.muscles.forces.reserves import coordinate_reserves, generalized_forces, read_actuators
from engine.tree import compile_tree


@pytest.fixture(scope="module")
def gait(test_data):
    folder = test_data / "opensim" / "gait2354"
    return read_osim(folder / "subject01_simbody.osim"), read_actuators(folder / "gait2354_CMC_Actuators.xml")


def test_reads_the_gait2354_actuators(gait):
    _, res = gait
    assert res.names[:6] == ("FX", "FY", "FZ", "MX", "MY", "MZ") and len(res.names) == 23
    assert res.optimal_force[:7].tolist() == [4, 8, 4, 2, 2, 2, 1]
    assert np.all(np.isinf(res.min_control)) and np.all(res.min_control < 0) and np.all(np.isinf(res.max_control))
    fx, mx = res.actuators[0], res.actuators[3]
    assert (fx.kind, fx.body, fx.point, fx.direction) == ("point", "pelvis", (-0.0724376, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert (mx.kind, mx.body, mx.body_b, mx.direction) == ("torque", "pelvis", "ground", (1.0, 0.0, 0.0))


def test_generalized_forces_equal_virtual_work(gait, rng):
    model, res = gait
    data = Data(model)
    q = alg.neutral(model)
    for n, slot in compile_tree(model).coordinates.items():
        q[slot.qi] = rng.uniform(-0.3, 0.3)
    R = generalized_forces(res, model, np.stack([alg.neutral(model), q]))[1]     # the second of two poses
    h = 1e-6
    names = res.names
    for k in range(model.nv):
        dq = np.zeros(model.nq)
        dq[k] = h
        alg.forward_kinematics(model, data, q + dq)
        Xp = alg.frame_placement(model, data, "pelvis")
        alg.forward_kinematics(model, data, q - dq)
        Xm = alg.frame_placement(model, data, "pelvis")
        point = np.array([-0.0724376, 0.0, 0.0])
        dp = (Xp.act(point) - Xm.act(point)) / (2 * h)
        W = (Xp.R - Xm.R) / (2 * h) @ Xp.R.T           # [omega_k]x
        omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
        for j, axis in enumerate("XYZ"):
            assert R[k, names.index("F" + axis)] == pytest.approx(dp[j], abs=1e-7)
            assert R[k, names.index("M" + axis)] == pytest.approx(omega[j], abs=1e-6)
        coordinate = compile_tree(model).v_names[k]
        for i, a in enumerate(res.actuators[6:], start=6):
            assert R[k, i] == (1.0 if a.coordinate == coordinate else 0.0)


def write(tmp_path, body):
    path = tmp_path / "actuators.xml"
    path.write_text(f'<?xml version="1.0"?><OpenSimDocument Version="40000"><ForceSet name="f">{body}</ForceSet>'
                    "</OpenSimDocument>")
    return path


def test_defaults_block_and_disabled_actuators(tmp_path):
    path = write(tmp_path, """
        <defaults><CoordinateActuator name="default"><optimal_force>50</optimal_force>
            <min_control>-2</min_control></CoordinateActuator></defaults>
        <objects>
          <CoordinateActuator name="a"><coordinate>knee_angle_r</coordinate></CoordinateActuator>
          <CoordinateActuator name="b"><coordinate>knee_angle_l</coordinate><optimal_force>3</optimal_force>
            <max_control>Infinity</max_control></CoordinateActuator>
          <CoordinateActuator name="off"><isDisabled>true</isDisabled><coordinate>x</coordinate></CoordinateActuator>
          <CoordinateActuator name="off4"><appliesForce>false</appliesForce><coordinate>x</coordinate>
          </CoordinateActuator>
        </objects>""")
    res = read_actuators(path)
    assert res.names == ("a", "b") and res.skipped == ("off", "off4")
    assert res.optimal_force.tolist() == [50.0, 3.0] and res.min_control.tolist() == [-2.0, -2.0]
    assert np.isinf(res.max_control).all()


@pytest.mark.parametrize("body, message", [
    ('<objects><PointToPointActuator name="p2p"/></objects>', "PointToPointActuator is not supported"),
    ('<objects><CoordinateActuator name="c"><optimal_force>0</optimal_force><coordinate>q</coordinate>'
     "</CoordinateActuator></objects>", "optimal_force must be positive"),
    ('<objects><CoordinateActuator name="c"><optimal_force>1</optimal_force></CoordinateActuator></objects>',
     "<coordinate> is missing"),
    ('<objects><TorqueActuator name="t"><bodyA>pelvis</bodyA><axis>0 0 0</axis></TorqueActuator></objects>',
     "zero vector"),
])
def test_errors_name_the_element(tmp_path, body, message):
    with pytest.raises(DataError, match=message) as info:
        read_actuators(write(tmp_path, body))
    assert "actuators.xml" in str(info.value)


def test_unknown_coordinate_is_a_settings_error(gait):
    model, _ = gait
    res = coordinate_reserves(model, 1.0, ["knee_angle_r", "no_such_coordinate"])
    with pytest.raises(SettingsError, match="actuator 'no_such_coordinate_reserve'.*not in the model"):
        generalized_forces(res, model, alg.neutral(model)[None])
