"""The colours of the sides (hex RGB), one scheme for every plot, page and band: left blue, right red (the report's
curves, the stance bands of the timeline and of the application's plots, exported figures)."""
from __future__ import annotations

SIDES = {"Left": "#1f5fbf", "Right": "#c0392b"}
OTHER = "#7f7f7f"


def side_colour(side: str | None) -> str:
    """The colour of ``side`` ('Left', 'Right'; grey for anything else)."""
    return SIDES.get(side or "", OTHER)
