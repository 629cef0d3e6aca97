"""OpenSim's static optimisation reproduced on gait2354 walk 1 (reference/so_setup.xml).

Inputs as the setup says: the IK coordinates it names (subject01_walk1_ik.mot, degrees), low-passed at
its cut-off (6 Hz; here a zero-lag 4th-order Butterworth, OpenSim pads and runs its own IIR filter),
speeds from a quintic spline through them (OpenSim: GCV splines of degree 5), the generalized forces of
reference/id.sto (OpenSim's SO matches the accelerations of the same model, i.e. these forces), its
actuator file, activation exponent 2, muscle physiology on, the 0.4-1.6 s range. Muscle geometry from
engine.muscles.path.geometry.

With passive fibre force (``include_passive=True``): OpenSim's SO leaves it out (it overrides each muscle's
tension with its active part), so reference/so_passive_force.sto adds it to OpenSim's problem with OpenSim's own
passive forces (rigid tendon), moment arms and active forces (reference/make_so_passive.py says how). Measured
when written: passive forces within 0.07 % of F_max of OpenSim's (so_passive_fiber_force.sto), muscle forces
within 0.22 % RMS (they differ from the active-only solution by up to 54 N RMS).

Must show: per-muscle RMS difference to reference/so_force.sto within 5 % of the muscle's max isometric
force for at least 90 % of the muscles. Measured when written: all 54 muscles, worst 0.24 % (rect_fem_l);
residual actuators within 0.05 N / N m of OpenSim's.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pytest
from scipy.interpolate import make_interp_spline

from engine.io.osim import read_osim
from engine.io.storage import read_storage
from engine.muscles.forces.reserves import read_actuators
from engine.muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces
from engine.io.muscle_files import write_activations, write_muscle_forces
from engine.tree import compile_tree
from engine.trial.filtering import lowpass


def so_setup(path):
    tool = ET.parse(path).getroot().find(".//AnalyzeTool")
    so = tool.find(".//StaticOptimization")
    return {
        "model": tool.findtext("model_file").strip(),
        "actuators": tool.findtext("force_set_files").strip(),
        "coordinates": tool.findtext("coordinates_file").strip(),
        "cutoff": float(tool.findtext("lowpass_cutoff_frequency_for_coordinates")),
        "range": (float(so.findtext("start_time")), float(so.findtext("end_time"))),
        "exponent": float(so.findtext("activation_exponent")),
        "physiology": so.findtext("use_muscle_physiology").strip() == "true",
    }


@pytest.fixture(scope="module")
def inputs(test_data):
    return so_inputs(test_data)


def so_inputs(test_data):
    """``(model, Q, V, tau, t, settings, folder)`` of reference/so_setup.xml as the module notes say (also read by
    benchmarks/validation_figures.py)."""
    folder = test_data / "opensim" / "gait2354"
    setup = so_setup(folder / "reference" / "so_setup.xml")
    model = read_osim(folder / setup["model"])
    ik = read_storage(folder / setup["coordinates"])
    slots = compile_tree(model).coordinates
    Q_all = np.zeros((len(ik.time), model.nq))
    for name in compile_tree(model).v_names:
        column = ik.column(name)
        Q_all[:, slots[name].qi] = np.deg2rad(column) if ik.in_degrees and slots[name].kind == "rotational" else column
    rate = 1.0 / np.median(np.diff(ik.time))
    filtered, short = lowpass(Q_all, rate, setup["cutoff"])
    assert not short
    spline = make_interp_spline(ik.time, filtered, k=5)
    id_table = read_storage(folder / "reference" / "id.sto")
    t = id_table.time
    if abs(t[0] - setup["range"][0]) > 1e-6 or abs(t[-1] - setup["range"][1]) > 1e-6:
        raise ValueError(f"reference/id.sto spans {t[0]}-{t[-1]} s, the setup {setup['range']}")
    tau = np.zeros((len(t), model.nv))
    for name in compile_tree(model).v_names:
        suffix = "_moment" if slots[name].kind == "rotational" else "_force"
        tau[:, slots[name].vi] = id_table.column(name + suffix)
    settings = MuscleForceSettings(objective="opensim", muscle_physiology=setup["physiology"],
                                   activation_exponent=setup["exponent"],
                                   reserves=read_actuators(folder / setup["actuators"]))
    return model, spline(t), spline.derivative()(t), tau, t, settings, folder


@pytest.fixture(scope="module")
def walk(inputs):
    model, Q, V, tau, t, settings, folder = inputs
    return model, estimate_muscle_forces(model, Q, V, tau, settings, time=t), folder


@pytest.fixture(scope="module")
def walk_passive(inputs):
    model, Q, V, tau, t, settings, folder = inputs
    settings = replace(settings, include_passive=True)
    return model, estimate_muscle_forces(model, Q, V, tau, settings, time=t), folder


def test_matches_opensims_static_optimization(walk):
    model, result, folder = walk
    reference = read_storage(folder / "reference" / "so_force.sto")
    assert np.allclose(result.time, reference.time, atol=1e-6)
    assert result.success.all(), result.summary()
    percent = {}
    for j, name in enumerate(result.muscle_names):
        rms = np.sqrt(np.mean((result.forces[:, j] - reference.column(name)) ** 2))
        percent[name] = 100 * rms / model.muscle(name).max_isometric_force
    within = [n for n, p in percent.items() if p <= 5.0]
    worst = sorted(percent.items(), key=lambda kv: -kv[1])[:3]
    assert len(within) >= 0.9 * len(percent), f"only {len(within)} of {len(percent)} within 5 %; worst {worst}"
    assert worst[0][1] < 1.0, f"worst muscles {worst}"            # measured 0.24 %
    for k, name in enumerate(result.reserve_names):
        assert np.abs(result.reserve_forces[:, k] - reference.column(name)).max() < 0.1, name
    assert np.abs(result.residual).max() < 1e-6                     # generalized forces matched exactly


def test_activations_match_and_files_round_trip(walk, tmp_path):
    _, result, folder = walk
    reference = read_storage(folder / "reference" / "so_activation.sto")
    for j, name in enumerate(result.muscle_names):
        assert np.sqrt(np.mean((result.activations[:, j] - reference.column(name)) ** 2)) < 0.01, name
    write_muscle_forces(tmp_path / "muscle_forces.sto", result)
    write_activations(tmp_path / "activations.sto", result)
    forces = read_storage(tmp_path / "muscle_forces.sto")
    activations = read_storage(tmp_path / "activations.sto")
    assert forces.labels == result.muscle_names + result.reserve_names
    assert np.array_equal(forces.data, np.concatenate([result.forces, result.reserve_forces], axis=1))
    assert np.array_equal(activations.data, np.concatenate([result.activations, result.reserve_controls], axis=1))
    assert forces.in_degrees is False and np.array_equal(forces.time, result.time)


def test_passive_fibre_force_is_opensims(walk_passive):
    model, result, folder = walk_passive
    reference = read_storage(folder / "reference" / "so_passive_fiber_force.sto")
    for j, name in enumerate(result.muscle_names):
        error = np.abs(result.f_passive[:, j] - reference.column(name)).max()
        assert error < 2e-3 * model.muscle(name).max_isometric_force, (name, error)
    assert reference.data.max() > 100.0          # the walk stretches some muscles into their passive range


def test_with_passive_force_matches_opensims_problem_with_passive_force(walk_passive):
    model, result, folder = walk_passive
    reference = read_storage(folder / "reference" / "so_passive_force.sto")
    active_only = read_storage(folder / "reference" / "so_force.sto")
    assert result.success.all(), result.summary()
    assert np.abs(result.residual).max() < 1e-6                     # generalized forces matched with the passive part
    worst, moved = 0.0, 0.0
    for j, name in enumerate(result.muscle_names):
        f_max = model.muscle(name).max_isometric_force
        worst = max(worst, np.sqrt(np.mean((result.forces[:, j] - reference.column(name)) ** 2)) / f_max)
        moved = max(moved, np.sqrt(np.mean((reference.column(name) - active_only.column(name)) ** 2)) / f_max)
    assert worst < 0.005, worst
    assert moved > 4 * worst                     # the passive force changes the solution by more than the tolerance
    assert np.all(result.forces >= result.f_passive - 1e-9)       # a muscle pulls at least with its passive force


def test_the_geometry_built_for_a_call_ends_its_threads_with_it(inputs, monkeypatch):
    """Without a geometry passed, the one built for the call shares the 73 frames between two threads and ends its
    pool's thread before returning."""
    import threading

    import numba
    model, Q, V, tau, t, settings, _ = inputs
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    started = []
    real = threading.Thread.start

    def start(thread):
        if thread.name.startswith("muscle-paths"):
            started.append(thread)
        real(thread)
    monkeypatch.setattr(threading.Thread, "start", start)
    estimate_muscle_forces(model, Q, V, tau, settings, time=t)
    assert len(started) == 1 and not started[0].is_alive()
