"""The demo's scores against its truth (``truth_metrics``) on estimates whose errors are known by construction.

The truth file is read with numpy alone (not with the loader the scores use); the estimates are the truth plus
chosen errors, unfiltered (the scores then compare them with the truth as it is), so each score has a closed form:

- torques off by 10 % of their true range on every joint coordinate: ``torque_rms_pct_range`` 10 (the RMS of a
  constant error is the error);
- every blade strain off by a constant d: ``rod_strain_rms_pct_range`` = 100 d / sqrt(mean(range^2)) over the
  rod's strains;
- contact forces 1.1 times the truth: per axis, the seed's eq. 39 rRMSE ``100 RMSE / mean of the two ranges`` =
  ``100 * 0.1 rms / (1.05 range)`` over the frames the sum over groups is loaded (20 N vertical).
"""
from types import SimpleNamespace

import numpy as np
import pytest

from engine.analysis.derivatives import Motion
from engine.demo import demo_files, demo_inputs
from engine.demo.truth import Truth, truth_metrics
from engine.tree import compile_tree


@pytest.fixture(scope="module")
def case():
    model, _, _ = demo_inputs()
    raw = np.load(demo_files().truth)
    assert list(raw["coordinate_names"]) == list(compile_tree(model).v_names)
    assert list(raw["contact_names"]) == [c.name for c in model.contacts]
    frames = np.arange(0, len(raw["time"]), 4)
    return model, {k: raw[k] for k in raw.files}, frames


def estimate(model, raw, frames, tau, q, forces):
    motion = Motion(raw["time"][frames], q, raw["v"][frames], raw["a"][frames], None, 4)
    qp = SimpleNamespace(tau=tau, forces=forces, loads_cutoff=None)
    return SimpleNamespace(model=model, motion=motion, qp=qp, classic=None, metrics=[])


def joint_coordinates(model, raw):
    strains = {n for r in model.rods for n in r.coordinate_names()}
    names = list(raw["coordinate_names"])
    return [names.index(c.name) for c in model.all_coordinates
            if c.name not in strains and not c.locked and c.coupled_to is None]


def test_torque_score_is_the_rms_error_in_percent_of_the_true_range(case):
    model, raw, frames = case
    tau = raw["tau"][frames].copy()
    span = np.ptp(tau, axis=0)
    joints = joint_coordinates(model, raw)
    tau[:, joints] += 0.10 * span[joints]
    out = truth_metrics(estimate(model, raw, frames, tau, raw["q"][frames], raw["contact_forces"][frames]), _truth(raw))
    assert out["torque_rms_pct_range"] == pytest.approx(10.0, rel=1e-9)
    assert all(v == pytest.approx(10.0, rel=1e-9) for v in out["torque_rms_pct_range_by_coordinate"].values())
    assert len(out["torque_rms_pct_range_by_coordinate"]) >= 10


def test_rod_strain_score_is_the_rms_error_in_percent_of_the_rms_range(case):
    model, raw, frames = case
    q = raw["q"][frames].copy()
    qi = [compile_tree(model).coordinates[n].qi for n in model.rods[0].coordinate_names()]
    d = 0.05
    q[:, qi] += d
    out = truth_metrics(estimate(model, raw, frames, raw["tau"][frames], q, raw["contact_forces"][frames]), _truth(raw))
    span = np.ptp(raw["q"][frames][:, qi], axis=0)
    assert out["rod_strain_rms_pct_range"] == pytest.approx(100 * d / np.sqrt(np.mean(span ** 2)), rel=1e-9)


def test_ground_reaction_score_is_the_seeds_rrmse(case):
    model, raw, frames = case
    forces = 1.1 * raw["contact_forces"][frames]
    out = truth_metrics(estimate(model, raw, frames, raw["tau"][frames], raw["q"][frames], forces), _truth(raw))
    true = raw["contact_forces"][frames].sum(axis=1)
    up = -np.asarray(model.gravity, float) / np.linalg.norm(model.gravity)
    loaded = true @ up >= 20.0
    vertical = true[loaded] @ up
    expected = 100 * 0.1 * np.sqrt(np.mean(vertical ** 2)) / (1.05 * np.ptp(vertical))
    assert out["grf_rrmse_pct"]["all_groups"]["vertical"] == pytest.approx(expected, rel=1e-9)


def _truth(raw):
    """The truth as the scores take it, built from the file's arrays."""
    return Truth(**{k: (list(raw[k]) if raw[k].dtype.kind == "U" else raw[k]) for k in
                    ("time", "q", "v", "a", "tau", "tau_rod", "contact_forces", "contact_names", "contact_groups",
                     "coordinate_names", "muscle_names", "muscle_forces", "activations", "emg_names", "excitations",
                     "emg_activations", "notes")})
