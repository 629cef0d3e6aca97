"""The clinical report's pages as matplotlib figures (A4 portrait, vector; Agg/PDF/SVG backends only, never Qt).

Pages: header with the parameters and symmetry tables; cycle-normalised kinematics, kinetics and ground
reaction per side (each side on its own cycles, mean and SD band); the prosthesis (blade compression, force
against compression, power, energy table); the main muscle groups' forces and activations per side; the EMG-driven
activations against the estimated ones with the seed's Table 3 (when the trial has EMG); the ground-reaction
estimate's validation against the plates; the notes of every decision taken on the user's behalf. Left is blue, right is red, everywhere
(``engine.display.colours``). Behind a curve, in grey, the normative band of able-bodied gait of the trial's kind
(walking or running) for that quantity when one is shipped (``engine.io.normative_file``), named with its source;
the notes say which band was drawn behind which curves and which curves have none of the trial's gait.
"""
from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.figure import Figure

from ..clinical.parameters import UNITS
from ..display.colours import SIDES as COLOURS, series_colour
from .normative_file import band_for, builtin_bands
from .plot_figure import Curve, draw_curve

A4 = (8.27, 11.69)     # inches
BAND = "#9a9a9a"       # normative bands: neutral grey, behind the sides' curves


def _band(ax, band) -> None:
    """The normative ``band`` (mean +/- 1 SD) behind the curves of ``ax``."""
    ax.fill_between(band.percent, band.lower, band.upper, color=BAND, alpha=0.35, lw=0, zorder=0,
                    label=f"{band.population}, mean +/- SD ({band.short_citation})")


def _fmt(x, digits=3):
    return "-" if not np.isfinite(x) else f"{x:.{digits}g}"


def _table(ax, rows, columns, title, fit=False):
    """A table in ``ax``; ``fit``: each column as wide as its longest cell (trials' names), else the axes' width
    shared equally."""
    ax.axis("off")
    ax.set_title(title, loc="left", fontsize=11, fontweight="bold")
    t = ax.table(cellText=rows, colLabels=columns, loc="upper left", cellLoc="left")
    t.auto_set_font_size(False)
    t.set_fontsize(8)
    t.scale(1.0, 1.25)
    if fit:
        t.auto_set_column_width(list(range(len(columns))))


def _header(s) -> Figure:
    fig = Figure(figsize=A4)
    fig.text(0.06, 0.96, "HybridLab clinical report", fontsize=16, fontweight="bold")
    fig.text(0.06, 0.935, f"Subject: {s.subject}    Mass: {s.mass:.1f} kg    Trial: {s.trial}", fontsize=10)
    fig.text(0.06, 0.917, f"Intact side: {s.intact}    Prosthetic side: {s.prosthetic}    "
             f"Cycles: left {len(s.parameters['Left'].cycles)}, right {len(s.parameters['Right'].cycles)}",
             fontsize=10)
    if len(s.trials) > 1:       # several trials pooled: each side's cycles of every trial together
        fig.text(0.06, 0.9, "Trials pooled (left, right cycles): " + "; ".join(
            f"{t} ({left}, {right})" for t, left, right in s.trials), fontsize=8, wrap=True)
    rows = []
    for name in s.parameters["Left"].values:
        cells = [name]
        for side in ("Left", "Right"):
            sp = s.parameters[side]
            cells.append(f"{_fmt(sp.mean(name))} +/- {_fmt(sp.sd(name), 2)}")
        rows.append(cells)
    rows = [[f"{r[0]} ({UNITS[r[0]]})"] + r[1:] for r in rows]
    _table(fig.add_axes([0.06, 0.55, 0.88, 0.32]), rows, ["Parameter", "Left mean +/- SD", "Right mean +/- SD"],
           "Spatio-temporal parameters")
    rows = [[f"{n} ({u})", _fmt(i), _fmt(p), _fmt(si, 3)] for n, u, i, p, si in s.symmetry]
    _table(fig.add_axes([0.06, 0.08, 0.88, 0.42]), rows,
           ["Parameter", f"Intact ({s.intact})", f"Prosthetic ({s.prosthetic})", "Symmetry index (%)"],
           "Symmetry: SI = 100 (intact - prosthetic) / (0.5 (intact + prosthetic))")
    return fig


def _curves(s, group, bands) -> Figure | None:
    items = [(k, v) for k, v in s.curves.items() if k[0] == group]
    if not items:
        return None
    fig = Figure(figsize=A4)
    fig.suptitle(f"{group}: {s.subject}, {s.trial} (each side on its own gait cycle; mean +/- SD)", fontsize=10)
    for i, ((_, name, unit), by_side) in enumerate(items):
        ax = fig.add_subplot(len(items), 1, i + 1)
        band = band_for(bands, name, unit, s.gait)
        if band is not None:
            _band(ax, band)
        for side, c in by_side.items():
            draw_curve(ax, Curve(f"{side} ({len(c.curves)} cycles)", c.percent, c.mean, COLOURS[side], sd=c.sd))
        ax.set_ylabel(f"{name} ({unit})", fontsize=8)
        ax.set_xlim(0, 100)
        ax.tick_params(labelsize=8)
        ax.legend(fontsize=7, loc="best")
        ax.grid(alpha=0.3)
    ax.set_xlabel("gait cycle (%)", fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def _muscles(s) -> Figure | None:
    forces = [(k, v) for k, v in s.curves.items() if k[0] == "Muscle force"]
    if not forces:
        return None
    fig = Figure(figsize=A4)
    fig.suptitle(f"Muscle groups: {s.subject}, {s.trial} (each side on its own gait cycle; mean +/- SD)",
                 fontsize=10)
    rows = len(forces)
    for i, ((_, group, unit), by_side) in enumerate(forces):
        for col, (key, label) in enumerate((((("Muscle force", group, unit)), f"force ({unit})"),
                                             (("Muscle activation", group, "1"), "activation"))):
            ax = fig.add_subplot(rows, 2, 2 * i + col + 1)
            for side, c in s.curves[key].items():
                draw_curve(ax, Curve(f"{side} ({len(c.curves)} cycles)", c.percent, c.mean, COLOURS[side], sd=c.sd))
            ax.set_title(f"{group}: {label}", fontsize=7, loc="left")
            ax.set_xlim(0, 100)
            ax.tick_params(labelsize=6)
            ax.grid(alpha=0.3)
            if i == 0:
                ax.legend(fontsize=6, loc="best")
            if i == rows - 1:
                ax.set_xlabel("gait cycle (%)", fontsize=7)
    fig.tight_layout(rect=(0, 0, 1, 0.97), h_pad=0.4)
    return fig


def _emg(s) -> Figure | None:
    if not s.emg:
        return None
    fig = Figure(figsize=A4)
    fig.suptitle(f"EMG against the estimated activations: {s.subject}, {s.trial}", fontsize=10)
    n = len(s.emg)
    height = min(0.2, 0.55 / n)
    for i, (muscle, pair) in enumerate(s.emg.items()):
        ax = fig.add_axes([0.1, 0.92 - (i + 1) * height + 0.03, 0.85, height - 0.05])
        for kind, style in (("EMG", "dashdot"), ("estimated", "solid")):
            for side, c in pair[kind].items():
                label = ("EMG-driven (eqs. 41-43)" if kind == "EMG" else "estimated") + f", {side} ({len(c.curves)} cycles)"
                draw_curve(ax, Curve(label, c.percent, c.mean, COLOURS[side], style, c.sd))
        ax.set_title(muscle, fontsize=8, loc="left")
        ax.set_ylabel("activation", fontsize=8)
        ax.set_xlim(0, 100)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, loc="best")
    ax.set_xlabel("gait cycle (%)", fontsize=8)
    if s.emg_tables:
        phases = list(dict.fromkeys(p[0] for _, t in s.emg_tables for p in t.phases))
        rows = []
        for trial, t in s.emg_tables:
            names = [p[0] for p in t.phases]
            for i, m in enumerate(t.muscles):
                cells = [_fmt(t.rms_percent[i, names.index(p)]) if p in names else "-" for p in phases]
                rows.append([m if len(s.emg_tables) == 1 else f"{trial}: {m}"] + cells)
        _table(fig.add_axes([0.06, 0.92 - n * height - 0.3, 0.88, 0.25]), rows,
               ["RMS error (%)"] + phases, "Estimated vs EMG-driven forces (seed Table 3)", fit=len(s.emg_tables) > 1)
        fig.text(0.06, 0.92 - n * height - 0.33, "RMS of the difference over each phase, in % of the muscle's largest "
                 "force bound f_max over the trial", fontsize=7)
    return fig


def _prosthesis(s) -> Figure | None:
    if not s.blades:
        return None
    fig = Figure(figsize=A4)
    fig.suptitle(f"Prosthesis ({s.blades[0]['rod']}): {s.subject}, {s.trial}", fontsize=10)
    axes = [fig.add_axes([0.1, 0.72, 0.85, 0.2]), fig.add_axes([0.1, 0.44, 0.38, 0.2]),
            fig.add_axes([0.58, 0.44, 0.37, 0.2])]
    for rank, b in enumerate(s.blades):          # one shade of the prosthetic side's colour per trial
        colour, label = series_colour(s.prosthetic, rank), b["trial"]
        axes[0].plot(b["time"], 1000 * b["compression"], color=colour, label=label)
        axes[1].plot(1000 * b["compression"], b["force"] / 1000, color=colour)
        axes[2].plot(b["time"], b["power"] / s.mass, color=colour)
    for ax, (x, y) in zip(axes, (("time (s)", "blade compression (mm)"), ("compression (mm)", "ground reaction (kN)"),
                                 ("time (s)", "power into the blade (W/kg)"))):
        ax.set_xlabel(x, fontsize=8)
        ax.set_ylabel(y, fontsize=8)
        ax.grid(alpha=0.3)
    if len(s.blades) > 1:
        axes[0].legend(fontsize=7, loc="best")
    rows = [[f"{m.interval[0]:.3f}-{m.interval[1]:.3f}", _fmt(1000 * m.peak_compression), _fmt(m.stiffness / 1000),
             _fmt(m.stored), _fmt(m.returned), _fmt(m.hysteresis)] for m in s.prosthesis]
    _table(fig.add_axes([0.06, 0.08, 0.88, 0.28]), rows, ["stance (s)", "peak compr. (mm)", "stiffness (kN/m)",
           "stored (J)", "returned (J)", "hysteresis (%)"], "Blade per stance")
    return fig


def band_notes(s, bands) -> list[str]:
    """The notes naming the normative band drawn behind each of the report's curves of ``s`` (a ClinicalSummary)
    for its gait, with the band's population and citation, and the curves that have none of that gait."""
    drawn, missing = {}, []
    for group, name, unit in s.curves:
        if group not in ("Kinematics", "Kinetics", "Ground reaction"):
            continue
        band = band_for(bands, name, unit, s.gait)
        if band is None:
            missing.append(f"{name} ({unit})")
        else:
            drawn.setdefault((band.population, band.citation), []).append(f"{name} ({unit})")
    notes = [f"normative band ({s.gait}) behind {', '.join(curves)}: {population}, mean +/- 1 SD; {citation}"
             for (population, citation), curves in drawn.items()]
    if missing:
        notes.append(f"no normative band of {s.gait} is shipped (resources/normative) for {', '.join(missing)}: "
                     "none drawn behind those curves")
    return notes


def _validation(s, bands) -> Figure:
    fig = Figure(figsize=A4)
    rows = [[m.plate, m.group, m.axis, _fmt(m.rmse), _fmt(m.rrmse), _fmt(m.r, 4), str(m.frames)] for m in s.validation]
    if not rows:
        rows = [["(no force plate scored the estimate)", "", "", "", "", "", ""]]
    _table(fig.add_axes([0.06, 0.6, 0.88, 0.33]), rows, ["plate", "contact group", "axis", "RMSE (N)", "rRMSE (%)",
           "r", "frames"], "Ground reactions estimated from the motion, against the force plates",
           fit=len(s.trials) > 1)
    lines = []
    for n in s.notes + band_notes(s, bands):
        lines += textwrap.wrap(f"- {n}", 110) or [""]
    fig.text(0.06, 0.55, "Notes: decisions taken on the user's behalf", fontsize=11, fontweight="bold")
    fig.text(0.06, 0.53, "\n".join(lines[:60]), fontsize=7, va="top", family="monospace")
    return fig


def report_figures(summary, bands=None, sections=()) -> list[Figure]:
    """The report's pages, in order; ``bands`` the normative bands to draw (default: the shipped ones); ``sections``
    the pages of the packages beside the engine (``engine.io.report_sections``), before the notes."""
    bands = builtin_bands() if bands is None else list(bands)
    pages = [_header(summary)] + [_curves(summary, g, bands) for g in ("Kinematics", "Kinetics", "Ground reaction")]
    pages += [_prosthesis(summary), _muscles(summary), _emg(summary), *sections, _validation(summary, bands)]
    return [p for p in pages if p is not None]
