"""Record layouts of the compiled tree and of the per-node workspace.

Kernels receive a handful of structured arrays instead of dozens of plain ones:
``nodes[n].Xp_R`` reads like a field and costs a pointer offset. (Passing large
tuples of arrays into numba calls costs a reference-count update per array per
call; records avoid that.)
"""
import numpy as np

f8 = np.float64
i8 = np.int64

NODE = np.dtype([
    ("parent", i8),          # parent node (-1: world)
    ("jtype", i8),           # joint type code (kernels._joints)
    ("ncol", i8),            # columns of S (velocity coordinates the joint depends on)
    ("qidx", i8),            # first q index of free/spherical joints
    ("colq", i8, 6),         # q index of each column's scalar coordinate
    ("colv", i8, 6),         # v index of each column
    ("axis", f8, 3),         # revolute/prismatic unit axis (joint frame)
    ("Xp_R", f8, (3, 3)),    # joint parent-side frame in the parent node frame
    ("Xp_p", f8, 3),
    ("gen_axis", f8, (6, 3)),   # general joint: 3 rotation then 3 translation axes
    ("gen_col", i8, 6),         # column driving each axis (-1: constant)
    ("gen_chain", i8, (6, 3)),  # function ids per axis, innermost first
    ("gen_nchain", i8, 6),
    ("pcs_x", f8),           # PCS: arclength inside the segment, m
    ("pcs_seg", i8),         # PCS: segment id
    ("mass", f8),            # inertia of the node: mass kg, first moment kg m, rotational inertia
    ("mcom", f8, 3),         #   about the node origin kg m^2, all in node axes
    ("Io", f8, (3, 3)),
    ("dyn", i8),             # 1 if the node or a descendant has inertia
], align=True)

SEGMENT = np.dtype([
    ("rest", f8, 6),         # rest strain xi_0 (1/m, -)
    ("col", i8, 6),          # node column of each free mode (-1: fixed at rest)
    ("q", i8, 6),            # q index of each free mode (-1: fixed)
    ("v", i8, 6),            # v index of each free mode
    ("length", f8),          # m
    ("k", f8, 6),            # stiffness of each mode times length (seed eq. 26)
    ("d", f8, 6),            # damping of each mode times length
    ("tip", i8),             # node of the segment tip
], align=True)

FRAME = np.dtype([("node", i8), ("R", f8, (3, 3)), ("p", f8, 3)], align=True)

FUNCTION = np.dtype([("kind", i8), ("off", i8), ("n", i8)], align=True)

WORK = np.dtype([
    ("pR", f8, (3, 3)), ("pp", f8, 3),     # node placement in its parent node
    ("oR", f8, (3, 3)), ("op", f8, 3),     # node placement in the world
    ("S", f8, (6, 6)), ("c", f8, 6),       # motion subspace and joint bias (node frame)
    ("vel", f8, 6), ("acc", f8, 6),        # body twist and body acceleration (node frame)
    ("f", f8, 6),                          # RNEA wrench (node frame)
    ("cm", f8), ("ch", f8, 3), ("cI", f8, (3, 3)),   # composite inertia (CRBA)
], align=True)

SCRATCH = np.dtype([
    ("JR", f8, (3, 3)), ("Jp", f8, 3), ("F", f8, (6, 6)), ("sv", f8, 6),
    ("f", f8, 6), ("df", f8, 6), ("ddf", f8, 6), ("rate", f8, 6), ("rate2", f8, 6),
    ("xi", f8, 6), ("dxi", f8, 6),
    ("R0", f8, (3, 3)), ("R1", f8, (3, 3)), ("R2", f8, (3, 3)), ("R12", f8, (3, 3)), ("e", f8, (6, 3)),
    ("XR", f8, (3, 3)), ("Xp", f8, 3),
], align=True)


def workspace(n_nodes: int):
    """Per-node work records and one scratch record."""
    return np.zeros(max(n_nodes, 1), WORK), np.zeros(1, SCRATCH)
