"""The sling lift's Fig. 5 readings against the skin's levers (issue 23): how much linear blend skinning (eq. 3) folds
and stretches the skin at the knees, hips, shoulders and neck, and what the tactile sensor reads over the hang, for a skin
generated in another rest pose or with other weights. docs/sling-skin.md tabulates the runs.

Run: python benchmarks/sling_skin_levers.py [--spacing M] [--sheet-vertices N] [--bed-spacing M] [--falloff M]
                                             [--rest COORDINATE=DEGREES,...] [--static]
``--rest`` sets coordinates of the A-pose (``skin.rest_pose.a_pose``) the skin is generated in (a name without its side
sets both sides), e.g. ``knee_angle=-90,shoulder_flexion=-56,neck_extension=56``; ``--falloff`` the weights' falloff
(``skin.weights.FALLOFF``). The body lies in the A-pose whatever the skin's rest pose (``skin.scenes.sling_lift``).
``--static`` skips the run: only the folds at the flexed pose of ``tests/skin/test_outcomes.py`` (hips 70, knees 90
degrees). Otherwise the scene runs 3 s (the hang from 2.0 s, ``skin.outcomes.hanging_window``), a record every 0.05 s.

Printed: per region (the scene's knees and hip, and the skin within ``NEAR`` of a hip's, a shoulder's or the neck's
centre) the vertices folded below ``skin.outcomes.FOLDED`` of their rest area, the smallest and largest area ratio and
the vertices stretched beyond ``STRETCHED``, at the flexed pose and (the most in one record) over the hang; the hang's
mean hip, knee, shoulder and neck angles; each region's sensor reading (95th percentile of the loaded cells pooled over
the hang, the highest cell's mean, the sheets' force, the cells left out as folded and their force), its hot cells
(``hot_cells``: how compressed the skin under them is) and the upper back read without the neck's blend. Last line:
RESULT rest=... falloff=F skin=N upper_back_kPa=U hip_kPa=H knees_kPa=K knees_highest=B knees_folded=N
shoulders_folded=N neck_folded=N upper_back_without_neck_kPa=W knees_left_out_N=F
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # before numpy loads OpenBLAS (see bench_skin.py)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.algorithms import frame_placement  # noqa: E402
from engine.data import Data  # noqa: E402
from engine.errors import SettingsError  # noqa: E402
from engine.tree import compile_tree  # noqa: E402
from skin.outcomes import FOLDED, SENSOR_DIAMETER, hanging_window, sensor_pressure, sensor_window_summary  # noqa: E402
from skin.rest_pose import a_pose  # noqa: E402
from skin.scenes import athlete, skinned_bodies, sling_lift  # noqa: E402
from skin.simulation import simulate  # noqa: E402
from skin.skinning import Skin  # noqa: E402
from skin.weights import FALLOFF  # noqa: E402

NEAR = 0.15          # m: the skin this close to a hip's, a shoulder's or the neck's centre is that joint's
STRETCHED = 1.5      # area ratio beyond which a vertex counts as stretched
DURATION = 3.0       # s, as tests/skin/test_sling.py
RECORD_EVERY = 25    # steps of 2 ms: a record every 0.05 s, as docs/mass-spring-sheet.md's table


def rest_pose(model, spec: str) -> np.ndarray:
    """The A-pose with the coordinates of ``spec`` (``name=degrees,...``; a name without its side sets both) set."""
    q = a_pose(model)
    coordinates = compile_tree(model).coordinates
    for item in filter(None, spec.split(",")):
        name, _, degrees = item.partition("=")
        names = [name] if name in coordinates else [f"{name}_{side}" for side in "lr"]
        if not all(n in coordinates for n in names):
            raise SettingsError(f"no coordinate '{name}' (nor '{name}_l' and '{name}_r') in the athlete", f"--rest {item}")
        try:
            angle = np.radians(float(degrees))
        except ValueError:
            raise SettingsError(f"'{degrees}' is not an angle in degrees", f"--rest {item}") from None
        for each in names:
            q[coordinates[each].qi] = angle
    return q


def flexed(scene, hips: float = 70.0, knees: float = 90.0) -> np.ndarray:
    """The scene's initial pose with the hips and knees flexed by ``hips``, ``knees`` degrees."""
    coordinates = compile_tree(scene.model).coordinates
    q = scene.q0.copy()
    for side in "lr":
        q[coordinates[f"hip_flexion_{side}"].qi] = np.radians(hips)
        q[coordinates[f"knee_angle_{side}"].qi] = np.radians(-knees)
    return q


def regions(scene, q) -> tuple[dict, np.ndarray]:
    """The regions whose folds are counted (``{name: mask}``) and the skin's area ratios (n,) at ``q``."""
    model, skin = scene.model, scene.skin
    data = Data(model)
    x = skin.vertices(model, data, q)
    ratio = skin.mesh.normals_areas(x)[1] / skin.mesh.normals_areas()[1]
    near = {}
    for joint, bodies in (("hips", ("femur_l", "femur_r")), ("shoulders", ("humerus_l", "humerus_r")),
                          ("neck", ("head",))):
        centres = [frame_placement(model, data, body).p for body in bodies]
        near[joint] = np.min([np.linalg.norm(x - c, axis=1) for c in centres], axis=0) < NEAR
    return {"knees": scene.watch["knees"], "hip": scene.watch["hip"], **near}, ratio


def folds(scene, poses) -> dict:
    """``{region: (most folded in one pose, smallest ratio, largest ratio, most stretched in one pose)}`` over
    ``poses``."""
    out = {}
    for q in poses:
        masks, ratio = regions(scene, q)
        for name, mask in masks.items():
            r = ratio[mask]
            a = out.get(name, (0, np.inf, 0.0, 0))
            out[name] = (max(a[0], int((r < FOLDED).sum())), min(a[1], float(r.min())), max(a[2], float(r.max())),
                         max(a[3], int((r > STRETCHED).sum())))
    return out


def hot_cells(scene, result, window, read) -> tuple[dict, float]:
    """``{region: (hot cells, their median area ratio over the hang, how many carry the head's weight > 0.05)}``: a
    region's hot cells read at least its 95th percentile (``read``) in a quarter of the hang's records or more; their
    area ratio at the pose divides their reading (a cell reads its force over the area it covers at the pose). And the
    upper back's 95th percentile (Pa) without the cells carrying the head's weight > 0.05 (the neck's blend, where the
    head hanging back and turned squeezes the skin): a bound on what a skin without linear blend skinning's neck
    artefacts could read there."""
    model, skin = scene.model, scene.skin
    frames = np.flatnonzero((result.time >= window[0] - 1e-9) & (result.time <= window[1] + 1e-9))
    rest = skin.mesh.normals_areas()[1]
    readings, ratios = [], []
    for k in frames:
        x = skin.vertices(model, Data(model), result.q[k])
        normals, areas = skin.mesh.normals_areas(x)
        folded = areas < FOLDED * rest
        readings.append(sensor_pressure(x, normals, result.sheet_pressure[k] * areas, areas, SENSOR_DIAMETER, folded))
        ratios.append(areas / rest)
    readings, ratios = np.array(readings), np.array(ratios)
    head = np.where(skin.bone == skin.bodies.index("head"), skin.weight, 0.0).sum(axis=1) > 0.05
    out = {}
    for name in ("upper back", "hip", "knees"):
        mask = scene.watch[name]
        hot = mask & ((readings >= read[name][0]).sum(axis=0) >= len(frames) / 4)
        out[name] = (int(hot.sum()), float(np.median(ratios[:, hot])) if hot.any() else float("nan"),
                     int((hot & head).sum()))
    back = readings[:, scene.watch["upper back"] & ~head]
    return out, float(np.percentile(back[back > 0], 95))


def show_folds(title: str, table: dict) -> None:
    print(title)
    for name, (folded, low, high, stretched) in table.items():
        print(f"  {name:10s} folded {folded:4d}  area ratio {low:.2f}-{high:.2f}  stretched {stretched:4d}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spacing", type=float, default=0.03)
    parser.add_argument("--sheet-vertices", type=int, default=800)
    parser.add_argument("--bed-spacing", type=float, default=0.03)
    parser.add_argument("--falloff", type=float, default=FALLOFF)
    parser.add_argument("--rest", default="")
    parser.add_argument("--static", action="store_true")
    args = parser.parse_args()
    model = athlete()
    skin = Skin.generate(model, q_rest=rest_pose(model, args.rest), spacing=args.spacing, falloff=args.falloff,
                         bodies=skinned_bodies(model))
    scene = sling_lift(args.spacing, args.sheet_vertices, args.bed_spacing, skin=skin)
    print(f"skin {skin.n_vertices} vertices, rest A-pose {args.rest or '(as is)'}, falloff {args.falloff} m, sling "
          f"{sum(s.mesh.n_vertices for s in scene.sheets)} vertices")
    show_folds("flexed pose (hips 70, knees 90 degrees)", folds(scene, [flexed(scene)]))
    fields = f"rest={args.rest or 'a-pose'} falloff={args.falloff} skin={skin.n_vertices}"
    if args.static:
        print(f"RESULT {fields}")
        return
    t0 = time.perf_counter()
    result = simulate(scene, duration=DURATION, record_every=RECORD_EVERY)
    print(f"run {time.perf_counter() - t0:.0f} s wall{', notes: ' + '; '.join(result.notes) if result.notes else ''}")
    window = hanging_window(scene, result)
    hang = result.q[result.time >= window[0] - 1e-9]
    coordinates = compile_tree(model).coordinates
    print("hang, mean angles (degrees): " + ", ".join(
        f"{c} {np.degrees(hang[:, coordinates[c].qi].mean()):.0f}" for c in
        ("hip_flexion_l", "hip_flexion_r", "knee_angle_l", "knee_angle_r", "shoulder_flexion_l", "shoulder_adduction_l",
         "neck_extension", "neck_rotation")))
    hang_folds = folds(scene, hang)
    show_folds("hang (the most in one record)", hang_folds)
    read = sensor_window_summary(scene, result, window)
    for name, (p95, peak, force, left, left_force) in read.items():
        print(f"  {name:10s} sensor {p95 / 1e3:5.1f} kPa  highest cell {peak / 1e3:5.1f} kPa  force {force:6.1f} N  "
              f"cells left out {left} ({left_force:.1f} N)")
    hot, back = hot_cells(scene, result, window, read)
    for name, (count, ratio, neck) in hot.items():
        print(f"  {name:10s} hot cells {count:4d}, their median area ratio {ratio:.2f}, on the neck (head weight) {neck}")
    print(f"  upper back without the neck's blend (head weight > 0.05) {back / 1e3:.1f} kPa")
    kpa = {name: read[name][0] / 1e3 for name in ("upper back", "hip", "knees")}
    print(f"RESULT {fields} upper_back_kPa={kpa['upper back']:.1f} hip_kPa={kpa['hip']:.1f} "
          f"knees_kPa={kpa['knees']:.1f} knees_highest={kpa['knees'] > max(kpa['upper back'], kpa['hip'])} "
          f"knees_folded={hang_folds['knees'][0]} shoulders_folded={hang_folds['shoulders'][0]} "
          f"neck_folded={hang_folds['neck'][0]} upper_back_without_neck_kPa={back / 1e3:.1f} "
          f"knees_left_out_N={read['knees'][4]:.1f}")


if __name__ == "__main__":
    main()
