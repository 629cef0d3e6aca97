"""The sling lift's tactile sensor over the hang, per region of the seed's Fig. 5 (issue 23; docs/mass-spring-sheet.md).

``skin.scenes.sling_lift`` with its sling held at its corners by hook loops of each size given, on the coarse test
scene (3 cm skin, 800-vertex sling, bed every 3 cm) and at the seed's sizes (1.2 cm skin, 4k sling); each run
simulates 3 s (the bar stops at 1.7 s, the sensor reads 2.0-3.0 s, ``outcomes.hanging_window``) with a record every
0.05 s, and prints each region's 95th percentile of its loaded 3 cm cells over the hang
(``outcomes.sensor_window_summary``), its mean force from the sling and the force on its folded cells, left out.
A run whose upper back, hip and knees take less than half the body's weight from the sling over the hang has lost
the body (it fell through the sling) and is marked so. A coarse run takes 10 to 30 s, a seed-size one 2 to 4 minutes
on the 2-core machine under load. Last line: ``RESULT runs=N carried=C knees_highest=K`` (K of the C runs that carry
the body read the knees above both the upper back and the hip).

    .venv/bin/python benchmarks/sling_pressure_order.py [--sizes coarse seed] [--loops 0.03 0.05 0.08]
"""
from __future__ import annotations

import argparse

import numpy as np

from skin.outcomes import hanging_window, sensor_window_summary
from skin.scenes import HOOK_LOOP, sling_lift
from skin.simulation import simulate

SIZES = {"coarse": {"spacing": 0.03, "sheet_vertices": 800, "bed_spacing": 0.03}, "seed": {}}
END = 3.0           # s
RECORD_EVERY = 25   # steps of 2 ms: a record every 0.05 s
REGIONS = ("upper back", "hip", "knees", "arms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", choices=tuple(SIZES), default=list(SIZES))
    parser.add_argument("--loops", nargs="+", type=float, default=[0.03, HOOK_LOOP, 0.08], help="hook loop sizes, m")
    args = parser.parse_args()
    print("size    loop (m)  " + "  ".join(f"{r:>10s} kPa (N, left out N)" for r in REGIONS))
    runs = carried = highest = 0
    for size in args.sizes:
        for loop in args.loops:
            scene = sling_lift(**SIZES[size], hook_loop=loop)
            result = simulate(scene, duration=END, record_every=RECORD_EVERY)
            read = sensor_window_summary(scene, result, hanging_window(scene, result))
            cells = "  ".join(f"{read[r][0] / 1e3:14.1f} ({read[r][2]:5.0f}, {read[r][4]:5.1f})" for r in REGIONS)
            weight = sum(b.mass for b in scene.model.bodies) * float(np.linalg.norm(scene.model.gravity))
            held = sum(read[r][2] for r in ("upper back", "hip", "knees")) >= 0.5 * weight
            notes = "" if held else "  the body fell through the sling"
            notes += f"  notes: {'; '.join(result.notes)}" if result.notes else ""
            print(f"{size:7s} {loop:8.3f}  {cells}{notes}", flush=True)
            runs += 1
            carried += held
            highest += held and read["knees"][0] > max(read["upper back"][0], read["hip"][0])
    print(f"RESULT runs={runs} carried={carried} knees_highest={highest}")


if __name__ == "__main__":
    main()
