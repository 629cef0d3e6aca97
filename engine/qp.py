"""The engine's QPs solved from scratch: one dense convex QP handed to quadprog.

    minimise 1/2 x^T P x + c^T x   subject to   G x <= h,   A x = b,   lb <= x <= ub

with ``P`` symmetric positive definite (quadprog reads its lower triangle). The warm-started solvers
(``engine.kernels._qp_id`` for the QP inverse dynamics, ``engine.kernels._qp_so`` for static optimisation) guess a
frame's active set and hand the frame here when they cannot certify it; what their problems add (friction pyramids,
variables whose bounds meet) stays with them. quadprog is called directly: qpsolvers' problem checks and conversions
cost more than the solve on these few-variable QPs. The bounds are folded into the inequalities as qpsolvers folds
them (equalities first, then ``G``, then ``-x <= -lb``, then ``x <= ub``), so the solutions are the ones it gave; a
solution is clipped into its bounds (quadprog may cross one by round-off). Units are the caller's.
(A leaf: it imports no other engine module.)
"""
from __future__ import annotations

import numpy as np
import quadprog


def solve_qp(P, c, G=None, h=None, A=None, b=None, lb=None, ub=None):
    """Solve the QP above; returns ``(x, None)``, or ``(None, reason)`` when quadprog finds no solution (``reason``
    quadprog's message for inconsistent constraints, or "the cost matrix P is not positive definite").

    ``P`` (n, n), ``c`` (n,); ``G`` (m, n) with ``h`` (m,), ``A`` (e, n) with ``b`` (e,), ``lb`` and ``ub`` (n,): each
    pair None when absent (a bound may be infinite).
    """
    columns, values = [], []        # quadprog's constraints C^T x >= values (the first meq equalities), signed as
    #                                 qpsolvers signs them (the same solutions, to the bit)
    if A is not None:
        columns.append(-A)
        values.append(-b)
    if G is not None:
        columns.append(-G)
        values.append(-h)
    if lb is not None:
        columns.append(np.eye(len(c)))
        values.append(lb)
    if ub is not None:
        columns.append(-np.eye(len(c)))
        values.append(-ub)
    C, d = (np.vstack(columns).T, np.concatenate(values)) if columns else (None, None)
    try:
        x = quadprog.solve_qp(P, -c, C, d, 0 if A is None else A.shape[0])[0]
    except ValueError as error:     # quadprog: "constraints are inconsistent, no solution", or its G (our P) not definite
        reason = str(error)
        return None, ("the cost matrix P is not positive definite" if "positive definite" in reason else reason)
    if lb is not None or ub is not None:
        x = np.clip(x, lb, ub)
    return x, None
