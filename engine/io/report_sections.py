"""The clinical report's sections from the packages beside the engine, which the engine never imports: each entry point
of the group ``hybridlab.report_sections`` (as ``hybridlab.commands`` adds commands) names a function
``steps(result, settings, events, trial, **options)`` of one analysed trial (its AnalysisResult, the settings it was
analysed with or None, its gait events, its name in the report, and the report's options for that section: keyword
arguments under the entry point's name, e.g. ``{"socket-pressure": {"friction": 0.61}}``), a step generator (``engine.progress``) that returns a
:class:`ReportSection`: its pages, and its notes, which say too why a section has no pages for that trial (skin's
socket pressure: the model has no socket). A section that fails with HybridLab's own error (``engine.errors``: bad
input, a model its numerics cannot take) becomes a note saying so, and the report goes on with the other sections and
trials; any other exception is a bug and propagates."""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import entry_points

from ..errors import HybridLabError
from ..progress import Progress

GROUP = "hybridlab.report_sections"
OPTIONS = "hybridlab.report_options"
"""The entry points of the sections' options (``hybrid report``, a session's), named as the sections: each a module
with ``add_arguments(parser, defaults)`` and ``options(args)`` (the section's keyword arguments of those given), and
``checked(values, element, file, error)`` (the keyword arguments ``values`` as a session holds them, when each is known
and in range; else ``error`` naming the file, the element and the option)."""


def checked_options(report: dict, file, error: type[HybridLabError]) -> dict:
    """The report's options ``report`` (section name -> keyword arguments, as ``Session.report`` of ``file`` holds
    them), each section's checked by its options entry point (``OPTIONS``: an unknown option, a value that is not a
    number or out of range raises ``error`` naming ``file`` and the option); a section without one is kept as it is."""
    plugins = {ep.name: ep for ep in entry_points(group=OPTIONS)}
    return {name: plugins[name].load().checked(values, f"report option {name}", file, error) if name in plugins
            else values for name, values in report.items()}


@dataclass(frozen=True)
class ReportSection:
    """``title``; ``pages``: matplotlib Figures (A4 portrait, ``engine.io.report_figures.A4``), drawn before the notes
    page; ``notes``: lines added to the trial's notes."""

    title: str
    pages: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def section_steps(result, settings, events, trial, start: float = 0.0, end: float = 1.0, options=None):
    """Every registered section of one trial, in the order of the entry points' names, each given its ``options``
    (entry point name -> keyword arguments; none by default): yields their Progress (its fraction mapped to
    ``start``-``end``), returns ``[ReportSection]``; a section failing with a HybridLabError returns one with no page
    and a note naming the entry point and the error."""
    plugins = sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
    options = options or {}
    sections = []
    for i, plugin in enumerate(plugins):
        share = (end - start) / len(plugins)
        steps = plugin.load()(result, settings, events, trial, **options.get(plugin.name, {}))
        while True:
            try:
                p = next(steps)
            except StopIteration as done:
                sections.append(done.value)
                break
            except HybridLabError as err:
                sections.append(ReportSection(plugin.name, notes=[f"{plugin.name} section not drawn: {err}"]))
                break
            yield Progress(p.stage, start + share * (i + p.fraction), f"{trial}: {p.message}", p.fraction)
    return sections
