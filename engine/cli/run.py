"""``hybrid run``: OpenSim tool setups (Scale, IK, ID, Analyze with StaticOptimization) run as OpenSim runs them."""
from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="run OpenSim tool setups (Scale, IK, ID, static optimisation) as OpenSim does",
                       description="Runs OpenSim tool setup files unchanged, in the order given: ScaleTool, "
                                   "InverseKinematicsTool (coordinate tasks from_file or manual_value), "
                                   "InverseDynamicsTool (its ExternalLoads, coordinates file and filter, body forces "
                                   "at joints) and AnalyzeTool with StaticOptimization (force-set files of "
                                   "residual and reserve actuators, activation exponent, muscle physiology). File "
                                   "names are relative to each setup's folder; the files each setup names are "
                                   "written in OpenSim's formats and column names. What a setup asks that HybridLab "
                                   "does not do is refused naming the element (a CMC tool, another analysis) or "
                                   "said in a note.")
    p.add_argument("setups", nargs="+", metavar="SETUP.xml", help="OpenSim tool setup files")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from ..io.tools.runs import run_setup
    for setup in args.setups:
        run = run_setup(setup)
        print(f"{run.tool} '{run.name}' ({setup}): {'; '.join(run.summary)}; {run.seconds:.2f} s")
        for note in run.notes:
            print(f"  note: {note}")
        for path in run.written:
            print(f"  wrote {path}")
    return 0
