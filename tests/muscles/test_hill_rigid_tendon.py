"""Rigid-tendon Hill evaluation (seed eq. 37 bounds): pennation geometry, force composition, the
reported curve limits, and imported OpenSim muscles of both models at OpenSim's reference lengths."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.io.osim import read_osim
from engine.model.muscles import GeometryPath, Muscle, PathPoint
from engine.muscles.forces.hill import HillMuscles, thelen

THELEN = {"FmaxTendonStrain": 0.033, "FmaxMuscleStrain": 0.6, "KshapeActive": 0.5, "KshapePassive": 4.0, "Af": 0.3,
          "Flen": 1.8, "fv_linear_extrap_threshold": 0.95, "maximum_pennation_angle": math.acos(0.1),
          "minimum_activation": 0.01}


def muscle(name, model="thelen2003", pennation=0.0, **params):
    path = GeometryPath((PathPoint("o", "ground"), PathPoint("i", "ground", np.array([0.0, 0.3, 0.0]))))
    parameters = dict(THELEN) if model == "thelen2003" else {"maximum_pennation_angle": math.acos(0.1)}
    parameters.update(params)
    return Muscle(name, path, model, max_isometric_force=1000.0, optimal_fiber_length=0.1, tendon_slack_length=0.2,
                  pennation_angle=pennation, max_contraction_velocity=10.0, parameters=parameters)


def test_pennation_geometry_and_force_composition():
    alpha0 = 0.3
    hill = HillMuscles([muscle("p", pennation=alpha0)])
    h = 0.1 * math.sin(alpha0)
    lengths = np.array([[0.2 + 0.1 * math.cos(alpha0)], [0.33], [0.26]])
    speeds = np.array([[0.0], [0.2], [-0.3]])
    out = hill.evaluate(lengths, speeds)
    along = lengths[:, 0] - 0.2
    fibre = np.sqrt(h * h + along ** 2)
    assert np.allclose(out.fibre_length[:, 0], fibre, rtol=1e-15)
    assert out.fibre_length[0, 0] == pytest.approx(0.1, rel=1e-15)          # optimal length at alpha0
    assert np.allclose(out.cos_pennation[:, 0], along / fibre, rtol=1e-15)
    vn = speeds[:, 0] * along / fibre / (0.1 * 10.0)
    assert np.allclose(out.norm_fibre_velocity[:, 0], vn, rtol=1e-15)
    fl = thelen.active_force_length(fibre / 0.1, 0.5)
    fv = thelen.force_velocity(vn, 0.3, 1.8, 0.95)
    fp = thelen.passive_force_length(fibre / 0.1, 4.0, 0.6)
    assert np.allclose(out.active_max[:, 0], 1000 * fl * fv * along / fibre, rtol=1e-14)
    assert np.allclose(out.passive[:, 0], 1000 * fp * along / fibre, rtol=1e-14)
    assert np.allclose(out.f_max, out.active_max + out.passive)
    assert out.active_max[0, 0] == pytest.approx(1000 * math.cos(alpha0), rel=1e-14)   # F_max cos(alpha0) at rest
    assert out.notes == ()


def test_minimum_fibre_length_gives_no_active_force_and_is_reported():
    hill = HillMuscles([muscle("pennate", pennation=0.3), muscle("straight")])
    # pennate: fibre along the tendon shorter than h / tan(max angle); straight: slack (l < l_s)
    lengths = np.array([[0.2 + 0.001, 0.19], [0.3, 0.3]])
    out = hill.evaluate(lengths, np.zeros_like(lengths))
    assert out.at_minimum_length[0].tolist() == [True, True] and not out.at_minimum_length[1].any()
    assert out.active_max[0].tolist() == [0.0, 0.0]
    h = 0.1 * math.sin(0.3)
    assert out.fibre_length[0, 0] == pytest.approx(h / math.sin(math.acos(0.1)), rel=1e-15)
    assert any(n.startswith("pennate: fibre at its minimum length") and "1 of 2 frames" in n for n in out.notes)
    assert any(n.startswith("straight: fibre at its minimum length") for n in out.notes)


def test_velocity_limits_are_reported_not_silent():
    hill = HillMuscles([muscle("fast"), muscle("m", model="millard2012")])
    lengths = np.full((3, 2), 0.3)
    speeds = np.array([[-1.2, -1.2], [0.0, 0.0], [5.0, 5.0]])     # v/(l_opt v_max) = -1.2, 0, 5
    out = hill.evaluate(lengths, speeds)
    assert out.force_velocity[0].tolist() == [0.0, 0.0]
    assert out.force_velocity[2, 1] == pytest.approx(1.4)         # Millard: end slope 0 beyond v_max
    notes = "\n".join(out.notes)
    assert "fast: shortening faster than its maximum contraction velocity in 1 of 3 frames" in notes
    assert "fast: lengthening past the force-velocity curve's fv_linear_extrap_threshold in 1 of 3" in notes
    assert "m: fibre velocity beyond its maximum contraction velocity in 2 of 3 frames" in notes


def test_millard_uses_the_files_curves():
    default, floored = muscle("d", model="millard2012"), muscle(
        "f", model="millard2012", ActiveForceLengthCurve={"type": "ActiveForceLengthCurve", "minimum_value": 0.0})
    out = HillMuscles([default, floored]).evaluate(np.array([[0.23, 0.23]]), np.zeros((1, 2)))
    assert out.active_force_length[0].tolist() == pytest.approx([0.1, 0.0])   # l_f = 0.03 = 0.3 l_opt
    assert "outside the active force-length curve's domain" in out.notes[0]


@pytest.mark.parametrize("folder, osim", [("gait2354", "subject01_simbody.osim"),
                                          ("gait10dof18musc", "subject01.osim")])
def test_imported_muscles_at_opensims_reference_lengths(test_data, folder, osim):
    model = read_osim(test_data / "opensim" / folder / osim)
    ref = np.load(test_data / "opensim" / folder / "reference" / "model_reference.npz")
    order = [str(n) for n in ref["muscle_names"]]
    assert order == [m.name for m in model.muscles]
    out = HillMuscles(model.muscles).evaluate(ref["muscle_length"], np.zeros_like(ref["muscle_length"]))
    F0 = np.array([m.max_isometric_force for m in model.muscles])
    assert np.all(np.isfinite(out.f_max)) and np.all(out.active_max >= 0) and np.all(out.passive >= 0)
    assert np.all(out.active_max <= F0 * (1 + 1e-12))           # isometric: at most F_max
    assert np.abs(out.force_velocity - 1.0).max() < 1e-13
