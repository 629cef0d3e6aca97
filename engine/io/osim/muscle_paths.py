"""A muscle's GeometryPath: path points (fixed, conditional, moving) and the wrap objects it uses.

OpenSim semantics kept for :mod:`engine.muscles`:

- ConditionalPathPoint ranges are in the coordinate's internal unit (radians
  or metres) in OpenSim 4 documents; OpenSim counts the point as active within
  the range widened by 1e-5 at both ends.
- A MovingPathPoint component with a coordinate is ``f(q)``, with ``q`` clamped
  to that coordinate's range by OpenSim; a component without a coordinate is the
  constant ``f(0)`` (stored in ``location``).
"""
from __future__ import annotations

from ...model.muscles import ConditionalPathPoint, GeometryPath, MovingPathPoint, PathPoint, PathWrap
from .functions import function_element, read_function


class UnsupportedPath(Exception):
    """A valid OpenSim path that HybridLab cannot represent (its muscle is skipped with a warning)."""


def read_path(doc, paths, frames, muscle, what: str, wrap_names: set) -> GeometryPath:
    path = doc.child(muscle, "GeometryPath")
    if path is None:
        other = [c.tag for c in muscle if "Path" in c.tag]
        raise UnsupportedPath(f"its path is not a GeometryPath ({', '.join(other) or 'none found'})")
    points = [_point(doc, paths, frames, p) for p in doc.objects(doc.child(path, "PathPointSet"))]
    wraps = []
    for element in doc.objects(doc.child(path, "PathWrapSet")):
        where = f"path wrap {paths.path_of(element)} of {what}"
        doc.use(element)
        name = doc.text(element, "wrap_object", where)
        if name not in wrap_names:
            doc.use_subtree(element)
            doc.warn(f"{what}: its wrap over '{name}' is not imported (that wrap object was not imported)")
            continue
        lo, hi = doc.numbers(element, "range", where, 2, [-1, -1])
        method = (doc.text(element, "method", where, "hybrid") or "hybrid").lower()
        wraps.append(PathWrap(name, method, (int(lo), int(hi))))
    return GeometryPath(tuple(points), tuple(wraps))


def _point(doc, paths, frames, element):
    what = f"path point {paths.path_of(element)}"
    if element.tag not in ("PathPoint", "ConditionalPathPoint", "MovingPathPoint"):
        raise UnsupportedPath(f"its path has a <{element.tag}>, a path point type HybridLab cannot represent")
    doc.use(element)
    name = doc.name(element, "path point")
    parent = frames.frame(element, "socket_parent_frame", what)
    if element.tag == "MovingPathPoint":
        doc.child(element, "location")   # OpenSim overwrites it (the functions define the location)
        location, specs = [0.0, 0.0, 0.0], {}
        for k, axis in enumerate("xyz"):
            holder = doc.child(element, f"{axis}_location")
            fel = None if holder is None else function_element(doc, holder, f"{what} {axis}_location")
            function = None if fel is None else read_function(doc, fel, f"{what} {axis}_location")
            coordinate = _coordinate(doc, paths, element, f"socket_{axis}_coordinate", what, required=False)
            if coordinate is not None and function is not None:
                specs[axis] = (coordinate, function)
            elif function is not None:
                location[k] = function.evaluate(0.0)
        return MovingPathPoint(name, parent, location, **specs)
    location = doc.numbers(element, "location", what, 3, [0.0, 0.0, 0.0])
    if element.tag == "ConditionalPathPoint":
        coordinate = _coordinate(doc, paths, element, "socket_coordinate", what, required=True)
        lo, hi = doc.numbers(element, "range", what, 2, [0.0, 0.0])
        return ConditionalPathPoint(name, parent, location, coordinate=coordinate, range=(lo, hi))
    return PathPoint(name, parent, location)


def _coordinate(doc, paths, element, socket, what, required):
    text = doc.text(element, socket, what, None)
    if not text:
        if required:
            raise doc.error(f"is missing its <{socket}>", what)
        return None
    target = paths.resolve(element, text, what, ("Coordinate",))
    if target.tag != "Coordinate":
        raise doc.error(f"<{socket}> connects to {paths.path_of(target)}, a <{target.tag}>, not a coordinate", what)
    return target.get("name").strip()
