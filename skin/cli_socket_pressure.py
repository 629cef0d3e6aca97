"""``hybrid socket-pressure``: the socket's interface pressure on the residual limb over an analysed trial."""
from __future__ import annotations

import io

from .liner_options import add_arguments, options
from .socket_defaults import THRESHOLD


COLUMNS = ("time", "loaded", "converged", "in_range", "peak_kPa", "mean_kPa", "loaded_area_cm2", "regions",
           "area_above_cm2", "compression_mm", "tissue_compression_mm", "rotation_rad", "fx_N", "fy_N", "fz_N")
"""The CSV's columns per frame: time (s); ``loaded`` 1 where the socket's force exceeds 200 N (the frames the report
counts); ``converged`` 1 where the liner carries the load to tolerance, ``in_range`` 1 where its solution stays within
the model's small displacements (0: the frame's pressures are not valid), judged on the liner's largest
``compression`` and the soft tissue's (mm, each against ``skin.socket.STRAIN_LIMIT`` of its layer's thickness; 0
without tissue) and the socket's ``rotation``
(rad, against ``skin.socket.ROTATION_LIMIT``);
the pressure figures; the force the map carries (limb axes, N)."""


def add_parser(sub) -> None:
    p = sub.add_parser("socket-pressure", help="socket interface pressure on the residual limb over an analysed trial",
                       description="Distributes the socket's load (from the analysis's inverse dynamics, the weld "
                                   "between socket and residual limb opened) over the residual limb's skin through a "
                                   "liner, and prints per frame the peak and mean pressure, the loaded area and the "
                                   "regions above the threshold.")
    p.add_argument("results", nargs="?", help="an analysis results file (.hlr); default: the bundled demo's")
    p.add_argument("--weld", help="the weld joint that holds the socket to the residual limb, any weld of the model "
                                  "(default: the weld to the body named socket...)")
    p.add_argument("--limb", help="the residual limb's body (default: the weld's parent)")
    add_arguments(p)
    p.add_argument("--threshold", type=float, default=THRESHOLD * 1e-3,
                   help=f"pressure threshold for the regions, kPa (default {THRESHOLD * 1e-3:g})")
    p.add_argument("--spacing", type=float, default=0.012, help="skin vertex spacing, m")
    p.add_argument("--out", help="write the per-frame figures to this CSV file: " + ", ".join(COLUMNS))
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from pathlib import Path

    import numpy as np

    from engine.errors import SettingsError
    from engine.io.atomic import write_text
    from engine.io.results_file import load_result
    from engine.progress import run
    from skin.socket_map import LOADED, fit_words, flag_notes, liner_words, loaded, socket_map_steps
    from skin.socket_site import socket_site
    for name in ("threshold", "spacing"):
        if not 0 < getattr(args, name) < float("inf"):
            raise SettingsError(f"--{name} must be positive, got {getattr(args, name)}")
    liner = options(args)
    path = args.results
    if path is None:
        from hybridlab_resources import __file__ as resources
        path = Path(resources).parent / "demo" / "results.hlr"
    result, settings = load_result(path)
    if settings is None:
        raise SettingsError("the results file holds no analysis settings; the socket's load needs them", file=path)
    site = socket_site(result.model, args.weld, args.limb, file=path)
    m = run(socket_map_steps(result, settings, spacing=args.spacing, threshold=args.threshold * 1e3,
                             with_positions=False, site=site, **liner))
    stance = loaded(m.load)          # as the report counts them
    print(f"socket on {site[1]} (weld {site[0]}): {len(m.vertices)} skin vertices, {liner_words(m)}; {int(stance.sum())} of "
          f"{len(m.time)} frames loaded (socket force above {LOADED:g} N)")
    if m.unloaded is not None:
        print(f"fit: {fit_words(m)}")
    for note in flag_notes(m):
        print(f"warning: {note}")
    if stance.any():
        f = int(np.argmax(m.peak))
        print(f"peak {m.peak[f] / 1e3:.1f} kPa at {m.time[f]:.3f} s (mean {m.mean[f] / 1e3:.1f} kPa over "
              f"{m.area[f] * 1e4:.1f} cm^2, {int(m.regions[f])} regions above {args.threshold:g} kPa "
              f"covering {m.hot_area[f] * 1e4:.1f} cm^2)")
        print(f"loaded frames: largest liner compression {m.compression[stance].max() * 1e3:.1f} mm, tissue "
              f"compression {m.tissue_compression[stance].max() * 1e3:.1f} mm, socket rotation "
              f"{m.rotation[stance].max():.3f} rad; {int(m.in_range[stance].sum())} of {int(stance.sum())} in range")
    if args.out:
        buffer = io.StringIO()
        buffer.write(",".join(COLUMNS) + "\n")
        for i in range(len(m.time)):
            buffer.write(f"{m.time[i]:.5f},{int(stance[i])},{int(m.converged[i])},{int(m.in_range[i])},"
                         f"{m.peak[i] / 1e3:.3f},{m.mean[i] / 1e3:.3f},{m.area[i] * 1e4:.3f},{int(m.regions[i])},"
                         f"{m.hot_area[i] * 1e4:.3f},{m.compression[i] * 1e3:.3f},"
                         f"{m.tissue_compression[i] * 1e3:.3f},{m.rotation[i]:.5f},"
                         + ",".join(f"{x:.3f}" for x in m.force[i]) + "\n")
        write_text(args.out, buffer.getvalue())
        print(f"wrote {args.out}")
    return 0
