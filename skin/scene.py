"""A scene: a skinned body, its joint stiffness, the devices it meets and how long to simulate."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.errors import SettingsError

from .contact import ContactParameters
from .skinning import Skin
from .stiffness import JointStiffness

INTEGRATORS = ("rk4", "linearly-implicit-euler")


@dataclass(frozen=True)
class Scene:
    """``model`` and its ``skin`` starting at ``(q0, v0)``, held by ``stiffness`` (seed eq. 2), against
    rigid ``devices`` and mass-spring ``sheets`` through ``contact``; integrated with steps of ``dt`` s for
    ``duration`` s by ``integrator`` (``INTEGRATORS``, see ``skin.simulation``); ``elastic_rods``: integrate the
    rods' strains (else held at ``q0``, see ``skin.simulation``). ``watch``: named groups of skin vertices whose pressure the outcome reports."""

    name: str
    model: object
    skin: Skin
    q0: np.ndarray
    stiffness: JointStiffness
    devices: tuple = ()
    sheets: tuple = ()
    contact: ContactParameters = field(default_factory=ContactParameters)
    dt: float = 1e-3
    duration: float = 1.0
    v0: np.ndarray | None = None
    description: str = ""
    watch: dict = field(default_factory=dict)
    elastic_rods: bool = False
    integrator: str = "rk4"

    def __post_init__(self):
        if not (self.dt > 0 and self.duration > 0):
            raise SettingsError(f"dt and duration must be positive, got {self.dt}, {self.duration}",
                                f"scene '{self.name}'")
        if self.integrator not in INTEGRATORS:
            raise SettingsError(f"no integrator {self.integrator!r}; the integrators are {', '.join(INTEGRATORS)}",
                                f"scene '{self.name}'")
        if self.elastic_rods and self.integrator != "rk4":
            raise SettingsError("elastic rods need the rk4 integrator (the implicit step holds the rods' strains)",
                                f"scene '{self.name}'")
        if len(self.q0) != self.model.nq:
            raise SettingsError(f"q0 has {len(self.q0)} values, the model {self.model.nq}", f"scene '{self.name}'")
