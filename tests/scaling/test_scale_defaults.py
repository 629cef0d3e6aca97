"""Scaling without a setup (pairs of markers nearest the joint centres), on static trials made from models
scaled by known factors: the factors are found again, the markers land where they were, and on the default
athlete the blade and its socket are left as they are."""
import numpy as np

from engine import algorithms as alg
from engine.data import Data
from engine.demo import demo_files
from engine.io.model_file import load_model, save_model
from engine.io.osim import read_osim
from engine.io.osim.marker_set import read_marker_set, with_marker_set
from engine.io.trc import write_trc
from engine.scaling.apply import scale_model
from engine.scaling.defaults import default_setup
from engine.io.scale_files import scale_from_files
from engine.trial.trial import Markers, Trial
from tests.scaling.gait2354_scale import FOLDER


def _static_trial(model, path, frames=5):
    """A still trial of ``model``'s markers in its default pose, written as a TRC (mm)."""
    positions = alg.marker_positions(model, Data(model), alg.neutral(model))
    markers = Markers(tuple(m.name for m in model.markers), np.arange(frames) / 100.0,
                      np.repeat(positions[None], frames, axis=0), 100.0)
    write_trc(path, Trial(markers))
    return markers


def _scale_without_setup(tmp_path, generic, truth, mass=None):
    generic_file = tmp_path / "generic.yaml"
    save_model(generic, generic_file)
    markers = _static_trial(truth, tmp_path / "static.trc")
    setup = default_setup(generic, markers, generic_file, tmp_path / "static.trc")
    return scale_from_files(setup, mass=mass).result


def test_uniform_factors_are_found_again_and_markers_stay_put(tmp_path):
    generic = read_osim(FOLDER / "gait2354_simbody.osim")
    generic = with_marker_set(generic, read_marker_set(FOLDER / "gait2354_Scale_MarkerSet.xml", generic))
    truth = scale_model(generic, {b.name: np.full(3, 1.05) for b in generic.bodies}).model
    result = _scale_without_setup(tmp_path, generic, truth)
    for body, f in result.scaled.factors.items():
        assert np.allclose(f, 1.05, rtol=0, atol=1e-6), body      # the TRC holds micrometres
    assert max(r.error for r in result.placement.residuals) < 1e-5
    assert max(r.moved for r in result.placement.residuals) < 1e-5


def test_default_athlete_scales_the_body_never_the_blade(tmp_path):
    athlete = load_model(demo_files().model)
    anatomy = {b.name: np.full(3, 1.04) for b in athlete.bodies if b.name != "socket_r"}
    truth = scale_model(athlete, anatomy, mass=76.0).model
    result = _scale_without_setup(tmp_path, athlete, truth, mass=76.0)
    model = result.model
    assert model.rods[0].segments == athlete.rods[0].segments
    assert model.body("socket_r").mass == athlete.body("socket_r").mass
    assert np.allclose(result.scaled.factors["socket_r"], 1.0)
    assert abs(model.total_mass - 76.0) < 1e-9
    for body, f in result.scaled.factors.items():
        if body != "socket_r":
            assert np.allclose(f, 1.04, rtol=0, atol=1e-6), (body, f)
    blade = {m.name for m in athlete.markers if m.parent == "blade"}
    assert all(m.s == athlete_m.s for m, athlete_m in zip(model.markers, athlete.markers) if m.name in blade)
