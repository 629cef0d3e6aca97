"""Several trials of one patient pooled into one report: every side's gait cycles of every trial together.

Per side, the cycle-normalised curves of all the trials' cycles are stacked and their mean and SD taken across all
of them (each cycle counts once, whatever its trial); the spatio-temporal parameters, the per-stance loads and the
blade's stances are pooled the same way, and the symmetry indices computed again from the pooled means (the ground
reactions' source, ``grf_source``, is the trials' if they share it, else 'mixed'). The plates'
scores, the EMG comparisons and the notes stay per trial, named by their trial. Trials of different subjects (the
subject's name, the body mass, or which side is prosthetic differ) are refused.

A trial is named by its C3D file's name; trials that share it (``run.c3d`` of every session) are told apart by the
file each was read from (:func:`trial_names`).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from ..analysis.gait_phases import CycleCurves
from ..errors import SettingsError
from .parameters import SideParameters
from .summary import ClinicalSummary, gait_of, symmetry_table

MASS_TOLERANCE = 0.01     # relative: the same patient's models may be scaled on other days, not to other people


def trial_names(names: list, origins: list, spans: list | None = None) -> list:
    """The pooled trials' names in the report: ``names`` (each trial's C3D file name) where no other trial has the
    same, else told apart by ``origins`` (the file each trial was read from: its results or session file, or the C3D
    itself) with as many of its last path components as make it unique among those trials: ``day1/run.c3d`` when
    the origin is the C3D, ``run.c3d (day1/results.hlr)`` otherwise; a trial read from no file (origin None) by its
    rank, ``run.c3d (trial 2)``. Trials read from the same file are windows of one recording: ``spans`` [(t0, t1)]
    (s, each trial's analysed time) names them by their window, ``run.c3d (0.00-1.20 s)``, and SettingsError naming
    the file refuses them when their windows overlap or are unknown (those cycles would count twice)."""
    if len(origins) != len(names) or (spans is not None and len(spans) != len(names)):
        raise ValueError(f"{len(names)} trial names, {len(origins)} origins, spans {spans}")
    paths = [None if o is None else Path(str(o)).resolve() for o in origins]
    windows = {}                                # trial -> its window, for the trials that share their file
    for k, path in enumerate(paths):
        same = [j for j in range(k) if path is not None and paths[j] == path]
        for j in same:
            if spans is None or not (spans[j][1] < spans[k][0] or spans[k][1] < spans[j][0]):
                over = "" if spans is None else f" over {max(spans[j][0], spans[k][0]):.2f}-" \
                                                f"{min(spans[j][1], spans[k][1]):.2f} s"
                raise SettingsError(f"is pooled twice{over}: a recording's cycles are pooled once (they would "
                                    f"count twice)", file=path)
        if same:
            windows.update({i: spans[i] for i in (*same, k)})
    out = list(names)
    for name in set(names):
        group = [i for i, n in enumerate(names) if n == name]
        if len(group) < 2:
            continue
        filed = [i for i in group if paths[i] is not None]
        depth = next((k for k in range(1, max((len(paths[i].parts) for i in filed), default=0) + 1)
                      if len({paths[i].parts[-k:] for i in filed}) == len(filed)), 1)
        for i in group:
            if paths[i] is None:
                out[i] = f"{name} (trial {i + 1})"
                continue
            if paths[i].name == name:           # the C3D itself: its folders name it
                out[i] = "/".join(paths[i].parts[-max(depth, 2):]).lstrip("/")
            else:
                out[i] = f"{name} ({'/'.join(paths[i].parts[-depth:]).lstrip('/')})"
    for i, (t0, t1) in windows.items():       # the file's name alone when no other file has it
        alone = all(paths[j] == paths[i] for j, n in enumerate(names) if n == names[i])
        out[i] = f"{names[i] if alone else out[i]} ({t0:.2f}-{t1:.2f} s)"
    return out


def _pool_curves(parts: list) -> CycleCurves:
    curves = np.vstack([c.curves for c in parts])
    with np.errstate(invalid="ignore"):
        sd = curves.std(axis=0, ddof=1) if len(curves) > 1 else np.zeros(curves.shape[1])
    return CycleCurves(parts[0].percent, curves, curves.mean(axis=0), sd)


def _pool_by_side(dicts: list) -> dict:
    """``{side: CycleCurves}`` pooled over the trials' ``{side: CycleCurves}``."""
    sides = dict.fromkeys(side for d in dicts for side in d)
    return {side: _pool_curves([d[side] for d in dicts if side in d]) for side in sides}


def pooled_summary(summaries: list) -> ClinicalSummary:
    """One :class:`ClinicalSummary` of several trials of one patient (module notes); ``summaries`` in the order the
    trials are named. One summary is returned as it is."""
    if not summaries:
        raise SettingsError("no trial to report")
    if len(summaries) == 1:
        return summaries[0]
    first = summaries[0]
    for s in summaries[1:]:
        for what, a, b in (("subject", first.subject, s.subject), ("prosthetic side", first.prosthetic, s.prosthetic)):
            if a != b:
                raise SettingsError(f"trials of one patient are pooled; {first.trial} has {what} '{a}' and "
                                    f"{s.trial} '{b}'", element=s.trial)
        if abs(s.mass / first.mass - 1) > MASS_TOLERANCE:
            raise SettingsError(f"trials of one patient are pooled; {first.trial} has a body mass of "
                                f"{first.mass:.1f} kg and {s.trial} {s.mass:.1f} kg", element=s.trial)
    parameters = {}
    for side in ("Left", "Right"):
        parts = [s.parameters[side] for s in summaries]
        names = list(dict.fromkeys(n for p in parts for n in p.values))
        parameters[side] = SideParameters(side, [c for p in parts for c in p.cycles],
                                          {n: np.concatenate([p.values.get(n, np.array([])) for p in parts])
                                           for n in names}, "; ".join(dict.fromkeys(p.positions for p in parts)))

    def pooled_loads(of):
        """Per side and load, every trial's stances in order; a trial without that load (no plate) NaN for each of
        its stances (its ``loads``), so the pooled measured loads line up stance by stance with the pooled loads."""
        return {side: {n: np.concatenate([of(s).get(side, {}).get(n, np.full(len(s.loads[side][n]), np.nan))
                                           for s in summaries])
                       for n in dict.fromkeys(n for s in summaries for n in of(s).get(side, {}))}
                for side in ("Left", "Right") if any(side in of(s) for s in summaries)}

    def source(of):
        return of(first) if all(of(s) == of(first) for s in summaries) else "mixed"
    loads = pooled_loads(lambda s: s.loads)
    keys = list(dict.fromkeys(k for s in summaries for k in s.curves))
    curves = {k: _pool_by_side([s.curves[k] for s in summaries if k in s.curves]) for k in keys}
    muscles = list(dict.fromkeys(m for s in summaries for m in s.emg))
    emg = {m: {kind: _pool_by_side([s.emg[m][kind] for s in summaries if m in s.emg]) for kind in ("EMG", "estimated")}
           for m in muscles}
    gait, note = gait_of(parameters)
    notes = [note] + [f"{s.trial}: {n}" for s in summaries for n in s.notes if not n.startswith("gait taken as")]
    return dataclasses.replace(
        first, trial=f"{len(summaries)} trials", events=[], parameters=parameters, loads=loads,
        symmetry=symmetry_table(parameters, loads, first.intact, first.prosthetic), curves=curves,
        prosthesis=[m for s in summaries for m in s.prosthesis], blades=[b for s in summaries for b in s.blades],
        validation=[dataclasses.replace(m, plate=f"{s.trial}: {m.plate}") for s in summaries for m in s.validation],
        notes=notes, emg=emg, emg_tables=[t for s in summaries for t in s.emg_tables], gait=gait,
        trials=[t for s in summaries for t in s.trials], grf_source=source(lambda s: s.grf_source),
        measured_loads=pooled_loads(lambda s: s.measured_loads), blade_force_source=source(lambda s: s.blade_force_source))
