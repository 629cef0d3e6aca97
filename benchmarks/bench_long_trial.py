"""Time and peak memory of the demo's whole analysis (IK, ID with GRF estimation, muscles) over long trials.

The demo's recording (288 frames at 200 Hz with its force plates and analog channels, cut to the markers' span)
is played forwards and backwards in turn, so that every signal stays continuous, to ``N`` frames for each ``N``
of ``LENGTHS``; 36,000 frames is a 10-minute treadmill trial at 60 Hz (3 minutes at the demo's 200 Hz). Events
are left out (the muscles' per-stance comparison needs none). Each length runs in a child process, so that its
peak resident memory (``resource.getrusage``) is its own; the child first analyses the demo itself once (numba's
kernels loaded, not timed; its resident memory is printed as the baseline). The machine's load average is
printed beside the figures (the project's machines are shared).

Linear in frames means: seconds per 1000 frames and the memory above the baseline per 1000 frames about the same
at every length. The processor seconds (of the child, all its threads) are given too: on a shared machine the wall
seconds per frame move with the load, the processor seconds much less. Goal: peak under 2 GB at 36,000 frames.

Run: python benchmarks/bench_long_trial.py [--lengths 9000 18000 36000]
Last line: RESULT long_trial_frames=.. long_trial_s=.. long_trial_cpu_s=.. peak_mb=.. s_per_kframe=a/b/c
cpu_s_per_kframe=a/b/c mb_per_kframe=a/b/c load=a/b/c
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LENGTHS = (9000, 18000, 36000)


def ping_pong(n: int, count: int) -> np.ndarray:
    """``count`` indices into ``n`` samples going 0 .. n-1 .. 1 .. n-1 ... (each end sample once per turn)."""
    period = 2 * (n - 1)
    k = np.arange(count) % period
    return np.where(k < n, k, period - k)


def long_trial(trial, frames: int):
    """``trial`` played forwards and backwards to ``frames`` marker frames; plates and analog channels (sampled at
    a whole multiple of the marker rate) cut to the markers' span and played along with them."""
    from engine.trial.trial import Markers
    m = trial.markers
    n = m.n_frames
    t0 = float(m.time[0])
    markers = Markers(m.names, t0 + np.arange(frames) / m.rate, m.positions[ping_pong(n, frames)], m.rate)

    def along(rate, start, length):
        ratio = rate / m.rate
        if abs(ratio - round(ratio)) > 1e-9:
            raise ValueError(f"a channel at {rate} Hz is not sampled at a multiple of the markers' {m.rate} Hz")
        k = int(round(ratio))
        first = int(round((t0 - start) * rate))
        span = np.arange(first, first + k * (n - 1) + 1)
        if span[0] < 0 or span[-1] >= length:
            raise ValueError("a channel does not cover the markers' span")
        return span[ping_pong(span.size, k * (frames - 1) + 1)]

    plates = []
    for p in trial.plates:
        idx = along(p.rate, p.t0, p.n_samples)
        plates.append(replace(p, t0=t0, force=p.force[idx], moment=p.moment[idx], cop=p.cop[idx],
                              free_moment=p.free_moment[idx]))
    analogs = [replace(c, t0=t0, data=c.data[along(c.rate, c.t0, len(c.data))]) for c in trial.analogs]
    return replace(trial, markers=markers, plates=plates, analogs=analogs, events=())


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0     # Linux: kB


def child(frames: int) -> dict:
    """One length in this process: the demo analysed once (kernels loaded), then the long trial, timed."""
    from engine.analysis.pipeline import analysis_steps
    from engine.demo import demo_inputs, demo_settings
    from engine.progress import run
    model, trial, settings = demo_inputs()
    run(analysis_steps(model, trial, settings))
    baseline = peak_mb()
    long = long_trial(trial, frames)
    t0, c0 = time.perf_counter(), time.process_time()
    result = run(analysis_steps(model, long, demo_settings(long)))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"frames": frames, "seconds": seconds, "cpu_seconds": cpu, "baseline_mb": baseline, "peak_mb": peak_mb(),
            "analysed": int(len(result.motion.time))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS))
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    rows = []
    for frames in args.lengths:
        out = subprocess.run([sys.executable, __file__, "--child", str(frames)], capture_output=True, text=True,
                             check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        row["load"] = os.getloadavg()[0]
        rows.append(row)
        print(f"{frames:7d} frames ({row['analysed']} analysed): {row['seconds']:7.1f} s, "
              f"{1000 * row['seconds'] / frames:6.2f} s per 1000 frames ({1000 * row['cpu_seconds'] / frames:.2f} "
              f"processor s); peak {row['peak_mb']:7.0f} MB "
              f"(baseline {row['baseline_mb']:.0f} MB, {1000 * (row['peak_mb'] - row['baseline_mb']) / frames:5.1f} "
              f"MB per 1000 frames); load average {row['load']:.1f}", flush=True)
    last = rows[-1]
    per_s = "/".join(f"{1000 * r['seconds'] / r['frames']:.2f}" for r in rows)
    loads = "/".join(f"{r['load']:.1f}" for r in rows)
    per_cpu = "/".join(f"{1000 * r['cpu_seconds'] / r['frames']:.2f}" for r in rows)
    per_mb = "/".join(f"{1000 * (r['peak_mb'] - r['baseline_mb']) / r['frames']:.1f}" for r in rows)
    print(f"RESULT long_trial_frames={last['frames']} long_trial_s={last['seconds']:.1f} "
          f"long_trial_cpu_s={last['cpu_seconds']:.1f} peak_mb={last['peak_mb']:.0f} s_per_kframe={per_s} "
          f"cpu_s_per_kframe={per_cpu} mb_per_kframe={per_mb} load={loads}")


if __name__ == "__main__":
    main()
