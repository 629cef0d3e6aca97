"""Frames per second of the whole muscle step on gait2354 walk 1, beside OpenSim's static optimisation.

The step, per trial: muscle geometry (lengths, speeds, length Jacobians), rigid-tendon Hill bounds,
reserve-actuator generalized forces and one warm-started QP per frame
(``engine.muscles.forces.static_optimization.estimate_muscle_forces``), for both objectives. Inputs as
reference/so_setup.xml says: the IK coordinates over 0.4-1.6 s (73 frames) low-passed at 6 Hz, speeds
from a quintic spline, generalized forces from reference/id.sto, the gait2354 CMC actuator file.
``MuscleGeometry`` is built once per model and its numba kernels compiled before timing (both times
printed). OpenSim's AnalyzeTool + StaticOptimization runs reference/so_setup.xml on the same data in the
same process (``benchmarks.opensim_runs``), ``ROUNDS`` times, each run followed by ``BATCH`` of our calls (after one
untimed call, OpenSim having just run), so that both sides see the same load; each side's figure is its median, by
the wall clock and in CPU seconds of this process (all its threads), read around the same runs. A median, not a best:
one scheduling hiccup, or one lucky run, on either side does not decide the ratio (the best-of-runs ratio moved
81-925 on unchanged code at load 5-15 on the shared machine; the CPU-seconds one hardly moves with other processes'
load). The spread of the per-round wall ratios is printed. Without ``opensim`` installed the figure stored in
reference/timings.txt is printed, labelled "stored reference", and no ratio is given.

Run: python benchmarks/bench_muscles.py
Last line: RESULT muscles_fps=F so_vs_opensim=R [so_cpu_vs_opensim=C] opensim=".." load=L (F = our frames/s with
OpenSim's objective, median wall; R = OpenSim's median wall seconds / ours, same run; C likewise in CPU seconds).
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

from benchmarks.opensim_runs import STORED, side_by_side, stored_fields  # noqa: E402
from benchmarks.timing import paired_timings  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.io.storage import read_storage  # noqa: E402
from engine.muscles.path.geometry import MuscleGeometry  # noqa: E402
from engine.muscles.forces.reserves import read_actuators  # noqa: E402
from engine.muscles.forces.static_optimization import MuscleForceSettings, estimate_muscle_forces  # noqa: E402
from engine.tree import compile_tree
from engine.trial.filtering import lowpass  # noqa: E402

DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"
ROUNDS = 7            # OpenSim runs (about 3 s each), each followed by a batch of ours
BATCH = 15            # our timed calls per round (about 10 ms each)
REPEATS = 50          # our timed calls of the geometry alone and of the seed objective


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


def median_ms(times) -> float:
    return float(np.median(times)) * 1e3


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
    wall, cpu = paired_timings(lambda: geometry.compute(Q, V), REPEATS)
    print(f"  geometry alone:               {T / np.median(wall):8.0f} frames/s (median of {REPEATS}; "
          f"{median_ms(wall):.2f} ms wall, {median_ms(cpu):.2f} ms CPU)")
    runs = {}
    for objective in ("opensim", "seed"):
        settings = MuscleForceSettings(objective=objective, reserves=reserves)
        runs[objective] = lambda s=settings: estimate_muscle_forces(model, Q, V, tau, s, time=t, geometry=geometry)
        result = runs[objective]()
        warm = result.status.count("optimal (warm start)")
        print(f"  {objective:7s} objective: {int(result.success.sum())}/{T} frames solved, {warm} warm-started")
    wall, cpu = paired_timings(runs["seed"], REPEATS)
    print(f"  whole step, seed    objective: {T / np.median(wall):8.0f} frames/s (median of {REPEATS}; "
          f"{median_ms(wall):.2f} ms wall, {median_ms(cpu):.2f} ms CPU)")
    both = side_by_side("so", runs["opensim"], ROUNDS, BATCH)
    fps = T / np.median(both.wall)
    print(f"  whole step, opensim objective: {fps:8.0f} frames/s (median of {len(both.wall)}; "
          f"{median_ms(both.wall):.2f} ms wall, best {min(both.wall) * 1e3:.2f}; {median_ms(both.cpu):.2f} ms CPU)")
    if not both.same_run:
        field, ref_fps = stored_fields("so_vs_opensim", T, "so")
        print(f"  OpenSim 4.6 StaticOptimization: {ref_fps:8.1f} frames/s ({T} frames; {STORED})")
        print(f'RESULT muscles_fps={fps:.0f} {field} opensim="{STORED}" load={os.getloadavg()[0]:.1f}')
        return
    wall_ratio, cpu_ratio = both.ratios()
    os_wall, os_cpu = both.opensim_wall, both.opensim_cpu
    print(f"  OpenSim 4.6 StaticOptimization: {T / np.median(os_wall):8.1f} frames/s ({T} frames; same run; median of "
          f"{ROUNDS}: {np.median(os_wall):.2f} s wall, best {min(os_wall):.2f}; {np.median(os_cpu):.2f} s CPU)")
    print(f"  ratio, medians: {wall_ratio:.1f} wall, {cpu_ratio:.1f} CPU; per round (OpenSim's run / our batch's "
          f"median, wall): {min(both.round_ratios):.0f}-{max(both.round_ratios):.0f}")
    print(f"RESULT muscles_fps={fps:.0f} so_vs_opensim={wall_ratio:.1f} so_cpu_vs_opensim={cpu_ratio:.1f} "
          f'opensim="same run" load={os.getloadavg()[0]:.1f}')


if __name__ == "__main__":
    main()
