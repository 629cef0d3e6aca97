"""Progress reports of long steps (a leaf module every layer may use), and a driver that runs a step to completion."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator


@dataclass(frozen=True)
class Progress:
    """``stage`` name, ``fraction`` done in [0, 1], and a short ``message``.

    A step made of sub-steps (the whole analysis) reports ``fraction`` of the whole work and
    ``stage_fraction``, the part of the current stage done (None when the stage does not say).
    """

    stage: str
    fraction: float
    message: str = ""
    stage_fraction: float | None = None


def run(steps: Generator, report: Callable[[Progress], None] | None = None):
    """Drive a step generator to its end and return its result; ``report`` sees every Progress."""
    while True:
        try:
            progress = next(steps)
        except StopIteration as done:
            return done.value
        if report is not None:
            report(progress)


def forward_progress(steps: Generator, weight0: float, weight1: float):
    """Generator step: re-scales a sub-step's progress into [weight0, weight1] of the whole (its own fraction kept
    as ``stage_fraction``) and returns the sub-step's value."""
    while True:
        try:
            p = next(steps)
        except StopIteration as done:
            return done.value
        yield Progress(p.stage, weight0 + (weight1 - weight0) * p.fraction, p.message, p.fraction)
