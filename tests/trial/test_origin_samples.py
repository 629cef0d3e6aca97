"""Samples at exactly the lab origin read as missing, with their mask (one helper for matching, fitting and the rigid
pairs)."""
from types import SimpleNamespace

import numpy as np

from engine.trial.origin_samples import seen_positions


def test_only_samples_at_exactly_the_origin_are_missing_and_the_markers_own_are_untouched():
    positions = np.array([[[0.0, 0.0, 0.0], [0.0, 0.0, 1e-9]], [[0.1, 0.0, 0.0], [0.0, 0.0, 0.0]]])
    markers = SimpleNamespace(positions=positions)
    P, origin = seen_positions(markers)
    assert origin.tolist() == [[True, False], [False, True]]
    assert np.isnan(P[0, 0]).all() and np.isnan(P[1, 1]).all()
    assert P[0, 1, 2] == 1e-9 and P[1, 0, 0] == 0.1
    assert positions[0, 0].tolist() == [0.0, 0.0, 0.0]          # a copy
