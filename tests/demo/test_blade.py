"""The running blade: its vertical stiffness in a simulated compression test and its mass, against published ranges."""
import pytest

from engine.algorithms import neutral
from engine.data import Data
from engine.demo import blade
from engine.tree import compile_tree


# Vertical stiffness of J-shaped sprint blades at neutral alignment in the categories prescribed to 60-80 kg
# athletes: about 15-40 kN/m (Beck et al. 2016, PLoS One 11:e0168298, with Baum et al. 2013 and Hobara et al. 2013;
# the span of the models' values, not a per-category table). Written here from the publications, not from the model.
PUBLISHED_STIFFNESS = (15e3, 40e3)      # N/m


def test_compression_stiffness_lies_in_the_published_range_for_j_shaped_sprint_blades():
    test = blade.compression_test()
    lo, hi = PUBLISHED_STIFFNESS
    assert lo <= test.stiffness <= hi
    # the displacements grow with the load (the solver converged to a loaded shape each time)
    assert all(b > a > 0 for a, b in zip(test.displacements, test.displacements[1:]))


def test_blade_mass_and_length_are_those_of_a_running_blade():
    segments = blade.segments()
    mass = sum(sg.line_inertia()[0] * sg.length for sg in segments)
    assert 0.46 <= mass <= 0.59          # Ottobock 1E91 Runner figures quoted in the module
    assert blade.total_length() == pytest.approx(0.61)
    assert len(blade.markers()) == 21 and len(blade.contacts()) == 4


def test_first_modes_of_the_clamped_blade_are_damped_as_measured_on_running_blades():
    """Damped modes of M a + D v + K (q - q_rest) = 0 (the rod clamped at its mount, no gravity): the lowest
    bending and torsion modes have damping ratios within the 1.5-2.0% measured on a running blade."""
    import numpy as np
    from engine import algorithms as alg
    from engine.model import Model, Rod
    r = blade.rod("ground", (0.0, 0.0, 0.0))
    model = Model("clamped", rods=[Rod(r.name, "ground", r.segments, offset=r.offset)], gravity=(0.0, 0.0, 0.0))
    M = alg.crba(model, Data(model), neutral(model))
    segs = compile_tree(model).k.segs
    free = segs["q"] >= 0
    n = model.nv
    K, D = np.zeros((n, n)), np.zeros((n, n))
    K[segs["v"][free], segs["v"][free]] = segs["k"][free]
    D[segs["v"][free], segs["v"][free]] = segs["d"][free]
    A = np.block([[np.zeros((n, n)), np.eye(n)], [-np.linalg.solve(M, K), -np.linalg.solve(M, D)]])
    roots = np.linalg.eigvals(A)
    roots = roots[roots.imag > 0]
    lowest = roots[np.argsort(np.abs(roots))[:2]]
    zeta = -lowest.real / np.abs(lowest)
    assert np.all((zeta >= 0.015) & (zeta <= 0.020))
    assert np.all((np.abs(lowest) / (2 * np.pi) > 20) & (np.abs(lowest) / (2 * np.pi) < 60))
