"""Time to draw every muscle path of gait2354 at one frame: ``MuscleGeometry.polylines`` (54 muscles, no wraps), the
call the 3D view makes for each frame while the user scrubs. The frames are the 20 poses of
tests/data/opensim/gait2354/reference/model_reference.npz, drawn 10 times over after one warm-up call (compiles or
loads the kernels); the median of 5 such rounds, by the wall clock and in CPU seconds of this process.
(tests/muscles/test_polylines.py checks the property behind the speed: one kernel call per frame for all muscles.)

Run: ``.venv/bin/python benchmarks/bench_polylines.py``.
Last line: RESULT polylines_ms_per_frame=.. polylines_cpu_ms_per_frame=..
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import paired_timings  # noqa: E402
from engine.algorithms import neutral  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.muscles.path.geometry import MuscleGeometry  # noqa: E402
from engine.tree import compile_tree  # noqa: E402

GAIT2354 = ROOT / "tests" / "data" / "opensim" / "gait2354"


def main() -> None:
    model = read_osim(GAIT2354 / "subject01_simbody.osim")
    ref = dict(np.load(GAIT2354 / "reference" / "model_reference.npz"))
    Q = np.tile(neutral(model), (len(ref["q"]), 1))
    Q[:, [compile_tree(model).coordinates[str(n)].qi for n in ref["coordinate_names"]]] = ref["q"]
    scrub = np.tile(Q, (10, 1))
    geometry = MuscleGeometry(model)

    def draw():
        for q in scrub:
            geometry.polylines(q)
    wall, cpu = paired_timings(draw, 5)
    per_frame, cpu_per_frame = (1e3 * statistics.median(t) / len(scrub) for t in (wall, cpu))
    print(f"{len(geometry.muscle_names)} muscles, {len(scrub)} frames per round: {per_frame:.3f} ms per frame "
          f"({cpu_per_frame:.3f} ms of CPU)")
    print(f"RESULT polylines_ms_per_frame={per_frame:.3f} polylines_cpu_ms_per_frame={cpu_per_frame:.3f}")


if __name__ == "__main__":
    main()
