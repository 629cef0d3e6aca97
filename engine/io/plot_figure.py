"""A plot of chosen curves written as a figure file (PNG, SVG or PDF by the suffix), drawn by matplotlib as the
report's pages are (``report_figures`` draws its curves with :func:`draw_curve`): axes fitted to the data with
ticks that cover it, labels readable at print size, the page the figure's own size, SVG strokes in plain user
units (no ``vector-effect``: librsvg, Chromium and PDF viewers draw the same lines), a title naming subject and
trial. Written atomically."""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import SettingsError
from .atomic import write_bytes

SUFFIXES = (".png", ".svg", ".pdf")
SIZE = (7.5, 4.6)       # inches: half an A4 page, landscape
DPI = 200               # PNG only
LINESTYLES = {"solid": "-", "dashed": "--", "dashdot": "-.", "dotted": ":"}


@dataclass(frozen=True, eq=False)
class Curve:
    """One line: ``y`` (n,) against ``x`` (n,) (NaN: a gap), ``colour`` '#rrggbb', ``style`` a key of
    :data:`LINESTYLES`, and a band ``y +/- sd`` when ``sd`` is given (mean and spread over gait cycles)."""

    label: str
    x: np.ndarray
    y: np.ndarray
    colour: str
    style: str = "solid"
    sd: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class Plot:
    """A figure: ``title``, axis labels (with units), ``curves``, and ``spans`` [(start, end, colour)] shaded
    behind them along x (stance phases)."""

    title: str
    xlabel: str
    ylabel: str
    curves: tuple
    spans: tuple = field(default_factory=tuple)


def draw_curve(ax, curve: Curve) -> None:
    """``curve`` on the matplotlib axes ``ax``: its line, and its band when it has one."""
    ax.plot(curve.x, curve.y, color=curve.colour, linestyle=LINESTYLES[curve.style], linewidth=1.4,
            label=curve.label)
    if curve.sd is not None:
        ax.fill_between(curve.x, curve.y - curve.sd, curve.y + curve.sd, color=curve.colour, alpha=0.2, lw=0)


def plot_figure(plot: Plot):
    """The matplotlib ``Figure`` of ``plot`` (no pyplot: any thread, no GUI backend). Matplotlib is imported here,
    when a figure is first drawn: the application's curves use this module's records from its first window on."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=SIZE)
    ax = fig.add_subplot(1, 1, 1)
    for curve in plot.curves:
        draw_curve(ax, curve)
    ax.set_xmargin(0.0)
    ax.autoscale_view()
    lo, hi = ax.get_xlim()
    for start, end, colour in plot.spans:
        if end >= lo and start <= hi:
            ax.axvspan(max(start, lo), min(end, hi), color=colour, alpha=0.12, lw=0, zorder=0)
    ax.set_xlim(lo, hi)
    ax.set_title(plot.title, fontsize=10)
    ax.set_xlabel(plot.xlabel, fontsize=9)
    ax.set_ylabel(plot.ylabel, fontsize=9)
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.3)
    if plot.curves:
        ax.legend(fontsize=7, loc="best", framealpha=0.8)
    fig.tight_layout()
    return fig


def write_plot(path, plot: Plot) -> None:
    """Write ``plot`` to ``path`` as PNG, SVG (text kept as text) or PDF, atomically."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise SettingsError(f"figures are written as {', '.join(SUFFIXES)}; got {suffix or 'no suffix'!r}", file=path)
    from matplotlib import rc_context
    buffer = io.BytesIO()
    with rc_context({"svg.fonttype": "none"}):
        plot_figure(plot).savefig(buffer, format=suffix[1:], dpi=DPI, metadata=None if suffix == ".png" else
                                  {"Title": plot.title})
    write_bytes(path, buffer.getvalue())
