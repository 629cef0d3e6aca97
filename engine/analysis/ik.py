"""Inverse kinematics from marker trajectories (seed section 2.3.1, eq. 32).

``inverse_kinematics(model, markers, settings)`` is a generator step (see
``engine.progress``); ``solve_ik`` runs it to the end. Markers on rods
are fitted like any other: rod strains are coordinates. A coordinate is kept within its range where the model marks
it clamped (rod strains with declared ranges are), as OpenSim's IK does; ``engine.analysis.ik_bounds`` says where
a solution reaches or leaves a range.

The first frame needs no manual pose: the root body's pose is found first from
the markers it carries (Kabsch alignment, turned into the root joint's coordinates for a floating base and
for OpenSim's pelvis joints; a multi-start search over the rotations of other root joints), then
every coordinate is solved. Later frames start from the previous solution; a frame that does not converge
from there, or converges to a fit far worse than the trial's usual frame (a local minimum), is solved again
from a pose found from its own markers, and the better fit is kept. Then the robust loss
(``engine.analysis.robust_weights``) re-weights the samples fitted far beyond their marker's usual residual and
solves their frames again, until the weights settle (iteratively re-weighted least squares).
"""
from __future__ import annotations

import itertools
import time as _time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.linalg import eigh

from .. import algorithms as alg
from ..data import Data
from ..errors import SettingsError
from ..tree import compile_tree
from . import _ik
from .ik_unobserved import hold, unobserved
from .robust_weights import check_loss, marker_scales, robust_factors
from ..model.coordinates import ROTATIONAL
from ..model.functions import Linear
from ..model.joints import FreeJoint, GeneralJoint, Joint
from ..spatial import SE3, matrix_to_quat
from ..progress import Progress, run
from ..work_cpu import counted

STUCK_COST_RATIO = 9.0     # a frame whose cost is this many times the median (3 times its RMS) is solved again
ROBUST_ROUNDS = 20         # re-weightings of the robust loss at most
ROBUST_SETTLED = 1e-3      # a weight factor that moves less than this is settled
START_TOLERANCE = 1e-4     # step (rad, m) at which a start of the root's search is ranked; the frame is then solved fully
MIN_PART_FRAMES = 400      # frames a thread solves at least: a part after the first costs an initial pose, a thread
                           # and the wait for a second core (milliseconds on a busy machine) beside ~25 us a frame
PART_COST_TOLERANCE = 1e-6  # relative cost by which a warm start across parts' boundary must beat the part's own
PRIOR_OUTWEIGHS = 1.0      # the rods' strain prior acts where the markers' information is below this times its own


@dataclass(frozen=True, eq=False)
class CoordinateTrack:
    """A coordinate task's target over time (OpenSim's ``from_file``): ``values`` (rad, m, 1/m) at ``time`` (s),
    from the file ``source``. At a marker frame it is the quintic spline through the values (OpenSim fits a GCV
    quintic spline, which smooths noisy values slightly; through the values of an earlier IK of the same frames both
    give those values)."""

    time: np.ndarray
    values: np.ndarray
    source: str = ""

    def at(self, time) -> np.ndarray:
        """The target at ``time`` (s); SettingsError naming the file for a time outside its span (beyond half a
        sample), where it would be an extrapolation."""
        time = np.asarray(time, float)
        step = np.median(np.diff(self.time)) if len(self.time) > 1 else 0.0
        if len(self.time) < 2 or time.min() < self.time[0] - 0.5 * step or time.max() > self.time[-1] + 0.5 * step:
            raise SettingsError(f"its values span {self.time[0]:g}-{self.time[-1]:g} s, not the frames' "
                                f"{time.min():g}-{time.max():g} s", element="coordinate task target", file=self.source)
        from scipy.interpolate import make_interp_spline     # imported when used: the window imports this module
        spline = make_interp_spline(self.time, self.values, k=min(5, len(self.time) - 1))
        return spline(np.clip(time, self.time[0], self.time[-1]))


@dataclass
class IKSettings:
    """Settings of inverse kinematics.

    marker_weights : weight per marker name (others get ``default_weight``; 0 leaves a marker out).
    coordinate_tasks : ``{coordinate: (weight, target)}``; target ``None`` means the coordinate's default
        (OpenSim's IKCoordinateTask with ``default_value``), a number a fixed target (``manual_value``), a
        :class:`CoordinateTrack` a target over time (``from_file``). Units of the target: rad, m, 1/m.
    rod_energy_weight : lambda (m^2 per J): a prior on the rods' strains, the elastic energy ``E = 1/2 (q -
        q_rest)^T K (q - q_rest)`` (seed eq. 26) times lambda, added to the cost in the strain directions the
        markers inform less than it, so that strain modes the markers hardly see (the twist of a short tip
        segment, how the bending shares itself between neighbouring segments) stay near rest in proportion to
        their stiffness instead of following the marker noise; 0 (default) leaves the strains to the markers
        alone. Those directions are the generalized eigenvectors of the markers' information on the strains
        (``S``, the Schur complement of ``J^T W J`` at the rest pose, the other coordinates free) against the
        prior's (``P = lambda K / 2``) whose eigenvalue is below :data:`PRIOR_OUTWEIGHS`: where the markers
        outweigh the prior it would only shrink what they measure (on the demo's blade, the compression's direction,
        markers 36 times the prior: the full prior shortened the peak compression by 3.4 %). It acts as coordinate
        tasks toward rest on the strains (replacing any task given for them) weighted by ``P V V^T P``, ``V``
        those eigenvectors (``V^T P V = I``).
    start, end : time range in s (None: the whole trial).
    tolerance : convergence on the step size (rad, m, strain units). The default 1e-6 leaves the coordinates within
        about 2e-7 of the fit at 1e-9 and each frame's marker RMS within 2e-6 mm of it (gait2354 walk 1), for half
        the iterations: Gauss-Newton converges only linearly on residuals of tens of mm.
    max_iterations : per frame.
    chunk : frames per kernel call (granularity of progress and cancel).
    threads : the trial is cut into this many contiguous parts (default: numba's thread count,
        ``numba.config.NUMBA_NUM_THREADS``: the CPU count unless the environment sets it, as a study's workers do
        to one, so that two workers on two cores do not run four threads; at least
        ``MIN_PART_FRAMES`` frames each), solved side by side; each part after the first starts from a pose found
        from its first frame's own markers (as the first frame does), then runs warm-started.
    robust_loss : "huber", "cauchy" or None: the samples fitted far beyond their marker's usual residual lose
        weight (``engine.analysis.robust_weights``); None fits every sample at its marker's weight.
    robust_threshold : k, in robust standard deviations (1.4826 MAD) of a marker's residuals over the trial,
        beyond its median residual (and at least ``robust_weights.FLOOR`` beyond it), where the loss starts.
    notes : what building these settings left out (tasks of an OpenSim setup naming what the model does not have);
        the analysis repeats them in its notes.
    """

    marker_weights: dict = field(default_factory=dict)
    default_weight: float = 1.0
    coordinate_tasks: dict = field(default_factory=dict)
    rod_energy_weight: float = 0.0
    start: float | None = None
    end: float | None = None
    tolerance: float = 1e-6
    max_iterations: int = 200
    chunk: int = 50
    threads: int | None = None
    robust_loss: str | None = "cauchy"
    robust_threshold: float = 4.0
    notes: tuple = ()


@dataclass
class IKResult:
    """IK output. ``q`` (T, nq) configurations; ``errors`` (T, K) marker distances in m (NaN where
    missing); ``rms``/``max`` (T,) m over the markers present (``rms = sqrt(sum e^2 / n_present)``: OpenSim's
    ``marker_error_RMS`` divides by every marker in use, a missing one counted as 0, so where markers are missing it
    is lower by sqrt(n_present / n_used); equal in a frame missing none); ``status`` 1 converged, 0 not converged,
    -1 no markers. ``marker_names`` are the model markers fitted, in the columns of ``errors``;
    ``robust_factors`` (T, K) what the robust loss multiplied each sample's weight by (1: kept; None: results
    saved before the loss existed); ``thresholds`` (K,) m, each marker's residual where the loss starts (NaN:
    none); ``unobserved`` (T, nv) bool, the free velocity coordinates no present marker (nor task) informed in
    a frame, held at the neighbouring solved frame's value (``engine.analysis.ik_unobserved``; None: results
    saved before it existed)."""

    time: np.ndarray
    q: np.ndarray
    marker_names: list
    errors: np.ndarray
    rms: np.ndarray
    max: np.ndarray
    iterations: np.ndarray
    status: np.ndarray
    cost: np.ndarray
    seconds: float
    unused_model_markers: list
    unused_trial_markers: list
    weights: np.ndarray
    robust_factors: np.ndarray | None = None
    thresholds: np.ndarray | None = None
    unobserved: np.ndarray | None = None

    @property
    def n_frames(self) -> int:
        return len(self.time)


def _window(markers, start, end):
    t = markers.time
    lo = t[0] if start is None else start
    hi = t[-1] if end is None else end
    if hi < lo:
        raise SettingsError(f"the time range ends ({hi} s) before it starts ({lo} s)")
    sel = np.flatnonzero((t >= lo - 1e-9) & (t <= hi + 1e-9))
    if sel.size == 0:
        raise SettingsError(f"no marker frame between {lo} s and {hi} s (the trial spans {t[0]} to {t[-1]} s)")
    return sel


def _root(model) -> Joint:
    first = model.ordered_elements[0]
    if not isinstance(first, Joint):
        raise SettingsError("the model's first element is a rod; IK needs a body at the root")
    return first


def _some(names, what: str, shown: int = 8) -> str:
    """How many ``names`` there are and the first ``shown`` of them sorted ("31 markers: L.ASIS, L.Heel, ..."), so that
    a naming convention apart (``Sub01:LASI`` against ``LASI``) is seen at once."""
    listed = sorted(names)
    return (f"{len(listed)} {what}{'' if len(listed) == 1 else 's'}: " + ", ".join(listed[:shown])
            + (", ..." if len(listed) > shown else ""))


class _Problem:
    """The arrays the kernel needs, built once per IK run."""

    def __init__(self, model, markers, settings: IKSettings):
        tree = compile_tree(model)
        self.frames = _window(markers, settings.start, settings.end)
        names = [m.name for m in model.markers]
        trial_names = set(markers.names)
        for name in settings.marker_weights:
            if name not in names:
                raise SettingsError(f"a weight is given for marker {name!r}, which the model does not have")
        used = [n for n in names if n in trial_names and settings.marker_weights.get(n, settings.default_weight) > 0]
        if not used:
            found = [n for n in names if n in trial_names]
            if found:
                raise SettingsError(f"every model marker the trial has ({_some(found, 'marker')}) has the weight 0: "
                                    "IK has no marker to fit")
            raise SettingsError("no model marker is found in the trial (compare the marker names): "
                                + (f"the model's {_some(names, 'marker')}" if names else "the model has no marker")
                                + f"; the trial's {_some(markers.names, 'label')}")
        self.marker_names = used
        parent_of = {m.name: m.parent for m in model.markers}
        self.owners = [model.resolve(parent_of[n])[0] for n in used]     # the body or rod carrying each marker
        self.unused_model = [n for n in names if n not in trial_names]
        self.unused_trial = [n for n in markers.names if n not in set(names)]
        self.mframes = np.array([tree.marker_frame[n] for n in used], np.int64)
        self.weights = np.array([float(settings.marker_weights.get(n, settings.default_weight)) for n in used])
        cols = [markers.index(n) for n in used]
        self.trial_cols = cols
        tasks = dict(settings.coordinate_tasks)
        strains = []
        if settings.rod_energy_weight:
            if not (np.isfinite(settings.rod_energy_weight) and settings.rod_energy_weight > 0):
                raise SettingsError(f"rod_energy_weight must be a positive number, got {settings.rod_energy_weight}")
            segs = tree.k.segs
            free = segs["q"] >= 0
            stiffness = dict(zip(segs["q"][free].tolist(), segs["k"][free].tolist()))
            for name, slot in tree.coordinates.items():
                if slot.qi in stiffness and not slot.locked:
                    tasks[name] = (0.5 * settings.rod_energy_weight * stiffness[slot.qi], None)
                    strains.append(name)
        c_names = list(tasks)
        slots = []
        for c in c_names:
            if c not in tree.coordinates or tree.coordinates[c].qi < 0:
                raise SettingsError(f"a coordinate task names {c!r}, which is not an independent coordinate")
            slots.append(tree.coordinates[c])
        self.c_q = np.array([s.qi for s in slots], np.int64)
        self.c_v = np.array([s.vi for s in slots], np.int64)
        self.c_w = np.diag([float(tasks[c][0]) for c in c_names])
        times = markers.time[self.frames]
        self.c_target = np.zeros((len(times), len(c_names)))       # per frame of the time range
        for i, (c, s) in enumerate(zip(c_names, slots)):
            target = tasks[c][1]
            self.c_target[:, i] = s.default if target is None else (
                target.at(times) if isinstance(target, CoordinateTrack) else float(target))
        self.free = np.ones(model.nv, bool)
        self.lo = np.full(model.nq, -np.inf)
        self.hi = np.full(model.nq, np.inf)
        q0 = alg.neutral(model)
        for s in tree.coordinates.values():
            if s.qi < 0:
                continue
            if s.clamped:
                self.lo[s.qi], self.hi[s.qi] = s.range
            if s.locked:
                self.free[s.vi] = False
                q0[s.qi] = s.default
        self.q_neutral = q0
        if strains:
            block = np.array([c_names.index(n) for n in strains])
            self.c_w[np.ix_(block, block)] = self._strain_prior(model, self.c_v[block], self.c_w[block, block])

    def _strain_prior(self, model, vi, p) -> np.ndarray:
        """The strain prior's weights (S, S) on the strains of velocity columns ``vi`` (S,) with the full prior's
        diagonal ``p`` (S,): ``P V V^T P``, ``V`` the generalized eigenvectors of the markers' information on the
        strains against ``P = diag(p)`` whose eigenvalue is below :data:`PRIOR_OUTWEIGHS` (IKSettings)."""
        data = Data(model)
        alg.forward_kinematics(model, data, self.q_neutral)
        points = alg.frame_positions(model, data, self.mframes)          # every marker where the model puts it
        nv = model.nv
        H, g = np.empty((nv, nv)), np.empty(nv)
        tree = compile_tree(model)
        n_nodes = tree.n_nodes
        empty_i = np.zeros(0, np.int64)
        _ik._normal_equations(tree.k, data.ws, data.scr, self.q_neutral, self.mframes, points,
                              self.weights, empty_i, empty_i, np.zeros(0), np.zeros((0, 0)), H, g,
                              np.empty((n_nodes, 6, 6)), np.empty((n_nodes, 16)))
        others = np.setdiff1d(np.flatnonzero(self.free), vi)
        # information on the strains with the other coordinates free to follow them (Schur complement)
        S = H[np.ix_(vi, vi)] - H[np.ix_(vi, others)] @ np.linalg.pinv(H[np.ix_(others, others)], hermitian=True) \
            @ H[np.ix_(others, vi)]
        mu, V = eigh(0.5 * (S + S.T), np.diag(p))
        V = V[:, mu < PRIOR_OUTWEIGHS]
        P = np.diag(p)
        return P @ V @ V.T @ P

    def targets(self, markers, frames):
        return np.ascontiguousarray(markers.positions[frames][:, self.trial_cols])

    def solve(self, model, data, targets, rows, q_start, free, settings, weights=None, warm=True):
        """Solve the frames of ``targets`` (F, K, 3), rows ``rows`` (F,) of the time range (their coordinate
        targets): in turn from ``q_start`` (nq,) when ``warm``, else each from its own row of ``q_start`` (F, nq).
        ``weights`` (K,) or (F, K) (default: the markers' weights). Returns ``(Q, iterations, status, cost, info)``,
        ``info`` (F, nv) the diagonal of ``J^T W J`` at each solution (``_ik.solve_frames``)."""
        n = targets.shape[0]
        # a writable copy: a broadcast view is read-only, a type of its own to numba (a second compilation)
        weights = np.array(np.broadcast_to(self.weights if weights is None else weights, (n, len(self.weights))),
                           dtype=float, order="C")
        starts = np.ascontiguousarray(np.atleast_2d(q_start), dtype=float)
        Q = np.empty((n, model.nq))
        iters = np.empty(n, np.int64)
        status = np.empty(n, np.int64)
        cost = np.empty(n)
        info = np.empty((n, model.nv))
        _ik.solve_frames(compile_tree(model).k, data.ws, data.scr, self.mframes, targets, weights, self.c_q, self.c_v,
                         np.ascontiguousarray(self.c_target[rows]), self.c_w, free, self.lo, self.hi, starts, settings.tolerance,
                         settings.max_iterations, warm, Q, iters, status, cost, info)
        return Q, iters, status, cost, info


def initial_pose(model, data, problem: _Problem, first_targets, settings: IKSettings, row: int = 0) -> np.ndarray:
    """A configuration close to the first frame, found without a manual pose: the root body placed by aligning
    its markers (Kabsch, ``Rotation.align_vectors``) and turned into the root joint's coordinates (a floating base;
    a general joint whose rotations are its own coordinates about consecutive perpendicular axes, as OpenSim's
    pelvis joints, by Davenport angles), then fitted with the root's markers; other root joints by a multi-start
    search over their rotations. ``row``: the frame's row in the time range (its coordinate targets)."""
    root = _root(model)
    tree = compile_tree(model)
    q0, nq, v0, nv = tree.joint_q[root.name]
    q = problem.q_neutral.copy()
    present = ~np.isnan(first_targets[:, 0])
    on_root = np.array([owner == root.child for owner in problem.owners]) & present
    use = on_root if on_root.sum() >= 3 else present
    joint = _aligned_root(model, data, problem, first_targets, use, root, q)
    if isinstance(root, FreeJoint):
        if joint is None:
            return q
        q[q0:q0 + 3] = joint.p
        q[q0 + 3:q0 + 7] = matrix_to_quat(joint.R)
        return q
    root_free = np.zeros(model.nv, bool)
    root_free[v0:v0 + nv] = problem.free[v0:v0 + nv]
    weights = np.where(use, problem.weights, 0.0)
    aligned = None if joint is None else _general_root_coordinates(model, root, joint, q)
    if aligned is not None:
        return problem.solve(model, data, first_targets[None], [row], aligned, root_free, settings, weights)[0][0]
    rotational = [tree.coordinates[c.name].qi for c in root.coordinates
                  if c.kind == ROTATIONAL and not c.is_dependent and not c.locked]
    starts = np.tile(q, (4 ** len(rotational), 1))
    starts[:, rotational] = list(itertools.product((0.0, 0.5 * np.pi, np.pi, -0.5 * np.pi), repeat=len(rotational)))
    many = np.repeat(first_targets[None], len(starts), axis=0)
    ranking = replace(settings, tolerance=max(settings.tolerance, START_TOLERANCE))
    Q, _, _, cost, _ = problem.solve(model, data, many, np.full(len(starts), row), starts, root_free, ranking, weights,
                                  warm=False)
    return Q[int(np.argmin(cost))]


def _aligned_root(model, data, problem, targets, use, root, q):
    """The root joint's placement (child side in parent side, SE3) that moves the model's markers of ``use`` at
    ``q`` onto the measured ones (Kabsch, weighted); None for a root not on ground."""
    alg.forward_kinematics(model, data, q)
    model_points = alg.frame_positions(model, data, problem.mframes[use])
    measured = targets[use]
    w = problem.weights[use]
    mc = np.average(model_points, axis=0, weights=w)
    tc = np.average(measured, axis=0, weights=w)
    from scipy.spatial.transform import Rotation
    rot, _ = Rotation.align_vectors(measured - tc, model_points - mc, weights=w)
    R = rot.as_matrix()
    # world placement of the root node after moving the model points onto the measured ones
    body = alg.frame_placement(model, data, root.child)
    new_body = SE3(R @ body.R, R @ (body.p - mc) + tc)
    node_world = new_body @ root.child_offset
    if model.resolve(root.parent)[0] != "ground":
        return None
    return root.parent_offset.inverse() @ node_world


def _general_root_coordinates(model, root, joint: SE3, q):
    """``q`` with a general root joint's coordinates giving ``joint`` (SE3), or None when its axes are not of the
    form this inverts: three rotations, each a linear function of one of the joint's own independent
    coordinates, about consecutive perpendicular axes (Davenport angles, intrinsic), and three translations, each
    linear in one of its own coordinates, along independent axes."""
    if not isinstance(root, GeneralJoint):
        return None
    tree = compile_tree(model)
    own = {c.name for c in root.coordinates if not c.is_dependent}
    axes = root.rotations + root.translations
    if any(a.coordinate not in own or not isinstance(a.function, Linear) or a.function.slope == 0 for a in axes):
        return None
    r_axes = np.array([a.axis for a in root.rotations])
    t_axes = np.array([a.axis for a in root.translations]).T
    if (abs(r_axes[0] @ r_axes[1]) > 1e-9 or abs(r_axes[1] @ r_axes[2]) > 1e-9
            or abs(np.linalg.det(t_axes)) < 1e-6):
        return None
    from scipy.spatial.transform import Rotation
    angles = Rotation.from_matrix(joint.R).as_davenport(r_axes, "intrinsic")
    shifts = np.linalg.solve(t_axes, joint.p)
    q = q.copy()
    for a, value in zip(axes, np.concatenate([angles, shifts])):
        q[tree.coordinates[a.coordinate].qi] = (value - a.function.intercept) / a.function.slope
    return q


def _parts(first, T, has_markers, threads):
    """The frames ``first .. T-1`` in contiguous parts (index arrays), one per thread: as many as ``threads``
    (default: numba's thread count, module notes of :func:`solve_ik`'s ``threads``) allows with at least
    ``MIN_PART_FRAMES`` frames each, every part but the first beginning at a frame with markers."""
    from numba import config
    n = max(1, min(int(threads or config.NUMBA_NUM_THREADS or 1), (T - first) // MIN_PART_FRAMES))
    bounds = [first]
    for b in np.linspace(first, T, n + 1).astype(int)[1:-1]:
        with_markers = np.flatnonzero(has_markers[b:])
        if with_markers.size and b + with_markers[0] > bounds[-1]:
            bounds.append(b + int(with_markers[0]))
    bounds.append(T)
    return [np.arange(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def inverse_kinematics(model, markers, settings: IKSettings | None = None):
    """Generator step: yields Progress, returns an :class:`IKResult`.

    ``markers`` is a :class:`engine.trial.trial.Markers` (positions in metres in the model's frame).
    """
    settings = settings or IKSettings()
    check_loss(settings.robust_loss, settings.robust_threshold)
    t0 = _time.perf_counter()
    problem = _Problem(model, markers, settings)
    frames = problem.frames
    data = Data(model)
    targets = problem.targets(markers, frames)
    yield Progress("inverse kinematics", 0.0, "initial pose")
    has_markers = ~np.isnan(targets[:, :, 0]).all(axis=1)
    if not has_markers.any():
        raise SettingsError("no fitted marker is present in any frame of the time range")
    first = int(np.argmax(has_markers))
    q = initial_pose(model, data, problem, targets[first], settings, first)
    T = len(frames)
    Q = np.empty((T, model.nq))
    iters = np.empty(T, np.int64)
    status = np.empty(T, np.int64)
    cost = np.empty(T)
    info = np.empty((T, model.nv))
    parts = _parts(first, T, has_markers, settings.threads)
    datas = [data] + [Data(model) for _ in parts[1:]]

    def solve_chunk(k, r):
        """Chunk ``r`` of part ``k``: warm-started from the part's previous chunk; a part's first chunk from the
        initial pose (part 0) or from a pose found from its first frame's own markers (the others)."""
        idx = parts[k][r * settings.chunk:(r + 1) * settings.chunk]
        if not idx.size:
            return 0
        if r > 0:
            start_q = Q[idx[0] - 1]
        else:
            start_q = q if k == 0 else initial_pose(model, datas[k], problem, targets[idx[0]], settings, idx[0])
        Q[idx], iters[idx], status[idx], cost[idx], info[idx] = problem.solve(model, datas[k], targets[idx], idx,
                                                                              start_q, problem.free, settings)
        return idx.size

    # solve forward from the first usable frame, the parts of the trial side by side on their threads
    done = 0
    rounds = -(-max(p.size for p in parts) // settings.chunk)
    with ThreadPoolExecutor(len(parts) - 1) if len(parts) > 1 else nullcontext() as pool:
        for r in range(rounds):
            # the first part on this thread, the others on the pool's
            others = [pool.submit(counted(solve_chunk), k, r) for k in range(1, len(parts))]
            done += solve_chunk(0, r) + sum(f.result() for f in others)
            last = parts[0][min((r + 1) * settings.chunk, parts[0].size) - 1]
            yield Progress("inverse kinematics", done / T, f"{markers.time[frames[last]]:.3f} s")
    for part in parts[1:]:
        # where a part begins, the fit warm-started from the previous part's end must not be better than the part's
        # own start (a part that began in another local minimum than the sequential solve would follow): else
        # the part is solved again from there, warm-started as one sequence
        b = part[0]
        _, _, s_b, c_b, _ = problem.solve(model, data, targets[b][None], [b], Q[b - 1], problem.free, settings)
        if s_b[0] > 0 and c_b[0] < cost[b] - PART_COST_TOLERANCE * max(cost[b], 1e-12):
            for c in range(0, part.size, settings.chunk):
                idx = part[c:c + settings.chunk]
                Q[idx], iters[idx], status[idx], cost[idx], info[idx] = problem.solve(
                    model, data, targets[idx], idx, Q[idx[0] - 1], problem.free, settings)
    # then backwards from the first usable frame to the start
    backward = np.arange(first - 1, -1, -1)
    start_q = Q[first]
    for c in range(0, backward.size, settings.chunk):
        idx = backward[c:c + settings.chunk]
        Q[idx], iters[idx], status[idx], cost[idx], info[idx] = problem.solve(model, data, targets[idx], idx, start_q,
                                                                              problem.free, settings)
        start_q = Q[idx[-1]]
        done += idx.size
        yield Progress("inverse kinematics", done / T, f"{markers.time[frames[idx[-1]]]:.3f} s")
    solved = status > 0
    typical = np.median(cost[solved]) if solved.any() else np.inf
    stuck = np.flatnonzero((status == 0) | (solved & (cost > STUCK_COST_RATIO * typical)))
    for k, f in enumerate(stuck):
        # a frame the warm start did not bring to convergence, or left far worse fitted than the trial's usual
        # frame (a local minimum): solve it again from a pose found from its own markers, keep the better fit
        yield Progress("inverse kinematics", 1.0, f"frame {f + 1} again from a fresh start ({k + 1} of {len(stuck)})")
        start = initial_pose(model, data, problem, targets[f], settings, f)
        Qf, i_f, s_f, c_f, info_f = problem.solve(model, data, targets[f][None], [f], start, problem.free, settings)
        if c_f[0] < cost[f]:
            Q[f], iters[f], status[f], cost[f], info[f] = Qf[0], i_f[0], s_f[0], c_f[0], info_f[0]
    errors = np.empty((T, len(problem.marker_names)))
    _ik.marker_errors(compile_tree(model).k, data.ws, data.scr, Q, problem.mframes, targets, errors)
    factors = np.ones_like(errors)
    thresholds = np.full(errors.shape[1], np.nan)
    if settings.robust_loss is not None:
        thresholds, scales = marker_scales(errors, settings.robust_threshold)
        for k in range(ROBUST_ROUNDS):
            new = robust_factors(errors, thresholds, scales, settings.robust_loss)
            moved = np.flatnonzero((np.abs(new - factors) > ROBUST_SETTLED).any(axis=1))
            factors = new
            if not moved.size:
                break
            yield Progress("inverse kinematics", 1.0, f"robust loss: {moved.size} frames re-weighted (round {k + 1})")
            # each moved frame again from its own solution, in one kernel call
            Q[moved], iters[moved], status[moved], cost[moved], info[moved] = problem.solve(
                model, data, targets[moved], moved, Q[moved], problem.free, settings, problem.weights * factors[moved],
                warm=False)
            _ik.marker_errors(compile_tree(model).k, data.ws, data.scr, Q, problem.mframes, targets, errors)
    weights = problem.weights * factors
    held = unobserved(info, targets, weights) & problem.free
    hold(Q, held, compile_tree(model).k.v2q)
    seen = (~np.isnan(errors)).sum(axis=1)           # a frame with no fitted marker has no RMS (NaN)
    rms = np.full(T, np.nan)
    rms[seen > 0] = np.sqrt(np.nansum(errors[seen > 0] ** 2, axis=1) / seen[seen > 0])
    mx = np.max(np.where(np.isnan(errors), -np.inf, errors), axis=1)
    mx[~np.isfinite(mx)] = np.nan
    return IKResult(time=np.array(markers.time[frames]), q=Q, marker_names=problem.marker_names, errors=errors,
                    rms=rms, max=mx, iterations=iters, status=status, cost=cost,
                    seconds=_time.perf_counter() - t0, unused_model_markers=problem.unused_model,
                    unused_trial_markers=problem.unused_trial, weights=problem.weights, robust_factors=factors,
                    thresholds=thresholds, unobserved=held)


def solve_ik(model, markers, settings: IKSettings | None = None, report=None) -> IKResult:
    """Run :func:`inverse_kinematics` to the end (``report`` receives the Progress)."""
    return run(inverse_kinematics(model, markers, settings), report)
