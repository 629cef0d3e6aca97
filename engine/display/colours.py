"""The one colour scheme of every plot, page and view (hex RGB): left blue, right red (sides, in curves, stance
bands, the report's pages and the 3D view's contact groups); measured green-free: black for what a plate or a
marker measured, orange for what was estimated from the motion. Colour-blind safe (blue/red/orange/black)."""
from __future__ import annotations

SIDES = {"Left": "#1f5fbf", "Right": "#c0392b"}
OTHER = "#7f7f7f"
MEASURED = "#202020"
ESTIMATED = "#e67e22"


def side_colour(side: str | None) -> str:
    """The colour of ``side`` ('Left', 'Right'; grey for anything else)."""
    return SIDES.get(side or "", OTHER)
