"""The colours of the sides (hex RGB), one scheme for every plot, page and band: left blue, right red (the report's
curves, the stance bands of the timeline and of the application's plots, exported figures, the application's curves).
Where the values come from (measured, estimated, EMG) is told by the line's style, never by its colour.

Several curves of one side (hip, knee and ankle of the right leg) are told apart by shades of the side's colour
(:func:`series_colour`); curves of no side (pelvis tilt, an IK error) take neutral colours, neither blue nor red.
"""
from __future__ import annotations

import re

SIDES = {"Left": "#1f5fbf", "Right": "#c0392b"}
OTHER = "#7f7f7f"
NEUTRAL = ("#303030", "#7f7f7f", "#9467bd", "#bcbd22", "#17becf", "#8c564b")
"""Curves of no side, in order: dark grey, grey, purple, olive, teal, brown (no blue, no red)."""
SHADES = (0.0, -0.45, 0.45, -0.25, 0.65, -0.6)
"""The side colour mixed towards black (< 0) or white (> 0), by the curve's rank among its side's curves."""
SIDE_WORDS = {"l": "Left", "left": "Left", "r": "Right", "right": "Right"}


def side_colour(side: str | None) -> str:
    """The colour of ``side`` ('Left', 'Right'; grey for anything else)."""
    return SIDES.get(side or "", OTHER)


def channel_words(channel: str) -> list[str]:
    """A channel's name as lower-case words (``hip_flexion_r moment`` -> ['hip', 'flexion', 'r', 'moment'])."""
    return [w for w in re.split(r"[^a-z0-9]+", channel.lower()) if w]


def channel_side(channel: str) -> str | None:
    """'Left' or 'Right' when exactly one of the channel's words names a side (``knee_angle_l``, ``foot_l vertical``,
    ``right hip``); a blade is on the right unless its name says otherwise (the seed's subject); else None."""
    words = channel_words(channel)
    found = {SIDE_WORDS[w] for w in words if w in SIDE_WORDS} or ({"Right"} if "blade" in words else set())
    return found.pop() if len(found) == 1 else None


def _mix(colour: str, amount: float) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    return "#" + "".join(f"{round(c + abs(amount) * (target - c)):02x}" for c in rgb)


def series_colour(side: str | None, rank: int) -> str:
    """The colour of the ``rank``-th curve (0 first) of ``side`` ('Left', 'Right' or None) in one plot: the side's
    colour, then its shades; curves of no side cycle through :data:`NEUTRAL`."""
    if side not in SIDES:
        return NEUTRAL[rank % len(NEUTRAL)]
    return _mix(SIDES[side], SHADES[rank % len(SHADES)])
