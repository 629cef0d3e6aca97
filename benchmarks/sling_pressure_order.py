"""The sling lift's tactile sensor over the hang, per region of the seed's Fig. 5 (issue 23; docs/mass-spring-sheet.md).

``skin.scenes.sling_lift`` with each combination of the scene's assumed values given (the hooks' strap loops, where
the sling's foot edge ends behind the knees, the sheet's and the contact's stiffness kept equal as Table I keeps them,
friction mu, the bar's rise; each defaults to the scene's), on the coarse test scene (3 cm skin, 800-vertex sling, bed
every 3 cm) and at the seed's sizes (1.2 cm skin, 4k sling), or at ``--spacing``/``--sheet-vertices``/
``--bed-spacing``; each run simulates 3 s (the bar stops at 1.7 s, the sensor reads 2.0-3.0 s,
``outcomes.hanging_window``) with a record every 0.05 s, and prints each region's 95th percentile of its loaded 3 cm
cells over the hang (``outcomes.sensor_window_summary``), its mean force from the sling and the force on its folded
cells, left out; then whether the seed's order holds (the knees above both the upper back and the hip: ``yes``) and
the ratio knees / max(upper back, hip). A run whose upper back, hip and knees take less than half the body's weight
from the sling over the hang has lost the body (it fell through the sling) and is marked so; ``--trace`` prints, every
0.1 s of every run, the sling's force on the trunk, the pelvis, each thigh and the arms, the pelvis's height above the
hooks and each knee's centre's distance along the body beyond the sling's foot edge (where the body slips). A coarse
run takes 10 to 30 s, a seed-size one 1.5 to 4 minutes on the 2-core machine under load. Last line:
``RESULT runs=N carried=C knees_highest=K`` (K of the C runs that carry the body read the knees above both the upper
back and the hip).

    .venv/bin/python benchmarks/sling_pressure_order.py [--sizes coarse seed] [--loops 0.03 0.05 0.08]
        [--behind-knee 0.05] [--stiffness 2e4] [--friction 0.4] [--rise 0.6] [--trace]
        [--spacing 0.012 --sheet-vertices 4000 --bed-spacing 0.015]
"""
from __future__ import annotations

import argparse
import itertools

import numpy as np

from engine.algorithms import forward_kinematics, frame_placement
from engine.data import Data
from skin.contact import FRICTION
from skin.outcomes import hanging_window, sensor_window_summary
from skin.scenes import HOOK_LOOP, SLING_BEHIND_KNEE, SLING_RISE, SLING_STIFFNESS, sling_lift
from skin.simulation import simulate

SIZES = {"coarse": {"spacing": 0.03, "sheet_vertices": 800, "bed_spacing": 0.03}, "seed": {}}
END = 3.0           # s
RECORD_EVERY = 25   # steps of 2 ms: a record every 0.05 s
REGIONS = ("upper back", "hip", "knees", "arms")
TRACED = {"trunk": ("torso",), "pelvis": ("pelvis",), "thigh l": ("femur_l",), "thigh r": ("femur_r",),
          "arms": tuple(f"{b}_{s}" for b in ("humerus", "forearm", "hand") for s in "lr")}


def trace(scene, result) -> None:
    """Every 0.1 s: the sling's normal force (N) on the skin of each ``TRACED`` group (by the vertices' main bone),
    the pelvis's offset (m) from the mean of the sling's held vertices (along the body, towards the feet; sideways,
    towards the left; up), and each knee's centre's distance (m) along the body beyond the sling's foot edge (the mean
    of its last row; positive: the knee lies beyond the edge, towards the feet)."""
    skin, model = scene.skin, scene.model
    (sling,) = scene.sheets
    main = skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]
    groups = {k: np.isin(main, [skin.bodies.index(b) for b in v if b in skin.bodies]) for k, v in TRACED.items()}
    rest = sling.mesh.vertices
    foot = np.abs(rest[:, 0] - rest[:, 0].max()) < 1e-9
    held = list(sling.held)
    data = Data(model)
    forward_kinematics(model, data, result.q[0])
    left = np.sign(frame_placement(model, data, "femur_l").p[2] - frame_placement(model, data, "femur_r").p[2])
    print("    t (s)  " + "  ".join(f"{k:>8s} N" for k in TRACED)
          + "  pelvis - hooks: along, left, up (m)  knee l, r beyond edge (m)")
    for k in range(0, len(result.time), 2):
        x = skin.vertices(model, data, result.q[k])
        force = result.sheet_pressure[k] * skin.mesh.normals_areas(x)[1]
        forward_kinematics(model, data, result.q[k])
        sheet = result.sheets[sling.name][k].astype(float)
        edge = sheet[foot, 0].mean()
        knees = [frame_placement(model, data, f"tibia_{s}").p[0] - edge for s in "lr"]
        pelvis = frame_placement(model, data, "pelvis").p - sheet[held].mean(axis=0)
        print(f"    {result.time[k]:5.2f}  " + "  ".join(f"{force[g].sum():10.0f}" for g in groups.values())
              + f"  {pelvis[0]:10.3f} {left * pelvis[2]:7.3f} {pelvis[1]:7.3f}           "
              f"{knees[0]:6.3f}, {knees[1]:6.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", choices=tuple(SIZES), default=list(SIZES))
    parser.add_argument("--spacing", type=float, help="skin spacing, m (instead of --sizes)")
    parser.add_argument("--sheet-vertices", type=int, default=4000, help="with --spacing")
    parser.add_argument("--bed-spacing", type=float, default=0.015, help="with --spacing, m")
    parser.add_argument("--loops", nargs="+", type=float, default=[0.03, HOOK_LOOP, 0.08], help="hook loop sizes, m")
    parser.add_argument("--behind-knee", nargs="+", type=float, default=[SLING_BEHIND_KNEE],
                        help="the sling's foot edge behind the knees' centres, m")
    parser.add_argument("--stiffness", nargs="+", type=float, default=[SLING_STIFFNESS],
                        help="the sheet's springs and the contact, N/m (equal, as Table I)")
    parser.add_argument("--friction", nargs="+", type=float, default=[FRICTION], help="mu between skin and sling")
    parser.add_argument("--rise", nargs="+", type=float, default=[SLING_RISE], help="the bar's rise, m")
    parser.add_argument("--trace", action="store_true", help="print the sling's force per body part every 0.1 s")
    args = parser.parse_args()
    sizes = ({"given": {"spacing": args.spacing, "sheet_vertices": args.sheet_vertices,
                        "bed_spacing": args.bed_spacing}} if args.spacing else {s: SIZES[s] for s in args.sizes})
    print("size    loop  behind  k (N/m)    mu  rise  "
          + "  ".join(f"{r:>10s} kPa (N, left out N)" for r in REGIONS) + "  order  knees/max(back, hip)")
    runs = carried = highest = 0
    for (size, dims), loop, behind, k, mu, rise in itertools.product(sizes.items(), args.loops, args.behind_knee,
                                                                     args.stiffness, args.friction, args.rise):
        scene = sling_lift(**dims, hook_loop=loop, behind_knee=behind, stiffness=k, friction=mu, rise=rise)
        result = simulate(scene, duration=END, record_every=RECORD_EVERY)
        read = sensor_window_summary(scene, result, hanging_window(scene, result))
        cells = "  ".join(f"{read[r][0] / 1e3:14.1f} ({read[r][2]:5.0f}, {read[r][4]:5.1f})" for r in REGIONS)
        weight = sum(b.mass for b in scene.model.bodies) * float(np.linalg.norm(scene.model.gravity))
        held = sum(read[r][2] for r in ("upper back", "hip", "knees")) >= 0.5 * weight
        ratio = read["knees"][0] / max(read["upper back"][0], read["hip"][0], 1e-9)
        order = held and ratio > 1.0
        notes = f"  {'yes' if order else 'no':5s}  {ratio:5.2f}" if held else "  the body fell through the sling"
        notes += f"  notes: {'; '.join(result.notes)}" if result.notes else ""
        print(f"{size:7s} {loop:5.3f}  {behind:6.3f}  {k:7.0f}  {mu:4.2f}  {rise:4.2f}  {cells}{notes}", flush=True)
        if args.trace:
            trace(scene, result)
        runs += 1
        carried += held
        highest += order
    print(f"RESULT runs={runs} carried={carried} knees_highest={highest}")


if __name__ == "__main__":
    main()
