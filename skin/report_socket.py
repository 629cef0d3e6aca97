"""The clinical report's socket section (entry point ``hybridlab.report_sections``, ``engine.io.report_sections``):
over each stance of the residual limb's side, the socket's interface pressure (``skin.socket_map``): peak, mean over
the loaded area, loaded area, the regions above the threshold; and the map at the stances' largest socket load, the
stump's skin unrolled around the limb's axis. A model without a socket gets a note that says so instead."""
from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap, Normalize
from matplotlib.figure import Figure

from engine.analysis.gait_phases import side_of
from engine.clinical.parameters import stances_of
from engine.io.report_figures import A4
from engine.io.report_sections import ReportSection

from .liner_options import SECTION, checked
from .socket_map import LOADED, SCALE, fit_words, flag_notes, liner_words, loaded, socket_map_steps
from .socket_site import residual_limb, unavailable

TITLE = "Socket interface pressure"
SKIN = (0.85, 0.72, 0.62)        # unloaded skin, as the 3D view draws it (hybridgui.viewport.style.SKIN)
COLOURS = LinearSegmentedColormap.from_list(
    "socket_pressure", [SKIN, (1.0, 0.85, 0.1), (1.0, 0.1, 0.1)]).with_extremes(over=(0.55, 0.0, 0.25))


def stance_rows(m, stances) -> list[dict]:
    """Per stance ``(start, end)`` s of the map ``m`` (a SocketMap): its frames' largest ``peak`` (Pa) and when
    (``at``, s), the ``mean`` pressure (Pa, the frames' means over their loaded areas averaged over the loaded frames:
    socket force above ``LOADED`` N), the loaded ``area`` (m^2, mean and ``area_max``), the most ``regions`` above the
    threshold and their largest ``hot_area`` (m^2); stances with no loaded frame are left out."""
    rows = []
    for a, b in stances:
        k = np.flatnonzero((m.time >= a) & (m.time <= b) & m.computed & loaded(m.load))
        if not len(k):
            continue
        f = k[np.argmax(m.peak[k])]
        rows.append({"stance": (a, b), "peak": m.peak[f], "at": m.time[f], "mean": float(m.mean[k].mean()),
                     "area": float(m.area[k].mean()), "area_max": float(m.area[k].max()),
                     "regions": int(m.regions[k].max()), "hot_area": float(m.hot_area[k].max())})
    return rows


def unrolled(m, frame: int):
    """The stump's skin at ``frame`` unrolled: each vertex's angle around the limb's axis (deg, 0 anterior (+x), 90
    toward +z) and its depth below the limb frame's origin (cm), the triangles (those across the anterior seam drawn
    at 360 deg with copies of their vertices) and the pressure (kPa) per vertex."""
    rest = m.rest
    centre = rest[:, [0, 2]].mean(axis=0)
    angle = np.degrees(np.arctan2(rest[:, 2] - centre[1], rest[:, 0] - centre[0])) % 360.0
    depth = -100.0 * rest[:, 1]
    tri = m.triangles.copy()
    seam = np.ptp(angle[tri], axis=1) > 180.0
    low = seam[:, None] & (angle[tri] < 180.0)
    copies = np.unique(tri[low])
    index = np.full(len(angle), -1)
    index[copies] = len(angle) + np.arange(len(copies))
    tri[low] = index[tri[low]]
    x = np.concatenate([angle, angle[copies] + 360.0])
    y = np.concatenate([depth, depth[copies]])
    p = np.asarray(m.pressure[frame], float) * 1e-3
    return x, y, tri, np.concatenate([p, p[copies]])


def socket_page(m, rows, trial: str, side: str) -> Figure:
    """The section's page: the map at the stances' largest socket load, the peak and mean over the trial, the table
    per stance."""
    fig = Figure(figsize=A4)
    fig.suptitle(f"{TITLE}: {trial} (residual limb {m.limb}, {side})", fontsize=10)
    k = np.flatnonzero(m.computed & loaded(m.load))
    f = k[np.argmax(np.linalg.norm(m.load[k, 3:], axis=1))]
    ax = fig.add_axes([0.1, 0.62, 0.72, 0.28])
    x, y, tri, p = unrolled(m, f)
    shade = ax.tripcolor(x, y, tri, p, shading="gouraud", cmap=COLOURS, norm=Normalize(0.0, SCALE * 1e-3))
    ax.set_xlim(0.0, 360.0)
    ax.invert_yaxis()
    ax.set_xticks([0, 90, 180, 270, 360])
    inward, outward = ("medial", "lateral") if side == "Right" else ("lateral", "medial")
    ax.set_xticklabels(["anterior", f"{outward} (+z)", "posterior", f"{inward} (-z)", "anterior"], fontsize=7)
    ax.set_ylabel("depth below the knee centre (cm)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_title(f"the map at {m.time[f]:.3f} s, the largest socket load of the stances "
                 f"({np.linalg.norm(m.load[f, 3:]):.0f} N): peak {m.peak[f] * 1e-3:.1f} kPa, mean "
                 f"{m.mean[f] * 1e-3:.1f} kPa over {m.area[f] * 1e4:.1f} cm^2", fontsize=8, loc="left")
    bar = fig.colorbar(shade, cax=fig.add_axes([0.85, 0.62, 0.025, 0.28]), extend="max")
    bar.set_label(f"pressure (kPa), fixed scale 0-{SCALE * 1e-3:g}", fontsize=8)
    bar.ax.tick_params(labelsize=7)
    fig.text(0.1, 0.585, "The stump's skin unrolled around the limb's axis (seen from outside; limb frame: x "
             f"anterior, y proximal, z to the right); crimson above the scale; the {liner_words(m)}.", fontsize=7)
    ax = fig.add_axes([0.1, 0.38, 0.85, 0.16])
    t = m.time
    ax.plot(t, np.where(m.computed, m.peak, np.nan) * 1e-3, color="#b2182b", label="peak")
    ax.plot(t, np.where(m.computed, m.mean, np.nan) * 1e-3, color="#2166ac", label="mean over the loaded area")
    ax.axhline(m.threshold * 1e-3, color="#7f7f7f", lw=0.8, ls="--", label=f"threshold {m.threshold * 1e-3:g} kPa")
    ax.set_xlabel("time (s)", fontsize=8)
    ax.set_ylabel("pressure (kPa)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    table = [[f"{r['stance'][0]:.3f}-{r['stance'][1]:.3f}", f"{r['peak'] * 1e-3:.1f}", f"{r['at']:.3f}",
              f"{r['mean'] * 1e-3:.1f}", f"{r['area'] * 1e4:.0f} / {r['area_max'] * 1e4:.0f}", str(r["regions"]),
              f"{r['hot_area'] * 1e4:.1f}"] for r in rows]
    ax = fig.add_axes([0.06, 0.06, 0.88, 0.26])
    ax.axis("off")
    ax.set_title("Socket pressure per stance of the residual limb's side", loc="left", fontsize=11, fontweight="bold")
    cells = ax.table(cellText=table, loc="upper left", cellLoc="left", colLabels=[
        "stance (s)", "peak (kPa)", "at (s)", "mean (kPa)", "loaded (cm^2)\nmean / max",
        f"regions\n> {m.threshold * 1e-3:g} kPa", f"area > {m.threshold * 1e-3:g}\nkPa (cm^2)"])
    cells.auto_set_font_size(False)
    cells.set_fontsize(8)
    cells.scale(1.0, 1.25)
    for (row, _), cell in cells.get_celld().items():
        if row == 0:
            cell.set_height(2 * cell.get_height())      # two-line headings
    return fig


def socket_section_steps(result, settings, events, trial: str, **liner):
    """The socket section of one trial (the entry point): yields Progress, returns a ReportSection; without a socket,
    force plates or settings, no page and a note saying why. ``liner``: the report's options of the section
    ``socket-pressure``, the liner's keyword arguments (``skin.liner_options``: ``thickness``, ``modulus``,
    ``friction``, ``tissue``, ``tissue_modulus``, ``fit``, SI; none: the bonded liner on a rigid limb), as ``hybrid
    socket-pressure`` and ``hybrid report`` take them from their arguments and the application's View > Socket liner
    chooses them; SettingsError naming the option when one is unknown or out of range."""
    liner = checked(liner, f"report option {SECTION}")
    why = unavailable(result, settings)
    if why is not None:
        return ReportSection(TITLE, notes=[f"no socket interface pressure: {why}"])
    _, limb = residual_limb(result.model)
    side = side_of(limb)
    stances = [(a, b) for a, b in stances_of(events, side) if b is not None]
    time = result.motion.time
    frames = np.flatnonzero(np.any([(time >= a) & (time <= b) for a, b in stances], axis=0)) if stances else []
    if not len(frames):
        return ReportSection(TITLE, notes=[f"no socket interface pressure: no complete stance of the {side.lower()} "
                                           f"side (the residual limb {limb}) in the gait events"])
    m = yield from socket_map_steps(result, settings, frames=frames, with_positions=False, **liner)
    rows = stance_rows(m, stances)
    if not rows:
        return ReportSection(TITLE, notes=[f"no socket interface pressure: the socket carries no more than "
                                           f"{LOADED:g} N in the stances of the {side.lower()} side"])
    notes = [f"socket interface pressure on {limb}: {liner_words(m)}, skin as `hybrid socket-pressure` "
             f"(docs/socket-pressure.md); regions are connected patches above {m.threshold * 1e-3:g} kPa"]
    notes += [f"socket interface pressure: {note}" for note in [fit_words(m)] + flag_notes(m) if note]
    return ReportSection(TITLE, [socket_page(m, rows, trial, side)], notes)
