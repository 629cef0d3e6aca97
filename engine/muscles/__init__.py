"""Musculotendon actuators: path description, geometry, Hill-type models, force estimation."""
from .description import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap,
                          WrapCylinder, WrapEllipsoid, WrapObject, WrapSphere, WrapTorus)

__all__ = ["PathPoint", "ConditionalPathPoint", "MovingPathPoint", "PathWrap", "GeometryPath", "Muscle",
           "WrapObject", "WrapCylinder", "WrapSphere", "WrapEllipsoid", "WrapTorus"]
