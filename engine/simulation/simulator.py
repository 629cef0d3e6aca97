"""``Simulator``: a model, its contact points and the ground, advanced step by step."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms.kinematics import frame_id
from ..errors import SettingsError
from ..algorithms.compiled import workspace
from ..tree import compile_tree
from ._step import implicit_step
from .ground_contact import GroundContact


@dataclass(frozen=True)
class JointSpring:
    """A passive spring-damper on one joint coordinate: ``tau = -stiffness (q - rest) - damping v``
    (N m/rad and N m s/rad, or N/m and N s/m), e.g. ligaments or a shoe's bending stiffness."""

    coordinate: str
    stiffness: float
    damping: float
    rest: float = 0.0


@dataclass
class StepResult:
    """One step: the new state, the acceleration over the step, the contact forces the floor applied
    (N, world, one row per contact point), penetration depths at the start (m), the rods' passive
    generalized forces (seed eq. 26) and the joint springs' forces at the new state."""

    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    forces: np.ndarray
    depths: np.ndarray
    tau_rod: np.ndarray
    tau_spring: np.ndarray


class Simulator:
    """Forward dynamics of ``model`` on a floor (``engine.simulation._step``): contact at the named
    points (default: all the model's contact candidates) with the penalty model ``contact``, one
    for all points or a mapping from contact group (``ContactPoint.group``) to its model.

    ``springs`` are :class:`JointSpring` elements. Discrete equations of motion, exact to round-off for
    every step (``a = (v+ - v) / h``)::

        M(q) a + nle(q, v) = tau + tau_rod(q+, v+) + tau_spring(q+, v+) + sum_c J_c(q)^T f_c
    """

    def __init__(self, model, contact=None, points=None, springs=()):
        self.model = model
        self.contact = contact or GroundContact()
        self.points = [c.name for c in model.contacts] if points is None else list(points)
        if not self.points:
            raise SettingsError("a simulation on the ground needs contact points", f"model '{model.name}'")
        self._frames = np.array([frame_id(model, n) for n in self.points], dtype=np.int64)
        groups = {c.name: c.group for c in model.contacts}
        rows = []
        for n in self.points:
            if isinstance(self.contact, GroundContact):
                rows.append(self.contact.parameters())
            elif groups.get(n) in self.contact:
                rows.append(self.contact[groups[n]].parameters())
            else:
                raise SettingsError(f"no contact model for point {n!r} (group {groups.get(n)!r})", "simulation")
        self._par = np.array(rows)
        self.springs = tuple(springs)
        rows = []
        for sp in self.springs:
            slot = compile_tree(model).coordinates.get(sp.coordinate)
            if slot is None or slot.qi < 0:
                raise SettingsError(f"a joint spring names {sp.coordinate!r}, which is not a coordinate", "simulation")
            rows.append((slot.qi, slot.vi, sp.stiffness, sp.damping, sp.rest))
        self._springs = np.array(rows, float).reshape(-1, 5)
        self._ws, self._scr = workspace(compile_tree(model).n_nodes)

    def step(self, q, v, tau, h: float) -> StepResult:
        """Advance the state ``(q, v)`` by ``h`` s with joint forces ``tau`` (nv; N m, N; zero on
        the floating base and the rods' strains unless actuated)."""
        m = self.model
        if not h > 0:
            raise SettingsError(f"the step must be positive, got {h}", "simulation")
        nc = len(self.points)
        out = StepResult(np.empty(m.nq), np.empty(m.nv), np.empty(m.nv), np.zeros((nc, 3)), np.zeros(nc),
                         np.empty(m.nv), np.empty(m.nv))
        implicit_step(compile_tree(m).k, self._ws, self._scr, np.ascontiguousarray(q, float), np.ascontiguousarray(v, float),
                      np.ascontiguousarray(tau, float), float(h), self._frames, self._par, self._springs, out.q, out.v,
                      out.a, out.forces, out.depths, out.tau_rod, out.tau_spring)
        return out
