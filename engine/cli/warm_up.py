"""``hybrid warm-up``: compile the numerical kernels once, ahead of the first analysis (``engine.warmup``); later
runs, the application's included, load them from numba's cache. Safe to run again: it then only loads them."""
from __future__ import annotations

from ..progress import run
from ..warmup import warm_up_steps
from .progress_bar import ProgressBar


def add_parser(sub) -> None:
    p = sub.add_parser("warm-up", help="compile the numerical kernels once (the first launch's wait, ahead of it)",
                       description="Compile the numerical kernels (numba) that the application and the analysis "
                                   "use, once for this computer; they are kept in numba's cache.")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    bar = ProgressBar(not args.quiet)
    report = run(warm_up_steps(lambda kernel, count: bar.note(f"compiling {kernel} ({count} compiled)")), bar)
    bar.close()
    if report.compiled:
        print(f"hybrid warm-up: {len(report.compiled)} kernels compiled and cached in {report.seconds:.1f} s")
    else:
        print(f"hybrid warm-up: every kernel was in numba's cache ({report.seconds:.1f} s)")
    return 0
