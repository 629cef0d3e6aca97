"""Wrapping a straight span over a cylinder (OpenSim's WrapCylinder), in the cylinder's frame.

The cylinder's axis is z, centred on the origin, with ``radius`` and ``length``
(m). OpenSim's rules decide *whether* and *which way round* a span wraps:

- an end point inside the infinite cylinder: no wrap (``INSIDE``);
- quadrant ``all``: the span wraps only if it crosses the cylinder (the
  closest point of the line to the axis lies within the span and within the
  radius), the short way round;
- a quadrant (``+x`` ...): the path must stay on that half. If an end point is
  on the active side, the span wraps when it crosses the cylinder, or when its
  ends are on opposite sides and it passes the axis on the inactive side;
  with both ends on the inactive side it always wraps. The direction round
  the cylinder follows OpenSim's choice among the four tangent points;
- no wrap when both tangent points lie beyond the cylinder's length.

Three paths over the surface:

- ``opensim=False``: the exact shortest path. In the plane normal to the axis
  it is tangent - arc - tangent, and unrolled it is a straight line, so the
  axial coordinate grows linearly with the unrolled length ``L2``:
  ``length = sqrt(L2^2 + dz^2)``.
- ``opensim=True, adjust=False``: OpenSim 4's path for a muscle with a single
  wrap object (no visualizer): the tangent points of the planes normal to the
  axis through each end, slid along the axis onto the plane through both ends
  and the cylinder's apex, joined by a helix of ``sqrt((R theta)^2 + dz^2)``,
  where ``theta`` is the angle between their radii (``2 pi - theta`` for
  OpenSim's "long wrap"). The straight spans are then not quite tangent to
  the helix (they are when the span is normal to the axis).
- ``opensim=True, adjust=True``: OpenSim 4's path with several wrap objects:
  from those points, OpenSim slides each tangent point along the axis until
  its span meets the axis at the angle of the helix's first chord (pieces of
  about 2 mm) to within 0.1 degree, at most 100 times. With a helix shorter
  than 4 mm (one piece) nothing is adjusted. Close to the exact path on large
  cylinders, not on small ones (arm26's 3 mm glenoid cylinder: 0.4 mm of
  moment arm).
"""
import math

import numba as nb

from . import _vec3 as vec3
from ._layout import INSIDE, MANDATORY, NO_WRAP, WRAPPED

HELIX_PIECE = 0.002                    # m: OpenSim's pieces of the helix
TANGENCY = 0.1 * math.pi / 180.0       # rad: OpenSim's tangency threshold
ADJUST_ITERATIONS = 100


@nb.njit(cache=True, nogil=True)
def wrap_cylinder(p1, p2, radius, length, axis, sign, opensim, adjust):
    """Wrap the span ``p1 -> p2`` (tuples, m, cylinder frame) over the cylinder.

    Returns ``(code, t1, t2, arc)``: the WrapAction code (``_layout``), the
    tangent points where the path leaves the straight line from ``p1`` and
    rejoins the one to ``p2``, and the length of the path on the surface (m).
    ``opensim`` and ``adjust`` choose the exact path or one of OpenSim's (module notes).
    """
    zero = (0.0, 0.0, 0.0)
    rr = radius * radius
    rho1 = math.hypot(p1[0], p1[1])
    rho2 = math.hypot(p2[0], p2[1])
    if rho1 * rho1 < rr or rho2 * rho2 < rr:
        return INSIDE, zero, zero, 0.0
    # closest approach of the line p1 p2 to the axis (OpenSim: IntersectLines with the axis)
    d = (p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2])
    dxy2 = d[0] * d[0] + d[1] * d[1]
    if dxy2 > 0.0:
        t12 = -(p1[0] * d[0] + p1[1] * d[1]) / dxy2
    else:
        t12 = math.nan   # span parallel to the axis: OpenSim's lines do not intersect
    nx = p1[0] + t12 * d[0]
    ny = p1[1] + t12 * d[1]
    crosses = nx * nx + ny * ny < rr and 0.0 < t12 < 1.0
    code = WRAPPED
    if sign == 0:
        if not crosses:
            return NO_WRAP, zero, zero, 0.0
        code = MANDATORY
    else:
        s1 = vec3.dsign(p1[axis])
        s2 = vec3.dsign(p2[axis])
        if s1 == sign or s2 == sign:
            near = (nx, ny, p1[2] + t12 * d[2])
            if crosses:
                code = MANDATORY
            elif not (s1 != s2 and vec3.dsign(near[axis]) != sign):
                return NO_WRAP, zero, zero, 0.0
    phi1 = math.atan2(p1[1], p1[0])
    phi2 = math.atan2(p2[1], p2[0])
    a1 = math.acos(min(radius / rho1, 1.0))
    a2 = math.acos(min(radius / rho2, 1.0))
    # counter-clockwise round z: leave the line from p1 at phi1 + a1, join the one to p2 at phi2 - a2
    arc_ccw = vec3.positive_angle((phi2 - a2) - (phi1 + a1))
    arc_cw = vec3.positive_angle((phi1 - a1) - (phi2 + a2))
    if sign == 0:
        ccw = arc_ccw <= arc_cw
        far_side = False
    else:
        ccw, far_side = _quadrant_choice(p1, p2, radius, phi1, a1, phi2, a2, axis, sign)
    arc = arc_ccw if ccw else arc_cw
    turn = 1.0 if ccw else -1.0
    th1 = phi1 + turn * a1
    th2 = phi2 - turn * a2
    r1 = (radius * math.cos(th1), radius * math.sin(th1), p1[2])
    r2 = (radius * math.cos(th2), radius * math.sin(th2), p2[2])
    z1, z2 = _slid(p1, p2, r1, r2, rho1, rho2, far_side, radius)
    half = 0.5 * length
    if (z1 < -half or z1 > half) and (z2 < -half or z2 > half):
        return NO_WRAP, zero, zero, 0.0
    if opensim:
        theta = math.acos(max(-1.0, min(1.0, (r1[0] * r2[0] + r1[1] * r2[1]) / rr)))
        long_wrap = sign != 0 and _long_wrap(p1, p2, r1, r2)
        if long_wrap:
            theta = 2.0 * math.pi - theta
        if adjust:
            z1, z2 = _adjusted(p1, p2, r1, r2, z1, z2, radius, theta, -1.0 if long_wrap else 1.0)
        return code, (r1[0], r1[1], z1), (r2[0], r2[1], z2), math.hypot(radius * theta, z2 - z1)
    d1 = math.sqrt(max(rho1 * rho1 - rr, 0.0))
    d2 = math.sqrt(max(rho2 * rho2 - rr, 0.0))
    unrolled = d1 + radius * arc + d2
    dz = p2[2] - p1[2]
    slope = dz / unrolled if unrolled > 0.0 else 0.0
    t1 = (r1[0], r1[1], p1[2] + slope * d1)
    t2 = (r2[0], r2[1], p1[2] + slope * (d1 + radius * arc))
    return code, t1, t2, radius * arc * math.sqrt(1.0 + slope * slope)


@nb.njit(cache=True, nogil=True)
def _adjusted(p1, p2, r1, r2, z1, z2, radius, theta, sense):
    """OpenSim's tangent-point adjustment (module notes): the axial coordinates ``(z1, z2)`` of ``r1``,
    ``r2`` after sliding them until each span meets the axis at the angle of the helix's first (last)
    chord within 0.1 degree (at most 100 slides)."""
    turn = (r1[0] * r2[1] - r1[1] * r2[0]) >= 0.0     # the helix from r1 to r2 turns about +z (short way)
    step = sense if turn else -sense
    for _ in range(ADJUST_ITERATIONS):
        pieces = int(math.hypot(radius * theta, z2 - z1) / HELIX_PIECE)
        if pieces < 2:
            break
        t = 1.0 / pieces
        phi1 = math.atan2(r1[1], r1[0])
        w1 = (radius * math.cos(phi1 + step * t * theta), radius * math.sin(phi1 + step * t * theta),
              z1 + t * (z2 - z1))
        w2 = (radius * math.cos(phi1 + step * (1.0 - t) * theta), radius * math.sin(phi1 + step * (1.0 - t) * theta),
              z1 + (1.0 - t) * (z2 - z1))
        n1, moved1 = _slid_to_chord(p1, (r1[0], r1[1], z1), w1)
        n2, moved2 = _slid_to_chord(p2, (r2[0], r2[1], z2), w2)
        z1, z2 = n1, n2
        if not (moved1 or moved2):
            break
    return z1, z2


@nb.njit(cache=True, nogil=True)
def _slid_to_chord(p, r, w):
    """OpenSim's ``_adjust_tangent_point``: if the span ``p -> r`` and the chord ``r -> w`` meet the axis at
    angles more than 0.1 degree apart, move ``r`` along the axis 1.5 times of the way to where the line
    ``p -> w`` passes the axial line through ``r``. Returns ``(new z of r, moved)``."""
    alpha = math.acos(max(-1.0, min(1.0, vec3.unit(vec3.sub(r, p))[2])))
    omega = math.acos(max(-1.0, min(1.0, vec3.unit(vec3.sub(w, r))[2])))
    if abs(alpha - omega) <= TANGENCY:
        return r[2], False
    # closest point of the vertical line x = (r_x, r_y, z) to the line p + s (w - p)
    d = vec3.sub(w, p)
    e = vec3.sub(p, r)
    a = vec3.dot(d, d)
    b = d[2]
    denominator = a - b * b
    if denominator <= 0.0:
        return r[2], False
    s = (b * e[2] - vec3.dot(d, e)) / denominator
    z = p[2] + s * d[2]
    return r[2] + 1.5 * (z - r[2]), True


@nb.njit(cache=True, nogil=True)
def _long_wrap(p1, p2, r1, r2):
    """OpenSim's "long wrap" test for a quadrant: the tangent points' radii, summed, point against the
    summed directions from the ends to them (``r1``, ``r2`` in the planes through ``p1``, ``p2``)."""
    sum_r = (r1[0] + r2[0], r1[1] + r2[1])
    sum_m = (r1[0] - p1[0] + r2[0] - p2[0], r1[1] - p1[1] + r2[1] - p2[1])
    return sum_r[0] * sum_m[0] + sum_r[1] * sum_m[1] < 0.0


@nb.njit(cache=True, nogil=True)
def _slid(p1, p2, r1, r2, rho1, rho2, far_side, radius):
    """OpenSim's first estimate of the tangent points' axial coordinates ``(z1, z2)``. ``r1``, ``r2`` are
    the tangent points in the planes normal to the axis through ``p1`` and ``p2``; OpenSim slides them
    along the axis to the plane through ``p1``, ``p2`` and the apex (the point of the cylinder nearest
    the span, or farthest for a far-side wrap) when that brings them towards the other end. OpenSim
    gives no wrap when both lie beyond an end of the cylinder."""
    t = rho1 / (rho1 + rho2)
    mpt = vec3.axpy(t, vec3.sub(p2, p1), p1)
    axispt = (0.0, 0.0, mpt[2])
    pn = vec3.unit(vec3.cross(vec3.unit(vec3.sub(p1, axispt)), vec3.unit(vec3.sub(p2, axispt))))
    vert = vec3.unit((-pn[1], pn[0], 0.0))
    apex1 = vec3.axpy(radius, vert, axispt)
    apex2 = vec3.axpy(-radius, vert, axispt)
    near1 = vec3.norm(vec3.sub(mpt, apex1)) < vec3.norm(vec3.sub(mpt, apex2))
    apex = apex1 if near1 != far_side else apex2
    n = vec3.unit(vec3.cross(vec3.unit(vec3.sub(p1, apex)), vec3.unit(vec3.sub(p2, apex))))
    return _slide(r1, n, p1, p2[2], p1[2]), _slide(r2, n, p1, p1[2], p2[2])


@nb.njit(cache=True, nogil=True)
def _slide(r, n, p1, z_other, z_own):
    """Axial coordinate of ``r`` moved along the axis onto the plane ``n . (x - p1) = 0``, if that
    point lies within 10 m and is nearer than ``z_own`` to ``z_other`` (OpenSim's rule)."""
    if abs(20.0 * n[2]) < 1e-5 or z_other == 0.0:
        return r[2]
    z = r[2] + vec3.dot(n, vec3.sub(p1, r)) / n[2]
    if abs(z - r[2]) > 10.0 + 2e-4:
        return r[2]
    if abs(z - z_other) < abs(z_own - z_other):
        return z
    return r[2]


@nb.njit(cache=True, nogil=True)
def _quadrant_choice(p1, p2, radius, phi1, a1, phi2, a2, axis, sign):
    """OpenSim's choice of tangent points for a cylinder with a quadrant: ``(counter-clockwise, far side)``.

    ``r1a``/``r2b`` (counter-clockwise) and ``r1b``/``r2a`` (clockwise) are the
    tangent points in the planes normal to the axis through ``p1`` and ``p2``;
    OpenSim's "far side" flag (from the angles between the pairs) only moves
    its first estimate of the tangent points (see ``_reaches``).
    """
    r1a = (radius * math.cos(phi1 + a1), radius * math.sin(phi1 + a1), p1[2])
    r1b = (radius * math.cos(phi1 - a1), radius * math.sin(phi1 - a1), p1[2])
    r2a = (radius * math.cos(phi2 + a2), radius * math.sin(phi2 + a2), p2[2])
    r2b = (radius * math.cos(phi2 - a2), radius * math.sin(phi2 - a2), p2[2])
    # angles between the radial directions of the counter-clockwise and the clockwise pair
    alpha = math.acos(max(-1.0, min(1.0, math.cos((phi2 - a2) - (phi1 + a1)))))
    beta = math.acos(max(-1.0, min(1.0, math.cos((phi1 - a1) - (phi2 + a2)))))
    on1a = vec3.dsign(r1a[axis]) == sign
    on1b = vec3.dsign(r1b[axis]) == sign
    if on1a and on1b:
        ccw = vec3.dsign(r2a[axis]) != sign
    elif on1a or on1b:
        ccw = on1a
    elif vec3.dsign(r2a[axis]) == sign:
        ccw = False
    elif vec3.dsign(r2b[axis]) == sign:
        ccw = True
    else:
        # no candidate on the active side: OpenSim takes the pair further apart, as a far-side wrap
        return alpha > beta, True
    return ccw, (alpha > beta) == ccw
