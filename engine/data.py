"""Workspaces for the algorithms (Pinocchio's ``Data``): preallocated arrays per model."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .kernels._passes import work_arrays

Work = namedtuple("Work", list(work_arrays(1).keys()))
Work.__doc__ = "Per-node work arrays passed to the kernels as one argument."


class Data:
    """Workspace of one model. Algorithms fill its fields:

    ``M`` (nv x nv) from :func:`crba`, ``tau`` from :func:`rnea`, ``nle`` (the
    seed's b), ``a`` from :func:`forward_dynamics`; ``w`` holds node placements
    (``w.oR``, ``w.op``), body twists ``w.vel`` and accelerations ``w.acc`` of
    the last kinematics pass.
    """

    def __init__(self, model):
        tree = model.tree
        self.tree = tree
        self.w = Work(**work_arrays(tree.n_nodes))
        nv = tree.nv
        self.M = np.zeros((nv, nv))
        self.tau = np.zeros(nv)
        self.nle = np.zeros(nv)
        self.a = np.zeros(nv)
        self.no_fext = np.zeros((0, 6))
