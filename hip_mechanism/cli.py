"""``hybrid hip-mechanism``: seed 003's 2-UPR/URR hip mechanism: its maps, a trial's or a built-in case's
actuator demands (CSV, and PNG/SVG figures), and its parameter file."""
from __future__ import annotations

from pathlib import Path

from engine.errors import SettingsError


def add_parser(sub) -> None:
    p = sub.add_parser("hip-mechanism", help="seed 003's hip mechanism: workspace/dexterity maps, a trial's "
                                             "actuator demands",
                       description="The 2-UPR/URR hip prosthesis mechanism of seed 003. 'maps' writes the "
                                   "workspace, stiffness, dexterity and bearing-capacity maps over (alpha, beta); "
                                   "'trial' maps an analysed trial's hip motion and torques (a results file .hlr) "
                                   "to the actuators' lengths, speeds, forces and power; 'case' runs one of the "
                                   "seed's two gait modes; 'parameters' writes the mechanism file to edit.")
    p.add_argument("action", choices=("maps", "trial", "case", "parameters"))
    p.add_argument("source", nargs="?", help="trial: the results file (.hlr); case: flexion_extension or "
                                             "abduction_adduction")
    p.add_argument("--parameters", help="mechanism file (.yaml); default: the seed's mechanism")
    p.add_argument("--side", choices=("r", "l"), default="r", help="trial: which hip drives the mechanism")
    p.add_argument("--step", type=float, default=1.0, help="maps: grid step, degrees")
    p.add_argument("--figures", choices=("png", "svg"), help="also draw figures in this format (matplotlib)")
    p.add_argument("--out", required=True, help="folder to write into (created if missing), or for "
                                                "'parameters' the file")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from hip_mechanism import parameters_file
    from hip_mechanism.parameters import SEED
    params = parameters_file.load_parameters(args.parameters) if args.parameters else SEED
    if args.action == "parameters":
        parameters_file.save_parameters(params, args.out)
        print(f"wrote {Path(args.out).resolve()}")
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.action == "maps":
        return _maps(params, args, out)
    return _demands(params, args, out)


def _maps(params, args, out) -> int:
    from hip_mechanism.maps import default_grid, performance_maps
    from hip_mechanism.tables import write_maps
    if not 0.1 <= args.step <= 10.0:
        raise SettingsError(f"--step must be between 0.1 and 10 degrees, got {args.step}")
    maps = performance_maps(params, *default_grid(args.step))
    write_maps(out / "maps.csv", maps)
    print(f"wrote {(out / 'maps.csv').resolve()} ({maps.inside.sum()} of {maps.inside.size} poses inside)")
    if args.figures:
        from hip_mechanism.figures import draw_maps
        for path in draw_maps(maps, out, args.figures):
            print(f"wrote {path.resolve()}")
    return 0


def _demands(params, args, out) -> int:
    from hip_mechanism.tables import write_demands
    if args.action == "trial":
        if not args.source:
            raise SettingsError("'hybrid hip-mechanism trial' needs the results file (.hlr) to read")
        from hip_mechanism.trial import trial_demands

        from engine.io.results_file import load_result
        demands = trial_demands(params, load_result(args.source)[0], args.side)
        name = f"hip_{args.side}_demands"
    else:
        from hip_mechanism.cases import CASES, run_case
        if args.source not in CASES:
            raise SettingsError(f"the case must be one of {', '.join(CASES)}, not {args.source!r}")
        demands = run_case(params, args.source)
        name = f"{args.source}_demands"
    path = out / f"{name}.csv"
    write_demands(path, demands)
    print(f"wrote {path.resolve()} ({len(demands.time)} frames)")
    for note in demands.notes:
        print(f"  note: {note}")
    if args.figures:
        from hip_mechanism.figures import draw_demands
        print(f"wrote {draw_demands(demands, out / f'{name}.{args.figures}').resolve()}")
    return 0
