"""The clinical report written as PDF (one A4 page per figure, vector) or HTML (inline SVG figures), atomically."""
from __future__ import annotations

import html
import io
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_pdf import PdfPages

from ..errors import SettingsError
from .atomic import write_bytes
from .report_figures import report_figures


def write_report(path, summary) -> None:
    """Write ``summary`` (engine.clinical.summary.ClinicalSummary) to ``path``: '.pdf' or '.html'."""
    path = Path(path)
    figures = report_figures(summary)
    buffer = io.BytesIO()
    if path.suffix.lower() == ".pdf":
        with PdfPages(buffer, metadata={"Title": f"HybridLab report: {summary.subject}"}) as pdf:
            for fig in figures:
                pdf.savefig(fig)
    elif path.suffix.lower() in (".html", ".htm"):
        parts = []
        for fig in figures:
            svg = io.StringIO()
            with rc_context({"svg.fonttype": "none"}):     # text as text: searchable, and readable by tests
                fig.savefig(svg, format="svg")
            parts.append(svg.getvalue().split("?>", 1)[-1])
        buffer.write((f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>HybridLab report: "
                      f"{html.escape(summary.subject)}</title></head><body>" + "\n".join(parts) +
                      "</body></html>").encode("utf-8"))
    else:
        raise SettingsError(f"a report is written as .pdf or .html, not '{path.suffix}'", file=path)
    write_bytes(path, buffer.getvalue())
