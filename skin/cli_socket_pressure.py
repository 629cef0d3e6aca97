"""``hybrid socket-pressure``: the socket's interface pressure on the residual limb over an analysed trial."""
from __future__ import annotations

import io


def add_parser(sub) -> None:
    p = sub.add_parser("socket-pressure", help="socket interface pressure on the residual limb over an analysed trial",
                       description="Distributes the socket's load (from the analysis's inverse dynamics, the weld "
                                   "between socket and residual limb opened) over the residual limb's skin through a "
                                   "liner, and prints per frame the peak and mean pressure, the loaded area and the "
                                   "regions above the threshold.")
    p.add_argument("results", nargs="?", help="an analysis results file (.hlr); default: the bundled demo's")
    p.add_argument("--limb", default="tibia_r", help="the residual limb's body (default tibia_r)")
    p.add_argument("--weld", default="socket_weld", help="the weld joint between socket and limb")
    p.add_argument("--liner", type=float, default=6.0, help="liner thickness, mm")
    p.add_argument("--modulus", type=float, default=0.4, help="liner modulus, MPa")
    p.add_argument("--friction", type=float, metavar="MU",
                   help="the liner slips on the skin with this Coulomb coefficient (silicone on skin: 0.61, Zhang and "
                        "Mak 1999); default: the liner is bonded to the skin")
    p.add_argument("--tissue", type=float, default=0.0, metavar="MM",
                   help="soft tissue under the liner, in series with it, this thick (mm; e.g. 20); default 0: the "
                        "limb rigid under the liner")
    p.add_argument("--tissue-modulus", type=float, default=100.0, metavar="KPA",
                   help="the soft tissue's Young's modulus, kPa (default 100: assumed, of the order of in vivo "
                        "indentation moduli of limb soft tissue; docs/socket-pressure.md)")
    p.add_argument("--fit", type=float, default=0.0, metavar="KPA",
                   help="pre-compression: the socket rectified smaller than the limb so that it presses the stump with "
                        "this fit pressure at zero load (kPa; not measured: tens of kPa assumed); default 0: moulded on the "
                        "unloaded stump")
    p.add_argument("--threshold", type=float, default=100.0, help="pressure threshold for the regions, kPa")
    p.add_argument("--spacing", type=float, default=0.012, help="skin vertex spacing, m")
    p.add_argument("--out", help="write the per-frame figures to this CSV file")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from pathlib import Path

    import numpy as np

    from engine.io.results_file import load_result
    from engine.errors import SettingsError
    from engine.io.atomic import write_text
    from skin.socket import ROTATION_LIMIT, pressure_over_trial
    from skin.socket_map import LOADED, loaded, socket_for
    from skin.socket_load import socket_loads
    for name in ("liner", "modulus", "tissue_modulus", "threshold", "spacing"):
        if not 0 < getattr(args, name) < float("inf"):
            raise SettingsError(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    for name in ("friction", "tissue", "fit"):
        value = getattr(args, name)
        if value is not None and not 0 <= value < float("inf"):
            raise SettingsError(f"--{name} must be finite and non-negative, got {value}")
    path = args.results
    if path is None:
        from hybridlab_resources import __file__ as resources
        path = Path(resources).parent / "demo" / "results.hlr"
    result, settings = load_result(path)
    if settings is None:
        raise SettingsError("the results file holds no analysis settings; the socket's load needs them", file=path)
    model = result.model
    time, loads, _ = socket_loads(result, settings, args.weld)      # checks that the weld exists
    socket = socket_for(model, args.weld, args.limb, args.spacing, args.liner * 1e-3, args.modulus * 1e6,
                        args.friction, args.tissue * 1e-3, args.tissue_modulus * 1e3, args.fit * 1e3)
    series = pressure_over_trial(model, socket, result.motion.q, loads, args.threshold * 1e3)
    stance = loaded(loads)          # as the report counts them
    liner = "bonded to the skin" if args.friction is None else f"slipping on the skin at mu {args.friction:g}"
    tissue = (f" on {args.tissue:g} mm of soft tissue at {args.tissue_modulus:g} kPa" if args.tissue > 0
              else " on a rigid limb")
    fit = f", pre-compressed to {args.fit:g} kPa" if args.fit > 0 else ""
    print(f"socket on {args.limb}: {len(socket.vertices)} skin vertices, liner {args.liner:g} mm at "
          f"{args.modulus:g} MPa {liner}{tissue}{fit}; {int(stance.sum())} of {len(time)} frames loaded (socket force "
          f"above {LOADED:g} N)")
    if not series["converged"].all():
        t = time[~series["converged"]]
        print(f"warning: the liner does not carry the socket's load to tolerance at {len(t)} frames (first at "
              f"{t[0]:.3f} s); their pressures are not the load's")
    if not series["in_range"].all():
        t = time[~series["in_range"]]
        tissue = f" or the tissue's {args.tissue:g} mm" if args.tissue > 0 else ""
        print(f"warning: the liner's solution leaves the model's small displacements at {len(t)} frames (first at "
              f"{t[0]:.3f} s: a compression beyond the liner's {args.liner:g} mm{tissue} or a socket rotation beyond "
              f"{ROTATION_LIMIT:g} rad); their pressures are not valid")
    if stance.any():
        f = int(np.argmax(series["peak"]))
        print(f"peak {series['peak'][f] / 1e3:.1f} kPa at {time[f]:.3f} s (mean {series['mean'][f] / 1e3:.1f} kPa over "
              f"{series['area'][f] * 1e4:.1f} cm^2, {int(series['regions'][f])} regions above {args.threshold:g} kPa "
              f"covering {series['hot_area'][f] * 1e4:.1f} cm^2)")
        print(f"loaded frames: largest liner compression {series['compression'][stance].max() * 1e3:.1f} mm, tissue "
              f"compression {series['tissue_compression'][stance].max() * 1e3:.1f} mm, socket rotation "
              f"{series['rotation'][stance].max():.3f} rad; {int(series['in_range'][stance].sum())} of "
              f"{int(stance.sum())} in range")
    if args.out:
        buffer = io.StringIO()
        buffer.write("time,peak_kPa,mean_kPa,loaded_area_cm2,regions,area_above_cm2,fx_N,fy_N,fz_N\n")
        for i in range(len(time)):
            buffer.write(f"{time[i]:.5f},{series['peak'][i] / 1e3:.3f},{series['mean'][i] / 1e3:.3f},"
                         f"{series['area'][i] * 1e4:.3f},{int(series['regions'][i])},{series['hot_area'][i] * 1e4:.3f},"
                         + ",".join(f"{x:.3f}" for x in series["force"][i]) + "\n")
        write_text(args.out, buffer.getvalue())
        print(f"wrote {args.out}")
    return 0
