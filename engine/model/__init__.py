"""Model description: plain, validated Python objects (no numerics beyond checks), muscles and their paths
included."""
from .bodies import Body, Frame, Mesh
from .coordinates import ROTATIONAL, STRAIN, TRANSLATIONAL, Coordinate
from .functions import (Composition, Constant, Function, Linear, Multiplier, NaturalCubicSpline, PiecewiseLinear,
                        Polynomial, SimmSpline)
from .joints import (FreeJoint, GeneralJoint, Joint, PrismaticJoint, RevoluteJoint, SphericalJoint, TransformAxis,
                     UniversalJoint, WeldJoint, constant_axis)
from .model import DEFAULT_GRAVITY, GROUND, Model
from .muscles import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap, WrapCylinder,
                      WrapEllipsoid, WrapObject, WrapSphere, WrapTorus)
from .points import ContactPoint, Marker, Point
from .rods import ANGULAR_MODES, MODES, STRAIGHT, Material, Rod, RodSegment, Section

__all__ = [
    "Body", "Frame", "Mesh", "Coordinate", "ROTATIONAL", "TRANSLATIONAL", "STRAIN",
    "Function", "Constant", "Linear", "Polynomial", "NaturalCubicSpline", "SimmSpline", "PiecewiseLinear",
    "Multiplier", "Composition",
    "Joint", "FreeJoint", "SphericalJoint", "RevoluteJoint", "PrismaticJoint", "UniversalJoint", "WeldJoint",
    "GeneralJoint", "TransformAxis", "constant_axis",
    "Model", "GROUND", "DEFAULT_GRAVITY", "Point", "Marker", "ContactPoint",
    "Rod", "RodSegment", "Section", "Material", "MODES", "ANGULAR_MODES", "STRAIGHT",
    "Muscle", "GeometryPath", "PathPoint", "ConditionalPathPoint", "MovingPathPoint", "PathWrap",
    "WrapObject", "WrapCylinder", "WrapSphere", "WrapEllipsoid", "WrapTorus",
]
