"""The per-frame QP of the inverse dynamics with ground reactions (seed eq. 35), warm-started, in numba.

Each frame's problem is ``min 1/2 f^T P f + c^T f`` over the forces ``f`` (3 per active contact candidate) with
every candidate's force in the inscribed friction pyramid ``G_i f_i <= 0`` (``engine.analysis.qp_id``), where
``P = J diag(alpha) J^T + w_force I`` and ``c = -J diag(alpha) (h - beta)``, ``J`` the candidates' point Jacobians
(3 rows each) and ``h`` the inverse dynamics without contact.

The warm start guesses each candidate's state from the previous frame: unloaded (``f_i = 0``), inside its
pyramid, or on one or two of its facets (an edge). With that guess the KKT conditions are one linear system
(facet rows as equalities, unloaded candidates left out); its solution is the optimum when the facet multipliers
are non-negative, every candidate's force lies in its pyramid, and the gradient at every unloaded candidate lies in
the pyramid's polar cone (``-grad . ray <= 0`` on each edge ray of the pyramid). Otherwise the frame is handed back
to quadprog. (An unloaded candidate has all its rows active at once, a degenerate set whose KKT matrix is
singular: left out, it costs nothing.)
"""
import numba as nb
import numpy as np

from ._active_set import solve_kkt

UNLOADED = -1       # a candidate's state; 0, 1, 2: loaded, on that many facets of its pyramid (2: an edge)
TOL = 1e-9
MAX_STEPS = 20     # active-set corrections tried before quadprog


@nb.njit(cache=True, nogil=True)
def candidate_states(pyramid, f, cand, state, facet):
    """The states and facets (rows 1.. of ``pyramid``, the normal row first) of the candidates ``cand`` (k,) from
    their solved forces ``f`` (3k,): a row is active where ``row . f_i >= -1e-9 max(1, |f|)``."""
    scale = 1.0
    for i in range(f.shape[0]):
        scale = max(scale, abs(f[i]))
    tol = TOL * scale
    for a in range(cand.shape[0]):
        c = cand[a]
        n_active = 0
        for j in range(pyramid.shape[0]):
            if pyramid[j, 0] * f[3 * a] + pyramid[j, 1] * f[3 * a + 1] + pyramid[j, 2] * f[3 * a + 2] >= -tol:
                if j == 0 or n_active == 2:     # the normal row or a third facet: the apex, unloaded
                    n_active = -1
                    break
                facet[c, n_active] = j
                n_active += 1
        state[c] = UNLOADED if n_active < 0 else n_active


@nb.njit(cache=True, nogil=True)
def _crossed_neighbour(pyramid, sol, at, e, F):
    """Of the two facets beside facet ``e`` (1..F, in order around the pyramid), the one the force ``sol[at:at+3]``
    crosses more. A force held on facet ``e`` but outside the pyramid is outside that face, so it crosses a
    neighbour: the optimum lies on their edge, not on a facet across the pyramid (whose own optimum would cross
    ``e`` back: the two would cycle)."""
    best_j = 0
    best_v = -np.inf
    for j in (e % F + 1, (e - 2) % F + 1):
        v = pyramid[j, 0] * sol[at] + pyramid[j, 1] * sol[at + 1] + pyramid[j, 2] * sol[at + 2]
        if v > best_v:
            best_v = v
            best_j = j
    return best_j


@nb.njit(cache=True, nogil=True)
def _entering_state(pyramid, d0, d1, d2, F):
    """(state, facets) of an unloaded candidate the descent direction ``d`` loads: where ``d``'s projection onto
    the pyramid lies (inside; on the facet it crosses most; on that facet's edge with the neighbour the projection
    onto the facet still crosses). Freed inside the pyramid instead, a candidate pushed across a facet would leave
    the apex, cross the facet, reach the edge, pull, and return to the apex (a cycle)."""
    best_j = np.int64(0)
    best_v = 0.0
    for j in range(1, F + 1):
        v = pyramid[j, 0] * d0 + pyramid[j, 1] * d1 + pyramid[j, 2] * d2
        if v > best_v:
            best_v = v
            best_j = j
    if best_j == 0:
        return 0, (0, 0)
    g0 = pyramid[best_j, 0]
    g1 = pyramid[best_j, 1]
    g2 = pyramid[best_j, 2]
    t = best_v / (g0 * g0 + g1 * g1 + g2 * g2)
    p = np.array((d0 - t * g0, d1 - t * g1, d2 - t * g2))
    nb_j = _crossed_neighbour(pyramid, p, np.int64(0), best_j, F)
    if pyramid[nb_j, 0] * p[0] + pyramid[nb_j, 1] * p[1] + pyramid[nb_j, 2] * p[2] > 0.0:
        return 2, (best_j, nb_j)
    return 1, (best_j, 0)


@nb.njit(cache=True, nogil=True)
def _kkt(J, alpha, wr, w_force, pyramid, state, facet, cand, k, free):
    """The KKT system's solution ``[f of the loaded candidates; facet multipliers]`` under the candidates' states,
    with ``free`` (k,) filled with the loaded candidates' positions; None when singular (``_active_set.solve_kkt``)."""
    nv = wr.shape[0]
    nfree = 0
    m = 0
    for a in range(k):
        s = state[cand[a]]
        if s >= 0:
            free[nfree] = a
            nfree += 1
            m += s
    n = 3 * nfree
    K = np.zeros((n + m, n + m))
    rhs = np.zeros(n + m)
    row = n
    for i in range(nfree):
        ci = cand[free[i]]
        for p in range(3):
            s = 0.0
            for r in range(nv):
                s += J[ci, p, r] * wr[r]
            rhs[3 * i + p] = s
            for j in range(i, nfree):
                cj = cand[free[j]]
                for q in range(3):
                    v = 0.0
                    for r in range(nv):
                        v += J[ci, p, r] * alpha[r] * J[cj, q, r]
                    K[3 * i + p, 3 * j + q] = v
                    K[3 * j + q, 3 * i + p] = v
            K[3 * i + p, 3 * i + p] += w_force
        for e in range(state[ci]):
            for p in range(3):
                K[row, 3 * i + p] = pyramid[facet[ci, e], p]
                K[3 * i + p, row] = pyramid[facet[ci, e], p]
            row += 1
    return solve_kkt(K, rhs)


@nb.njit(cache=True, nogil=True)
def _warm_solve(J, h, beta, alpha, w_force, pyramid, rays, state, facet, cand, k, out_f, u):
    """The frame's optimum from the candidates' guessed states (module notes) into ``out_f`` (3k,), and
    ``u = J^T f`` (nv,). A guess that fails the KKT conditions is corrected, the largest violation first, one
    candidate per step (a facet with a negative multiplier is left; a force outside its pyramid is put on the
    facet it crosses most when it was inside, on the edge of its facet with the neighbour it crosses more when
    it was on a facet, or unloaded when it crosses the normal row or was on an edge; an unloaded candidate the
    gradient would load enters where the descent direction's projection onto the pyramid lies), up to
    ``MAX_STEPS`` times; False when that does not end at the optimum (``state`` is then to be recomputed)."""
    nv = h.shape[0]
    F = pyramid.shape[0] - 1
    wr = np.empty(nv)
    for r in range(nv):
        wr[r] = alpha[r] * (h[r] - beta[r])
    free = np.empty(k, np.int64)
    for _ in range(MAX_STEPS):
        sol = _kkt(J, alpha, wr, w_force, pyramid, state, facet, cand, k, free)
        if sol is None:
            return False
        nfree = 0
        for a in range(k):
            if state[cand[a]] >= 0:
                nfree += 1
        n = 3 * nfree
        scale = 1.0
        for i in range(n):
            scale = max(scale, abs(sol[i]))
        for a in range(k):
            for p in range(3):
                out_f[3 * a + p] = 0.0
        for i in range(nfree):
            for p in range(3):
                out_f[3 * free[i] + p] = sol[3 * i + p]
        for r in range(nv):
            s = 0.0
            for i in range(nfree):
                ci = cand[free[i]]
                for p in range(3):
                    s += J[ci, p, r] * sol[3 * i + p]
            u[r] = s
        # the largest violation of the KKT conditions (relative to the forces' or the gradient's scale) is
        # corrected, one at a time (correcting all at once cycles when candidates interact)
        cscale = 1.0
        for r in range(nv):
            cscale = max(cscale, abs(wr[r]))
        best = 0.0
        best_c = -1
        new_state = 0
        new_facets = (0, 0)
        row = n
        for i in range(nfree):              # loaded candidates: facet multipliers >= 0, the force in its pyramid
            ci = cand[free[i]]
            st = state[ci]
            for e in range(st):
                if -sol[row + e] > TOL and -sol[row + e] / cscale > best:
                    best = -sol[row + e] / cscale
                    best_c = ci
                    new_state = st - 1
                    new_facets = (facet[ci, 1 - e], 0) if st == 2 else (0, 0)
            row += st
            for j in range(F + 1):
                v = pyramid[j, 0] * sol[3 * i] + pyramid[j, 1] * sol[3 * i + 1] + pyramid[j, 2] * sol[3 * i + 2]
                if v > TOL * scale and v / scale > best:
                    best = v / scale
                    best_c = ci
                    if j == 0 or st == 2:
                        new_state = UNLOADED
                    elif st == 1:
                        new_state = 2
                        new_facets = (facet[ci, 0], _crossed_neighbour(pyramid, sol[:], 3 * i, facet[ci, 0], F))
                    else:
                        new_state = 1
                        new_facets = (j, 0)
        for a in range(k):                  # unloaded candidates: -gradient in the polar cone of the pyramid
            ca = cand[a]
            if state[ca] >= 0:
                continue
            d0 = 0.0
            d1 = 0.0
            d2 = 0.0
            for r in range(nv):
                w = alpha[r] * u[r] - wr[r]
                d0 -= J[ca, 0, r] * w
                d1 -= J[ca, 1, r] * w
                d2 -= J[ca, 2, r] * w
            for j in range(rays.shape[0]):
                v = d0 * rays[j, 0] + d1 * rays[j, 1] + d2 * rays[j, 2]
                if v > TOL * cscale and v / cscale > best:
                    best = v / cscale
                    best_c = ca
                    new_state, new_facets = _entering_state(pyramid, d0, d1, d2, F)
        if best_c < 0:
            return True
        state[best_c] = new_state
        facet[best_c, 0] = new_facets[0]
        facet[best_c, 1] = new_facets[1]
    return False


@nb.njit(cache=True, nogil=True)
def warm_frames(f0, f1, J_all, h_all, beta_all, active, alpha, w_force, pyramid, rays, state, facet, forces,
                residual, status):
    """Frames ``f0 .. f1-1`` from the previous frame's states while the warm start holds; returns the first frame it
    does not solve (``f1`` when all are). Writes ``forces`` (T, C, 3), ``residual`` = ``h - J^T f`` (T, nv),
    ``status`` True, and updates ``state`` / ``facet`` (C,), (C, 2) (a candidate not active is unloaded)."""
    C = active.shape[1]
    nv = h_all.shape[1]
    cand = np.empty(C, np.int64)
    f = np.empty(3 * C)
    u = np.empty(nv)
    for fr in range(f0, f1):
        k = np.int64(0)
        for c in range(C):
            if active[fr, c]:
                cand[k] = c
                k += 1
            else:
                state[c] = UNLOADED
        if k == 0:
            residual[fr] = h_all[fr]
            status[fr] = True
            continue
        if not _warm_solve(J_all[fr], h_all[fr], beta_all[fr], alpha, w_force, pyramid, rays, state, facet, cand, k,
                           f, u):
            return fr
        for a in range(k):
            for p in range(3):
                forces[fr, cand[a], p] = f[3 * a + p]
        for r in range(nv):
            residual[fr, r] = h_all[fr, r] - u[r]
        status[fr] = True
    return f1
