"""Energy and momentum of the hybrid-link system (for checks and reports)."""
from __future__ import annotations

import numpy as np

from ..kernels import _passes
from ..tree import compile_tree
from . import _args
from .dynamics import crba


def kinetic_energy(model, data, q, v) -> float:
    """``0.5 v^T M(q) v`` in J (seed eq. 48)."""
    v = _args.v(model, v)
    return float(0.5 * v @ crba(model, data, q) @ v)


def center_of_mass(model, data, q) -> np.ndarray:
    """Whole-model centre of mass (bodies and rod slices), m, world frame."""
    q = _args.q(model, q)
    k = compile_tree(model).k
    _passes.kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, q[:0], q[:0], 0, False, True)
    m = k.nodes["mass"]
    c = np.einsum("nij,nj->ni", data.ws["oR"], k.nodes["mcom"]) + data.ws["op"] * m[:, None]
    return c.sum(axis=0) / m.sum()


def elastic_energy(model, q) -> float:
    """Rods' strain energy ``0.5 (q - q_rest)^T K (q - q_rest)``, J (seed eq. 26's potential)."""
    q = _args.q(model, q)
    segs = compile_tree(model).k.segs
    free = segs["q"] >= 0
    return float(0.5 * np.sum(segs["k"][free] * (q[segs["q"][free]] - segs["rest"][free]) ** 2))


def rod_stiffness(model) -> dict[int, float]:
    """Diagonal stiffness of every rod coordinate, keyed by its q index (N m^2 per unit strain...)."""
    segs = compile_tree(model).k.segs
    free = segs["q"] >= 0
    return dict(zip(segs["q"][free].tolist(), segs["k"][free].tolist()))


def potential_energy(model, data, q) -> float:
    """Gravitational plus rods' elastic energy, J (zero at the origin and at rest strain)."""
    q = _args.q(model, q)
    k = compile_tree(model).k
    com = center_of_mass(model, data, q)
    return -float(k.nodes["mass"].sum() * (k.gravity @ com)) + elastic_energy(model, q)


def spatial_momentum(model, data, q, v) -> np.ndarray:
    """Total momentum ``[angular about the world origin; linear]`` in world axes (N m s, N s)."""
    q = _args.q(model, q)
    v = _args.v(model, v)
    k = compile_tree(model).k
    _passes.kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, v, v, 1, False, True)
    out = np.empty(6)
    _passes.momentum(k.nodes, data.ws, out)
    return out
