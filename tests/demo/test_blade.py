"""The running blade: its vertical stiffness in a simulated compression test and its mass, against published ranges."""
import pytest

from engine.demo import blade


def test_compression_stiffness_lies_in_the_published_range_for_j_shaped_sprint_blades():
    test = blade.compression_test()
    lo, hi = blade.STIFFNESS_RANGE
    assert lo <= test.stiffness <= hi
    # the displacements grow with the load (the solver converged to a loaded shape each time)
    assert all(b > a > 0 for a, b in zip(test.displacements, test.displacements[1:]))


def test_blade_mass_and_length_are_those_of_a_running_blade():
    segments = blade.segments()
    mass = sum(sg.line_inertia()[0] * sg.length for sg in segments)
    assert 0.46 <= mass <= 0.59          # Ottobock 1E91 Runner figures quoted in the module
    assert blade.total_length() == pytest.approx(0.61)
    assert len(blade.markers()) == 21 and len(blade.contacts()) == 4
