"""OpenSim 4.6's muscle lengths and moment arms of an example model (``reference/model_reference.npz``) and
the model's configurations at its poses."""
from __future__ import annotations

import numpy as np

from engine.algorithms import neutral
from engine.io.osim import read_osim
from engine.tree import compile_tree


class OpenSimReference:
    """``model`` read from ``opensim/<file>``; ``ref`` the reference arrays of ``opensim/<name>``; ``Q`` (poses,
    nq) its poses; ``vi`` the v indices of its coordinates; ``muscles`` its muscle names, in its order."""

    def __init__(self, test_data, name: str, file: str):
        self.model = read_osim(test_data / "opensim" / file)
        self.ref = dict(np.load(test_data / "opensim" / name / "reference" / "model_reference.npz"))
        slots = compile_tree(self.model).coordinates
        names = [str(n) for n in self.ref["coordinate_names"]]
        self.vi = [slots[n].vi for n in names]
        self.Q = np.tile(neutral(self.model), (len(self.ref["q"]), 1))
        self.Q[:, [slots[n].qi for n in names]] = self.ref["q"]
        self.muscles = [str(n) for n in self.ref["muscle_names"]]
