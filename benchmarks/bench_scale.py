"""Seconds to scale gait2354 to subject01 from its ScaleTool setup (read everything, scale factors, scaled
model, marker placement, every output written), beside OpenSim 4.6's ScaleTool on the same setup in the
same run when the ``opensim`` package is importable (``pip install -e ".[bench]"``). Without it there is no OpenSim
figure: reference/timings.txt stores none for the ScaleTool, and the RESULT line says so.

OpenSim's runs are interleaved with batches of ours (``opensim_runs.side_by_side``: ``ROUNDS`` runs, each followed by
``BATCH`` of our runs after an untimed one, numba compiled and files cached), so that both sides see the same load;
each figure is a median, by the wall clock and in CPU seconds of this process, both read around the same runs.
Last line: RESULT scale_s=.. scale_cpu_s=.. opensim_scale_s=.. scale_vs_opensim=R scale_cpu_vs_opensim=C
opensim="same run" load=L (R = OpenSim's median seconds / ours, as the other benchmarks' ``*_vs_opensim``; C likewise
in this process's CPU seconds, which the load of a shared machine inflates less), or without OpenSim
RESULT scale_s=.. scale_cpu_s=.. opensim_scale_s=none opensim="not installed; no stored reference" load=L
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FOLDER = ROOT / "tests" / "data" / "opensim" / "gait2354" / "scale"

from benchmarks.opensim_runs import SAME_RUN, side_by_side  # noqa: E402
from engine.io.osim.scale_setup import read_scale_setup  # noqa: E402
from engine.io.scale_files import scale_from_files, write_scale_outputs  # noqa: E402

ROUNDS = 7            # OpenSim runs (about 0.2 s each), each followed by a batch of ours
BATCH = 3             # our timed runs per round (about 0.15 s each)


def ours(work: Path):
    setup = read_scale_setup(FOLDER / "subject01_Setup_Scale.xml")
    write_scale_outputs(scale_from_files(setup), setup, work / "subject01_simbody.osim")


def main():
    with tempfile.TemporaryDirectory() as work:
        both = side_by_side("scale", lambda: ours(Path(work)), ROUNDS, BATCH)
    t_ours, cpu_ours = float(np.median(both.wall)), float(np.median(both.cpu))
    print("gait2354 -> subject01: 12 bodies, 5 measurements, 39 markers placed, 54 muscles")
    print(f"{'ScaleTool run (medians)':28s} {'ours s':>8s} {'OpenSim 4.6 s':>14s}")
    theirs = f"{np.median(both.opensim_wall):.3f}" if both.same_run else "none"
    print(f"{'scale + place + write':28s} {t_ours:8.3f} {theirs:>14s}")
    if not both.same_run:
        fields = 'opensim="not installed; no stored reference"'
    else:
        wall_ratio, cpu_ratio = both.ratios()
        print(f"{'in CPU seconds':28s} {cpu_ours:8.3f} {np.median(both.opensim_cpu):14.3f}")
        print(f"per round (OpenSim's run / our batch's median, wall): {min(both.round_ratios):.2f}-"
              f"{max(both.round_ratios):.2f}")
        fields = f'scale_vs_opensim={wall_ratio:.2f} scale_cpu_vs_opensim={cpu_ratio:.2f} opensim="{SAME_RUN}"'
    print(f"RESULT scale_s={t_ours:.3f} scale_cpu_s={cpu_ours:.3f} opensim_scale_s={theirs} {fields} "
          f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
