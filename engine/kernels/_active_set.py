"""What the warm-started QP kernels share: ``_qp_id`` (contact forces in friction pyramids, the QP inverse dynamics)
and ``_qp_so`` (static optimisation's boxes and equalities).

Both guess a frame's active set from the previous frame's, solve the QP with that set held as one linear KKT system
(``_qp_id`` the whole system, ``_qp_so`` its Schur complement), certify the solution by the KKT conditions or
correct the set, and hand the frame back to quadprog when that fails. The step that does not depend on the
constraints' kind is here: the KKT system solved, or refused when the guess makes it singular.
"""
import math

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def solve_kkt(K, rhs):
    """The solution of the KKT system ``K x = rhs`` of a guessed active set, or None when ``K`` is singular or the
    solution is not finite (the guess cannot be certified: quadprog solves the frame)."""
    try:
        x = np.linalg.solve(K, rhs)
    except Exception:       # noqa: BLE001 (numba: a singular system)
        return None
    for i in range(x.shape[0]):
        if not math.isfinite(x[i]):
            return None
    return x
