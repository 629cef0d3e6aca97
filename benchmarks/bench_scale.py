"""Seconds to scale gait2354 to subject01 from its ScaleTool setup (read everything, scale factors, scaled
model, marker placement, every output written), beside OpenSim 4.6's ScaleTool on the same setup in the
same run when the ``opensim`` package is importable (``pip install -e ".[bench]"``). Without it there is no OpenSim
figure: reference/timings.txt stores none for the ScaleTool, and the RESULT line says so.

Each figure is the best of several runs after a warm-up (numba compiled, files cached).
Last line: RESULT scale_s=.. opensim_scale_s=.. scale_vs_opensim=R scale_cpu_vs_opensim=C opensim="same run" load=L
(R = OpenSim's seconds / ours, as the other benchmarks' ``*_vs_opensim``; C likewise in this process's CPU seconds,
which the load of a shared machine inflates less), or without OpenSim
RESULT scale_s=.. opensim_scale_s=none opensim="not installed; no stored reference" load=L
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FOLDER = ROOT / "tests" / "data" / "opensim" / "gait2354" / "scale"

from benchmarks.opensim_runs import SAME_RUN  # noqa: E402
from benchmarks.timing import timings  # noqa: E402
from engine.io.osim.scale_setup import read_scale_setup  # noqa: E402
from engine.io.scale_files import scale_from_files, write_scale_outputs  # noqa: E402

REPEATS = 5


def ours(work: Path):
    setup = read_scale_setup(FOLDER / "subject01_Setup_Scale.xml")
    write_scale_outputs(scale_from_files(setup), setup, work / "subject01_simbody.osim")


def opensims(work: Path, clock=time.perf_counter):
    try:
        import opensim
    except ImportError:
        return None
    opensim.Logger.setLevelString("off")
    for f in FOLDER.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    setup = str(work / "subject01_Setup_Scale.xml")
    return min(timings(lambda: opensim.ScaleTool(setup).run(), REPEATS, clock))


def main():
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        t_ours = min(timings(lambda: ours(Path(a)), REPEATS))
        cpu_ours = min(timings(lambda: ours(Path(a)), REPEATS, time.process_time))
        t_opensim = opensims(Path(b))
        cpu_opensim = opensims(Path(b), time.process_time)
    print("gait2354 -> subject01: 12 bodies, 5 measurements, 39 markers placed, 54 muscles")
    print(f"{'ScaleTool run':28s} {'ours s':>8s} {'OpenSim 4.6 s':>14s}")
    theirs = "none" if t_opensim is None else f"{t_opensim:.3f}"
    print(f"{'scale + place + write':28s} {t_ours:8.3f} {theirs:>14s}")
    if t_opensim is None:
        fields = 'opensim="not installed; no stored reference"'
    else:
        print(f"{'in CPU seconds':28s} {cpu_ours:8.3f} {cpu_opensim:14.3f}")
        fields = (f"scale_vs_opensim={t_opensim / t_ours:.2f} scale_cpu_vs_opensim={cpu_opensim / cpu_ours:.2f} "
                  f'opensim="{SAME_RUN}"')
    print(f"RESULT scale_s={t_ours:.3f} opensim_scale_s={theirs} {fields} load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
