"""Record layouts and codes of compiled muscle paths (see ``_compile``).

All muscles of a model share flat record arrays; a muscle refers to its slice
of points and path wraps. Kernels take these few arrays (records, not tuples
of plain arrays: numba reference-counts every array argument of a call).
"""
import numpy as np

f8 = np.float64
i8 = np.int64

# point kinds
FIXED = 0          # PathPoint: the attached frame's origin is the point
CONDITIONAL = 1    # ConditionalPathPoint: the same, active within [lo, hi] of a coordinate
MOVING = 2         # MovingPathPoint: frame at the parent's origin, location f(q) in it

# wrap surface kinds
CYLINDER = 0
SPHERE = 1
ELLIPSOID = 2

# wrapping semantics (MuscleGeometry's ``wrapping``)
OPENSIM = 0        # OpenSim 4's algorithm, its approximations included (see _wrapping)
EXACT = 1          # the locally shortest path over every surface, passes converged: J_l = dl/dq
WRAPPING = {"opensim": OPENSIM, "exact": EXACT}

# ellipsoid methods (PathWrap.method)
HYBRID = 0
MIDPOINT = 1
AXIAL = 2
METHODS = {"hybrid": HYBRID, "midpoint": MIDPOINT, "axial": AXIAL}

# results of wrapping one straight span over one surface (OpenSim's WrapAction)
NO_WRAP = 0
INSIDE = 1         # an end point lies inside the surface: OpenSim skips the wrap
WRAPPED = 2        # wraps, competing with other spans for the smallest length change
MANDATORY = 3      # the straight span crosses the surface: must wrap
FALLBACK = 4       # must wrap, but only an approximate path was found (ellipsoids: OpenSim's planar one)

# status bits of a muscle at a frame (``PathResult.status``)
OK = 0
POINT_INSIDE_WRAP = 1        # a wrap was skipped because a path point lies inside its surface
WRAP_NOT_CONVERGED = 2       # an ellipsoid geodesic or the multi-wrap iteration did not converge
COINCIDENT_POINTS = 4        # two consecutive path points coincide: a span has no direction
WRAP_PLANAR = 8              # an ellipsoid geodesic was not found: OpenSim's planar path was used
STATUS_TEXT = {
    POINT_INSIDE_WRAP: "a path point lies inside a wrap surface, so that wrap was skipped (as OpenSim does)",
    WRAP_NOT_CONVERGED: "the passes over several wrap objects did not converge (the last pass is used)",
    COINCIDENT_POINTS: "two consecutive path points coincide (that span adds no moment arm)",
    WRAP_PLANAR: "an ellipsoid's geodesic could not be found, so OpenSim's planar path over it was used "
                 "(its moment arms are then approximate)",
}

COORDINATE = np.dtype([
    ("qi", i8),              # q index of the independent coordinate it is (or is coupled to)
    ("vi", i8),              # v index of that coordinate
    ("f0", i8),              # coupler: first pooled function of its chain (dependent coordinates)
    ("nf", i8),              #   chain length (0: independent, the value is q[qi])
    ("lo", f8), ("hi", f8),  # range (SI units)
], align=True)

POINT = np.dtype([
    ("kind", i8),            # FIXED, CONDITIONAL, MOVING
    ("frame", i8),           # attached frame (engine.tree.Tree.path_point_frame)
    ("coord", i8),           # CONDITIONAL: coordinate record index
    ("lo", f8), ("hi", f8),  # CONDITIONAL: active range, widened by 1e-5 at both ends as OpenSim does
    ("loc", f8, 3),          # MOVING: constant location components (m, in the parent frame)
    ("mcoord", i8, 3),       # MOVING: coordinate record driving each component (-1: constant)
    ("mf0", i8, 3),          # MOVING: function chain of each component (pooled, see _compile)
    ("mnf", i8, 3),
], align=True)

WRAP = np.dtype([
    ("kind", i8),            # CYLINDER, SPHERE, ELLIPSOID
    ("frame", i8),           # attached frame of the wrap surface (engine.tree.Tree.wrap_frame)
    ("active", i8),
    ("axis", i8),            # quadrant: axis 0, 1, 2 and sign +1/-1; sign 0 for 'all'
    ("sign", i8),
    ("dims", f8, 3),         # cylinder: radius, length; sphere: radius; ellipsoid: semi-axes (m)
], align=True)

PATH_WRAP = np.dtype([
    ("wrap", i8),            # WRAP record index
    ("method", i8),          # HYBRID, MIDPOINT, AXIAL (ellipsoids)
    ("start", i8),           # OpenSim's range: 1-based path point numbers, < 1 for the first/last point
    ("end", i8),
], align=True)

MUSCLE = np.dtype([
    ("p0", i8), ("np", i8),  # its points: POINT records p0 .. p0+np-1
    ("w0", i8), ("nw", i8),  # its path wraps: PATH_WRAP records w0 .. w0+nw-1
], align=True)

ENTRY = np.dtype([           # one point of a muscle's current path (kernel workspace)
    ("x", f8, 3),            # world position, m
    ("node", i8),            # node carrying the point (a tangent point: its wrap's node)
    ("point", i8),           # POINT record (-1 for tangent points)
    ("pwrap", i8),           # tangent points: the muscle's path-wrap number (-1 for path points)
    ("side", i8),            # tangent points: 0 where the path reaches the surface, 1 where it leaves
    ("g", f8, 3),            # unit-tension force on the point (world)
], align=True)

WRAP_STATE = np.dtype([      # one path wrap of the muscle being built (kernel workspace)
    ("arc", f8),             # by path wrap j: length of the path on the surface, m
    ("seen", i8),            # by j: 1 once OpenSim has measured a span to its tangent points
    ("x1", f8, 3),           # by j: the tangent points where it measured them (world, m)
    ("x2", f8, 3),
    ("geodesic", i8),        # by j: 1 if the path on the surface is an ellipsoid geodesic
    ("order", i8),           # by position i of the wrapping order: the path wrap wrapped i-th
    ("code", i8),            # by position i: its result (NO_WRAP ... FALLBACK)
], align=True)
