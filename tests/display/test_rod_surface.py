"""The blade's swept surface follows the engine's rod frames: ends at the rod's base and tip, section sizes,
and the tip moves when the rod bends."""
import numpy as np

from engine import algorithms as alg
from engine.data import Data
from engine.display.rod_surface import RodSurfaces, rod_surface, section_size, stations
from engine.model import Section
from engine.tree import compile_tree
from tests.muscles.path_models import wrap_model


def test_stations_cover_every_segment():
    rod = wrap_model().rod("strip")
    s, seg = stations(rod, 4)
    assert np.allclose(s, np.linspace(0.0, 0.2, 9)) and list(seg) == [0, 0, 0, 0, 1, 1, 1, 1, 1]


def test_surface_ends_at_base_and_tip_with_section_sizes():
    model = wrap_model()
    data = Data(model)
    q = alg.neutral(model)
    surface = rod_surface(model, data, "strip", q)
    alg.forward_kinematics(model, data, q)
    assert np.allclose(surface.centreline[-1], alg.frame_placement(model, data, "strip").p, atol=1e-12)
    base = alg.frame_placement(model, data, "lower").act([0.0, -0.25, 0.0])
    assert np.allclose(surface.centreline[0], base, atol=1e-12)
    diagonal = np.linalg.norm(surface.corners[:, 0] - surface.corners[:, 2], axis=1)
    assert np.isclose(diagonal[0], np.hypot(0.03, 0.004)) and np.isclose(diagonal[-1], np.hypot(0.03, 0.003))


def test_bending_moves_the_tip():
    model = wrap_model()
    data = Data(model)
    q = alg.neutral(model)
    rest = rod_surface(model, data, "strip", q).centreline[-1]
    q[compile_tree(model).coordinates["strip_s1_kz"].qi] += 3.0
    assert np.linalg.norm(rod_surface(model, data, "strip", q).centreline[-1] - rest) > 0.01


def test_one_rod_s_surfaces_follow_each_configuration():
    """Stations computed once and placed at configurations in turn: each surface ends at that configuration's tip
    frame, its sections square to the centreline with the display sizes."""
    model = wrap_model()
    data, check = Data(model), Data(model)
    surfaces = RodSurfaces(model, "strip", 4)
    q = alg.neutral(model)
    for bend in (0.0, 3.0, -5.0):
        q[compile_tree(model).coordinates["strip_s1_kz"].qi] = bend
        surface = surfaces.at(data, q)
        alg.forward_kinematics(model, check, q)
        assert np.allclose(surface.centreline[-1], alg.frame_placement(model, check, "strip").p, atol=1e-12)
        across = surface.corners[:, 0] - surface.corners[:, 1]           # +y edge to -y edge: the width
        assert np.allclose(np.einsum("ij,ij->i", across, surface.frames[:, :, 0]), 0.0, atol=1e-12)
        assert np.allclose(np.linalg.norm(across, axis=1)[[0, -1]], 0.03)


def test_section_without_display_size_uses_the_equivalent_rectangle():
    s = Section.rectangle(0.05, 0.01)
    bare = Section(s.area, s.second_moment_y, s.second_moment_z, s.torsion_constant)
    assert np.allclose(section_size(bare), (0.05, 0.01))
