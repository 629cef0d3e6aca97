"""``hybrid analyze --muscles`` on gait2354 walk 1 (0.6-0.9 s, measured loads): the muscle files and what
they say.

The forces in ``muscle_forces.sto`` are checked against the generalized forces in ``id.sto`` through the
length Jacobians at the analysed (filtered) coordinates, rebuilt from ``ik.mot``: the seed's objective
(eq. 36, W1 = 1, no reserves by default) tracks the torques with bounded forces, so
- every muscle strictly between its bounds is stationary: ``J_l[m] . (tau + J_l^T f) = 0`` (KKT);
- the stance leg's hip and knee, which muscles can drive both ways, are reproduced exactly (the ankle
  and subtalar torques are not quite: the muscles that could add to them are at a bound).
The trial has no EMG, so there is no emg_comparison.csv.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import neutral
from engine.analysis.derivatives import motion_from_coordinates
from engine.cli.main import main
from engine.io.osim import read_osim
from engine.io.storage import read_storage
from engine.muscles.path.geometry import MuscleGeometry
from engine.tree import compile_tree


@pytest.fixture(scope="module")
def analysed(test_data, tmp_path_factory):
    d = test_data / "opensim" / "gait2354"
    out = tmp_path_factory.mktemp("analyze_muscles")
    code = main(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                 "--grf", str(d / "subject01_walk1_grf.mot"), "--external-loads", str(d / "subject01_walk1_grf.xml"),
                 "--start", "0.6", "--end", "0.9", "--muscles", "--out", str(out), "--quiet"])
    assert code == 0
    return read_osim(d / "subject01_simbody.osim"), out


def test_muscle_files_have_a_column_per_muscle_on_the_id_frames(analysed):
    model, out = analysed
    assert not (out / "emg_comparison.csv").exists()
    names = tuple(m.name for m in model.muscles)
    tau = read_storage(out / "id.sto")
    for file in ("muscle_forces.sto", "activations.sto"):
        table = read_storage(out / file)
        assert table.labels == names and not table.in_degrees, file
        np.testing.assert_array_equal(table.time, tau.time)
        assert len(table.time) == 19 and np.isfinite(table.data).all()
    forces = read_storage(out / "muscle_forces.sto").data
    activations = read_storage(out / "activations.sto").data
    assert forces.min() >= 0.0 and forces.max() > 100.0
    assert activations.min() >= -1e-12 and activations.max() <= 1.0 + 1e-12


def test_muscle_forces_reproduce_the_inverse_dynamics_torques(analysed):
    model, out = analysed
    ik, id_table = read_storage(out / "ik.mot"), read_storage(out / "id.sto")
    forces = read_storage(out / "muscle_forces.sto").data
    activations = read_storage(out / "activations.sto").data
    slots = compile_tree(model).coordinates
    Q = np.tile(neutral(model), (len(ik.time), 1))
    for name in compile_tree(model).v_names:
        column = ik.column(name)
        Q[:, slots[name].qi] = np.deg2rad(column) if slots[name].kind == "rotational" else column
    motion = motion_from_coordinates(model, ik.time, Q, 6.0, 3)       # hybrid analyze's default filter
    J = MuscleGeometry(model).compute(motion.q).J_l
    labels = [f"{v}_moment" if slots[v].kind == "rotational" else f"{v}_force" for v in compile_tree(model).v_names]
    assert sorted(id_table.labels) == sorted(labels)           # in OpenSim's order there
    tau = np.column_stack([id_table.column(label) for label in labels])
    crossed = np.abs(J).max(axis=(0, 1)) > 1e-9
    residual = np.where(crossed, tau + np.einsum("tmv,tm->tv", J, forces), 0.0)
    inside = (activations > 1e-6) & (activations < 1 - 1e-6)
    stationarity = np.abs(np.einsum("tmv,tv->tm", J, residual))
    assert inside.sum() > 200 and stationarity[inside].max() < 1e-4
    stance = [slots[c].vi for c in ("hip_flexion_r", "hip_adduction_r", "hip_rotation_r", "knee_angle_r")]
    assert np.abs(tau[:, stance]).max() > 20.0
    assert np.abs(residual[:, stance]).max() < 1e-6 * np.abs(tau[:, stance]).max()
