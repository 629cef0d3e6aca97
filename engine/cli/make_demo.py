"""``hybrid make-demo``: regenerate the default model, the demo trial, its truth and its analysis.

The generation runs in a child process with OpenBLAS's kernels pinned (``engine.demo.generate.BLAS``):
OpenBLAS picks its kernels by processor when it loads, they differ in round-off, and the contact
simulation makes 1e-8 of a round-off difference over its 1440 steps. Pinned, every x86-64 processor
with AVX2 (Intel and AMD since 2013) writes the same files.
"""
from __future__ import annotations

import os
import subprocess
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
    from ..demo.generate import BLAS, make_demo
    if any(os.environ.get(name) != value for name, value in BLAS.items()):
        argv = ["make-demo"] + (["--out", str(args.out)] if args.out else []) + \
            (["--no-analysis"] if args.no_analysis else [])
        return subprocess.call([sys.executable, "-m", "engine.cli.main", *argv], env={**os.environ, **BLAS})

    def report(p):
        sys.stderr.write(f"{p.stage}: {p.message}\n")

    files = run(make_demo(args.out, analyse=not args.no_analysis), report)
    for path in (files.model, files.trial, files.truth) + (() if args.no_analysis else (files.results,)):
        print(f"wrote {Path(path).resolve()}")
    return 0
