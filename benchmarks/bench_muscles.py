"""Frames per second of the whole muscle step on gait2354 walk 1, beside OpenSim's static optimisation.

The step, per trial: muscle geometry (lengths, speeds, length Jacobians), rigid-tendon Hill bounds,
reserve-actuator generalized forces and one warm-started QP per frame
(``engine.muscles.forces.static_optimization.estimate_muscle_forces``), for both objectives. Inputs as
reference/so_setup.xml says: the IK coordinates over 0.4-1.6 s (73 frames) low-passed at 6 Hz, speeds
from a quintic spline, generalized forces from reference/id.sto, the gait2354 CMC actuator file.
``MuscleGeometry`` is built once per model and its numba kernels compiled before timing (both times
printed). OpenSim's AnalyzeTool + StaticOptimization runs reference/so_setup.xml on the same data in the
same process (``benchmarks.opensim_runs``), timed as ours: the best of ``REPEATS`` runs (one run's time moves
with the machine's load, and so did the ratio, by 30%); without ``opensim`` installed the figure stored in
reference/timings.txt is printed, labelled "stored reference", and no ratio is given. ``so_cpu_vs_opensim`` is the
same ratio in CPU seconds of this process (all its threads; best of the runs), which other processes' load hardly
moves: on a shared machine the wall-clock ratio followed OpenSim's luck (81-925 on unchanged code at load 5-15).

Run: python benchmarks/bench_muscles.py
Last line: RESULT muscles_fps=F so_vs_opensim=R [so_cpu_vs_opensim=C] opensim=".." load=L (R = our frames/s with
OpenSim's objective / OpenSim's, same run; C likewise in CPU seconds).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.interpolate import make_interp_spline

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.opensim_runs import SAME_RUN, opensim_seconds, ratio_fields  # noqa: E402
from benchmarks.timing import cpu_timings, timings  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.io.storage import read_storage  # noqa: E402
from engine.muscles.path.geometry import MuscleGeometry  # noqa: E402
from engine.muscles.forces.reserves import read_actuators  # noqa: E402
from engine.muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces  # noqa: E402
from engine.tree import compile_tree
from engine.trial.filtering import lowpass  # noqa: E402

DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"
REPEATS = 10          # both sides: ours and OpenSim's best of as many runs


def walk():
    model = read_osim(DATA / "subject01_simbody.osim")
    ik = read_storage(DATA / "subject01_walk1_ik.mot")
    slots = compile_tree(model).coordinates
    Q = np.zeros((len(ik.time), model.nq))
    for name in compile_tree(model).v_names:
        column = ik.column(name)
        Q[:, slots[name].qi] = np.deg2rad(column) if ik.in_degrees and slots[name].kind == "rotational" else column
    spline = make_interp_spline(ik.time, lowpass(Q, 1.0 / np.median(np.diff(ik.time)), 6.0)[0], k=5)
    id_table = read_storage(DATA / "reference" / "id.sto")
    t = id_table.time
    tau = np.column_stack([id_table.column(n + ("_moment" if slots[n].kind == "rotational" else "_force"))
                           for n in compile_tree(model).v_names])
    return model, t, spline(t), spline.derivative()(t), tau


def best_seconds(fn):
    times = timings(fn, REPEATS)
    return min(times), float(np.median(times))


def main():
    model, t, Q, V, tau = walk()
    T = len(t)
    t0 = time.perf_counter()
    geometry = MuscleGeometry(model)
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    geometry.compute(Q, V)
    first = time.perf_counter() - t0
    reserves = read_actuators(DATA / "gait2354_CMC_Actuators.xml")
    print(f"gait2354 walk 1: {T} frames, {len(model.muscles)} muscles, {model.nv} coordinates, "
          f"{len(reserves.names)} residual/reserve actuators")
    print(f"MuscleGeometry built in {built * 1e3:.1f} ms; first evaluation (numba compile or cache load) "
          f"{first:.2f} s (not timed below)")
    geo_best, geo_median = best_seconds(lambda: geometry.compute(Q, V))
    print(f"  geometry alone:               {T / geo_best:8.0f} frames/s (median {T / geo_median:.0f})")
    results, cpu_seconds = {}, {}
    for objective in ("opensim", "seed"):
        settings = MuscleForceSettings(objective=objective, reserves=reserves)
        run = lambda: estimate_muscle_forces(model, Q, V, tau, settings, time=t, geometry=geometry)  # noqa: E731
        result = run()
        best, median = best_seconds(run)
        results[objective] = T / best
        cpu_seconds[objective] = min(cpu_timings(run, REPEATS))
        warm = result.status.count("optimal (warm start)")
        print(f"  whole step, {objective:7s} objective: {T / best:8.0f} frames/s (median {T / median:.0f}); "
              f"{int(result.success.sum())}/{T} frames solved, {warm} warm-started")
    field, ref_fps, label = ratio_fields("so_vs_opensim", results["opensim"], T, "so", repeats=REPEATS)
    print(f"  OpenSim 4.6 StaticOptimization: {ref_fps:8.1f} frames/s ({T} frames; {label}; best of {REPEATS})")
    cpu_field = ""
    if label == SAME_RUN:       # OpenSim's in CPU seconds too (best of 3: CPU time hardly varies)
        os_cpu, cpu_label = opensim_seconds("so", repeats=3, clock=time.process_time)
        if cpu_label == SAME_RUN:
            cpu_field = f" so_cpu_vs_opensim={os_cpu / cpu_seconds['opensim']:.1f}"
            print(f"  in CPU seconds: ours {cpu_seconds['opensim'] * 1e3:.1f} ms, OpenSim {os_cpu:.2f} s")
    print(f'RESULT muscles_fps={results["opensim"]:.0f} {field}{cpu_field} opensim="{label}" '
          f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
