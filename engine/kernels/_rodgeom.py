"""Rod centreline frames at arbitrary arclengths (seed eq. 11), for display and sampling."""
import numba as nb
import numpy as np

from ._joints import pcs_placement, segment_strain


@nb.njit(cache=True, nogil=True)
def rod_frames(nodes, segs, ws, q, seg, x, R_out, p_out):
    """World frames at arclength ``x[i]`` inside segment ``seg[i]`` after ``kinematics`` at ``q``.

    ``R_out[i]`` has the centreline tangent as its first column.
    """
    xi = np.empty(6)
    Rl = np.empty((3, 3))
    pl = np.empty(3)
    Rb = np.empty((3, 3))
    pb = np.empty(3)
    for i in range(seg.shape[0]):
        tip = nodes[segs[seg[i]].tip]
        XR = tip.Xp_R
        Xp = tip.Xp_p
        if tip.parent < 0:
            for r in range(3):
                pb[r] = Xp[r]
                for c in range(3):
                    Rb[r, c] = XR[r, c]
        else:
            oR = ws[tip.parent].oR
            op = ws[tip.parent].op
            for r in range(3):
                pb[r] = op[r] + oR[r, 0] * Xp[0] + oR[r, 1] * Xp[1] + oR[r, 2] * Xp[2]
                for c in range(3):
                    Rb[r, c] = oR[r, 0] * XR[0, c] + oR[r, 1] * XR[1, c] + oR[r, 2] * XR[2, c]
        segment_strain(tip, segs, q, xi)
        pcs_placement(xi, x[i], Rl, pl)
        for r in range(3):
            p_out[i, r] = pb[r] + Rb[r, 0] * pl[0] + Rb[r, 1] * pl[1] + Rb[r, 2] * pl[2]
            for c in range(3):
                R_out[i, r, c] = Rb[r, 0] * Rl[0, c] + Rb[r, 1] * Rl[1, c] + Rb[r, 2] * Rl[2, c]
