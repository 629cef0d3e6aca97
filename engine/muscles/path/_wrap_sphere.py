"""Wrapping a straight span over a sphere (OpenSim's WrapSphere), in the sphere's frame.

OpenSim's rules: an end point inside the sphere gives no wrap (``INSIDE``);
otherwise the span wraps only if the straight line crosses the sphere between
its ends (``MANDATORY``). The path is the shortest one: tangent - great-circle
arc - tangent in the plane through both ends and the centre, the short way
round. With a quadrant, when an end point lies off the active half the
direction is the one whose tangent spans head towards the active half (the
intent of OpenSim's choice; OpenSim can pair tangent points of the two
directions and gives a negative length for its "far side" wraps, which this
code does not reproduce). When the line passes through the centre every
great circle through the ends is as short: the plane containing the
quadrant axis (unless it is nearly along the span; otherwise the sphere's x,
y or z axis least aligned with the span) is used.
"""
import math

import numba as nb

from . import _vec3 as vec3
from ._layout import INSIDE, MANDATORY, NO_WRAP




@nb.njit(cache=True, nogil=True)
def wrap_sphere(p1, p2, radius, axis, sign):
    """Wrap the span ``p1 -> p2`` (tuples, m, sphere frame) over the sphere of ``radius`` (m).

    Returns ``(code, t1, t2, arc)`` as :func:`~engine.muscles.path._wrap_cylinder.wrap_cylinder`.
    """
    zero = (0.0, 0.0, 0.0)
    rho1 = vec3.norm(p1)
    rho2 = vec3.norm(p2)
    if rho1 < radius or rho2 < radius:
        return INSIDE, zero, zero, 0.0
    d = vec3.sub(p1, p2)
    a = vec3.dot(d, d)
    b = 2.0 * vec3.dot(p2, d)
    c = vec3.dot(p2, p2) - radius * radius
    disc = b * b - 4.0 * a * c
    if a == 0.0 or disc < 0.0:
        return NO_WRAP, zero, zero, 0.0
    l1 = (-b + math.sqrt(disc)) / (2.0 * a)
    l2 = (-b - math.sqrt(disc)) / (2.0 * a)
    if not (0.0 < l1 < 1.0 and 0.0 < l2 < 1.0):
        return NO_WRAP, zero, zero, 0.0
    ex = vec3.scale(1.0 / rho1, p1)
    n = vec3.cross(vec3.unit(d), vec3.scale(1.0 / rho2, p2))
    if vec3.norm(n) < 1e-5:
        # the line passes through the centre: any great circle through the ends is shortest
        k = 0
        for i in range(1, 3):
            if abs(ex[i]) < abs(ex[k]):
                k = i
        if sign != 0 and abs(ex[axis]) < 0.9:
            k = axis
        e = (1.0 if k == 0 else 0.0, 1.0 if k == 1 else 0.0, 1.0 if k == 2 else 0.0)
        n = vec3.cross(ex, e)
    n = vec3.unit(n)
    ey = vec3.cross(n, ex)
    phi2 = math.atan2(vec3.dot(p2, ey), vec3.dot(p2, ex))
    a1 = math.acos(min(radius / rho1, 1.0))
    a2 = math.acos(min(radius / rho2, 1.0))
    arc_ccw = vec3.positive_angle((phi2 - a2) - a1)
    arc_cw = vec3.positive_angle(-a1 - (phi2 + a2))
    ccw = arc_ccw <= arc_cw
    if sign != 0 and (vec3.dsign(p1[axis]) != sign or vec3.dsign(p2[axis]) != sign):
        head_ccw = _heading(p1, p2, ex, ey, radius, a1, phi2 - a2)[axis] * sign
        head_cw = _heading(p1, p2, ex, ey, radius, -a1, phi2 + a2)[axis] * sign
        if (head_ccw >= 0.0) != (head_cw >= 0.0):
            ccw = head_ccw >= 0.0
    th1 = a1 if ccw else -a1
    th2 = phi2 - a2 if ccw else phi2 + a2
    t1 = vec3.add(vec3.scale(radius * math.cos(th1), ex), vec3.scale(radius * math.sin(th1), ey))
    t2 = vec3.add(vec3.scale(radius * math.cos(th2), ex), vec3.scale(radius * math.sin(th2), ey))
    return MANDATORY, t1, t2, radius * (arc_ccw if ccw else arc_cw)



@nb.njit(cache=True, nogil=True)
def _heading(p1, p2, ex, ey, radius, th1, th2):
    """``(t1 - p1) + (t2 - p2)`` for tangent points at angles ``th1``, ``th2`` in the wrap plane."""
    t1 = vec3.add(vec3.scale(radius * math.cos(th1), ex), vec3.scale(radius * math.sin(th1), ey))
    t2 = vec3.add(vec3.scale(radius * math.cos(th2), ex), vec3.scale(radius * math.sin(th2), ey))
    return vec3.add(vec3.sub(t1, p1), vec3.sub(t2, p2))
