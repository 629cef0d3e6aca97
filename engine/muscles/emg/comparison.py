"""Optimised versus EMG-driven muscle forces per phase, as the seed's Table 3.

For each muscle with an EMG reference and each phase ``[start, end]`` (s):

    RMS error [%] = 100 * sqrt(mean over the phase's frames of (f_opt - f_EMG)^2) / max_t f_max(t)

where ``f_max`` is the muscle's rigid-tendon force bound of eq. 37 over the whole trial
("divided by max(f_max,i) of each muscle", seed section 4.2). Frames where either force
is NaN (infeasible frames, EMG not recorded) are left out and counted.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import SettingsError


@dataclass(frozen=True)
class ForceComparison:
    """``rms_percent`` and ``rms`` (N) are (muscles, phases); ``frames`` (muscles, phases) the frames
    used; ``f_max_peak`` (muscles,) N the normaliser; ``phases`` ``((name, start, end), ...)``."""

    muscles: tuple
    phases: tuple
    rms: np.ndarray
    rms_percent: np.ndarray
    frames: np.ndarray
    f_max_peak: np.ndarray

    def table(self) -> str:
        """The comparison as text, muscles by phases, in percent."""
        width = max([len(m) for m in self.muscles] + [len("RMS error [%]")])
        head = "RMS error [%]".ljust(width) + "".join(f"  {p[0]:>12}" for p in self.phases)
        lines = [head]
        for i, m in enumerate(self.muscles):
            lines.append(m.ljust(width) + "".join(f"  {v:12.4f}" for v in self.rms_percent[i]))
        return "\n".join(lines)


def compare_forces(result, phases, muscles=None) -> ForceComparison:
    """Table 3 of the seed for ``result`` (a MuscleForceResult with ``f_ref`` and ``time``).

    ``phases`` : ``{name: (start, end)}`` s, e.g. single-support phases; ``muscles`` : the muscles to
    compare (default: every muscle with an EMG reference).
    """
    if result.f_ref is None:
        raise SettingsError("the result has no EMG reference forces (estimate with emg=...)")
    if result.time is None:
        raise SettingsError("the result has no frame times")
    has_ref = np.isfinite(result.f_ref).any(axis=0)
    names = list(result.muscle_names)
    if muscles is None:
        muscles = [n for n, h in zip(names, has_ref) if h]
    unknown = [m for m in muscles if m not in names or not has_ref[names.index(m)]]
    if unknown:
        raise SettingsError(f"no EMG reference for {', '.join(map(repr, unknown))}")
    spans = []
    for name, span in dict(phases).items():
        start, end = (float(v) for v in span)
        if not start < end:
            raise SettingsError(f"phase {name!r} must be (start, end) with start < end, got {span}")
        spans.append((str(name), start, end))
    if not spans:
        raise SettingsError("no phases given")
    cols = [names.index(m) for m in muscles]
    rms = np.full((len(cols), len(spans)), np.nan)
    frames = np.zeros((len(cols), len(spans)), np.int64)
    peak = np.nanmax(result.f_max[:, cols], axis=0)
    for p, (_, start, end) in enumerate(spans):
        in_phase = (result.time >= start) & (result.time <= end)
        for i, j in enumerate(cols):
            d = result.forces[in_phase, j] - result.f_ref[in_phase, j]
            d = d[np.isfinite(d)]
            frames[i, p] = d.size
            if d.size:
                rms[i, p] = float(np.sqrt(np.mean(d * d)))
    return ForceComparison(tuple(muscles), tuple(spans), rms, 100.0 * rms / peak[:, None], frames, peak)
