"""The clinical report of the demo: PDF pages rendered to PNG (pdftoppm), their text (pdftotext), every plot's
axes covering its data, and the HTML's inline SVG axes parsed back against the data they show."""
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from engine.clinical.summary import clinical_summary
from engine.demo import demo_results
from engine.errors import SettingsError
from engine.io.report_figures import report_figures
from engine.io.report_file import write_report

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def summary():
    result, settings = demo_results()
    return clinical_summary(result, settings.forward)


def _data_ranges(ax):
    """(x min, x max, y min, y max) of the lines and bands an axes draws."""
    xs, ys = [], []
    for line in ax.get_lines():
        xs.append(np.asarray(line.get_xdata(), float))
        ys.append(np.asarray(line.get_ydata(), float))
    for coll in ax.collections:
        for path in coll.get_paths():
            xs.append(path.vertices[:, 0])
            ys.append(path.vertices[:, 1])
    x, y = np.concatenate(xs), np.concatenate(ys)
    return np.nanmin(x), np.nanmax(x), np.nanmin(y), np.nanmax(y)     # NaN: a gap (a frame the muscles left out)


def test_pdf_pages_text_and_axes(summary, tmp_path):
    for tool in ("pdftoppm", "pdftotext"):
        assert shutil.which(tool), f"{tool} (Debian's poppler-utils) is needed; .ci/run installs it"
    pdf = tmp_path / "report.pdf"
    write_report(pdf, summary)
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    # header, kinematics, kinetics, ground reaction, prosthesis, muscle groups, EMG, validation and notes
    assert len(pages) == 8
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert "HybridLab demo athlete" in text
    for words in ("cadence (steps/min)", "contact time (s)", "Symmetry index", "Prosthetic (Right)",
                  "stiffness (kN/m)", "rRMSE (%)", "decisions taken on the user's behalf", "knee flexion (deg)",
                  "Muscle groups", "hamstrings: force (BW)", "quadriceps: activation", "EMG against the estimated",
                  "EMG-driven (eqs. 41-43), Right", "semiten_r", "Table 3"):
        assert words in text, words
    cadence = re.search(r"cadence \(steps/min\)\s+([\d.]+)", text)
    assert float(cadence.group(1)) == pytest.approx(summary.parameters["Left"].mean("cadence"), rel=1e-2)
    for fig in report_figures(summary):
        for ax in fig.axes:
            if not ax.get_lines():
                continue
            x0, x1, y0, y1 = _data_ranges(ax)
            (a, b), (c, d) = ax.get_xlim(), ax.get_ylim()
            assert a <= x0 + 1e-9 and x1 <= b + 1e-9 and c <= y0 + 1e-9 and y1 <= d + 1e-9, ax.get_ylabel()


def test_html_svg_axes_match_the_data(summary, tmp_path):
    html = tmp_path / "report.html"
    write_report(html, summary)
    text = html.read_text(encoding="utf-8")
    svgs = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    figures = report_figures(summary)
    assert len(svgs) == len(figures)
    checked = 0
    for svg, fig in zip(svgs, figures):
        root = ET.fromstring(svg)
        plotted = [ax for ax in fig.axes if ax.get_lines()]
        groups = [g for g in root.iter(f"{SVG}g") if re.fullmatch(r"axes_\d+", g.get("id", ""))]
        tables = len(fig.axes) - len(plotted)
        plotted_groups = [g for g in groups if any(t.get("id", "").startswith("ytick") for t in g.iter(f"{SVG}g"))]
        assert len(plotted_groups) == len(plotted), (len(groups), tables)
        for g, ax in zip(plotted_groups, plotted):
            ticks = []
            for t in g.iter(f"{SVG}g"):
                if re.fullmatch(r"ytick_\d+", t.get("id", "")):
                    label = "".join(t.itertext()).strip().replace("\u2212", "-")
                    ticks.append(float(label))
            _, _, y0, y1 = _data_ranges(ax)
            step = np.diff(ticks).min()
            # the labelled ticks bracket the data to within one tick step, and span at least half its range
            assert ticks[0] - step <= y0 and y1 <= ticks[-1] + step, (ax.get_ylabel(), ticks, y0, y1)
            assert ticks[-1] - ticks[0] >= 0.5 * (y1 - y0), (ax.get_ylabel(), ticks, y0, y1)
            checked += 1
    assert checked >= 8


def test_an_unknown_suffix_is_refused(summary, tmp_path):
    with pytest.raises(SettingsError, match=r"\.pdf or \.html"):
        write_report(tmp_path / "report.docx", summary)
    assert not (tmp_path / "report.docx").exists()
