"""Lab axes: parsing descriptions, proposing the up/forward axes, guessing length units."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from engine.trial import ForcePlate, Markers, Trial
from engine.trial.axes import (detect_length_unit, implausible_unit, propose_rotation, rotation_from_axes,
                               to_model_axes)


@pytest.mark.parametrize("spec,up,forward", [
    ("Z-up, X-forward", [0, 0, 1], [1, 0, 0]),
    ("-Y up, Z forward", [0, -1, 0], [0, 0, 1]),
    ("up=Y, forward=-X", [0, 1, 0], [-1, 0, 0]),
    ("X-forward, Z-up", [0, 0, 1], [1, 0, 0]),
])
def test_rotation_from_axes_maps_lab_up_to_model_y_and_forward_to_model_x(spec, up, forward):
    R = rotation_from_axes(spec)
    np.testing.assert_allclose(R @ np.array(up, float), [0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(R @ np.array(forward, float), [1, 0, 0], atol=1e-15)
    np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-15)
    assert np.linalg.det(R) == pytest.approx(1.0)


def test_z_up_x_forward_is_the_usual_lab_to_opensim_rotation():
    # OpenSim: X forward, Y up, Z right. A Z-up lab with X forward has Y to the left.
    R = rotation_from_axes("Z-up, X-forward")
    np.testing.assert_allclose(R @ [0, 1, 0], [0, 0, -1], atol=1e-15)   # lab left -> model -Z (left)


@pytest.mark.parametrize("spec", ["Z-up", "Z-up, Z-forward", "W-up, X-forward", "Z-up, X-forward, Y-up", ""])
def test_bad_axis_descriptions(spec):
    with pytest.raises(SettingsError):
        rotation_from_axes(spec)


def walking_trial(rng, up, forward, frames=200, with_plate=True):
    """A crude walker in a lab whose vertical is ``up``: feet near the floor, pelvis 0.9 m and head
    1.7 m above it, moving 2 m along ``forward``, and a plate under it."""
    up, forward = np.asarray(up, float), np.asarray(forward, float)
    side = np.cross(up, forward)
    s = np.linspace(0, 2.0, frames)[:, None]
    swing = 0.3 * np.sin(np.linspace(0, 4 * np.pi, frames))[:, None]
    heel_r = s * forward + swing * forward - 0.1 * side + 0.05 * up
    heel_l = s * forward - swing * forward + 0.1 * side + 0.05 * up
    pelvis = s * forward + 0.9 * up
    head = s * forward + 1.7 * up
    P = np.stack([heel_r, heel_l, pelvis, head], axis=1) + rng.normal(scale=0.005, size=(frames, 4, 3))
    markers = Markers(("R.Heel", "L.Heel", "Sacrum", "Top.Head"), np.arange(frames) / 100.0, P, 100.0)
    plates = ()
    if with_plate:
        n = frames * 10
        F = 700.0 * up + rng.normal(scale=20, size=(n, 3))
        plates = (ForcePlate.from_loads(F, np.zeros_like(F), normal=up, surface_point=np.zeros(3), name="FP1",
                                        number=1, type=2, rate=1000.0, t0=0.0),)
    return Trial(markers, plates=plates)


@pytest.mark.parametrize("with_plate", [True, False])
@pytest.mark.parametrize("up,forward", [([0, 0, 1], [0, 1, 0]), ([0, 1, 0], [1, 0, 0]), ([0, 0, -1], [-1, 0, 0])])
def test_propose_rotation_finds_up_and_forward(rng, up, forward, with_plate):
    trial = walking_trial(rng, up, forward, with_plate=with_plate)
    proposal = propose_rotation(trial)
    np.testing.assert_allclose(proposal.rotation @ up, [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(proposal.rotation @ forward, [1, 0, 0], atol=1e-12)
    source = "force plates" if with_plate else "foot markers"
    assert source in proposal.reasons[0]
    model = to_model_axes(trial)
    assert model.frame == "model" and source in model.conversions[-1]
    head = model.markers.trajectory("Top.Head")
    heel = model.markers.trajectory("R.Heel")
    assert np.all(head[:, 1] - heel[:, 1] > 1.5)      # in the model the head is ~1.65 m above the heel


def test_to_model_axes_with_a_given_description_is_recorded(rng):
    trial = walking_trial(rng, [0, 0, 1], [1, 0, 0])
    model = to_model_axes(trial, "Z-up, X-forward")
    assert "'Z-up, X-forward'" in model.conversions[-1]
    np.testing.assert_allclose(model.plates[0].normal, [0, 1, 0], atol=1e-15)


@pytest.mark.parametrize("with_plate", [True, False])
def test_given_axes_that_contradict_the_trials_vertical_are_refused(rng, with_plate):
    """A Y-up trial described as Z-up would put the body on its back under a sideways gravity: refused, naming the
    axes and what the trial shows; a tilt below the limit is accepted."""
    trial = walking_trial(rng, [0, 1, 0], [1, 0, 0], with_plate=with_plate)
    with pytest.raises(SettingsError, match="'Z-up, X-forward' put up 90 degrees away from the trial's vertical") \
            as refused:
        to_model_axes(trial, "Z-up, X-forward")
    assert refused.value.element == "axes"
    assert ("force plates" if with_plate else "foot markers") in str(refused.value)
    tilted = walking_trial(rng, [0, np.cos(0.5), np.sin(0.5)], [1, 0, 0], with_plate=with_plate)   # 29 degrees
    assert to_model_axes(tilted, "Y-up, X-forward").frame == "model"


@pytest.mark.parametrize("unit,scale", [("mm", 1e-3), ("m", 1.0), ("cm", 1e-2)])
def test_detect_length_unit_from_human_size(rng, unit, scale):
    trial = walking_trial(rng, [0, 0, 1], [1, 0, 0], with_plate=False)
    in_unit = trial.markers.positions / scale
    found = detect_length_unit(in_unit)
    assert found is not None and found[0] == unit and found[1] == scale


def test_implausible_unit():
    body = np.array([[[0, 0, 0], [0, 0, 1.7]]] * 5)          # 1.7 m tall, in metres
    assert not implausible_unit(body, 1.0)
    assert implausible_unit(body * 1000, 1.0)                 # mm data declared as metres
    assert implausible_unit(body, 1e-3)                       # metre data declared as mm
    assert detect_length_unit(np.full((4, 2, 3), np.nan)) is None
