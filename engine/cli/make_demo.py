"""``hybrid make-demo``: regenerate the default model, the demo trial, its truth and its analysis.

The generation runs in a child process with the arithmetic kernels pinned
(``engine.demo.generate.PINNED_ENVIRONMENT``): OpenBLAS and numpy pick theirs by processor when they
load, they differ in round-off, and the contact simulation grows a round-off difference to 6e-9 of its
range over its 1440 steps. Pinned, x86-64 processors with AVX2 (Intel and AMD since 2013) write the same
files; elsewhere the pin has no effect. A frozen bundle has no Python to start (packaging/README.md).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..progress import run
from ..child_process import child_environment, python_command


def add_parser(sub) -> None:
    p = sub.add_parser("make-demo", help="regenerate the bundled demo (model, simulated trial, truth, results)",
                       description="Builds the default athlete model, simulates the demo trial (running in place, "
                                   "stances alternating between the foot and the blade), records it as a C3D file "
                                   "with two force plates and EMG, saves "
                                   "the ground truth, and analyses it. Deterministic: the same files on every run "
                                   "(on x86-64 with AVX2, the same on every such machine).")
    p.add_argument("--out", help="folder to write into (default: the installed resources)")
    p.add_argument("--no-analysis", action="store_true", help="skip the analysis (no results file)")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from ..demo.generate import PINNED_ENVIRONMENT, make_demo
    if any(os.environ.get(name) != value for name, value in PINNED_ENVIRONMENT.items()):
        # the same command in a child with the kernels pinned
        return subprocess.call(python_command("-m", "engine.cli.main", *args.argv),
                               env=child_environment(PINNED_ENVIRONMENT))

    def report(p):
        sys.stderr.write(f"{p.stage}: {p.message}\n")

    files = run(make_demo(args.out, analyse=not args.no_analysis), report)
    for path in (files.model, files.trial, files.truth) + (() if args.no_analysis else (files.results,)):
        print(f"wrote {Path(path).resolve()}")
    return 0
