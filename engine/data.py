"""Workspaces for the algorithms (Pinocchio's ``Data``): preallocated arrays per model."""
from __future__ import annotations

import numpy as np

from .kernels._layout import workspace
from .tree import compile_tree


class Data:
    """Workspace of one model (``Data(model)``, Pinocchio's ``model.createData()``). Algorithms fill its fields:

    ``M`` (nv x nv) from :func:`crba`, ``tau`` from :func:`rnea`, ``nle`` (the
    seed's b), ``a`` from :func:`forward_dynamics`; ``ws`` holds per-node records
    (``ws["oR"]``, ``ws["op"]`` world placements, ``ws["vel"]`` body twists,
    ``ws["acc"]`` body accelerations) of the last kinematics pass at ``q``.
    """

    def __init__(self, model):
        tree = compile_tree(model)
        self.tree = tree
        self.ws, self.scr = workspace(tree.n_nodes)
        nv = tree.nv
        self.M = np.zeros((nv, nv))
        self.tau = np.zeros(nv)
        self.nle = np.zeros(nv)
        self.a = np.zeros(nv)
        self.q = tree.q_neutral.copy()
        self.no_fext = np.zeros((0, 6))
