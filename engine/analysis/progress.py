"""Progress reports of long analysis steps, and a driver that runs a step to completion."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator


@dataclass(frozen=True)
class Progress:
    """``stage`` name, ``fraction`` done in [0, 1] for that stage, and a short ``message``."""

    stage: str
    fraction: float
    message: str = ""


def run(steps: Generator, report: Callable[[Progress], None] | None = None):
    """Drive a step generator to its end and return its result; ``report`` sees every Progress."""
    while True:
        try:
            progress = next(steps)
        except StopIteration as done:
            return done.value
        if report is not None:
            report(progress)
