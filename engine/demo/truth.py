"""The demo trial's ground truth, its file, and how an analysis compares with it.

The truth is what the simulation did (``engine.demo.run_simulation``), at its 1 kHz samples:
coordinates (blade strains included), speeds and accelerations, the net joint torques, the blade's
generalized forces, the floor's force on every contact point, the muscle forces and activations
of the muscle-force estimate on the true motion, and the excitations and activations the EMG
channels encode. All in model axes and SI units.

:func:`truth_metrics` gives the numbers ``metrics.json`` reports under ``"truth"``:

* ``rod_strain_rms_pct_range``: per rod, the RMS difference between the analysis's strain
  coordinates and the truth (over frames and the rod's strain coordinates) in percent of the
  RMS of their true ranges; worst over rods. (Coordinate by coordinate the ratio means little:
  a short tip segment's twist spans a tenth of what the markers resolve, while its error on the
  blade's shape is far below the marker noise.) Each coordinate's RMS error and true range are
  listed under ``"rod_strain_by_coordinate"``;
* ``torque_rms_pct_range``: for every actuated joint coordinate, the RMS difference of the
  generalized force of the QP inverse dynamics that estimated the ground reactions from the motion
  alone (the seed's eq. 35; when it did not run, of the inverse dynamics with the measured loads:
  ``"torque_source"`` says which) from the truth in percent of the truth's range on that
  coordinate; worst over coordinates whose range is at least ``TORQUE_RANGE_FLOOR`` (the others
  are listed under ``"torque_excluded"`` with their ranges);
* ``measured_loads_torque_rms_pct_range`` (and ``..._by_coordinate``): the same for the inverse
  dynamics with the measured loads (the analysis's own torques, ``AnalysisResult.dynamics``, when the
  trial has plates), when both ran;
* ``grf_rrmse_pct``: per axis (vertical, antero-posterior, medio-lateral), the worst rRMSE
  (seed eq. 39) of the estimated ground reaction of each contact group against the truth, and
  of the estimate against each force plate (``PlateMetric``), over the frames the group or plate
  is loaded. ``grf_rrmse_pct["all_groups"]`` gives the same per axis for the sum over all contact
  groups, over the frames the body is loaded: where two limbs stand at once only that sum follows
  from the motion, the split between them is the estimate's choice, so this tells an error in the
  motion from one in the split (it is reported, not part of the worst values).

The truth's forces are low-pass filtered like the estimates before these comparisons: at the analysed
coordinates' cut-off, then at the estimated loads' own if they were filtered (as the pipeline filters the
plates for its own validation metrics).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from ..analysis.metrics import axes_of, rmse_rrmse_r
from ..errors import DataError
from ..io.atomic import atomic_write
from ..tree import compile_tree
from ..trial.filtering import lowpass

FORMAT = "hybridlab-truth"
VERSION = 1
TORQUE_RANGE_FLOOR = 5.0     # N m (or N): joint coordinates whose true torque spans less are listed, not scored
LOADED = 20.0                # N, a group is loaded where its vertical force reaches this


@dataclass
class Truth:
    """Ground truth sampled at ``time`` (s): q (T, nq), v, a, tau, tau_rod (T, nv); ``contact_forces``
    (T, K, 3) N world on ``contact_names`` (groups in ``contact_groups``); ``muscle_forces`` and
    ``activations`` (T, m) of ``muscle_names`` (the muscle-force estimate on the true motion);
    ``excitations`` (T, e) encoded in the EMG channels ``emg_names`` and ``emg_activations`` (T, e) the
    activations they produce (eqs. 41-42: what the EMG chain should give back); ``coordinate_names``
    the model's speed order; ``notes`` how the truth was made (what was limited)."""

    time: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray
    tau_rod: np.ndarray
    contact_forces: np.ndarray
    contact_names: list
    contact_groups: list
    coordinate_names: list
    muscle_names: list
    muscle_forces: np.ndarray
    activations: np.ndarray
    emg_names: list
    excitations: np.ndarray
    emg_activations: np.ndarray
    notes: list

    def group_force(self, group: str) -> np.ndarray:
        """(T, 3) N, the floor's total force on a contact group."""
        mask = np.array([g == group for g in self.contact_groups])
        return self.contact_forces[:, mask].sum(axis=1)

    def at(self, times) -> "Truth":
        """The truth at the given sample times (each must be one of ``time`` to 1e-9 s)."""
        times = np.asarray(times, float)
        idx = np.searchsorted(self.time, times - 1e-9)
        idx = np.clip(idx, 0, len(self.time) - 1)
        if np.any(np.abs(self.time[idx] - times) > 1e-9):
            raise DataError("has no samples at some of the analysed times", "ground truth")
        return Truth(**{f.name: (getattr(self, f.name)[idx] if isinstance(getattr(self, f.name), np.ndarray)
                                  else getattr(self, f.name)) for f in fields(self)})


def save_truth(path, truth: Truth) -> None:
    """Write ``truth`` to an ``.npz`` file atomically."""
    arrays = {"format": np.array(FORMAT), "version": np.array(VERSION)}
    for f in fields(truth):
        value = getattr(truth, f.name)
        arrays[f.name] = np.asarray(value) if isinstance(value, np.ndarray) else np.array(list(value), dtype=str)
    with atomic_write(path, "wb", None) as fh:
        np.savez_compressed(fh, **arrays)


def load_truth(path) -> Truth:
    """Read a truth file written by :func:`save_truth`.

    Raises
    ------
    DataError
        If the file cannot be read or is not a HybridLab truth file.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z.get("format", "")) != FORMAT:
                raise DataError("is not a HybridLab truth file", file=path)
            values = {}
            for f in fields(Truth):
                if f.name not in z:
                    raise DataError(f"has no '{f.name}' array", file=path)
                arr = z[f.name]
                values[f.name] = arr.tolist() if arr.dtype.kind == "U" else arr
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot be read ({exc})", file=path) from None
    return Truth(**values)


def truth_metrics(result, truth: Truth, forward=(1.0, 0.0, 0.0)) -> dict:
    """Compare an :class:`~engine.analysis.pipeline.AnalysisResult` with the truth (see the module notes);
    ``forward`` is the model's forward axis, for the antero-posterior and medio-lateral split. The truth's
    joint forces and contact forces pass the filters each estimate passed before it is compared with it: the
    analysed coordinates' (``motion.cutoff``, ``motion.order``, ``motion.edges``), then that estimate's own
    (``loads_cutoff``, ``engine.analysis.load_filter``) if any."""
    model = result.model
    motion = result.motion
    t = truth.at(motion.time)
    tree = compile_tree(model)
    out = {}
    by_coordinate = {}
    for rod in model.rods:
        names = rod.coordinate_names()
        qi = [tree.coordinates[n].qi for n in names]
        error = motion.q[:, qi] - t.q[:, qi]
        span = np.ptp(t.q[:, qi], axis=0)
        out.setdefault("rod_strain_rms_pct_range", 0.0)
        value = 100.0 * float(np.sqrt(np.mean(error ** 2)) / np.sqrt(np.mean(span ** 2)))
        out["rod_strain_rms_pct_range"] = max(out["rod_strain_rms_pct_range"], value)
        for n, e, r in zip(names, error.T, span):
            by_coordinate[n] = {"rms": float(np.sqrt(np.mean(e ** 2))), "range": float(r)}
    if by_coordinate:
        out["rod_strain_by_coordinate"] = by_coordinate
    filtered = {}       # the truth through each chain of filters an estimate passed, computed once per chain

    def through(estimate):
        chain = tuple(c for c in (motion.cutoff, estimate.loads_cutoff) if c is not None)
        if chain not in filtered:
            filtered[chain] = _filtered(truth, motion, chain)
        return filtered[chain]

    estimate = result.qp if result.qp is not None else result.classic
    if estimate is not None:
        truth_e = through(estimate)
        scored, excluded = _torque_scores(model, estimate.tau, truth_e)
        out["torque_source"] = "estimate" if estimate is result.qp else "measured loads"
        out["torque_rms_pct_range"] = max(scored.values())
        out["torque_rms_pct_range_by_coordinate"] = scored
        out["torque_excluded"] = {k: {"range": v, "why": f"true torque spans less than {TORQUE_RANGE_FLOOR}"}
                                  for k, v in excluded.items()}
        if estimate is not result.classic and result.classic is not None:
            scored, _ = _torque_scores(model, result.classic.tau, through(result.classic))
            out["measured_loads_torque_rms_pct_range"] = max(scored.values())
            out["measured_loads_torque_rms_pct_range_by_coordinate"] = scored
        if result.qp is not None:
            out["grf_rrmse_pct"] = _grf(result, truth_e, model, forward)
    return out


def _filtered(truth: Truth, motion, chain: tuple) -> Truth:
    """The truth at the frames of ``motion``, its joint and contact forces low-passed at each cut-off of ``chain``
    (Hz) in turn, with the filter of the analysed coordinates (``motion.order``, ``motion.edges``)."""
    if chain:
        rate = 1.0 / float(np.median(np.diff(truth.time)))
        filtered = {name: getattr(truth, name) for name in ("tau", "contact_forces")}
        for cutoff in chain:
            for name in filtered:
                filtered[name], short = lowpass(filtered[name], rate, cutoff, motion.order, motion.edges)
                if short:
                    raise DataError(f"the truth is too short to filter at {cutoff} Hz", "ground truth")
        truth = replace(truth, **filtered)
    return truth.at(motion.time)


def _torque_scores(model, tau, truth: Truth):
    """``({coordinate: RMS error in % of the true range}, {coordinate: true range})`` of the actuated joint
    coordinates of ``tau`` (T, nv) against ``truth`` (at the same frames), those spanning under
    ``TORQUE_RANGE_FLOOR`` in the second."""
    scored, excluded = {}, {}
    for c in _actuated(model):
        vi = compile_tree(model).coordinates[c].vi
        true = truth.tau[:, vi]
        span = float(np.ptp(true))
        if span < TORQUE_RANGE_FLOOR:
            excluded[c] = span
            continue
        scored[c] = 100.0 * float(np.sqrt(np.mean((tau[:, vi] - true) ** 2))) / span
    return scored, excluded


def _actuated(model) -> list:
    """Named joint coordinates (the free joint's are unnamed) that are not rod strains, locked or coupled."""
    strains = {n for r in model.rods for n in r.coordinate_names()}
    return [c.name for c in model.all_coordinates if c.name not in strains and not c.locked and c.coupled_to is None]


def _grf(result, truth: Truth, model, forward) -> dict:
    up = model.up
    axes = axes_of(up, np.asarray(forward, float))
    worst = {name: 0.0 for name in axes}
    detail = {}
    groups = list(dict.fromkeys(truth.contact_groups))
    qp = result.qp
    est_groups = [c.group for c in model.contacts]
    for g in groups:
        true = truth.group_force(g)
        mask = np.array([gg == g for gg in est_groups])
        est = qp.forces[:, mask].sum(axis=1)
        loaded = true @ up >= LOADED
        if loaded.sum() < 2:
            detail[f"{g} (not compared)"] = f"loaded in {int(loaded.sum())} frame(s)"
            continue
        for name, axis in axes.items():
            _, rrmse, _ = rmse_rrmse_r(est[loaded] @ axis, true[loaded] @ axis)
            detail[f"{g} {name}"] = rrmse
            worst[name] = max(worst[name], rrmse)
    for m in result.metrics:
        detail[f"{m.plate} {m.axis}"] = m.rrmse
        worst[m.axis] = max(worst[m.axis], m.rrmse)
    true = truth.contact_forces.sum(axis=1)
    est = qp.forces.sum(axis=1)
    loaded = true @ up >= LOADED
    total = {name: rmse_rrmse_r(est[loaded] @ axis, true[loaded] @ axis)[1] for name, axis in axes.items()}
    return {**worst, "all_groups": total, "by_group_and_plate": detail}
