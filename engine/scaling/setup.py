"""What a subject scaling does, as OpenSim's ScaleTool setup describes it (plain, immutable data).

A :class:`ScaleSetup` has three parts, as OpenSim's ScaleTool: the generic model and the marker set added to
it (GenericModelMaker), the scale factors (:class:`ScalerSetup`, OpenSim's ModelScaler: measurements of
marker pairs, manual factors, the order they are applied in, the static trial and the time range its
distances are averaged over, whether the bodies' mass distribution is kept) and the marker placement
(:class:`PlacerSetup`, OpenSim's MarkerPlacer: the static pose solved by IK with its own weights and time
range, then the model's non-fixed markers moved onto the measured ones). Files are absolute paths (a
setup file's relative names are resolved against its folder, as OpenSim does) or None when not given.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError

MEASUREMENTS, MANUAL = "measurements", "manualScale"
AXES = "XYZ"


@dataclass(frozen=True)
class BodyScale:
    """A body a measurement scales, and along which of its axes (0, 1, 2 for X, Y, Z)."""

    body: str
    axes: tuple


@dataclass(frozen=True)
class Measurement:
    """OpenSim's Measurement: its factor is the mean over ``pairs`` of (measured / model distance)."""

    name: str
    pairs: tuple           # ((marker, marker), ...)
    bodies: tuple          # (BodyScale, ...)
    apply: bool = True


@dataclass(frozen=True)
class ManualScale:
    """OpenSim's Scale: factors (x, y, z) given for one body."""

    body: str
    factors: tuple
    apply: bool = True


@dataclass(frozen=True)
class ScalerSetup:
    """OpenSim's ModelScaler. ``time_range`` (s, s) is the window the static trial's distances are averaged
    over (None: the whole trial)."""

    apply: bool = True
    order: tuple = (MEASUREMENTS, MANUAL)
    measurements: tuple = ()
    manual: tuple = ()
    static_file: Path | None = None
    time_range: tuple | None = None
    preserve_mass_distribution: bool = True
    output_model_file: Path | None = None
    output_scale_file: Path | None = None


@dataclass(frozen=True)
class PlacerSetup:
    """OpenSim's MarkerPlacer. ``marker_tasks`` and ``coordinate_tasks`` are the IK tasks of the static pose
    (:class:`engine.io.setup_xml.MarkerTask`, ``CoordinateTask``); ``time_range`` the frames averaged."""

    apply: bool = True
    marker_tasks: tuple = ()
    coordinate_tasks: tuple = ()
    static_file: Path | None = None
    coordinate_file: Path | None = None
    time_range: tuple | None = None
    output_motion_file: Path | None = None
    output_model_file: Path | None = None
    output_marker_file: Path | None = None
    max_marker_movement: float = -1.0


@dataclass(frozen=True)
class ScaleSetup:
    """A whole scaling. ``mass`` kg (None: the model's masses are not brought to a subject's total).

    ``notes`` says what was decided in making the setup (when it was not read from a file).
    ``elements`` names, for each file field (``model_file``, ``scaler.static_file`` ...), the element of the
    setup file that gave it, so that a missing file is reported where it was written.
    """

    name: str
    mass: float | None = None
    model_file: Path | None = None
    marker_set_file: Path | None = None
    scaler: ScalerSetup = field(default_factory=ScalerSetup)
    placer: PlacerSetup | None = None
    source: str | None = None
    elements: dict = field(default_factory=dict)
    notes: tuple = ()

    def input_file(self, key: str) -> Path:
        """The input file ``key`` (e.g. ``"scaler.static_file"``), which must exist; DataError naming the
        setup file and element otherwise."""
        part, _, attr = key.rpartition(".")
        holder = getattr(self, part) if part else self
        path = getattr(holder, attr)
        element = self.elements.get(key, key)
        if path is None:
            raise DataError("no file is given here", element=element, file=self.source)
        if not Path(path).is_file():
            raise DataError(f"names {str(path)!r}, which does not exist", element=element, file=self.source)
        return Path(path)
