"""Compile a :class:`~engine.model.Model` into the flat arrays the kernels use.

The compiled tree is a list of *nodes* in topological order (parents first).
A node is a rigid body, a Gauss-Legendre slice of a PCS rod segment carrying
that slice's share of the segment's inertia (seed eq. 23 integrated by
quadrature), a segment tip, or a massless point on a rod. Every node moves
relative to a parent-side frame by one joint motion (``kernels._joints``); the
slices and the tip of a rod segment share that segment's strain coordinates,
which the recursive algorithms handle by accumulating into the same columns
(seed Appendix B: ``M = sum_i J_i^T M_i J_i`` over rigid bodies and slices).

Attached frames (bodies' own frames, markers, contact points, user frames)
are ``(node, placement in node)`` pairs.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np

from .errors import ModelError
from .kernels import _functions as kf
from .kernels import _joints as kj
from .kernels._layout import FRAME, NODE, SEGMENT
from .model.functions import Composition, Constant
from .model.joints import (FreeJoint, GeneralJoint, Joint, PrismaticJoint, RevoluteJoint, SphericalJoint,
                           TransformAxis, UniversalJoint, WeldJoint)
from .model.model import GROUND
from .model.muscles import MovingPathPoint
from .model.rods import MODES
from .per_model import PerModel
from .spatial import SE3

KTree = namedtuple("KTree", ["nq", "nv", "gravity", "nodes", "segs", "frames", "funcs", "fpool", "v2q", "quat_q"])
KTree.__doc__ = """The compiled model for the kernels: record arrays (``kernels._layout``) and index maps."""


@dataclass
class CoordinateSlot:
    """Where a scalar coordinate lives: its q and v index (both -1 for a dependent one); ``clamped``: IK keeps it
    within ``range`` (the model's flag, OpenSim's)."""
    name: str
    kind: str
    qi: int
    vi: int
    range: tuple
    default: float
    locked: bool
    coupled_to: str | None = None
    clamped: bool = False


@dataclass
class Tree:
    """A compiled model: kernel arrays plus the names that map them back to the model.

    Attributes
    ----------
    k : KTree
        The arrays handed to kernels.
    nq, nv : int
        Sizes of the configuration q and velocity v (the seed's psi).
    q_names, v_names : list of str
    coordinates : dict name -> CoordinateSlot (every scalar coordinate, dependent ones too)
    body_frame, marker_frame, contact_frame, frame_index : dict name -> attached-frame index
    path_point_frame : dict (muscle, point) -> frame index (at a moving point's parent origin)
    wrap_frame : dict wrap object -> frame index (the wrap surface's own frame)
    dependent : list of (name, independent coordinate name, Function)
    rod_segments : dict rod name -> list of segment ids
    node_label : list of str, what each node is (for messages and tests)
    """

    k: KTree
    nq: int
    nv: int
    q_names: list
    v_names: list
    coordinates: dict
    body_frame: dict
    marker_frame: dict
    contact_frame: dict
    frame_index: dict
    dependent: list
    rod_segments: dict
    node_label: list
    q_neutral: np.ndarray
    joint_q: dict = field(default_factory=dict)   # joint/rod name -> (q start, nq, v start, nv)
    path_point_frame: dict = field(default_factory=dict)   # (muscle, point) -> frame (moving points: parent origin)
    wrap_frame: dict = field(default_factory=dict)          # wrap object -> frame at its placement

    @property
    def n_nodes(self) -> int:
        return self.k.nodes.shape[0]

    @property
    def n_frames(self) -> int:
        return self.k.frames.shape[0]


class _Builder:
    def __init__(self, model):
        self.model = model
        self.nodes: list[dict] = []
        self.frames: list[tuple[int, SE3]] = []
        self.fun_elements: list[tuple[int, np.ndarray]] = []
        self.segments: list[dict] = []
        self.owner_node: dict[str, int] = {GROUND: -1}
        self.owner_frame: dict[str, SE3] = {GROUND: SE3()}   # placement of owner frame in its node
        self.coords: dict[str, CoordinateSlot] = {}
        self.q_names: list[str] = []
        self.v_names: list[str] = []
        self.joint_q: dict = {}
        self.quat_q: list[int] = []
        self.v2q: list[int] = []
        self.q_neutral: list[float] = []

    # ---------------------------------------------------------------- layout
    def layout(self):
        nq = nv = 0
        for el in self.model.ordered_elements:
            q0, v0 = nq, nv
            if isinstance(el, FreeJoint):
                names = ["tx", "ty", "tz", "qx", "qy", "qz", "qw"]
                self.q_names += [f"{el.name}_{n}" for n in names]
                self.v_names += [f"{el.name}_{n}" for n in ("wx", "wy", "wz", "vx", "vy", "vz")]
                self.quat_q.append(nq + 3)
                self.v2q += [-1] * 6
                self.q_neutral += [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
                nq += 7
                nv += 6
            elif isinstance(el, SphericalJoint):
                self.q_names += [f"{el.name}_{n}" for n in ("qx", "qy", "qz", "qw")]
                self.v_names += [f"{el.name}_{n}" for n in ("wx", "wy", "wz")]
                self.quat_q.append(nq)
                self.v2q += [-1] * 3
                self.q_neutral += [0.0, 0.0, 0.0, 1.0]
                nq += 4
                nv += 3
            coords = el.coordinates if isinstance(el, Joint) else [
                self.model.coordinate(n) for n in el.coordinate_names()]
            for c in coords:
                if c.is_dependent:
                    self.coords[c.name] = CoordinateSlot(c.name, c.kind, -1, -1, c.range, c.default, c.locked,
                                                         c.coupled_to, c.clamped)
                    continue
                self.coords[c.name] = CoordinateSlot(c.name, c.kind, nq, nv, c.range, c.default, c.locked,
                                                     clamped=c.clamped)
                self.q_names.append(c.name)
                self.v_names.append(c.name)
                self.v2q.append(nq)
                self.q_neutral.append(c.default)
                nq += 1
                nv += 1
            self.joint_q[el.name] = (q0, nq - q0, v0, nv - v0)
        self.nq, self.nv = nq, nv

    # ----------------------------------------------------------------- nodes
    def add_node(self, parent, jtype, Xp: SE3, label, cols=(), axis=(0.0, 0.0, 0.0), qidx=-1,
                 general=None, pcs=None, inertia=None):
        if len(cols) > 6:
            raise ModelError("a joint may depend on at most 6 coordinates", label)
        self.nodes.append(dict(parent=parent, jtype=jtype, Xp=Xp, label=label, cols=list(cols), axis=axis,
                               qidx=qidx, general=general, pcs=pcs, inertia=inertia))
        return len(self.nodes) - 1

    def add_chain(self, function) -> tuple[list[int], int]:
        ids = []
        for kind, params in function.elements():
            self.fun_elements.append((kind, np.asarray(params, float)))
            ids.append(len(self.fun_elements) - 1)
        if len(ids) > 3:
            raise ModelError("function chains deeper than 3 elements are not supported", "function")
        return ids, len(ids)

    def parent_of(self, ref: str, offset: SE3) -> tuple[int, SE3]:
        owner, placement = self.model.resolve(ref)
        return self.owner_node[owner], self.owner_frame[owner] @ placement @ offset

    def body_inertia(self, body, node_from_body: SE3):
        if body.massless:
            return None
        R = node_from_body.R
        c = node_from_body.act(body.com)
        Ic = R @ body.inertia @ R.T
        Io = Ic + body.mass * (c @ c * np.eye(3) - np.outer(c, c))
        return body.mass, body.mass * c, Io

    def joint_nodes(self, j: Joint):
        parent, Xp = self.parent_of(j.parent, j.parent_offset)
        label = f"joint '{j.name}'"
        body = self.model.body(j.child)
        node_from_body = j.child_offset.inverse()
        inertia = self.body_inertia(body, node_from_body)
        slot = self.coords
        if isinstance(j, (RevoluteJoint, PrismaticJoint)):
            c = slot[j.coordinates[0].name]
            n = self.add_node(parent, kj.REVOLUTE if isinstance(j, RevoluteJoint) else kj.PRISMATIC, Xp, label,
                              cols=[(c.qi, c.vi)], axis=j.axis, inertia=inertia)
        elif isinstance(j, FreeJoint):
            q0, _, v0, _ = self.joint_q[j.name]
            n = self.add_node(parent, kj.FREE, Xp, label, cols=[(-1, v0 + i) for i in range(6)], qidx=q0,
                              inertia=inertia)
        elif isinstance(j, SphericalJoint):
            q0, _, v0, _ = self.joint_q[j.name]
            n = self.add_node(parent, kj.SPHERICAL, Xp, label, cols=[(-1, v0 + i) for i in range(3)], qidx=q0,
                              inertia=inertia)
        elif isinstance(j, WeldJoint):
            n = self.add_node(parent, kj.WELD, Xp, label, inertia=inertia)
        elif isinstance(j, (GeneralJoint, UniversalJoint)):
            n = self.general_node(j, parent, Xp, label, inertia)
        else:
            raise ModelError(f"unsupported joint type {type(j).__name__}", label)
        self.owner_node[j.child] = n
        self.owner_frame[j.child] = node_from_body
        self.frames.append((n, node_from_body))
        return n

    def general_node(self, j, parent, Xp, label, inertia):
        if isinstance(j, UniversalJoint):
            a1, a2 = np.array(j.axis1), np.array(j.axis2)
            a3 = np.cross(a1, a2)
            if np.linalg.norm(a3) < 1e-9:
                raise ModelError("axis1 and axis2 must not be parallel", label)
            axes = [TransformAxis(a1, j.coordinates[0].name), TransformAxis(a2, j.coordinates[1].name),
                    TransformAxis(a3, None, Constant(0.0)), TransformAxis((1, 0, 0), None, Constant(0.0)),
                    TransformAxis((0, 1, 0), None, Constant(0.0)), TransformAxis((0, 0, 1), None, Constant(0.0))]
        else:
            axes = list(j.axes)
        cols: list[tuple[int, int]] = []
        col_of: dict[str, int] = {}
        for c in j.coordinates:  # own independent coordinates first, in declared order
            if not c.is_dependent:
                col_of[c.name] = len(cols)
                cols.append((self.coords[c.name].qi, self.coords[c.name].vi))
        gen_axis = np.zeros((6, 3))
        gen_col = -np.ones(6, np.int64)
        gen_chain = np.zeros((6, 3), np.int64)
        gen_nchain = np.zeros(6, np.int64)
        for k, ax in enumerate(axes):
            gen_axis[k] = ax.axis
            fun = ax.function
            name = ax.coordinate
            if name is not None:
                cslot = self.coords[name]
                if cslot.coupled_to is not None:
                    fun = Composition(fun, self.model.coordinate(name).coupler)
                    name = cslot.coupled_to
                if name not in col_of:
                    col_of[name] = len(cols)
                    cols.append((self.coords[name].qi, self.coords[name].vi))
                gen_col[k] = col_of[name]
            ids, nchain = self.add_chain(fun)
            gen_chain[k, :nchain] = ids
            gen_nchain[k] = nchain
        return self.add_node(parent, kj.GENERAL, Xp, label, cols=cols,
                             general=(gen_axis, gen_col, gen_chain, gen_nchain), inertia=inertia)

    def rod_nodes(self, rod):
        parent, Xp = self.parent_of(rod.parent, rod.offset)
        names = rod.coordinate_names()
        k = 0
        gauss_x, gauss_w = np.polynomial.legendre.leggauss(rod.quadrature)
        seg_ids = []
        for i, sg in enumerate(rod.segments):
            cols = []
            seg_col = -np.ones(6, np.int64)
            seg_q = -np.ones(6, np.int64)
            seg_v = -np.ones(6, np.int64)
            for m in sg.free_modes:
                slot = self.coords[names[k]]
                k += 1
                seg_col[MODES.index(m)] = len(cols)
                seg_q[MODES.index(m)] = slot.qi
                seg_v[MODES.index(m)] = slot.vi
                cols.append((slot.qi, slot.vi))
            sid = len(self.segments)
            self.segments.append(dict(rest=np.array(sg.rest_strain), col=seg_col, q=seg_q, v=seg_v, length=sg.length,
                                      k=sg.stiffness_diagonal() * sg.length, d=sg.damping_diagonal() * sg.length,
                                      base=(parent, Xp), cols=cols))
            seg_ids.append(sid)
            mu, J = sg.line_inertia()
            for g in range(rod.quadrature):
                x = 0.5 * sg.length * (gauss_x[g] + 1.0)
                w = 0.5 * sg.length * gauss_w[g]
                self.add_node(parent, kj.PCS, Xp, f"rod '{rod.name}' segment {i + 1} slice {g + 1}", cols=cols,
                              pcs=(x, sid), inertia=(w * mu, np.zeros(3), w * J))
            tip = self.add_node(parent, kj.PCS, Xp, f"rod '{rod.name}' segment {i + 1} tip", cols=cols,
                                pcs=(sg.length, sid))
            self.segments[sid]["tip"] = tip
            parent, Xp = tip, SE3()
        self.owner_node[rod.name] = parent
        self.owner_frame[rod.name] = SE3()
        self.rod_segments[rod.name] = seg_ids

    def point_frame(self, parent: str, offset, s, label: str) -> int:
        """An attached frame at ``offset`` in ``parent`` (a body or frame), or on rod ``parent`` at arclength
        ``s`` with ``offset`` in the cross-section frame (a massless PCS node)."""
        if parent in self.rod_segments:
            rod = self.model.rod(parent)
            i, x = rod.segment_at(s)
            sid = self.rod_segments[rod.name][i]
            seg = self.segments[sid]
            base, Xp = seg["base"]
            node = self.add_node(base, kj.PCS, Xp, f"{label} on rod '{rod.name}'", cols=seg["cols"], pcs=(x, sid))
            return self.add_frame(node, SE3(np.eye(3), offset))
        node, placement = self.parent_of(parent, SE3(np.eye(3), offset))
        return self.add_frame(node, placement)

    def add_frame(self, node, placement):
        self.frames.append((node, placement))
        return len(self.frames) - 1

    # ------------------------------------------------------------------ build
    def build(self) -> Tree:
        self.layout()
        self.rod_segments: dict[str, list[int]] = {}
        body_frame = {}
        for el in self.model.ordered_elements:
            if isinstance(el, Joint):
                self.joint_nodes(el)
                body_frame[el.child] = len(self.frames) - 1
            else:
                self.rod_nodes(el)
        frame_index = {}
        for f in self.model.frames:
            owner, placement = self.model.resolve(f.name)
            if owner == GROUND:
                frame_index[f.name] = self.add_frame(-1, placement)
            else:
                frame_index[f.name] = self.add_frame(self.owner_node[owner], self.owner_frame[owner] @ placement)
        for r in self.model.rods:
            frame_index[r.name] = self.add_frame(self.owner_node[r.name], SE3())
        marker_frame = {m.name: self.point_frame(m.parent, m.offset, m.s, f"marker '{m.name}'")
                        for m in self.model.markers}
        contact_frame = {c.name: self.point_frame(c.parent, c.offset, c.s, f"contact point '{c.name}'")
                         for c in self.model.contacts}
        path_point_frame = {}
        for mu in self.model.muscles:
            for pt in mu.path.points:
                # a moving point's location is a function of coordinates, added in its parent's frame
                offset = np.zeros(3) if isinstance(pt, MovingPathPoint) else pt.location
                path_point_frame[(mu.name, pt.name)] = self.point_frame(
                    pt.parent, offset, pt.s, f"path point '{pt.name}' of muscle '{mu.name}'")
        wrap_frame = {}
        for wo in self.model.wrap_objects:
            node, placement = self.parent_of(wo.body, wo.placement)
            wrap_frame[wo.name] = self.add_frame(node, placement)
        k = self.arrays()
        dependent = [(c.name, c.coupled_to, c.coupler) for c in self.model.all_coordinates if c.is_dependent]
        return Tree(k=k, nq=self.nq, nv=self.nv, q_names=self.q_names, v_names=self.v_names,
                    coordinates=self.coords, body_frame=body_frame, marker_frame=marker_frame,
                    contact_frame=contact_frame, frame_index=frame_index, dependent=dependent,
                    path_point_frame=path_point_frame, wrap_frame=wrap_frame,
                    rod_segments=self.rod_segments, node_label=[n["label"] for n in self.nodes],
                    q_neutral=np.array(self.q_neutral, float), joint_q=self.joint_q)

    def arrays(self) -> KTree:
        N = len(self.nodes)
        nodes = np.zeros(N, NODE)
        nodes["gen_col"] = -1
        nodes["pcs_seg"] = -1
        nodes["colq"] = -1
        nodes["colv"] = -1
        for i, n in enumerate(self.nodes):
            rec = nodes[i]
            rec["parent"] = n["parent"]
            rec["jtype"] = n["jtype"]
            rec["ncol"] = len(n["cols"])
            rec["qidx"] = n["qidx"]
            for j, (qi, vi) in enumerate(n["cols"]):
                rec["colq"][j] = qi
                rec["colv"][j] = vi
            rec["axis"] = n["axis"]
            rec["Xp_R"] = n["Xp"].R
            rec["Xp_p"] = n["Xp"].p
            if n["general"] is not None:
                rec["gen_axis"], rec["gen_col"], rec["gen_chain"], rec["gen_nchain"] = n["general"]
            if n["pcs"] is not None:
                rec["pcs_x"], rec["pcs_seg"] = n["pcs"]
            if n["inertia"] is not None:
                rec["mass"], rec["mcom"], rec["Io"] = n["inertia"]
        # A node takes part in dynamics if it or a descendant has inertia.
        dyn = nodes["mass"] > 0.0
        for i in range(N - 1, -1, -1):
            if dyn[i] and nodes["parent"][i] >= 0:
                dyn[nodes["parent"][i]] = True
        nodes["dyn"] = dyn
        segs = np.zeros(len(self.segments), SEGMENT)
        for i, s in enumerate(self.segments):
            segs[i] = (s["rest"], s["col"], s["q"], s["v"], s["length"], s["k"], s["d"], s["tip"])
        frames = np.zeros(len(self.frames), FRAME)
        for i, (node, placement) in enumerate(self.frames):
            frames[i] = (node, placement.R, placement.p)
        funcs, fpool = kf.pool_of(self.fun_elements)
        return KTree(nq=self.nq, nv=self.nv, gravity=np.array(self.model.gravity, float), nodes=nodes, segs=segs,
                     frames=frames, funcs=funcs, fpool=fpool, v2q=np.array(self.v2q, np.int64),
                     quat_q=np.array(self.quat_q, np.int64))


def _build(model) -> Tree:
    return _Builder(model).build()


_compiled = PerModel(_build)


def compile_tree(model) -> Tree:
    """The compiled :class:`Tree` of ``model`` (an ``engine.model.Model``), built on the first call and kept
    while the model lives (the model is immutable; it does not know its tree).

    Raises
    ------
    ModelError
        If a part of the model cannot be compiled (e.g. a joint on more than 6 coordinates).
    """
    return _compiled(model)


__all__ = ["KTree", "Tree", "CoordinateSlot", "compile_tree"]
