"""Contact candidates: the model's ground-contact points (engine positions), those the ground-reaction estimate
loaded at the frame drawn in the estimate's colour."""
from __future__ import annotations

import numpy as np

from . import style
from .markers import _Dots


class ContactLayer:
    """Dots at the contact candidates of ``poses`` at each frame; ``pushing`` (T, C) bool: the candidates the
    estimate loads (None: none drawn as loaded)."""

    def __init__(self, renderer, poses, pushing=None):
        self.poses = poses
        self.pushing = pushing
        self.idle = _Dots(renderer, style.CONTACT, style.CONTACT_RADIUS)
        self.loaded = _Dots(renderer, style.ESTIMATED, style.CONTACT_RADIUS)

    def show_frame(self, frame: int) -> None:
        xyz = self.poses.contacts[frame]
        on = self.pushing[frame] if self.pushing is not None else np.zeros(len(xyz), bool)
        self.idle.update(np.where(on[:, None], np.nan, xyz))
        self.loaded.update(np.where(on[:, None], xyz, np.nan))

    def set_visible(self, visible: bool) -> None:
        for dots in (self.idle, self.loaded):
            dots.actor.SetVisibility(visible)
