"""The contact's Verlet lists (``skin.broad_phase``) against a brute-force search over every pair."""
from __future__ import annotations

import numpy as np
import pytest

from skin.broad_phase import VerletLists

REACH = 0.03


def _brute_closest(x, y, h):
    """Each point of ``y``'s closest point of ``x`` closer than ``h`` (-1: none), from all pairs."""
    d2 = ((y[:, None, :] - x[None, :, :]) ** 2).sum(axis=2)
    best = d2.argmin(axis=1)
    return np.where(d2[np.arange(len(y)), best] < h * h, best, -1)


def _list_closest(lists, x, y, h):
    near, candidates = lists.near, lists.candidates
    out = np.full(len(y), -1)
    for k in range(len(y)):
        c = candidates[near[k]:near[k + 1]]
        if len(c):
            d2 = ((x[c] - y[k]) ** 2).sum(axis=1)
            if d2.min() < h * h:
                out[k] = c[d2.argmin()]
    return out


def _moved(rng, a, distance):
    """``a`` with each point moved by ``distance`` (m) in a random direction."""
    u = rng.standard_normal(a.shape)
    return a + distance * u / np.linalg.norm(u, axis=1)[:, None]


def _update(lists, x, device, sheet):
    """The lists for a skin at ``x``, one rigid device with vertices ``device`` (unmoved) and sheet vertices
    ``sheet``."""
    return lists.update(x, np.concatenate([device, sheet]))


def test_lists_kept_while_the_moves_stay_within_the_margin_find_every_closest_vertex(rng):
    """Lists made with the skin and the devices elsewhere, kept because the largest skin move plus the largest device
    move is under the margin, hold each device vertex's closest skin vertex within the reach (as a search over every
    pair finds it); past the margin they are made again."""
    x = rng.uniform(0.0, 0.25, (600, 3))
    device, sheet = rng.uniform(0.0, 0.25, (300, 3)), rng.uniform(0.0, 0.25, (200, 3))
    lists = VerletLists(len(x), len(device) + len(sheet), REACH)
    _update(lists, x, device, sheet)
    assert lists.builds == 1
    found = 0
    for _ in range(5):
        x1 = _moved(rng, x, 0.45 * lists.margin)
        sheet1 = _moved(rng, sheet, 0.45 * lists.margin)
        _update(lists, x1, device, sheet1)
        assert lists.builds == 1
        y1 = np.concatenate([device, sheet1])
        expected = _brute_closest(x1, y1, REACH)
        np.testing.assert_array_equal(_list_closest(lists, x1, y1, REACH), expected)
        found += (expected >= 0).sum()
    assert found > 500                      # the reach meets many pairs
    _update(lists, _moved(rng, x, 0.6 * lists.margin), device, _moved(rng, sheet, 0.6 * lists.margin))
    assert lists.builds == 2


def test_a_skin_gone_to_infinity_remakes_the_lists_and_is_refused(rng):
    """A skin vertex at infinity is no small move: the grid the lists are made with refuses it (a diverged run)."""
    x = rng.uniform(0.0, 0.25, (50, 3))
    device = rng.uniform(0.0, 0.25, (20, 3))
    lists = VerletLists(len(x), len(device), REACH)
    _update(lists, x, device, np.zeros((0, 3)))
    x[3, 1] = np.inf
    with pytest.raises(FloatingPointError, match="not finite"):
        _update(lists, x, device, np.zeros((0, 3)))


def test_a_nan_skin_vertex_or_sheet_vertex_is_refused_by_name(rng):
    """A NaN is no small move either (a diverged run): the lists name the skin vertex, or the device's (a sheet's)
    point, instead of the grid passing over it and its contacts going missing."""
    x = rng.uniform(0.0, 0.25, (50, 3))
    device, sheet = rng.uniform(0.0, 0.25, (20, 3)), rng.uniform(0.0, 0.25, (10, 3))
    lists = VerletLists(len(x), len(device) + len(sheet), REACH)
    _update(lists, x, device, sheet)
    x[7, 2] = np.nan
    with pytest.raises(FloatingPointError, match=r"skin vertex 7 is not finite"):
        _update(lists, x, device, sheet)
    x[7, 2] = 0.1
    sheet[4, 0] = np.nan
    with pytest.raises(FloatingPointError, match=rf"device vertex {len(device) + 4} is not finite"):
        _update(lists, x, device, sheet)


def test_a_bed_s_points_are_refused_as_the_bed_s_not_the_skin_s(rng):
    """The sheets' lists over a bed (targets: its vertices): a NaN bed vertex is named as the rigid device's, the one
    check of the points' finiteness; a bed come apart (20 m wide) is refused by the grid, which does not call its
    points the skin's."""
    bed, sheet = rng.uniform(0.0, 0.25, (30, 3)), rng.uniform(0.0, 0.25, (10, 3))
    lists = VerletLists(len(bed), len(sheet), REACH, ("rigid device vertex", "sheet vertex"))
    lists.update(bed, sheet)
    bed[5, 1] = np.nan
    with pytest.raises(FloatingPointError, match=r"rigid device vertex 5 is not finite"):
        lists.update(bed, sheet)
    bed[5, 1], bed[6, 0] = 0.1, 20.0
    with pytest.raises(FloatingPointError, match=r"the contact's points \(the skin's or a bed's vertices\) spread "
                                                 r"over more than 10 m"):
        lists.update(bed, sheet)
