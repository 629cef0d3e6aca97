"""CPU time of the clinical report's socket page for the bundled demo (288 frames, the right stances' 106 computed):
the whole section (``skin.report_socket.socket_section_steps``: the socket's load, the skin, the stump per frame and
the pressure per loaded frame), and of it the skin with the socket moulded on the stump (``skin.socket_map.socket_for``,
which View > Socket pressure computes too). Each is timed after one warm-up call (numba's cache loaded), the median
of ``--repeats`` runs, in this process's CPU seconds (a shared machine's load inflates them less than wall time).
OpenBLAS runs single-threaded unless OPENBLAS_NUM_THREADS is set. Goal (socket page): under 1.5 s CPU.

Run: python benchmarks/bench_socket_page.py [--repeats N]
Last line: RESULT socket_page_cpu_s=.. socket_skin_cpu_s=..
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # before numpy loads OpenBLAS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import cpu_timings  # noqa: E402
from engine.clinical.events import gait_events  # noqa: E402
from engine.demo import demo_results  # noqa: E402
from engine.progress import run  # noqa: E402
from skin.report_socket import socket_section_steps  # noqa: E402
from skin.socket_map import residual_limb, socket_for  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    result, settings = demo_results()
    events, _ = gait_events(result)
    weld, limb = residual_limb(result.model)
    page = statistics.median(cpu_timings(lambda: run(socket_section_steps(result, settings, events, "demo")),
                                         args.repeats))
    skin = statistics.median(cpu_timings(lambda: socket_for(result.model, weld, limb), args.repeats))
    print(f"socket page {page:.2f} s CPU, of it the skin and socket {skin:.2f} s CPU (median of {args.repeats})")
    print(f"RESULT socket_page_cpu_s={page:.3f} socket_skin_cpu_s={skin:.3f}")


if __name__ == "__main__":
    main()
