"""``hybrid report RESULTS.hlr|SESSION.hls --out report.pdf``: the clinical report of an analysis (PDF or HTML)."""
from __future__ import annotations

from pathlib import Path

from ..errors import DataError


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="the clinical report of results (.hlr) or session (.hls) files",
                       description="Write the clinical report (parameters, symmetry, per-side gait-cycle curves, "
                                   "prosthesis, muscles and EMG, validation, notes) as PDF or HTML (by --out's "
                                   "suffix). Several files of one patient are pooled: each side's cycles of every "
                                   "trial together, mean and spread across them; trials of the same C3D name are "
                                   "named by these files' folders and names. A session's report options (the socket "
                                   "liner chosen in the application) apply to its trial.")
    p.add_argument("file", nargs="+", help="results (.hlr) or session (.hls) files of one patient")
    p.add_argument("--out", required=True, help="report.pdf or report.html")
    p.set_defaults(run=run)


def load_analysis(path):
    """``(result, settings, events, options)`` of a results or session file (the session's edited events, if any, and
    its report options, ``Session.report``; a results file's: none)."""
    from ..io.session_file import SUFFIX, load_session
    if Path(path).suffix.lower() == SUFFIX:
        session = load_session(path)
        if session.result is None:
            raise DataError("holds no analysis result (run the analysis and save the session)", file=path)
        return session.result, session.settings, list(session.events) or None, session.report
    from ..io.results_file import load_result
    result, settings = load_result(path)
    return result, settings, None, {}


def run(args) -> int:
    from ..io.report_file import trials_report_steps
    from ..progress import run as run_steps
    analyses, settings_used, options = [], [], []
    for path in args.file:
        result, settings, events, report = load_analysis(path)
        analyses.append((result, getattr(settings, "forward", (1.0, 0.0, 0.0)), events))
        settings_used.append(settings)
        options.append(report)
    run_steps(trials_report_steps(args.out, analyses, args.file, settings_used, options))
    print(f"wrote {args.out}")
    return 0
