"""Speed of seed 003's hip mechanism: the performance maps over (alpha, beta) and a trial's actuator demands.

Maps: every measure (workspace flags, dexterity, stiffness eigenvalues, bearing capacity) on the default
1-degree grid (179 x 181 poses), in numba. Demands: the demo's right hip (results.hlr, 288 frames) mapped to
the actuators' lengths, speeds, forces and power with the virtual-work inverse dynamics (Python over frames).

Run: ``.venv/bin/python benchmarks/bench_hip_mechanism.py``.
Last line: RESULT hip_maps_poses_per_s=N hip_demands_frames_per_s=M
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import timings  # noqa: E402
from engine.io.results_file import load_result  # noqa: E402
from hip_mechanism.maps import default_grid, performance_maps  # noqa: E402
from hip_mechanism.parameters import SEED  # noqa: E402
from hip_mechanism.trial import trial_demands  # noqa: E402

DEMO = Path(__file__).resolve().parents[1] / "resources" / "demo" / "results.hlr"


def main() -> None:
    alphas, betas = default_grid(1.0)
    poses = len(alphas) * len(betas)
    maps_s = statistics.median(timings(lambda: performance_maps(SEED, alphas, betas), 3))
    result = load_result(DEMO)[0]
    frames = len(result.motion.time)
    demands_s = statistics.median(timings(lambda: trial_demands(SEED, result, "r"), 3))
    print(f"maps: {poses} poses in {maps_s:.3f} s; demands: {frames} frames in {demands_s:.3f} s")
    print(f"RESULT hip_maps_poses_per_s={poses / maps_s:.0f} hip_demands_frames_per_s={frames / demands_s:.0f}")


if __name__ == "__main__":
    main()
