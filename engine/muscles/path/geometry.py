"""``MuscleGeometry``: muscle-tendon lengths, lengthening speeds and length Jacobians of a model.

Conventions (SI units, the model's velocity coordinates ``v`` in the order of
``compile_tree(model).v_names``, rod strains included):

- ``l`` (m): muscle-tendon length, the path length of OpenSim's GeometryPath;
- ``l_dot = J_l v`` (m/s): lengthening speed;
- ``J_l = dl/dv`` (m x nv, m per unit of each coordinate): the seed's length
  Jacobian of eq. 36. OpenSim's moment arms are ``r = -J_l``, so tensions
  ``f`` (N) produce the generalized forces ``tau = -J_l^T f`` (N m, N, ...).

``J_l`` is computed analytically from the path geometry and the engine's
point Jacobians (``_kernels``), not by finite differences.

Wrapping semantics (``wrapping``; details in ``_wrapping``):

- ``"exact"`` (default): the locally shortest path over every surface
  (cylinder helices, ellipsoid geodesics), several wraps iterated to
  convergence. ``J_l`` is then exactly ``dl/dv``.
- ``"opensim"``: OpenSim 4's algorithm, approximations included (planar
  paths over ellipsoids, unadjusted tangent points over a single cylinder,
  at most 8 passes to 0.5 mm, spans measured to where OpenSim first placed
  the tangent points). Lengths and moment arms then match OpenSim's (arm26:
  within 0.08 mm), and ``J_l`` is OpenSim's moment arm (generalized force of a
  unit tension), which differs from ``dl/dv`` by up to a few mm where those
  approximations act.
"""
from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np

from ...errors import ModelError, SettingsError
from ...work_cpu import counted
from ...algorithms.compiled import workspace
from ...tree import compile_tree
from ._compile import compile_paths
from ._kernels import current_path, evaluate_frames, work_arrays
from ._layout import STATUS_TEXT, WRAPPING
from ._sampling import sample_paths

# below this many frames per thread, one thread does all the work
_MIN_FRAMES_PER_THREAD = 32


class PathWarning(UserWarning):
    """Some muscle paths could not be computed exactly at some frames (see ``PathResult.problems``)."""


@dataclass(frozen=True)
class CurrentPoint:
    """A point of a muscle's current path: a path point (``wrap`` is None) or a tangent point where the
    path meets (``side`` 1) or leaves (``side`` 2) the surface of wrap object ``wrap``; ``position`` in
    ground, m."""

    name: str
    wrap: str | None
    side: int
    position: np.ndarray


@dataclass
class PathResult:
    """Muscle paths at the frames of a trial.

    Attributes
    ----------
    muscle_names : list of str
    lengths : (T, m) muscle-tendon lengths l, m
    speeds : (T, m) lengthening speeds l_dot, m/s (zero when no speeds were given)
    J_l : (T, m, nv) length Jacobians dl/dv (seed eq. 36); moment arms are ``-J_l``
    status : (T, m) int, bits of ``_layout`` (0 where the path is exact)
    """

    muscle_names: list
    lengths: np.ndarray
    speeds: np.ndarray
    J_l: np.ndarray
    status: np.ndarray

    @property
    def moment_arms(self) -> np.ndarray:
        """OpenSim's moment arms ``r = -J_l`` (T, m, nv)."""
        return -self.J_l

    def problems(self) -> list[str]:
        """One sentence per muscle and kind of problem, naming the frames (0-based) concerned."""
        out = []
        for m in np.flatnonzero(self.status.any(axis=0)):     # most trials: none
            name = self.muscle_names[m]
            for bit, text in STATUS_TEXT.items():
                frames = np.flatnonzero(self.status[:, m] & bit)
                if frames.size:
                    shown = ", ".join(str(f) for f in frames[:8]) + (" ..." if frames.size > 8 else "")
                    out.append(f"muscle '{name}': {text} at {frames.size} frame(s): {shown}")
        return out


class MuscleGeometry:
    """The compiled muscle paths of a model, evaluated over the frames of a trial.

    Build once per model (``geom = MuscleGeometry(model)``), then call
    :meth:`evaluate` (or :meth:`compute` for the status too) as often as needed.
    Frames are shared among ``threads`` threads (default: numba's thread count,
    ``NUMBA_NUM_THREADS``, the CPU count unless set; one in a study's worker
    processes); the numba kernels release the GIL. The calling thread computes one share and a pool of
    ``threads - 1`` workers, started at the first call that needs it and kept while the geometry lives, the others
    (starting threads at every call cost about 6 ms on a loaded machine, more than the 73 frames of a walk take).
    :meth:`close` (or leaving a ``with MuscleGeometry(model) as geometry:`` block) ends the pool's threads; a later call
    starts a new pool. ``wrapping`` is ``"exact"`` or ``"opensim"`` (module notes).

    Raises
    ------
    ModelError
        If a path wraps over a torus (not implemented) or names a point range outside its path.
    SettingsError
        If ``wrapping`` is not one of the two semantics.
    """

    def __init__(self, model, threads: int | None = None, wrapping: str = "exact"):
        if wrapping not in WRAPPING:
            raise SettingsError(f"wrapping must be one of {', '.join(map(repr, WRAPPING))}, got {wrapping!r}")
        self.wrapping = wrapping
        self.semantics = WRAPPING[wrapping]
        self.model = model
        self.muscle_names = [m.name for m in model.muscles]
        self.paths = compile_paths(model)
        self.threads = max(1, int(threads or numba.config.NUMBA_NUM_THREADS))
        self._pool = None
        self._point_names = [p.name for m in model.muscles for p in m.path.points]
        self._polyline_rows = max(1, sum(len(m.path.points) + 2 * len(m.path.wraps) for m in model.muscles))

    def close(self) -> None:
        """End the pool's worker threads (waiting for a call in progress), if a call started them."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def __enter__(self) -> "MuscleGeometry":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def current_path(self, q, muscle: str) -> list[CurrentPoint]:
        """The active points and wrap tangent points of ``muscle``'s path at configuration ``q`` (nq,),
        in order from origin to insertion (for display and checks; the paths on wrap surfaces between
        tangent points are not sampled)."""
        model = self.model
        q = np.ascontiguousarray(q, dtype=float)
        if q.shape != (model.nq,):
            raise ValueError(f"q: expected (nq,) = ({model.nq},), got {q.shape}")
        m = self.muscle_names.index(muscle) if muscle in self.muscle_names else None
        if m is None:
            raise ModelError(f"no muscle named {muscle!r} in the model", f"model '{model.name}'")
        ws, scr = workspace(compile_tree(model).n_nodes)
        path, state, wrench = work_arrays(self.paths, compile_tree(model).n_nodes)
        n = current_path(compile_tree(model).k, ws, scr, self.paths, self.semantics, q, m, path, state, wrench,
                         np.zeros(model.nv))
        wraps = model.muscles[m].path.wraps
        out = []
        for e in path[:n]:
            if e["pwrap"] < 0:
                out.append(CurrentPoint(self._point_names[e["point"]], None, 0, e["x"].copy()))
            else:
                wrap = wraps[e["pwrap"]].wrap_object
                side = 2 if out and out[-1].wrap == wrap else 1
                out.append(CurrentPoint(f"{wrap} tangent {side}", wrap, side, e["x"].copy()))
        return out

    def polylines(self, q, step: float = 0.002) -> list[np.ndarray]:
        """Every muscle's path at configuration ``q`` (nq,) for drawing: one ``(k_i, 3)`` array of ground
        points (m) per muscle, in :attr:`muscle_names` order, from origin to insertion, with the paths over
        wrap surfaces sampled in pieces of at most ``step`` m (``_sampling``)."""
        model = self.model
        q = np.ascontiguousarray(q, dtype=float)
        if q.shape != (model.nq,):
            raise ValueError(f"q: expected (nq,) = ({model.nq},), got {q.shape}")
        if not (np.isfinite(step) and step > 0.0):
            raise ValueError(f"step: expected a positive length in m, got {step!r}")
        ws, scr = workspace(compile_tree(model).n_nodes)
        path, state, wrench = work_arrays(self.paths, compile_tree(model).n_nodes)
        starts = np.zeros(len(self.muscle_names) + 1, np.int64)
        out = np.empty((self._polyline_rows, 3))
        rows = sample_paths(compile_tree(model).k, ws, scr, self.paths, self.semantics, q, float(step), path, state, wrench,
                            np.zeros(model.nv), out, starts)
        if rows > out.shape[0]:
            self._polyline_rows = rows
            out = np.empty((rows, 3))
            sample_paths(compile_tree(model).k, ws, scr, self.paths, self.semantics, q, float(step), path, state, wrench,
                         np.zeros(model.nv), out, starts)
        return [out[a:b] for a, b in zip(starts[:-1], starts[1:])]

    def evaluate(self, Q, V=None):
        """``(lengths (T, m), speeds (T, m), J_l (T, m, nv))`` at configurations ``Q`` (T, nq).

        ``V`` (T, nv) gives the speeds ``J_l v``; without it they are zero. Paths that could
        not be computed exactly at some frames are reported with a :class:`PathWarning`
        (details in :meth:`compute`'s ``status``).
        """
        result = self.compute(Q, V)
        problems = result.problems()
        if problems:
            warnings.warn("; ".join(problems), PathWarning, stacklevel=2)
        return result.lengths, result.speeds, result.J_l

    def compute(self, Q, V=None) -> PathResult:
        """Like :meth:`evaluate`, returning a :class:`PathResult` with the status of every path."""
        model = self.model
        Q = np.ascontiguousarray(Q, dtype=float)
        if Q.ndim != 2 or Q.shape[1] != model.nq:
            raise ValueError(f"Q: expected (frames, nq) = (frames, {model.nq}), got {Q.shape}")
        T = Q.shape[0]
        if V is None:
            V = np.zeros((0, model.nv))
        else:
            V = np.ascontiguousarray(V, dtype=float)
            if V.shape != (T, model.nv):
                raise ValueError(f"V: expected (frames, nv) = ({T}, {model.nv}), got {V.shape}")
        m = len(self.muscle_names)
        lengths = np.zeros((T, m))
        speeds = np.zeros((T, m))
        J = np.zeros((T, m, model.nv))
        status = np.zeros((T, m), np.int64)
        chunks = min(self.threads, max(1, T // _MIN_FRAMES_PER_THREAD))
        bounds = np.linspace(0, T, chunks + 1).astype(int)
        slices = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]

        def run(s):
            ws, scr = workspace(compile_tree(model).n_nodes)
            path, state, wrench = work_arrays(self.paths, compile_tree(model).n_nodes)
            Vs = V[s] if V.shape[0] else V
            evaluate_frames(compile_tree(model).k, ws, scr, self.paths, self.semantics, Q[s], Vs, lengths[s], speeds[s], J[s],
                            status[s], path, state, wrench)

        if len(slices) > 1 and self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="muscle-paths")
        others = [self._pool.submit(counted(run), s) for s in slices[1:]]
        run(slices[0])
        for done in others:
            done.result()
        return PathResult(list(self.muscle_names), lengths, speeds, J, status)
