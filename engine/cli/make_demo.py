"""``hybrid make-demo``: regenerate the default model, the demo trial, its truth and its analysis."""
from __future__ import annotations

import sys
from pathlib import Path

from ..analysis.progress import run


def add_parser(sub) -> None:
    p = sub.add_parser("make-demo", help="regenerate the bundled demo (model, simulated trial, truth, results)",
                       description="Builds the default athlete model, simulates the demo trial (running in place, "
                                   "stances alternating between the foot and the blade), records it as a C3D file "
                                   "with two force plates and EMG, saves "
                                   "the ground truth, and analyses it. Deterministic: the same files on every run.")
    p.add_argument("--out", help="folder to write into (default: the installed resources)")
    p.add_argument("--no-analysis", action="store_true", help="skip the analysis (no results file)")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from ..demo.generate import make_demo

    def report(p):
        sys.stderr.write(f"{p.stage}: {p.message}\n")

    files = run(make_demo(args.out, analyse=not args.no_analysis), report)
    for path in (files.model, files.trial, files.truth) + (() if args.no_analysis else (files.results,)):
        print(f"wrote {Path(path).resolve()}")
    return 0
