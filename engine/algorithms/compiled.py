"""The algorithms' numba kernels, for numba code outside ``engine.algorithms`` to call in its own hot loops (the
IK's Levenberg-Marquardt, the muscle paths, the simulation's implicit step, skin's RKMK4 step). This is the one
door to ``engine.kernels`` for the rest of the engine and the packages beside it (an import-linter contract);
Python code calls the free functions of ``engine.algorithms`` instead.

They work on a compiled tree's arrays (``engine.tree.compile_tree(model).k``: ``nodes``, ``segs``, ``frames``,
``funcs``, ``fpool``, ``gravity``, ``v2q``) and a workspace (``engine.data.Data(model).ws`` and ``.scr``, or
:func:`workspace` for one of the caller's own):

- ``kinematics(nodes, segs, funcs, fpool, gravity, ws, scr, q, v, a, level, use_gravity, world)``: the forward
  kinematics pass (``forward_kinematics``): world placements (``level`` 0), body twists (1), body accelerations (2).
- ``frame_placement(frames, ws, k, R, p)``, ``frame_jacobian(nodes, frames, ws, scr, k, J)`` (6 x nv, ``[omega; v]``
  in world axes at the frame's origin), ``frame_classical_acceleration(frames, ws, k, out)``: an attached frame
  ``k`` after the pass (``frame_placement``, ``frame_jacobian``, ``frame_classical_acceleration``).
- ``crba(nodes, ws, scr, M)``, ``rnea_backward(nodes, ws, fext, tau)``, ``rod_forces(segs, q, v, tau)``: the
  dynamics after a kinematics pass (``crba``, ``rnea``, ``rod_forces``).
- ``integrate(nodes, v2q, q, v, dt, out)``, ``normalize(quat_q, q)``: ``q (+) v dt`` on the joints' groups, and
  quaternions renormalised.
- ``dexpinv(nodes, delta, v, out)``: the rate of RKMK4's local coordinates ``delta`` for the velocity ``v``.
- ``eval_function`` and ``function_pool``: coordinate functions (``engine.model.functions``) in the kernels' form.
"""
from ..kernels._functions import eval_function
from ..kernels._functions import pool_of as function_pool
from ..kernels._integrate import integrate, normalize
from ..kernels._layout import workspace
from ..kernels._passes import (crba, frame_classical_acceleration, frame_jacobian, frame_placement, kinematics,
                               rnea_backward, rod_forces)
from ..kernels._simulate import dexpinv

__all__ = ["kinematics", "frame_placement", "frame_jacobian", "frame_classical_acceleration", "crba",
           "rnea_backward", "rod_forces", "integrate", "normalize", "dexpinv", "eval_function", "function_pool",
           "workspace"]
