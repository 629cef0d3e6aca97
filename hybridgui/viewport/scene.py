"""The 3D scene: one VTK renderer holding the lab, the bodies, the blade, the muscles, the markers, the contact candidates and the
ground-reaction arrows of what is open, moved frame by frame, and the legend's picture over them (``overlay``). Rendering happens on the GUI thread only
(``widget``); the scene only updates VTK objects."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from vtkmodules.vtkRenderingCore import vtkCellPicker, vtkRenderer

from engine.analysis.inverse_dynamics import plate_samples
from engine.analysis.metrics import axes_of, flagged_samples

from . import style
from .blade import BladeLayer
from .camera import CameraRig
from .contacts import ContactLayer
from .floor import FloorLayer
from .grf import GRFLayer
from .legend import LegendLayer
from .markers import MarkerLayer
from .muscles import MuscleLayer
from .overlay import Overlay
from .poses import Poses
from .skeleton import SkeletonLayer, body_geometry

LAYERS = ("bodies", "blade", "muscles", "markers", "contacts", "grf", "legend")
"""Layers the user can show or hide."""


@dataclass
class Content:
    """What to show: ``model`` at configurations ``Q`` (T, nq) at ``time`` (T,) s; the ``trial`` in model axes
    (markers, plates) and the analysis ``result`` when there are; ``forward`` is the model's forward axis."""

    model: object
    time: np.ndarray
    Q: np.ndarray
    trial: object = None
    result: object = None
    forward: tuple = (1.0, 0.0, 0.0)
    mesh_folders: list = field(default_factory=list)


@dataclass(frozen=True)
class Picked:
    """What a click hit: ``kind`` ('body', 'rod', 'muscle', 'model marker', 'experimental marker', 'measured
    ground reaction', 'estimated ground reaction') and ``name``."""

    kind: str
    name: str


def nearest_frames(times, at) -> np.ndarray:
    """Index of the sample of ``times`` nearest to each of ``at``."""
    if len(times) < 2:
        return np.zeros(len(at), int)
    i = np.clip(np.searchsorted(times, at), 1, len(times) - 1)
    return np.where(at - times[i - 1] <= times[i] - at, i - 1, i)


class Scene:
    """The renderer and its layers; :meth:`set_content` builds them, :meth:`show_frame` moves them."""

    def __init__(self):
        self.renderer = vtkRenderer()
        self.renderer.SetBackground(*style.BACKGROUND)
        for light in style.lights():
            self.renderer.AddLight(light)
        self.overlay = Overlay(self.renderer)      # the legend and colour bars, drawn from their picture
        self.picker = vtkCellPicker()
        self.picker.SetTolerance(0.004)
        self.content = None
        self.poses = None
        self.layers: dict = {}
        self.visible = {name: True for name in LAYERS}
        self.frame = 0
        self.rig = None
        self.floor = None
        self._geometry = (None, None, {}, [])  # (model, mesh folders, body polydata, mesh files not found)

    # ---------------------------------------------------------------- content
    def set_content(self, content: Content, keep_camera: bool = False) -> None:
        """Show ``content``; the camera is placed for an oblique overview unless ``keep_camera``."""
        self.renderer.RemoveAllViewProps()
        self.overlay.clear()
        self.content = content
        model, result = content.model, content.result
        self.poses = Poses(model, content.Q)
        axes = axes_of(-np.asarray(model.gravity, float), content.forward)
        self.rig = CameraRig(self.renderer, axes)
        trial = content.trial
        root = self.poses.body_p[:, 0] if self.poses.body_p.shape[1] else np.zeros((len(content.Q), 3))
        floor = result.qp.floor if result is not None and result.qp is not None else 0.0
        plates = [p.corners for p in trial.plates if p.corners is not None] if trial is not None else []
        self.floor = FloorLayer(self.renderer, axes, floor, root.min(axis=0), root.max(axis=0), plates)
        dynamics = None if result is None else result.dynamics
        if self._geometry[0] is not model or self._geometry[1] != content.mesh_folders:
            missing: list = []
            geometry = body_geometry(model, content.mesh_folders, missing)
            self._geometry = (model, list(content.mesh_folders), geometry, missing)
        activations, arrows = self._activations(), self._arrows()
        legend = LegendLayer(self.overlay.renderer, self._legend_entries(arrows), activations is not None)
        self.layers = {
            "bodies": SkeletonLayer(self.renderer, self._geometry[2], self.poses),
            "blade": BladeLayer(self.renderer, model, self.poses, None if dynamics is None else dynamics.tau,
                                legend.set_blade),
            "muscles": MuscleLayer(self.renderer, model, self.poses, activations),
            "markers": self._marker_layer(),
            "contacts": ContactLayer(self.renderer, self.poses, self._pushing()),
            "grf": GRFLayer(self.renderer, arrows),
            "legend": legend,
        }
        for name, layer in self.layers.items():
            layer.set_visible(self.visible[name])
        self.frame = min(self.frame, len(content.time) - 1)
        self.show_frame(self.frame)
        if not keep_camera:
            self.look("oblique")

    @property
    def missing_meshes(self) -> list[str]:
        """The mesh files of the bodies shown that were not found (bodies drawn as generated shapes instead)."""
        return list(self._geometry[3])

    def _activations(self):
        result, model = self.content.result, self.content.model
        if result is None or result.muscles is None:
            return None
        m = result.muscles.result
        columns = {name: j for j, name in enumerate(m.muscle_names)}
        out = np.full((len(self.content.time), len(model.muscles)), np.nan)
        for i, muscle in enumerate(model.muscles):
            if muscle.name in columns:
                out[:, i] = m.activations[:, columns[muscle.name]]
        return out

    def _legend_entries(self, arrows) -> list:
        """What the colours drawn mean, for what this content draws."""
        kinds = {kind for _, kind, _, _ in arrows}
        entries = [("ground reaction, measured (plate)", style.MEASURED)] if "measured" in kinds else []
        if "estimated" in kinds:
            entries.append(("ground reaction, estimated from the motion", style.ESTIMATED))
        if self.content.trial is not None and self.content.trial.markers.n_frames:
            entries.append(("marker, recorded", style.EXPERIMENTAL_MARKER))
        if self.poses.marker_names:
            entries.append(("marker, on the model", style.MODEL_MARKER))
        if self.content.result is not None:
            entries.append(("marker error (recorded to model)", style.RESIDUAL))
        if self.poses.contact_names:
            entries.append(("contact point" + (", loaded: estimate's colour" if "estimated" in kinds else ""),
                            style.CONTACT))
        return entries

    def _pushing(self):
        """(T, C) bool at the display frames: the candidates the ground-reaction estimate loads, if it ran on
        this model's candidates."""
        result = self.content.result
        if result is None or result.qp is None or list(result.qp.contact_names) != self.poses.contact_names:
            return None
        frames = nearest_frames(result.qp.time, self.content.time)
        return np.linalg.norm(result.qp.forces[frames], axis=2) > 1.0

    def _marker_layer(self) -> MarkerLayer:
        trial, result = self.content.trial, self.content.result
        if trial is None:
            return MarkerLayer(self.renderer, self.poses)
        markers = trial.markers
        experimental = markers.positions[nearest_frames(markers.time, self.content.time)]
        fitted = result.ik.marker_names if result is not None else []      # residuals only after IK
        pairs = [(self.poses.marker_names.index(n), markers.names.index(n)) for n in fitted
                 if n in markers.names and n in self.poses.marker_names]
        flagged = None
        if result is not None:
            at = flagged_samples(result.ik)[nearest_frames(result.ik.time, self.content.time)]
            flagged = np.zeros(experimental.shape[:2], bool)
            for j, name in enumerate(fitted):
                if name in markers.names:
                    flagged[:, markers.names.index(name)] = at[:, j]
        return MarkerLayer(self.renderer, self.poses, experimental, markers.names, pairs, flagged)

    def _arrows(self) -> list:
        trial, result, time = self.content.trial, self.content.result, self.content.time
        arrows = []
        if trial is not None:
            for plate in trial.plates:
                force, _, cop, _ = plate_samples(plate, time)
                arrows.append((f"plate {plate.name}", "measured", force, cop))
        if result is not None and result.qp is not None:
            for name, group in result.qp.groups.items():
                arrows.append((name, "estimated", group.force, group.cop))
        return arrows

    # ---------------------------------------------------------------- frames and views
    def show_frame(self, frame: int) -> None:
        """Move every layer to ``frame`` (and the camera with the subject when following)."""
        if self.content is None:
            return
        previous, self.frame = self.frame, int(frame)
        for layer in self.layers.values():
            layer.show_frame(self.frame)
        if self.rig.following and self.poses.body_p.shape[1]:
            self.rig.follow(self.poses.body_p[self.frame, 0] - self.poses.body_p[previous, 0])

    def set_layer_visible(self, name: str, visible: bool) -> None:
        self.visible[name] = visible
        if name in self.layers:
            self.layers[name].set_visible(visible)
            self.layers[name].show_frame(self.frame)

    def subject_bounds(self) -> tuple:
        """Bounds of the bodies and rods at the current frame, stretched by how far the first body (the root)
        travels during the trial, so that a camera placed on them sees the whole motion."""
        actors = list(self.layers["bodies"].actors.values()) + [r.actor for r in self.layers["blade"].rods]
        if not actors:
            return self.renderer.ComputeVisiblePropBounds()
        b = np.array([a.GetBounds() for a in actors])
        low, high = b[:, 0::2].min(axis=0), b[:, 1::2].max(axis=0)
        if self.poses.body_p.shape[1]:
            root = self.poses.body_p[:, 0]
            low, high = low + root.min(axis=0) - root[self.frame], high + root.max(axis=0) - root[self.frame]
        return tuple(np.column_stack([low, high]).ravel())

    def look(self, preset: str) -> None:
        """Place the camera at a preset (``camera.PRESETS``) around the subject."""
        self.rig.look(preset, self.subject_bounds())

    # ---------------------------------------------------------------- picking
    def model_marker_at(self, x: float, y: float, within: float = 0.05) -> str | None:
        """The model marker nearest to what is drawn at display position (x, y), if within ``within`` m of it (a
        label dropped there is given that marker)."""
        if self.content is None or not self.picker.Pick(x, y, 0, self.renderer):
            return None
        return self.layers["markers"].model_marker_near(np.array(self.picker.GetPickPosition()), within)

    def pick(self, x: float, y: float) -> Picked | None:
        """What is drawn at display position (x, y) (pixels from the bottom left), if anything."""
        if self.content is None or not self.picker.Pick(x, y, 0, self.renderer):
            return None
        actor, cell = self.picker.GetActor(), self.picker.GetCellId()
        layers = self.layers
        body = layers["bodies"].body_of(actor)
        if body is not None:
            return Picked("body", body)
        rod = layers["blade"].rod_of(actor)
        if rod is not None:
            return Picked("rod", rod)
        muscle = layers["muscles"].muscle_of(actor, cell)
        if muscle is not None:
            return Picked("muscle", muscle)
        marker = layers["markers"].marker_at(actor, np.array(self.picker.GetPickPosition()))
        if marker is not None:
            return Picked(f"{marker[0]} marker", marker[1])
        arrow = layers["grf"].arrow_of(actor)
        if arrow is not None:
            label, kind, _, _ = layers["grf"].arrows[arrow]
            return Picked(f"{kind} ground reaction", label)
        return None
