"""The forward kinematics pass's joint kernels compiled one at a time, ahead of the pass that calls them.

Numba compiles a kernel's callees while it types the kernel: the pass (``kernels._passes.kinematics``) compiles the
general, PCS and simple joints' kernels one after the other in the process that first calls it, about 6 of the
9 CPU-seconds of a first launch's bodies. :func:`compile_joint_kernel` compiles one of them alone, with the argument
types the pass gives it, so that processes can share the work (``engine.warmup.compile_display``): the pass, compiled
after them, loads them from numba's cache (``cache=True``: each kernel has its own cache files).
"""
from __future__ import annotations

import numba as nb
from numba.core import types

from ..kernels import _joints
from ..kernels._layout import FUNCTION, NODE, SCRATCH, SEGMENT, WORK

KINDS = ("general", "pcs", "simple")
"""The joint kernels, by the name of their kind (``_joints._general``, ``_joints._pcs``, ``_joints._simple``)."""


def joint_signatures() -> dict:
    """``{kind: argument types}``: what the pass calls each joint kernel with. They are every model's (the tree's and
    the workspace's record layouts, ``kernels._layout``): ``q``, ``v`` as contiguous float arrays (a row of a batch's
    ``Q``, or the caller's vector), the joint's outputs as fields of the workspace's records, ``with_bias`` as a
    comparison's boolean."""
    node, scratch, work = nb.from_dtype(NODE), nb.from_dtype(SCRATCH), nb.from_dtype(WORK)
    vector = types.Array(types.float64, 1, "C")
    R, p, S, c = scratch.typeof("JR"), scratch.typeof("Jp"), work.typeof("S"), work.typeof("c")
    return {"general": (node, types.Array(nb.from_dtype(FUNCTION), 1, "C"), vector, scratch, vector, vector, R, p, S,
                        c, types.boolean),
            "pcs": (node, types.Array(nb.from_dtype(SEGMENT), 1, "C"), scratch, vector, vector, R, p, S, c,
                    types.boolean),
            "simple": (node, vector, R, p, S, c)}


def joint_kernel(kind: str):
    """The dispatcher of the joint kernel ``kind`` (one of :data:`KINDS`)."""
    return getattr(_joints, f"_{kind}")


def compile_joint_kernel(kind: str) -> None:
    """Compile the joint kernel ``kind`` (one of :data:`KINDS`), or load it from numba's cache."""
    joint_kernel(kind).compile(joint_signatures()[kind])
