"""Figures of the maps and of a motion's demands (matplotlib, drawn off-screen; files written atomically)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.io.atomic import atomic_path

from .demands import Demands
from .maps import PerformanceMaps


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def draw_maps(maps: PerformanceMaps, folder, fmt: str = "png") -> list[Path]:
    """Workspace, dexterity (1/kappa), translational stiffness and bearing capacity over (alpha, beta)."""
    plt = _pyplot()
    extent = np.degrees([maps.beta[0], maps.beta[-1], maps.alpha[0], maps.alpha[-1]])
    panels = [("workspace", maps.inside.astype(float), "inside (1) / outside (0)"),
              ("dexterity", maps.dexterity, "1/kappa"),
              ("stiffness", maps.translational_stiffness_min * 1e-3, "smallest translational stiffness, N/mm"),
              ("bearing_capacity", np.where(np.isfinite(maps.bearing_capacity), maps.bearing_capacity, np.nan),
               "bearing capacity, N")]
    paths = []
    for name, values, label in panels:
        fig, ax = plt.subplots(figsize=(6, 4.5))
        shown = np.where(maps.inside, values, np.nan) if name != "workspace" else values
        image = ax.imshow(shown, origin="lower", extent=extent, aspect="auto")
        fig.colorbar(image, ax=ax, label=label)
        ax.set_xlabel("beta, deg")
        ax.set_ylabel("alpha, deg")
        path = Path(folder) / f"{name}.{fmt}"
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=fmt, dpi=120)
        plt.close(fig)
        paths.append(path)
    return paths


def draw_demands(demands: Demands, path, fmt: str | None = None) -> Path:
    """Strokes, forces and the generalized load over time; frames hitting a limit shaded."""
    plt = _pyplot()
    path = Path(path)
    fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True)
    t = demands.time
    for i, label in enumerate(("l2", "l3")):
        axes[0].plot(t, demands.lengths[:, i] * 1e3, label=label)
        axes[1].plot(t, demands.forces[:, i], label=f"f{i + 2}")
    axes[2].plot(t, demands.load[:, 0], label="load about alpha")
    axes[2].plot(t, demands.load[:, 1], label="load about beta")
    axes[0].set_ylabel("stroke, mm")
    axes[1].set_ylabel("actuator force, N")
    axes[2].set_ylabel("hip torque as load, N m")
    axes[2].set_xlabel("time, s")
    for ax in axes:
        marked = demands.flags != 0
        if marked.any():
            ax.fill_between(t, 0, 1, where=marked, transform=ax.get_xaxis_transform(), color="red", alpha=0.12,
                            label="limit hit")
        ax.legend(loc="upper right", fontsize=8)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt or path.suffix.lstrip("."), dpi=120)
    plt.close(fig)
    return path
