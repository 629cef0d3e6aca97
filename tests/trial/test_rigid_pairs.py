"""Marker samples off their rigid partners: a synthetic rigid body moving along a curve, one marker displaced for
some frames (a ghost), checked against the displacement put in."""
import numpy as np

from engine.trial.rigid_pairs import rigid_departures
from engine.trial.trial import Markers


def _walking(names, offsets, frames=200, rate=100.0, seed=0):
    """Markers at ``offsets`` (n, 3) m on a body walking forward and turning, with 0.5 mm noise."""
    t = np.arange(frames) / rate
    angle = 0.3 * np.sin(2 * np.pi * t)
    R = np.stack([np.stack([np.cos(angle), -np.sin(angle), 0 * t], 1), np.stack([np.sin(angle), np.cos(angle), 0 * t], 1),
                  np.tile([0.0, 0.0, 1.0], (frames, 1))], 1)
    origin = np.stack([1.3 * t, 0.9 + 0.02 * np.sin(4 * np.pi * t), 0 * t], 1)
    P = origin[:, None] + np.einsum("fij,nj->fni", R, np.asarray(offsets, float))
    P += np.random.default_rng(seed).normal(0.0, 0.0005, P.shape)
    return Markers(tuple(names), t, P, rate)


def test_a_marker_off_its_segment_for_some_frames_is_named_with_those_frames():
    m = _walking(["A", "B", "C", "D"], [[0.1, 0.0, 0.12], [0.1, 0.0, -0.12], [-0.06, 0.0, 0.0], [0.0, -0.3, 0.0]])
    P = np.array(m.positions)
    P[60:75, 1] += [0.0, 0.0, -0.025]          # B reconstructed 25 mm off for frames 60-74 (16-25 mm from A, C)
    P[:, 3, 1] += 0.05 * np.sin(np.arange(len(P)) / 7.0)     # D is not on the body: its distances vary
    notes = rigid_departures(Markers(m.names, m.time, P, m.rate))
    assert len(notes) == 1 and "B frames 60-74 (0.600-0.740 s; up to 2" in notes[0]
    assert "A frames" not in notes[0] and "C frames" not in notes[0] and "D " not in notes[0]


def test_a_pair_alone_names_both_and_a_clean_trial_nothing():
    m = _walking(["A", "B"], [[0.1, 0.0, 0.12], [0.1, 0.0, -0.12]])
    assert rigid_departures(m) == []
    P = np.array(m.positions)
    P[30, 0] += [0.0, 0.0, 0.03]
    notes = rigid_departures(Markers(m.names, m.time, P, m.rate))
    assert "A frame 30 (0.300 s" in notes[0] and "B frame 30 (0.300 s" in notes[0]


def _segments(count, frames, seed=1):
    """``count`` segments of three markers each, every segment swaying with its own frequency (pairs across
    segments are not rigid)."""
    parts = []
    for s in range(count):
        m = _walking(["a", "b", "c"], [[0.1, 0.0, 0.05], [-0.05, 0.02, 0.04], [0.0, -0.1, -0.06]], frames, seed=seed + s)
        sway = 0.1 * np.sin(2 * np.pi * (0.3 + 0.17 * s) * m.time + s)
        parts.append(np.array(m.positions) + np.stack([sway, 0 * sway, 0.2 * s + 0 * sway], 1)[:, None])
    P = np.concatenate(parts, axis=1)
    return Markers(tuple(f"S{s}{n}" for s in range(count) for n in "abc"), m.time, P, m.rate)


def test_the_pairs_measured_a_block_at_a_time_say_what_all_at_once_say(monkeypatch):
    import engine.trial.rigid_pairs as rigid_pairs
    m = _segments(6, 300)                                  # 153 pairs: blocks of 64 split them
    P = np.array(m.positions)
    P[100:110, 4] += [0.0, 0.06, 0.0]                      # S1b 60 mm off for 10 frames
    P[200, 15:18] = np.nan                                 # S5 unseen in one frame
    ghost = Markers(m.names, m.time, P, m.rate)
    notes = rigid_departures(ghost)
    assert len(notes) == 1 and "check the labelling): S1b frames 100-10" in notes[0] and notes[0].count(" frame") == 2
    for block in (1, 7, 10_000):
        monkeypatch.setattr(rigid_pairs, "PAIRS_PER_BLOCK", block)
        assert rigid_departures(ghost) == notes


def test_a_long_trial_never_holds_every_pairs_distances():
    """51 markers (1275 pairs) over 3000 frames: every pair's difference vectors at once would take 92 MB; the
    search stays within a third of that (the rigid pairs' distances and a block's)."""
    import tracemalloc
    m = _segments(17, 3000)
    tracemalloc.start()
    try:
        assert rigid_departures(m) == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1275 * 3 * 8 * 3000 / 3, peak / 1e6
