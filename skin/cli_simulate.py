"""``hybrid simulate``: the seed 002 scenes (a skinned body on assistive devices, package ``skin``)."""
from __future__ import annotations

import sys

SCENE_NAMES = ("robotic-lift-flat", "robotic-lift-7deg", "sling-lift", "back-pressure")


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="forward dynamics of the skinned athlete on a device (seed 002 scenes)",
                       description="Simulates the default athlete's skin against an assistive device: linear "
                                   "blend skinning, penalty contact with regularised friction, PD joint stiffness "
                                   "(Table I), RK4. Prints the outcome and the skin pressure of the watched parts.")
    p.add_argument("scene", choices=SCENE_NAMES)
    p.add_argument("--duration", type=float, default=None, help="simulated seconds (default: the scene's)")
    p.add_argument("--spacing", type=float, default=0.012, help="skin vertex spacing, m (0.012: ~14k vertices)")
    p.add_argument("--out", help="write the run (time, q, pressure per skin vertex, ...) to this .npz file")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from engine.errors import SettingsError
    if not (0.005 <= args.spacing <= 0.1):
        raise SettingsError(f"--spacing must be between 0.005 and 0.1 m, got {args.spacing}")
    if args.duration is not None and not args.duration > 0:
        raise SettingsError(f"--duration must be positive, got {args.duration}")
    from skin.outcomes import (FOLDED, HANGING_SETTLE, SENSOR_DIAMETER, body_held, hanging_window, pressure_summary, save_run,
                               sensor_summary, sensor_window_summary)
    from skin.scenes import scene
    from skin.simulation import simulate
    sc = scene(args.scene, spacing=args.spacing)
    print(f"{sc.name}: {sc.description}; skin {sc.skin.n_vertices} vertices, "
          f"device vertices {sum(d.mesh.n_vertices for d in sc.devices) + sum(s.mesh.n_vertices for s in sc.sheets)}")

    def progress(fraction):
        print(f"\r  {100 * fraction:5.1f}%", end="", file=sys.stderr, flush=True)

    result = simulate(sc, args.duration, record_every=20, progress=progress)
    print(file=sys.stderr)
    for note in result.notes:
        print(f"note: {note}")
    print(f"simulated {result.time[-1]:.2f} s in {result.wall_seconds:.1f} s ({result.speed:.4f} simulated s per s)")
    if "board" in sc.watch:
        print("outcome: the support " + ("holds the body" if body_held(sc, result) else "loses the body"))
    sensor = sensor_summary(sc, result)
    print(f"  a sensor cell is left out where the skin is folded, its area under {FOLDED:g} of its rest area "
          f"(linear blend skinning collapses it behind a flexed joint)")
    for name, (peak, p95, count) in pressure_summary(sc, result).items():
        print(f"  {name:12s} peak {peak / 1e3:8.2f} kPa   95th percentile {p95 / 1e3:8.2f} kPa   {count} vertices loaded   "
              f"{100 * SENSOR_DIAMETER:g} cm sensor peak {sensor[name][0] / 1e3:8.2f} kPa   force {sensor[name][1]:7.1f} N   "
              f"{sensor[name][2]} cells left out")
    hooks = [s.motion.end for s in sc.sheets if s.motion is not None]
    if hooks and result.time[-1] >= max(hooks) + HANGING_SETTLE:
        window = hanging_window(sc, result)
        print(f"  {100 * SENSOR_DIAMETER:g} cm sensor between skin and sling over the hang, {window[0]:.2f}-{window[1]:.2f} s:")
        for name, (p95, peak, force, left, left_force) in sensor_window_summary(sc, result, window).items():
            print(f"  {name:12s} 95th percentile {p95 / 1e3:8.2f} kPa   highest cell mean {peak / 1e3:8.2f} kPa   "
                  f"force {force:7.1f} N   {left} cells left out, carrying {left_force:.1f} N")
    elif hooks:
        print(f"  no reading over the hang: the run ends at {result.time[-1]:.2f} s, before the window opens at "
              f"{max(hooks) + HANGING_SETTLE:.2f} s")
    if args.out:
        save_run(args.out, sc, result)
        print(f"wrote {args.out}")
    return 0
