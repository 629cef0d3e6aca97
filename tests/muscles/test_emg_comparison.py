"""EMG-driven reference forces (eq. 40), their use as f_ref in the seed objective (W2), and the seed's
Table 3 comparison (RMS error per phase over the muscle's peak f_max, in percent) with its CSV file."""
from __future__ import annotations

import csv

import numpy as np
import pytest
from scipy.interpolate import make_interp_spline

from engine.errors import SettingsError
from engine.io.osim import read_osim
from engine.io.storage import read_storage
from engine.muscles.emg.activation import MuscleActivity, activation_dynamics, muscle_activity, reference_forces
from engine.muscles.emg.processing import EMGProcessing, emg_from_arrays, process_emg
from engine.muscles.path.geometry import MuscleGeometry
from engine.io.muscle_files import write_emg_comparison_csv, write_muscle_outputs
from engine.muscles.emg.comparison import compare_forces
from engine.muscles.forces.hill import HillMuscles
from engine.muscles.forces.results import MuscleForceResult
from engine.muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces
from engine.tree import compile_tree
from engine.trial.filtering import lowpass


@pytest.fixture(scope="module")
def walk(test_data):
    folder = test_data / "opensim" / "gait2354"
    model = read_osim(folder / "subject01_simbody.osim")
    ik = read_storage(folder / "subject01_walk1_ik.mot")
    slots = compile_tree(model).coordinates
    Q = np.zeros((len(ik.time), model.nq))
    for name in compile_tree(model).v_names:
        column = ik.column(name)
        Q[:, slots[name].qi] = np.deg2rad(column) if slots[name].kind == "rotational" else column
    spline = make_interp_spline(ik.time, lowpass(Q, 60.0, 6.0)[0], k=5)
    id_table = read_storage(folder / "reference" / "id.sto")
    t = id_table.time
    tau = np.column_stack([id_table.column(n + ("_moment" if slots[n].kind == "rotational" else "_force"))
                           for n in compile_tree(model).v_names])
    return model, t, spline(t), spline.derivative()(t), tau


def test_eq40_with_tension_positive(walk):
    model, t, Q, V, _ = walk
    lengths, speeds, _ = MuscleGeometry(model).evaluate(Q, V)
    hill = HillMuscles(model.muscles).evaluate(lengths, speeds)
    activity = MuscleActivity(("bifemlh_r",), t, np.full((len(t), 1), 0.25))
    f_ref = reference_forces(activity, t, hill)
    j = model.muscles.index(model.muscle("bifemlh_r"))
    assert np.allclose(f_ref[:, j], 0.25 * hill.active_max[:, j], rtol=1e-15)
    assert np.all(f_ref[:, j] > 0)
    assert np.isnan(np.delete(f_ref, j, axis=1)).all()
    with pytest.raises(SettingsError, match="not in the model: 'semiten'"):
        reference_forces(MuscleActivity(("semiten",), t, np.zeros((len(t), 1))), t, hill)


def test_activity_uses_each_muscles_time_constants(walk):
    model = walk[0]
    rate = 1000.0
    u = np.r_[np.zeros(100), np.ones(200), np.zeros(200)] * 1e-3
    processed = process_emg(emg_from_arrays(["EMG1"], u, rate), EMGProcessing(band_pass=None, envelope_cutoff=200.0))
    activity = muscle_activity(processed, model.muscles, {"EMG1": "bifemlh_r"})
    m = model.muscle("bifemlh_r")
    expected = activation_dynamics(processed.excitation[:, 0], rate, m.activation_time_constant,
                                   m.deactivation_time_constant)
    assert activity.names == ("bifemlh_r",) and np.array_equal(activity.activation[:, 0], expected)
    assert any("tau_ac 10 ms, tau_da 40 ms" in s for s in activity.description)


def result_with(forces, f_ref, f_max, time):
    T, m = forces.shape
    z = np.zeros((T, m))
    return MuscleForceResult("seed", tuple(f"m{j}" for j in range(m)), (), (), time, forces, z, np.zeros((T, 0)),
                             np.zeros((T, 0)), np.zeros((T, 1)), np.zeros((T, 1)), z, z, f_max, f_ref,
                             np.ones(T, bool), ("optimal (quadprog)",) * T, 0.0)


def test_table3_rms_over_peak_f_max_per_phase(tmp_path):
    time = np.arange(10) * 0.1
    f_ref = np.full((10, 2), 100.0)
    forces = f_ref + np.array([[50.0, 0.0]] * 5 + [[0.0, 30.0]] * 5)
    forces[7, 1] = np.nan                                  # an infeasible frame is left out
    f_max = np.column_stack([np.full(10, 800.0), np.full(10, 600.0)])
    f_max[3, 0] = 1000.0                                   # the normaliser is the peak over the trial
    comparison = compare_forces(result_with(forces, f_ref, f_max, time), {"1st": (0.0, 0.45), "2nd": (0.5, 0.95)})
    assert np.allclose(comparison.rms_percent, [[5.0, 0.0], [0.0, 5.0]], rtol=1e-14)
    assert comparison.frames.tolist() == [[5, 5], [5, 4]]
    assert "1st" in comparison.table()
    write_emg_comparison_csv(tmp_path / "emg_comparison.csv", comparison)
    rows = list(csv.DictReader(open(tmp_path / "emg_comparison.csv")))
    assert [(r["muscle"], r["phase"], float(r["rms_percent"])) for r in rows] == [
        ("m0", "1st", 5.0), ("m0", "2nd", 0.0), ("m1", "1st", 0.0), ("m1", "2nd", 5.0)]
    with pytest.raises(SettingsError, match="start < end"):
        compare_forces(result_with(forces, f_ref, f_max, time), {"bad": (0.5, 0.1)})


def test_reference_weight_pulls_the_seed_solution_towards_the_emg_force(walk):
    model, t, Q, V, tau = walk
    activity = MuscleActivity(("bifemlh_r", "med_gas_r"), t, np.column_stack([np.full(len(t), 0.3),
                                                                             np.full(len(t), 0.2)]))
    phases = {"early": (0.4, 0.8), "late": (0.8, 1.2)}
    free = estimate_muscle_forces(model, Q, V, tau, MuscleForceSettings(), time=t, emg=activity, phases=phases)
    pulled = estimate_muscle_forces(model, Q, V, tau, MuscleForceSettings(reference_weight=1e-3), time=t,
                                    emg=activity, phases=phases)
    assert free.success.all() and pulled.success.all()
    assert free.emg_comparison.muscles == ("bifemlh_r", "med_gas_r")
    before, after = free.emg_comparison.rms_percent, pulled.emg_comparison.rms_percent
    assert np.all(after < 0.5 * before), (before, after)


def test_analysis_muscle_step_writes_the_three_files(walk, tmp_path):
    """``hybrid analyze --muscles``: a trial whose EMG channel is named as a muscle, with gait events."""
    from engine.analysis.derivatives import Motion
    from engine.progress import run
    from engine.muscles.pipeline import muscle_steps
    from engine.trial.trial import AnalogChannel, Event, Markers, Trial

    model, t, Q, V, tau = walk
    rng = np.random.default_rng(5)
    rate = 1000.0
    n = int(1.3 * rate)
    emg = (0.2 + 0.1 * np.sin(np.arange(n) / rate * 6)) * rng.normal(size=n) * 1e-3
    events = (Event("Foot Off", "Left", 0.62), Event("Foot Strike", "Left", 1.05), Event("Foot Off", "Right", 1.2),
              Event("Foot Strike", "Right", 1.55))
    trial = Trial(Markers((), t, np.zeros((len(t), 0, 3)), 60.0), events=events,
                  analogs=(AnalogChannel("bifemlh_r", rate, "V", emg, t0=0.35, kind="emg"),
                           AnalogChannel("CH2", rate, "V", emg, t0=0.35, kind="emg")))
    motion = Motion(t, Q, V, np.zeros_like(V), 6.0, 4)
    outputs = run(muscle_steps(model, motion, tau, trial))
    result = outputs.result
    assert result.success.all()
    assert [p[0] for p in result.emg_comparison.phases] == ["right single support 1", "left single support 1"]
    assert result.emg_comparison.muscles == ("bifemlh_r",)
    written = write_muscle_outputs(tmp_path, outputs)
    assert [p.name for p in written] == ["muscle_forces.sto", "activations.sto", "emg_comparison.csv"]
    assert read_storage(written[0]).labels == result.muscle_names
    assert len(list(csv.DictReader(open(written[2])))) == 2
