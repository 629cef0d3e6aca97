"""The soles' calibration against the floor: exact on poses standing at a known height, and the same sole from a
static trial as from the walking trial's stances on the plates."""
import numpy as np

from engine import algorithms as alg
from engine.analysis.contact_model import static_calibration
from engine.analysis.ik import solve_ik
from engine.analysis.inverse_dynamics import plate_samples
from engine.contacts.automatic import Calibration, automatic_contacts
from engine.data import Data
from engine.io.external_loads import ground_reaction_plates, load_external_loads
from engine.io.open import open_model
from engine.io.open_trial import open_trial
from engine.io.setup_xml import ik_settings_from_setup
from engine.tree import compile_tree

from ..analysis.opensim_cases import load


def _heights(model, Q, names):
    return alg.frame_positions_batch(model, Data(model), Q, names)[..., 1]


def test_standing_poses_put_the_lowest_sole_candidates_on_the_floor(test_data):
    """Poses standing (the neutral pose, feet flat) with the pelvis raised by known amounts: the calibration puts
    each foot's lowest heel or metatarsal candidate on the floor at their median height, exactly."""
    model = open_model(test_data / "opensim/gait2354/subject01_simbody.osim")
    Q = np.tile(alg.neutral(model), (5, 1))
    ty = compile_tree(model).coordinates["pelvis_ty"].qi
    Q[:, ty] += np.array([0.02, 0.03, 0.05, 0.07, 0.2])       # median: 5 cm higher than neutral
    generated = automatic_contacts(model, Calibration(Q, floor=-0.01, static=True))
    for side in ("r", "l"):
        sole = [f"{n}_{side}" for n in ("heel_med", "heel_lat", "meta1", "meta5")]
        assert abs(np.median(_heights(generated.model, Q, sole).min(axis=1)) + 0.01) < 1e-9
        toes = [f"{n}_{side}" for n in ("hallux", "toes_lat")]
        assert np.allclose(_heights(generated.model, Q[2:3], toes), -0.01, atol=1e-9)   # one plane with them
    assert any(n.startswith("soles calibrated on the static trial (5 poses") for n in generated.notes)


def test_a_static_trial_and_the_stances_on_the_plates_give_the_same_sole(test_data):
    """gait2354: the static trial (IK of its poses, feet flat on the lab floor) and the walking trial's stances on
    the plates calibrate each sole to the same depth within 1 cm (uncalibrated, it is 3 cm off)."""
    d = test_data / "opensim/gait2354"
    model, trial, setup = load("gait2354", str(test_data))
    settings = ik_settings_from_setup(model, setup)
    ik = solve_ik(model, trial.markers, settings)
    plates = ground_reaction_plates(load_external_loads(d / "subject01_walk1_grf.xml"))
    floor = float(np.mean([p.surface_point[1] for p in plates]))
    samples = [plate_samples(p, ik.time) for p in plates]
    stance = automatic_contacts(model, Calibration(ik.q, floor, [(f, c, on, p.normal) for p, (f, _, c, on)
                                                                 in zip(plates, samples)]))
    static, notes = static_calibration(model, open_trial(d / "scale/subject01_static.trc"), settings)
    standing = automatic_contacts(model, static)
    plain = automatic_contacts(model)
    assert "the lab's origin" in notes[0]
    depth = {}
    for name, g in (("stance", stance), ("static", standing), ("none", plain)):
        depth[name] = {c.name: c.offset[1] for c in g.contacts if c.name.startswith("heel")}
    for c in depth["stance"]:
        assert abs(depth["stance"][c] - depth["static"][c]) < 0.01, c
        assert abs(depth["stance"][c] - depth["none"][c]) > 0.02, c
