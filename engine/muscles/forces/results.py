"""Results of muscle-force estimation (seed eqs. 36-37, or OpenSim's static optimisation)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MuscleForceResult:
    """Muscle forces over a trial, one row per frame.

    Attributes
    ----------
    objective : ``'seed'`` or ``'opensim'``.
    muscle_names : muscles, in ``model.muscles`` order (the columns of the muscle arrays).
    reserve_names : residual/reserve actuators (the columns of the reserve arrays).
    coordinate_names : generalized speeds in model order (the columns of ``tau`` and ``residual``).
    time : (T,) s, or None when no time was given.
    forces : (T, m) N, tension along the tendon (positive pulls), ``f`` of eq. 36.
    activations : (T, m) activation that produces ``forces`` with the rigid-tendon Hill model:
        ``(f - f_passive) / f_active_max`` with muscle physiology (NaN where ``f_active_max`` is 0),
        ``f / F_max`` without.
    reserve_forces : (T, r) N or N m.  reserve_controls : (T, r) force / optimal force.
    tau : (T, nv) the generalized forces to produce (inverse dynamics).
    residual : (T, nv) ``tau - (-J_l^T f + R_res f_res)``: what muscles and reserves left unproduced
        (0 on coordinates excluded as locked: they are reported in ``notes``).
    f_active_max, f_passive, f_max : (T, m) N, the rigid-tendon Hill quantities of eq. 37 (reported
        whether or not muscle physiology bounded the forces).
    f_ref : (T, m) N, the EMG-driven reference of eq. 40 (NaN for muscles without EMG), or None.
    success : (T,) bool, the frame's QP was solved to optimality.
    status : (T,) per-frame outcome: ``'optimal (warm start)'``, ``'optimal (quadprog)'``,
        ``'infeasible'`` or ``'not solved (NaN in its inputs)'`` (forces NaN in the last two).
    solve_time : s, wall time of the QPs (assembly and solves of every frame).
    notes : what the user should know: curve limits reached, regularisation, excluded coordinates.
    emg_comparison : :class:`~engine.muscles.emg.comparison.ForceComparison` or None.
    reserve_tau : (T, nv) the generalized forces the residual/reserve actuators produce (N m or N), or None.
    crossed : (nv,) bool, the generalized speeds some muscle crosses (:mod:`engine.muscles.forces.balance`), or None.
    unbalanced : (T,) bool, with reserves: the frames where the muscles alone, within their bounds, cannot produce
        the generalized forces of the coordinates they cross (the reserves are needed there); None without reserves.
    """

    objective: str
    muscle_names: tuple
    reserve_names: tuple
    coordinate_names: tuple
    time: np.ndarray | None
    forces: np.ndarray
    activations: np.ndarray
    reserve_forces: np.ndarray
    reserve_controls: np.ndarray
    tau: np.ndarray
    residual: np.ndarray
    f_active_max: np.ndarray
    f_passive: np.ndarray
    f_max: np.ndarray
    f_ref: np.ndarray | None
    success: np.ndarray
    status: tuple
    solve_time: float
    notes: tuple = ()
    emg_comparison: object = None
    reserve_tau: np.ndarray | None = None
    crossed: np.ndarray | None = None
    unbalanced: np.ndarray | None = None

    @property
    def n_frames(self) -> int:
        return len(self.forces)

    def force(self, muscle: str) -> np.ndarray:
        """(T,) N, the force of one muscle."""
        try:
            return self.forces[:, self.muscle_names.index(muscle)]
        except ValueError:
            raise KeyError(f"no muscle named {muscle!r}") from None

    def step_metrics(self) -> dict:
        """What the muscle step did, for metrics.json: frames solved, QP time (s), the sum of the activations per
        frame (mean, max), per coordinate the generalized force the residual/reserve actuators produced and the one
        left unproduced (RMS and largest, N m or N; coordinates where both are zero are left out), the coordinates no
        muscle crosses, and with actuators the frames where the muscles alone could not balance the torques."""
        sums = np.nansum(self.activations, axis=1)
        doc = {"objective": self.objective, "frames": int(self.n_frames), "solved_frames": int(self.success.sum()),
               "qp_seconds": float(self.solve_time),
               "activation_sum": {"mean": float(np.mean(sums)), "max": float(np.max(sums, initial=0.0))}}
        by_coordinate = {}
        for what, values in (("actuators", self.reserve_tau), ("unproduced", self.residual)):
            if values is None:
                continue
            for k, name in enumerate(self.coordinate_names):
                column = np.nan_to_num(values[:, k])
                if np.abs(column).max(initial=0.0) > 1e-9:
                    by_coordinate.setdefault(name, {})[what] = {"rms": float(np.sqrt(np.mean(column ** 2))),
                                                                "max_abs": float(np.abs(column).max())}
        doc["by_coordinate"] = by_coordinate
        if self.crossed is not None:
            doc["coordinates_no_muscle_crosses"] = [n for n, c in zip(self.coordinate_names, self.crossed) if not c]
        if self.unbalanced is not None:
            doc["frames_muscles_alone_unbalanced"] = int(self.unbalanced.sum())
            if self.time is not None:
                doc["times_muscles_alone_unbalanced"] = [float(t) for t in self.time[self.unbalanced]]
        return doc

    def summary(self) -> str:
        """A few lines: frames solved, how, and the notes."""
        counts = {s: self.status.count(s) for s in dict.fromkeys(self.status)}
        how = ", ".join(f"{n} {s}" for s, n in counts.items())
        lines = [f"{self.objective} objective: {int(self.success.sum())} of {self.n_frames} frames solved ({how}) "
                 f"in {self.solve_time * 1e3:.1f} ms"]
        worst = np.nanmax(np.abs(self.residual)) if self.residual.size and np.isfinite(self.residual).any() else 0.0
        lines.append(f"largest generalized force left unproduced: {worst:.3g}")
        return "\n".join(lines + list(self.notes))
