"""A marker wrong for a whole trial (labels swapped by the tracker) is found before IK, named with its evidence,
and left out, so the trial's kinematics stay those of the clean trial (issue 28)."""
from dataclasses import replace

import numpy as np
import pytest

from engine.analysis.ik import solve_ik
from engine.analysis.marker_rigidity import nonrigid_markers
from engine.analysis.pipeline import _leave_out_nonrigid
from engine.demo import demo_inputs
from engine.tree import compile_tree
from engine.trial.axes import to_model_axes
from tests.analysis.gait2354_result import inputs

SWAPPED = ("R.Thigh.Front", "R.Shank.Front")     # a thigh and a shank marker near the knee


def _swapped(markers, a, b):
    names = list(markers.names)
    i, j = names.index(a), names.index(b)
    positions = markers.positions.copy()
    positions[:, [i, j]] = positions[:, [j, i]]
    return replace(markers, positions=positions)


@pytest.fixture(scope="module")
def walk(test_data):
    model, trial, settings = inputs(str(test_data), muscles=False)
    return model, to_model_axes(trial, None).markers, settings.ik


def test_clean_trials_have_no_finding(walk):
    model, markers, _ = walk
    assert nonrigid_markers(model, markers) == ([], [])
    demo_model, demo_trial, _ = demo_inputs()
    findings, _ = nonrigid_markers(demo_model, demo_trial.markers)
    assert findings == []


def test_swapped_labels_are_named_and_left_out(walk):
    model, markers, ik_settings = walk
    clean = solve_ik(model, markers, ik_settings)
    bad = _swapped(markers, *SWAPPED)
    findings, _ = nonrigid_markers(model, bad)
    assert sorted(f.name for f in findings) == sorted(SWAPPED)
    assert {f.name: f.body for f in findings} == {"R.Thigh.Front": "femur_r", "R.Shank.Front": "tibia_r"}
    assert all(f.spread > 4 * f.usual and f.frames[2] > 0 for f in findings)

    checked, notes = _leave_out_nonrigid(model, bad, ik_settings)
    assert len(notes) == 2 and all("left out of inverse kinematics" in n for n in notes)
    robust = solve_ik(model, bad, checked)
    assert set(SWAPPED).isdisjoint(robust.marker_names)
    assert abs(np.nanmean(robust.rms) - np.nanmean(clean.rms)) < 1e-3           # marker RMS within 1 mm
    rotational = [compile_tree(model).coordinates[c.name].qi for c in model.all_coordinates
                  if c.kind == "rotational" and not c.is_dependent and compile_tree(model).coordinates[c.name].qi >= 0]
    assert np.degrees(np.abs(robust.q[:, rotational] - clean.q[:, rotational]).max()) < 1.0

    naive = solve_ik(model, bad, ik_settings)          # what the check prevents
    knee = compile_tree(model).coordinates["knee_angle_r"].qi
    assert np.degrees(np.abs(naive.q[:, knee] - clean.q[:, knee]).max()) > 3.0

