"""The demo analysed with its contact candidates generated automatically (``engine.contacts``) instead of the
hand-placed ones its simulation used: every demo target still met against the simulation's truth (the measured
loads' torques and the estimate's within 5% of their range, the estimate's subtalar within 15%, the ground
reactions within 5% per axis, limb and plate, the blade's strains within 5%)."""
from dataclasses import replace

import pytest

from engine.analysis.pipeline import analysis_steps
from engine.progress import run
from engine.demo import demo_inputs, demo_truth
from engine.demo.truth import truth_metrics


@pytest.fixture(scope="module")
def automatic():
    model, trial, settings = demo_inputs()
    settings = replace(settings, muscles=False)
    result = run(analysis_steps(model.replace(contacts=[]), trial, settings))
    return result, truth_metrics(result, demo_truth(), settings.forward), model


def test_the_candidates_were_generated_not_the_hand_placed_ones(automatic):
    result, _, shipped = automatic
    assert len(result.generated_contacts) == 10 and set(result.generated_contacts) == {
        c.name for c in result.model.contacts}
    assert {c.group for c in result.model.contacts} == {"foot_l", "blade"}
    assert {c.name for c in result.model.contacts} != {c.name for c in shipped.contacts}      # the toes' own
    assert any(n.startswith("soles calibrated on the stances on the force plates") for n in result.notes)


def test_every_demo_target_is_met(automatic):
    result, m, _ = automatic
    assert m["rod_strain_rms_pct_range"] < 5.0
    assert result.dynamics is result.classic and m["measured_loads_torque_rms_pct_range"] < 5.0
    estimate = m["torque_rms_pct_range_by_coordinate"]
    assert estimate["subtalar_angle_l"] < 15.0
    assert max(v for c, v in estimate.items() if c != "subtalar_angle_l") < 5.0
    g = m["grf_rrmse_pct"]
    assert g["vertical"] < 5.0 and g["ap"] < 5.0 and g["ml"] < 5.0          # worst over limbs and plates
    assert {x.plate for x in result.metrics} == {"FP1", "FP2"} and max(x.rrmse for x in result.metrics) < 5.0
