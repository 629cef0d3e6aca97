"""Seconds to scale gait2354 to subject01 from its ScaleTool setup (read everything, scale factors, scaled
model, marker placement, every output written), beside OpenSim 4.6's ScaleTool on the same setup in the
same run when the ``opensim`` package is importable (else no OpenSim figure: none is stored for it).

Each figure is the best of several runs after a warm-up (numba compiled, files cached).
Last line: RESULT scale_s=.. opensim_scale_s=.. (or none) ratio=..
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FOLDER = ROOT / "tests" / "data" / "opensim" / "gait2354" / "scale"

from benchmarks.timing import timings  # noqa: E402
from engine.io.osim.scale_setup import read_scale_setup  # noqa: E402
from engine.io.scale_files import scale_from_files, write_scale_outputs  # noqa: E402

REPEATS = 5


def ours(work: Path):
    setup = read_scale_setup(FOLDER / "subject01_Setup_Scale.xml")
    write_scale_outputs(scale_from_files(setup), setup, work / "subject01_simbody.osim")


def opensims(work: Path):
    try:
        import opensim
    except ImportError:
        return None
    opensim.Logger.setLevelString("off")
    for f in FOLDER.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    setup = str(work / "subject01_Setup_Scale.xml")
    return min(timings(lambda: opensim.ScaleTool(setup).run(), REPEATS))


def main():
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        t_ours = min(timings(lambda: ours(Path(a)), REPEATS))
        t_opensim = opensims(Path(b))
    print("gait2354 -> subject01: 12 bodies, 5 measurements, 39 markers placed, 54 muscles")
    print(f"{'ScaleTool run':28s} {'ours s':>8s} {'OpenSim 4.6 s':>14s}")
    theirs = "none" if t_opensim is None else f"{t_opensim:.3f}"
    print(f"{'scale + place + write':28s} {t_ours:8.3f} {theirs:>14s}")
    ratio = "none" if t_opensim is None else f"{t_ours / t_opensim:.1f}"
    print(f"RESULT scale_s={t_ours:.3f} opensim_scale_s={theirs} ratio={ratio}")


if __name__ == "__main__":
    main()
