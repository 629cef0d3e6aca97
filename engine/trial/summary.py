"""A plain-text summary of a trial for the command line and the GUI status bar."""
from __future__ import annotations

import numpy as np

from .gaps import gap_report


def _interval_text(intervals) -> str:
    if not intervals:
        return "never loaded"
    return ", ".join(f"{a:.3f}-{b:.3f} s" for a, b in intervals)


def describe_trial(trial) -> str:
    """Duration, rates, markers with gap percentages, plates with loaded intervals and
    peak vertical force, EMG channels, events, the axes in use, the conversions applied
    and the warnings."""
    m = trial.markers
    lines = [f"Trial: {trial.source or '(no file)'}",
             f"  duration {trial.duration:.3f} s ({trial.start_time:.3f}-{trial.end_time:.3f} s)"]
    rates = [f"markers {m.rate:g} Hz ({m.n_frames} frames)"]
    analog_rates = sorted({c.rate for c in trial.analogs})
    if analog_rates:
        rates.append("analog " + ", ".join(f"{r:g}" for r in analog_rates) + " Hz")
    plate_rates = sorted({p.rate for p in trial.plates})
    if plate_rates:
        rates.append("force plates " + ", ".join(f"{r:g}" for r in plate_rates) + " Hz")
    lines.append("  rates: " + "; ".join(rates))

    lines.append(f"  markers ({len(m.names)}):")
    for g in gap_report(m):
        detail = f"{g.percent_missing:5.1f}% missing"
        if g.n_gaps:
            detail += f", {g.n_gaps} gap{'s' if g.n_gaps > 1 else ''}, longest {g.longest} frames"
        lines.append(f"    {g.name}: {detail}")

    lines.append(f"  force plates ({len(trial.plates)}):")
    for p in trial.plates:
        fn = p.normal_force
        peak = float(np.max(fn)) if len(fn) else float("nan")
        kind = f"type {p.type}" if p.type is not None else "from GRF file"
        lines.append(f"    {p.name} ({kind}, threshold {p.threshold:g} N): peak vertical force {peak:.1f} N; "
                     f"loaded {_interval_text(p.loaded_intervals())}")

    emg = trial.emg
    lines.append(f"  EMG channels ({len(emg)}): " + (", ".join(f"{c.name} [{c.units}, {c.rate:g} Hz]" for c in emg)
                                                     or "none"))
    lines.append(f"  events ({len(trial.events)}): " + (", ".join(
        f"{e.label}{' (' + e.context + ')' if e.context else ''} {e.time:.3f} s" for e in trial.events) or "none"))

    R = trial.rotation
    axes = "as recorded" if np.allclose(R, np.eye(3)) else \
        "rotation from the lab " + "; ".join(" ".join(f"{v:+.3f}" for v in row) for row in R)
    lines.append(f"  axes: frame '{trial.frame}', {axes}")
    lines.append(f"  conversions ({len(trial.conversions)}):")
    lines += [f"    - {c}" for c in trial.conversions]
    if trial.warnings:
        lines.append(f"  warnings ({len(trial.warnings)}):")
        lines += [f"    ! {w}" for w in trial.warnings]
    return "\n".join(lines)
