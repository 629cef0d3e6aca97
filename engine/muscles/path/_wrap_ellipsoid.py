"""Wrapping a straight span over an ellipsoid (OpenSim's WrapEllipsoid), in the ellipsoid's frame.

OpenSim's rules decide whether and round which side a span wraps:

- an end point inside the ellipsoid: no wrap (``INSIDE``); ends seen from the
  centre in the same direction: no wrap;
- otherwise the span wraps only if the straight line crosses the ellipsoid
  between its ends (``MANDATORY``);
- the side is given by OpenSim's point ``c1`` on the surface, found with the
  path wrap's method: ``hybrid`` (blend of the "Frans" closest point where the
  line crosses the plane normal to its most parallel axis and the "fan"
  average of closest-point directions), ``axial`` (Frans) or ``midpoint``
  (closest point to the midpoint of the chord); with a quadrant, ``c1`` is
  flipped to the active half.

OpenSim's path is planar: tangent lines from the ends in the plane through
both ends and ``c1``, joined by the arc of that plane's section (OpenSim sums
a polyline of about 1 mm chords along it, a few micrometres shorter than the
arc computed here). With ``geodesic=False`` that is the path returned. The
planar path is not locally shortest: its length also changes as the plane
turns with the ends, which the unit vectors of its straight spans (OpenSim's
moment arms) leave out.

With ``geodesic=True`` the planar path is the start from which this code
corrects it to the geodesic (the locally shortest path) by shooting: from the tangent point on the horizon of the
first end, a geodesic is followed along the tangent direction for an arc
length ``s`` until the straight line from its end point along its direction
passes through the second end. The two unknowns (the tangent point's angle
on the horizon circle and ``s``) are found by Newton's method. Being locally
shortest, the length's derivative is given by the unit vectors of the two
straight spans alone. If the shooting fails, the planar path is returned
with code ``FALLBACK`` (reported by the path kernel).

Lengths inside are scaled by ``3 / (a + b + c)`` as in OpenSim.
"""
import math

import numba as nb
import numpy as np

from . import _vec3 as vec3
from ._layout import AXIAL, FALLBACK, HYBRID, INSIDE, MANDATORY, NO_WRAP

MU_BLEND_MIN = 0.7073
MU_BLEND_MAX = 0.9
NUM_FAN_SAMPLES = 300
SV_BOUNDARY_BLEND = 0.3
ROUNDOFF = 2e-13
GEODESIC_STEPS = 32
NEWTON_ITERATIONS = 30
TWO_PI = 2.0 * math.pi


@nb.njit(cache=True, nogil=True)
def wrap_ellipsoid(p1, p2, dims, axis, sign, method, geodesic):
    """Wrap the span ``p1 -> p2`` (tuples, m, ellipsoid frame) over the ellipsoid with semi-axes ``dims``:
    OpenSim's planar path, or the geodesic from it (``geodesic``, see the module notes).

    Returns ``(code, t1, t2, arc)`` as :func:`~engine.muscles.path._wrap_cylinder.wrap_cylinder`.
    """
    zero = (0.0, 0.0, 0.0)
    f = 3.0 / (dims[0] + dims[1] + dims[2])
    a = (f * dims[0], f * dims[1], f * dims[2])
    P1 = vec3.scale(f, p1)
    P2 = vec3.scale(f, p2)
    p1e = _level(P1, a)
    p2e = _level(P2, a)
    if p1e < -0.0001 or p2e < -0.0001:
        return INSIDE, zero, zero, 0.0
    if abs(vec3.dot(vec3.unit(P1), vec3.unit(P2)) - 1.0) < 0.0001:
        return NO_WRAP, zero, zero, 0.0
    p1p2 = vec3.sub(P1, P2)
    f1 = (p1p2[0] / a[0], p1p2[1] / a[1], p1p2[2] / a[2])
    f2 = (P2[0] / a[0], P2[1] / a[1], P2[2] / a[2])
    aa = vec3.dot(f1, f1)
    bb = 2.0 * vec3.dot(f1, f2)
    cc = vec3.dot(f2, f2) - 1.0
    disc = bb * bb - 4.0 * aa * cc
    if disc < 0.0:
        return NO_WRAP, zero, zero, 0.0
    l1 = (-bb + math.sqrt(disc)) / (2.0 * aa)
    l2 = (-bb - math.sqrt(disc)) / (2.0 * aa)
    if not (0.0 < l1 < 1.0 and 0.0 < l2 < 1.0):
        return NO_WRAP, zero, zero, 0.0
    r1 = vec3.axpy(l1, p1p2, P2)
    r2 = vec3.axpy(l2, p1p2, P2)
    c1 = _plane_point(p1p2, r1, r2, a, method, axis, sign)
    vs = vec3.unit(vec3.cross(p1p2, vec3.sub(P1, c1)))
    vs4 = -vec3.dot(vs, c1)
    t1 = P1
    if abs(p1e) >= 0.0001:
        ta, tb = _tangents_in_plane(P1, a, vs, vs4)
        t1 = ta if vec3.norm(vec3.sub(ta, c1)) <= vec3.norm(vec3.sub(tb, c1)) else tb
    direction = vec3.unit(vec3.sub(t1, P1))
    t2 = P2
    if abs(p2e) >= 0.0001:
        ta, tb = _tangents_in_plane(P2, a, vs, vs4)
        t2 = ta if vec3.norm(vec3.sub(ta, c1)) <= vec3.norm(vec3.sub(tb, c1)) else tb
        if not _leaves_towards(t1, direction, t2, P2, a, vs) and _leaves_towards(t1, direction, _other(t2, ta, tb),
                                                                                   P2, a, vs):
            t2 = _other(t2, ta, tb)
    planar = _plane_arc(t1, t2, direction, a, vs, vs4)
    if not geodesic:
        return MANDATORY, vec3.scale(1.0 / f, t1), vec3.scale(1.0 / f, t2), planar / f
    ok, g1, g2, s = _geodesic(P1, P2, a, t1, planar, p1e, p2e)
    if not ok:
        return FALLBACK, vec3.scale(1.0 / f, t1), vec3.scale(1.0 / f, t2), planar / f
    return MANDATORY, vec3.scale(1.0 / f, g1), vec3.scale(1.0 / f, g2), s / f


@nb.njit(cache=True, nogil=True, inline="always")
def _level(p, a):
    """``sum (p_i / a_i)^2 - 1``: negative inside the ellipsoid."""
    return (p[0] / a[0]) ** 2 + (p[1] / a[1]) ** 2 + (p[2] / a[2]) ** 2 - 1.0



@nb.njit(cache=True, nogil=True)
def _plane_point(p1p2, r1, r2, a, method, axis, sign):
    """OpenSim's ``c1``: the surface point that fixes the wrapping plane and side (normalised units)."""
    r1r2 = vec3.sub(r2, r1)
    u = vec3.unit(p1p2)
    mu = (abs(u[0]), abs(u[1]), abs(u[2]))
    best = np.int64(0)
    for i in range(1, 3):
        if mu[i] > mu[best]:
            best = i
    mub = mu[best]
    tb = -r1[best] / r1r2[best] if r1r2[best] != 0.0 else math.inf
    svb = vec3.axpy(tb, r1r2, r1)
    c1 = (0.0, 0.0, 0.0)
    fan_weight = -math.inf
    if method == HYBRID or method == AXIAL:
        if method == HYBRID and mub > MU_BLEND_MIN:
            # fade out a Frans point near the ends of the chord (its c1 would flip side)
            s = 1.0
            if tb < 0.0 or tb > 1.0:
                s = 0.0
            elif tb < SV_BOUNDARY_BLEND:
                s = tb / SV_BOUNDARY_BLEND
            elif tb > 1.0 - SV_BOUNDARY_BLEND:
                s = (1.0 - tb) / SV_BOUNDARY_BLEND
            if s < 1.0:
                mub = MU_BLEND_MIN + s * (mub - MU_BLEND_MIN)
        if method == AXIAL or mub > MU_BLEND_MIN:
            c1 = _closest_point(a, svb, best)
        if method == HYBRID and mub < MU_BLEND_MAX:
            mid = vec3.axpy(0.5, r1r2, r1)
            vsum = (0.0, 0.0, 0.0)
            for i in range(1, NUM_FAN_SAMPLES - 1):
                sv = vec3.axpy(i / NUM_FAN_SAMPLES, r1r2, r1)
                vsum = vec3.add(vsum, vec3.unit(vec3.sub(_closest_point(a, sv, np.int64(-1)), sv)))
            fan = vec3.add(mid, vec3.unit(vsum))
            if mub <= MU_BLEND_MIN:
                c1 = _closest_point(a, fan, np.int64(-1))
                fan_weight = 1.0
            else:
                t = (mub - MU_BLEND_MIN) / (MU_BLEND_MAX - MU_BLEND_MIN)
                blend = vec3.add(vec3.scale(t, c1), vec3.scale(1.0 - t, _closest_point(a, fan, np.int64(-1))))
                c1 = _closest_point(a, blend, np.int64(-1))
                fan_weight = 1.0 - t
    else:
        c1 = _closest_point(a, vec3.axpy(0.5, r1r2, r1), np.int64(-1))
    if sign != 0 and vec3.dsign(c1[axis]) != sign:
        # mirror c1 to the active half; a fan result is pulled towards the bisecting plane by the
        # fan's weight. (OpenSim also means to weigh a pure Frans result, but its test for "no fan
        # weight", EQUAL_WITHIN_ERROR(-inf, -inf), is false, so such a c1 is only mirrored.)
        flipped = -c1[axis]
        if fan_weight > 0.0:
            flipped = flipped - min(fan_weight, 1.0) * flipped
        c1 = (flipped if axis == 0 else c1[0], flipped if axis == 1 else c1[1], flipped if axis == 2 else c1[2])
        if fan_weight > 0.0:
            c1 = _closest_point(a, c1, np.int64(-1))
    return c1


@nb.njit(cache=True, nogil=True)
def _closest_point(a, p, special):
    """Closest point on the ellipsoid to ``p`` (Eberly, Graphics Gems IV, as in OpenSim).

    Points on a coordinate plane (``special`` axis, or detected when ``special`` is -1)
    reduce to the closest point on that plane's ellipse.
    """
    if special < 0:
        widest = math.inf
        for i in range(3):
            if abs(p[i]) <= ROUNDOFF:
                width = a[0] + a[1] + a[2] - a[i]
                if width < widest:
                    special = i
                    widest = width
    if special == 0:
        y, z = _closest_on_ellipse(a[1], a[2], p[1], p[2])
        return (p[0], y, z)
    if special == 1:
        z, x = _closest_on_ellipse(a[2], a[0], p[2], p[0])
        return (x, p[1], z)
    if special == 2:
        x, y = _closest_on_ellipse(a[0], a[1], p[0], p[1])
        return (x, y, p[2])
    a2, b2, c2 = a[0] * a[0], a[1] * a[1], a[2] * a[2]
    a2u2, b2v2, c2w2 = a2 * p[0] * p[0], b2 * p[1] * p[1], c2 * p[2] * p[2]
    t = 0.0
    if _level(p, a) >= 0.0:
        t = max(a[0], a[1], a[2]) * vec3.norm(p)
    P, Q, R = t + a2, t + b2, t + c2
    for _ in range(64):
        P, Q, R = t + a2, t + b2, t + c2
        f = P * P * Q * Q * R * R - a2u2 * Q * Q * R * R - b2v2 * P * P * R * R - c2w2 * P * P * Q * Q
        if abs(f) < 1e-9:
            break
        fp = 2.0 * (P * Q * R * (Q * R + P * R + P * Q) - a2u2 * Q * R * (Q + R) - b2v2 * P * R * (P + R)
                    - c2w2 * P * Q * (P + Q))
        t -= f / fp
    return (a2 * p[0] / P, b2 * p[1] / Q, c2 * p[2] / R)


@nb.njit(cache=True, nogil=True)
def _closest_on_ellipse(a, b, u, v):
    """Closest point on the ellipse ``(x/a)^2 + (y/b)^2 = 1`` to ``(u, v)`` (as OpenSim)."""
    a2, b2 = a * a, b * b
    near_x = abs(u) <= ROUNDOFF
    near_y = abs(v) <= ROUNDOFF
    if near_x and near_y:
        if a < b:
            return (-a if u < 0.0 else a), v
        return u, (-b if v < 0.0 else b)
    if near_x:
        if a >= b or abs(v) >= b - a2 / b:
            return u, (b if v >= 0.0 else -b)
        y = b2 * v / (b2 - a2)
        return a * math.sqrt(abs(1.0 - (y / b) ** 2)), y
    if near_y:
        if b >= a or abs(u) >= a - b2 / a:
            return (a if u >= 0.0 else -a), v
        x = a2 * u / (a2 - b2)
        return x, b * math.sqrt(abs(1.0 - (x / a) ** 2))
    a2u2, b2v2 = a2 * u * u, b2 * v * v
    t = 0.0
    if (u / a) ** 2 + (v / b) ** 2 >= 1.0:
        t = max(a, b) * math.hypot(u, v)
    P, Q = t + a2, t + b2
    for _ in range(64):
        P, Q = t + a2, t + b2
        f = P * P * Q * Q - a2u2 * Q * Q - b2v2 * P * P
        if abs(f) < 1e-9:
            break
        t -= f / (2.0 * (P * Q * (P + Q) - a2u2 * Q - b2v2 * P))
    return a2 * u / P, b2 * v / Q


@nb.njit(cache=True, nogil=True)
def _tangents_in_plane(p, a, vs, vs4):
    """The two points of the ellipsoid in the plane ``vs . x + vs4 = 0`` whose tangent lines pass through
    ``p``: the plane meets ``p``'s polar plane ``sum x_i p_i / a_i^2 = 1`` in a line that crosses the
    ellipsoid at them. (OpenSim finds the one near ``c1`` by Levenberg-Marquardt iterations.)"""
    n2 = (p[0] / a[0] ** 2, p[1] / a[1] ** 2, p[2] / a[2] ** 2)
    d1 = -vs4
    d2 = 1.0
    line = vec3.cross(vs, n2)
    n11 = vec3.dot(vs, vs)
    n22 = vec3.dot(n2, n2)
    n12 = vec3.dot(vs, n2)
    det = n11 * n22 - n12 * n12
    x0 = vec3.add(vec3.scale((d1 * n22 - d2 * n12) / det, vs), vec3.scale((d2 * n11 - d1 * n12) / det, n2))
    g = (line[0] / a[0], line[1] / a[1], line[2] / a[2])
    h = (x0[0] / a[0], x0[1] / a[1], x0[2] / a[2])
    qa = vec3.dot(g, g)
    qb = 2.0 * vec3.dot(g, h)
    qc = vec3.dot(h, h) - 1.0
    root = math.sqrt(max(qb * qb - 4.0 * qa * qc, 0.0))
    return vec3.axpy((-qb + root) / (2.0 * qa), line, x0), vec3.axpy((-qb - root) / (2.0 * qa), line, x0)


@nb.njit(cache=True, nogil=True, inline="always")
def _other(t, ta, tb):
    return tb if t[0] == ta[0] and t[1] == ta[1] and t[2] == ta[2] else ta


@nb.njit(cache=True, nogil=True)
def _leaves_towards(t1, direction, t2, p2, a, vs):
    """Whether the plane section, followed from ``t1`` along ``direction``, passes ``t2`` heading for
    ``p2`` (so that the planar path is smooth there rather than turning back)."""
    n = (vs[0] * a[0], vs[1] * a[1], vs[2] * a[2])     # the section's plane, scaled by 1/a
    y1 = (t1[0] / a[0], t1[1] / a[1], t1[2] / a[2])
    y2 = (t2[0] / a[0], t2[1] / a[1], t2[2] / a[2])
    dy = (direction[0] / a[0], direction[1] / a[1], direction[2] / a[2])
    sense = 1.0 if vec3.dot(vec3.cross(y1, dy), n) >= 0.0 else -1.0
    ty = vec3.scale(sense, vec3.cross(n, y2))          # the circle's tangent at y2 in that sense (centre
    tangent = (a[0] * ty[0], a[1] * ty[1], a[2] * ty[2])   # terms along n drop out of the cross product)
    return vec3.dot(tangent, vec3.sub(p2, t2)) > 0.0


@nb.njit(cache=True, nogil=True)
def _plane_arc(t1, t2, direction, a, vs, vs4):
    """Length of the plane section's arc from ``t1`` to ``t2`` setting off along ``direction``.

    Scaled by ``1/a`` the section is a circle; its arc is integrated with 16-point Gauss-Legendre.
    """
    n = (vs[0] * a[0], vs[1] * a[1], vs[2] * a[2])
    nn = vec3.norm(n)
    n = vec3.scale(1.0 / nn, n)
    h = -vs4 / nn
    centre = vec3.scale(h, n)
    radius = math.sqrt(max(1.0 - h * h, 0.0))
    y1 = (t1[0] / a[0], t1[1] / a[1], t1[2] / a[2])
    y2 = (t2[0] / a[0], t2[1] / a[1], t2[2] / a[2])
    e1 = vec3.unit(vec3.sub(y1, centre))
    e2 = vec3.cross(n, e1)
    dy = (direction[0] / a[0], direction[1] / a[1], direction[2] / a[2])
    if vec3.dot(dy, e2) < 0.0:
        e2 = vec3.scale(-1.0, e2)
    r2 = vec3.sub(y2, centre)
    theta = math.atan2(vec3.dot(r2, e2), vec3.dot(r2, e1))
    if theta < 0.0:
        theta += TWO_PI
    total = 0.0
    for k in range(16):
        t = 0.5 * theta * (1.0 + _GAUSS_X[k])
        c = -math.sin(t)
        s = math.cos(t)
        tangent = (a[0] * (c * e1[0] + s * e2[0]), a[1] * (c * e1[1] + s * e2[1]), a[2] * (c * e1[2] + s * e2[2]))
        total += _GAUSS_W[k] * vec3.norm(tangent)
    return 0.5 * theta * radius * total


_GAUSS_X = (-0.9894009349916499, -0.9445750230732326, -0.8656312023878318, -0.7554044083550030,
            -0.6178762444026438, -0.4580167776572274, -0.2816035507792589, -0.0950125098376374,
            0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
            0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499)
_GAUSS_W = (0.0271524594117541, 0.0622535239386479, 0.0951585116824928, 0.1246289712555339,
            0.1495959888165767, 0.1691565193950025, 0.1826034150449236, 0.1894506104550685,
            0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
            0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541)


@nb.njit(cache=True, nogil=True)
def _horizon(p, a):
    """Centre, radius and in-plane axes of ``p``'s horizon circle on the unit sphere ``y = x / a``."""
    q = (p[0] / a[0], p[1] / a[1], p[2] / a[2])
    qq = vec3.dot(q, q)
    centre = vec3.scale(1.0 / qq, q)
    radius = math.sqrt(max(1.0 - 1.0 / qq, 0.0))
    k = 0
    for i in range(1, 3):
        if abs(q[i]) < abs(q[k]):
            k = i
    e = (1.0 if k == 0 else 0.0, 1.0 if k == 1 else 0.0, 1.0 if k == 2 else 0.0)
    u = vec3.unit(vec3.cross(q, e))
    w = vec3.unit(vec3.cross(q, u))
    return centre, radius, u, w


@nb.njit(cache=True, nogil=True, inline="always")
def _on_horizon(a, centre, radius, u, w, psi):
    c = math.cos(psi) * radius
    s = math.sin(psi) * radius
    return (a[0] * (centre[0] + c * u[0] + s * w[0]), a[1] * (centre[1] + c * u[1] + s * w[1]),
            a[2] * (centre[2] + c * u[2] + s * w[2]))


@nb.njit(cache=True, nogil=True, inline="always")
def _geodesic_rate(x, d, a):
    """``d d/ds = -kappa_n n``: the geodesic equation on ``sum x_i^2 / a_i^2 = 1``."""
    g = (x[0] / a[0] ** 2, x[1] / a[1] ** 2, x[2] / a[2] ** 2)
    k = ((d[0] / a[0]) ** 2 + (d[1] / a[1]) ** 2 + (d[2] / a[2]) ** 2) / vec3.dot(g, g)
    return vec3.scale(-k, g)


@nb.njit(cache=True, nogil=True)
def _follow(x, d, s, a):
    """End point and direction of the geodesic leaving ``x`` along unit ``d`` for arc length ``s`` (RK4)."""
    h = s / GEODESIC_STEPS
    for _ in range(GEODESIC_STEPS):
        k1x = d
        k1d = _geodesic_rate(x, d, a)
        x2 = vec3.axpy(0.5 * h, k1x, x)
        d2 = vec3.axpy(0.5 * h, k1d, d)
        k2d = _geodesic_rate(x2, d2, a)
        x3 = vec3.axpy(0.5 * h, d2, x)
        d3 = vec3.axpy(0.5 * h, k2d, d)
        k3d = _geodesic_rate(x3, d3, a)
        x4 = vec3.axpy(h, d3, x)
        d4 = vec3.axpy(h, k3d, d)
        k4d = _geodesic_rate(x4, d4, a)
        x = vec3.add(x, vec3.scale(h / 6.0, vec3.add(vec3.add(k1x, d4), vec3.scale(2.0, vec3.add(d2, d3)))))
        d = vec3.add(d, vec3.scale(h / 6.0, vec3.add(vec3.add(k1d, k4d), vec3.scale(2.0, vec3.add(k2d, k3d)))))
    return x, vec3.unit(d)


@nb.njit(cache=True, nogil=True)
def _miss(p1, p2, a, centre, radius, u, w, psi, s):
    """How far the line leaving the geodesic's end misses ``p2``: components along the surface
    normal and the in-surface normal of the path there. Also returns the end point and direction."""
    t1 = _on_horizon(a, centre, radius, u, w, psi)
    x, d = _follow(t1, vec3.unit(vec3.sub(t1, p1)), s, a)
    n = vec3.unit((x[0] / a[0] ** 2, x[1] / a[1] ** 2, x[2] / a[2] ** 2))
    r = vec3.sub(p2, x)
    return vec3.dot(r, n), vec3.dot(r, vec3.cross(n, d)), t1, x, d


@nb.njit(cache=True, nogil=True)
def _geodesic(p1, p2, a, t1_planar, s_planar, p1e, p2e):
    """Damped Newton shooting from the planar solution to the geodesic; ``(converged, t1, t2, s)``.

    A geodesic longer than the planar path it started from is rejected: the locally shortest path
    on that side is shorter than any path there, so a longer one is a different (winding) geodesic.
    """
    zero = (0.0, 0.0, 0.0)
    if abs(p1e) < 0.0001 or abs(p2e) < 0.0001:
        return False, zero, zero, 0.0      # an end on the surface: no horizon to shoot from
    centre, radius, u, w = _horizon(p1, a)
    y = (t1_planar[0] / a[0] - centre[0], t1_planar[1] / a[1] - centre[1], t1_planar[2] / a[2] - centre[2])
    psi = math.atan2(vec3.dot(y, w), vec3.dot(y, u))
    s = s_planar
    scale = vec3.norm(vec3.sub(p2, p1))
    h = 1e-7
    e1, e2, t1, x, d = _miss(p1, p2, a, centre, radius, u, w, psi, s)
    for _ in range(NEWTON_ITERATIONS):
        residual = math.hypot(e1, e2)
        if residual < 1e-12 * scale:
            planar = vec3.norm(vec3.sub(t1_planar, p1)) + s_planar
            total = vec3.norm(vec3.sub(t1, p1)) + s + vec3.norm(vec3.sub(p2, x))
            if s < 0.0 or vec3.dot(vec3.sub(p2, x), d) <= 0.0 or total > planar + vec3.norm(vec3.sub(p2, p1)):
                return False, zero, zero, 0.0
            return True, t1, x, s
        a1, a2, _, _, _ = _miss(p1, p2, a, centre, radius, u, w, psi + h, s)
        b1, b2, _, _, _ = _miss(p1, p2, a, centre, radius, u, w, psi, s + h)
        j11 = (a1 - e1) / h
        j21 = (a2 - e2) / h
        j12 = (b1 - e1) / h
        j22 = (b2 - e2) / h
        det = j11 * j22 - j12 * j21
        if det == 0.0 or not math.isfinite(det):
            return False, zero, zero, 0.0
        dpsi = -(j22 * e1 - j12 * e2) / det
        ds = -(-j21 * e1 + j11 * e2) / det
        limit = max(abs(dpsi) / 0.5, abs(ds) / (0.5 * max(s, 0.1)), 1.0)
        step = 1.0 / limit
        for _ in range(12):       # backtrack until the miss distance decreases
            n1, n2, nt1, nx, nd = _miss(p1, p2, a, centre, radius, u, w, psi + step * dpsi, s + step * ds)
            if math.hypot(n1, n2) < residual:
                break
            step *= 0.5
        else:
            return False, zero, zero, 0.0
        psi += step * dpsi
        s += step * ds
        e1, e2, t1, x, d = n1, n2, nt1, nx, nd
    return False, zero, zero, 0.0
