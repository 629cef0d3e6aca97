"""Speed of the skinned-body simulation (seed 002) at the seed's sizes: a 14k-vertex skin on the 20k-vertex
robotic lift, and on a 4k-vertex sling sheet, against the seed's 5 minutes per simulated second (1/300).

Run: python benchmarks/bench_skin.py [--steps N] [--lifting S]
Each scene is built, stepped a few times to compile and warm up, then timed over N steps (default 100) from
the scene's start (the body on the device), at the scene's own step (dt); the sling is timed again over N steps from
S s (default 1.2: the rising sling carries the body, contact over its whole back). Last line:
RESULT skin=S lift_device=D sheet=K lift_sim_per_wall=X sling_sim_per_wall=Y seed_ratio=Z lift_sim_per_cpu=...
sling_sim_per_cpu=... seed_ratio_cpu=... sling_lifting_sim_per_cpu=... (Z: the slower of the two against 1/300; the
goal is at least 30; the _cpu figures divide by this process's CPU time, which a machine shared with other jobs
inflates less than wall time). OpenBLAS runs single-threaded unless OPENBLAS_NUM_THREADS is set: the step's dense
solves are small (35 coordinates) and SuperLU's are sparse, so more threads gain nothing, and on a shared machine
their spinning between calls tripled the CPU time of the sling's lifting phase.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # before numpy loads OpenBLAS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skin.scenes import robotic_lift, sling_lift  # noqa: E402
from skin.simulation import Simulator  # noqa: E402

SEED_SPEED = 1.0 / 300.0     # simulated s per wall s: "approximately 5 min ... to generate 1 sec"


def timed(scene, steps: int, start: float = 0.0) -> tuple[float, float]:
    """Simulated seconds per wall second and per CPU second, over ``steps`` steps from ``start`` s."""
    sim = Simulator(scene)
    for _ in range(3):
        sim.step()
    while sim.t < start:
        sim.step()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        sim.step()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return steps * scene.dt / wall, steps * scene.dt / cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--lifting", type=float, default=1.2)
    args = parser.parse_args()
    lift = robotic_lift(0.0)
    sling = sling_lift()
    n_skin = lift.skin.n_vertices
    n_lift = sum(d.mesh.n_vertices for d in lift.devices)
    n_sheet = sum(s.mesh.n_vertices for s in sling.sheets)
    print(f"skin {n_skin} vertices, lift board {n_lift} vertices, sling sheet {n_sheet} vertices (+ bed "
          f"{sum(d.mesh.n_vertices for d in sling.devices)}), dt {lift.dt} s (lift, {lift.integrator}), {sling.dt} s "
          f"(sling, {sling.integrator})")
    lift_wall, lift_cpu = timed(lift, args.steps)
    print(f"robotic lift: {lift_wall:.4f} simulated s per wall s ({lift_wall / SEED_SPEED:.1f} x the seed), "
          f"{lift_cpu:.4f} per CPU s")
    sling_wall, sling_cpu = timed(sling, args.steps)
    print(f"sling lift:   {sling_wall:.4f} simulated s per wall s ({sling_wall / SEED_SPEED:.1f} x the seed), "
          f"{sling_cpu:.4f} per CPU s")
    _, lifting_cpu = timed(sling, args.steps, args.lifting)
    print(f"sling lift from {args.lifting:g} s (carrying the body): {lifting_cpu:.4f} simulated s per CPU s "
          f"({lifting_cpu / SEED_SPEED:.1f} x the seed)")
    print(f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    print(f"RESULT skin={n_skin} lift_device={n_lift} sheet={n_sheet} lift_sim_per_wall={lift_wall:.4f} "
          f"sling_sim_per_wall={sling_wall:.4f} seed_ratio={min(lift_wall, sling_wall) / SEED_SPEED:.1f} "
          f"lift_sim_per_cpu={lift_cpu:.4f} sling_sim_per_cpu={sling_cpu:.4f} "
          f"seed_ratio_cpu={min(lift_cpu, sling_cpu) / SEED_SPEED:.1f} sling_lifting_sim_per_cpu={lifting_cpu:.4f}")

if __name__ == "__main__":
    main()
