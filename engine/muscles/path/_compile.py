"""Compile the muscle paths of a model into the record arrays of ``_layout``.

Built once per model (``MuscleGeometry`` does it). Path points and wrap
objects use the attached frames of the compiled tree
(``compile_tree(model).path_point_frame`` and ``compile_tree(model).wrap_frame``); coordinates
that conditional and moving points depend on become COORDINATE records (a
coupled coordinate keeps its coupler function, so ``dc/dv`` reaches the
independent coordinate's speed); location functions and couplers are pooled
like the engine's joint functions (``engine.kernels._functions``).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...errors import ModelError
from ...algorithms.compiled import function_pool
from ...model.muscles import ConditionalPathPoint, MovingPathPoint, WrapCylinder, WrapEllipsoid, WrapSphere
from ...tree import compile_tree
from ._layout import (CONDITIONAL, COORDINATE, CYLINDER, ELLIPSOID, FIXED, METHODS, MOVING, MUSCLE,
                      PATH_WRAP, POINT, SPHERE, WRAP)

# OpenSim counts a conditional point active within its range widened by this much at each end.
CONDITIONAL_SLACK = 1e-5

PathArrays = namedtuple("PathArrays", ["coords", "points", "wraps", "path_wraps", "muscles", "funcs", "fpool"])
PathArrays.__doc__ = """The compiled paths handed to the kernels (record arrays of ``_layout`` and the function pool)."""

_QUADRANTS = {"all": (0, 0), "+x": (0, 1), "-x": (0, -1), "+y": (1, 1), "-y": (1, -1), "+z": (2, 1), "-z": (2, -1)}


class _Compiler:
    def __init__(self, model):
        self.model = model
        self.tree = compile_tree(model)
        self.elements: list[tuple[int, np.ndarray]] = []
        self.coords: list[tuple] = []
        self.coord_index: dict[str, int] = {}

    def chain(self, function) -> tuple[int, int]:
        first = len(self.elements)
        self.elements += [(kind, np.asarray(params, float)) for kind, params in function.elements()]
        return first, len(self.elements) - first

    def coordinate(self, name: str) -> int:
        if name not in self.coord_index:
            slot = self.tree.coordinates[name]
            f0, nf = 0, 0
            if slot.coupled_to is not None:
                f0, nf = self.chain(self.model.coordinate(name).coupler)
                slot_ind = self.tree.coordinates[slot.coupled_to]
                qi, vi = slot_ind.qi, slot_ind.vi
            else:
                qi, vi = slot.qi, slot.vi
            lo, hi = slot.range
            self.coord_index[name] = len(self.coords)
            self.coords.append((qi, vi, f0, nf, lo, hi))
        return self.coord_index[name]

    def point(self, muscle, pt, rec):
        rec["frame"] = self.tree.path_point_frame[(muscle.name, pt.name)]
        rec["kind"] = FIXED
        rec["coord"] = -1
        rec["mcoord"] = -1
        if isinstance(pt, ConditionalPathPoint):
            rec["kind"] = CONDITIONAL
            rec["coord"] = self.coordinate(pt.coordinate)
            rec["lo"] = pt.range[0] - CONDITIONAL_SLACK
            rec["hi"] = pt.range[1] + CONDITIONAL_SLACK
        elif isinstance(pt, MovingPathPoint):
            rec["kind"] = MOVING
            rec["loc"] = pt.location
            for k, spec in enumerate((pt.x, pt.y, pt.z)):
                if spec is not None:
                    rec["mcoord"][k] = self.coordinate(spec[0])
                    rec["mf0"][k], rec["mnf"][k] = self.chain(spec[1])

    def wrap(self, wo, rec):
        rec["frame"] = self.tree.wrap_frame[wo.name]
        rec["active"] = int(wo.active)
        rec["axis"], rec["sign"] = _QUADRANTS[wo.quadrant]
        if isinstance(wo, WrapCylinder):
            rec["kind"] = CYLINDER
            rec["dims"] = (wo.radius, wo.length, 0.0)
        elif isinstance(wo, WrapSphere):
            rec["kind"] = SPHERE
            rec["dims"] = (wo.radius, 0.0, 0.0)
        else:
            rec["kind"] = ELLIPSOID
            rec["dims"] = wo.dimensions

    def build(self) -> PathArrays:
        model = self.model
        surfaces = {wo.name: i for i, wo in enumerate(model.wrap_objects)}
        for m in model.muscles:
            for pw in m.path.wraps:
                wo = model.wrap_objects[surfaces[pw.wrap_object]]
                if not isinstance(wo, (WrapCylinder, WrapSphere, WrapEllipsoid)):
                    raise ModelError(f"wraps over the {wo.kind} '{wo.name}'; HybridLab computes wrapping over "
                                     "cylinders, spheres and ellipsoids only (remove this path wrap or the muscle)",
                                     f"muscle '{m.name}'")
                lo, hi = pw.range
                n = len(m.path.points)
                if lo > n or hi > n or (lo >= 1 and hi >= 1 and lo > hi):
                    raise ModelError(f"its wrap over '{pw.wrap_object}' has the point range {pw.range}, outside its "
                                     f"{n} path points", f"muscle '{m.name}'")
        wraps = np.zeros(len(model.wrap_objects), WRAP)
        for i, wo in enumerate(model.wrap_objects):
            if isinstance(wo, (WrapCylinder, WrapSphere, WrapEllipsoid)):
                self.wrap(wo, wraps[i])
        muscles = np.zeros(len(model.muscles), MUSCLE)
        points = np.zeros(sum(len(m.path.points) for m in model.muscles), POINT)
        path_wraps = np.zeros(sum(len(m.path.wraps) for m in model.muscles), PATH_WRAP)
        p = w = 0
        for i, m in enumerate(model.muscles):
            muscles[i] = (p, len(m.path.points), w, len(m.path.wraps))
            for pt in m.path.points:
                self.point(m, pt, points[p])
                p += 1
            for pw in m.path.wraps:
                path_wraps[w] = (surfaces[pw.wrap_object], METHODS[pw.method], pw.range[0], pw.range[1])
                w += 1
        coords = np.array(self.coords, COORDINATE) if self.coords else np.zeros(0, COORDINATE)
        funcs, fpool = function_pool(self.elements)
        return PathArrays(coords, points, wraps, path_wraps, muscles, funcs, fpool)


def compile_paths(model) -> PathArrays:
    """The record arrays of every muscle path of ``model`` (in ``model.muscles`` order).

    Raises
    ------
    ModelError
        If a path wraps over a surface HybridLab cannot wrap over (a torus) or has a path wrap
        whose point range lies outside its points.
    """
    return _Compiler(model).build()
