"""The clinical report written as PDF (one A4 page per figure, vector) or HTML (inline SVG figures), atomically.

:func:`trials_report_steps` is the whole work as a step generator (Progress per stage and per page, stoppable between
them; nothing is written until the last page is drawn): ``hybrid report`` drives it to its end, the application
runs it in a worker thread with a progress dialog that can cancel it.
"""
from __future__ import annotations

import html
import io
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_pdf import PdfPages

from ..clinical.summary import clinical_summary, names
from ..clinical.trials import pooled_summary, trial_names
from ..errors import SettingsError
from ..progress import Progress, run
from .atomic import write_bytes
from .report_figures import report_figures
from .report_sections import section_steps

SUFFIXES = (".pdf", ".html", ".htm")


def _check_suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise SettingsError(f"a report is written as .pdf or .html, not '{path.suffix}'", file=path)
    return suffix


def _page_steps(path: Path, summary, start: float, sections=()):
    """Draw the pages of ``summary`` and the ``sections``' (ReportSection) into ``path`` (Progress per page, fractions
    from ``start`` to 1)."""
    suffix = _check_suffix(path)
    figures = report_figures(summary, sections=[page for s in sections for page in s.pages])
    buffer = io.BytesIO()
    share = (1.0 - start) / len(figures)
    if suffix == ".pdf":
        with PdfPages(buffer, metadata={"Title": f"HybridLab report: {summary.subject}"}) as pdf:
            for i, fig in enumerate(figures):
                yield Progress("pages", start + i * share, f"page {i + 1} of {len(figures)}", i / len(figures))
                pdf.savefig(fig)
    else:
        parts = []
        for i, fig in enumerate(figures):
            yield Progress("pages", start + i * share, f"page {i + 1} of {len(figures)}", i / len(figures))
            svg = io.StringIO()
            with rc_context({"svg.fonttype": "none"}):     # text as text: searchable, and readable by tests
                fig.savefig(svg, format="svg")
            parts.append(svg.getvalue().split("?>", 1)[-1])
        buffer.write((f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>HybridLab report: "
                      f"{html.escape(summary.subject)}</title></head><body>" + "\n".join(parts) +
                      "</body></html>").encode("utf-8"))
    yield Progress("pages", 1.0, f"writing {path.name}", 1.0)
    write_bytes(path, buffer.getvalue())
    return path


def write_report(path, summary) -> None:
    """Write ``summary`` (engine.clinical.summary.ClinicalSummary) to ``path``: '.pdf' or '.html'."""
    run(_page_steps(Path(path), summary, 0.0))


def trials_report_steps(path, analyses, origins=None, settings=None, options=None):
    """The clinical report of one trial or several trials of one patient side by side, written to ``path`` ('.pdf'
    or '.html'): ``analyses`` [(result, forward, events)], an AnalysisResult, the forward direction and the events as
    :func:`engine.clinical.summary.clinical_summary` takes them (None: from the kinematics, plates and C3D); each
    side's cycles of every trial pooled (:func:`engine.clinical.trials.pooled_summary`). ``origins``: the file each
    analysis was read from (results or session files; default: each trial's C3D), which tells apart trials of the
    same C3D name, and windows of one C3D by their analysed time (:func:`engine.clinical.trials.trial_names`). ``settings``: the settings each analysis was run with
    (None where not known), which the sections of the packages beside the engine use (``engine.io.report_sections``:
    skin's socket pressure); ``options``: each analysis's options of those sections (entry point name -> keyword
    arguments, ``engine.io.report_sections.section_steps``; None: none). A generator: yields Progress, returns
    ``path``; closed before its end, it writes nothing."""
    path = Path(path)
    _check_suffix(path)         # refused before any work
    if origins is None:
        origins = [result.trial.source for result, _, _ in analyses]
    spans = [(float(result.ik.time[0]), float(result.ik.time[-1])) for result, _, _ in analyses]
    labels = trial_names([names(result.trial)[1] for result, _, _ in analyses], origins, spans)
    settings = [None] * len(analyses) if settings is None else list(settings)
    options = [None] * len(analyses) if options is None else list(options)
    summaries, sections = [], []
    share = 0.6 / len(analyses)
    for i, ((result, forward, events), label) in enumerate(zip(analyses, labels)):
        yield Progress("gait cycles and parameters", share * i,
                       f"trial {i + 1} of {len(analyses)}: events, cycles, parameters, symmetry")
        summary = clinical_summary(result, forward, events, label)
        found = yield from section_steps(result, settings[i], summary.events, label, share * (i + 0.1), share * (i + 1),
                                         options[i])
        summary.notes += [note for s in found for note in s.notes]
        summaries.append(summary)
        sections += found
    summary = pooled_summary(summaries)
    return (yield from _page_steps(path, summary, 0.6, sections))
