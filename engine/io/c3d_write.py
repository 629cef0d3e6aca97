"""Writing C3D files through ezc3d: markers, analog channels (EMG), type-2 force platforms, events.

``write_c3d(path, trial, plates)`` writes a :class:`~engine.trial.trial.Trial` in its lab frame
(``trial.frame == 'lab'``). Markers are stored in millimetres, missing samples (NaN) with a
negative residual as C3D marks them. Each :class:`PlateLayout` becomes a FORCE_PLATFORM of type 2
(AMTI-style six channels Fx Fy Fz Mx My Mz, no calibration matrix): its channels are the force the
subject applies to the plate and its moment about the transducer origin, in the plate frame
(X from corner 2 to corner 1, Y from corner 4 to corner 1, Z into the floor), the transducer
origin ``depth`` m below the surface centre (ORIGIN = (0, 0, -depth), pointing from the
transducer origin to the surface centre). :func:`engine.io.c3d.read_c3d` reads them back to the
ground reaction on the subject. ezc3d stores every numeric parameter as a float (type 4), the
integer ones (FORCE_PLATFORM:USED, TYPE, CHANNEL, ZERO) included; readers that insist on the
integer type of the C3D manual will not take them. The file is written atomically.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import DataError
from .atomic import atomic_path


@dataclass(frozen=True)
class PlateLayout:
    """A rectangular plate on a horizontal floor (lab frame, Z up): ``centre`` of its surface (m),
    ``size`` (m along lab X, m along lab Y), transducer ``depth`` below the surface (m), and the
    ground reaction it measures: ``force`` (n, 3) N on the subject and ``moment`` (n, 3) N m about
    the lab origin, sampled at the analog rate."""

    name: str
    centre: tuple
    size: tuple
    depth: float
    force: np.ndarray
    moment: np.ndarray

    def corners(self) -> np.ndarray:
        """(4, 3) m, in the C3D order that makes the plate Z point into the floor."""
        cx, cy, cz = self.centre
        hx, hy = self.size[0] / 2, self.size[1] / 2
        return np.array([[cx + hx, cy - hy, cz], [cx - hx, cy - hy, cz], [cx - hx, cy + hy, cz],
                         [cx + hx, cy + hy, cz]])

    def channels(self) -> np.ndarray:
        """(n, 6): Fx Fy Fz (N) and Mx My Mz (N mm) of the force on the plate about the transducer
        origin, in the plate frame."""
        c = self.corners()
        x = c[0] - c[1]
        y = c[0] - c[3]
        R = np.column_stack([x / np.linalg.norm(x), y / np.linalg.norm(y), np.cross(x, y) / np.linalg.norm(np.cross(x, y))])
        centre = np.asarray(self.centre, float)
        F_on_plate = -np.asarray(self.force, float)
        # moment of the force on the plate about the surface centre: -(M - c x F)
        M_centre = -(np.asarray(self.moment, float) - np.cross(centre, self.force))
        F_p = F_on_plate @ R
        M_p = M_centre @ R
        origin = np.array([0.0, 0.0, -self.depth])      # transducer origin -> surface centre, plate frame
        M_t = M_p - np.cross(F_p, origin)
        return np.column_stack([F_p, M_t * 1000.0])


def write_c3d(path, trial, plates=(), description: str = "") -> None:
    """Write ``trial`` (lab frame) and its force ``plates`` (:class:`PlateLayout`) to the C3D file ``path``.

    The analog rate is that of the trial's analog channels; the plates' samples must be at that rate,
    an integer multiple of the marker rate, covering the same time.

    Raises
    ------
    DataError
        If the trial is not in its lab frame, the rates are inconsistent, or ezc3d cannot write the file.
    """
    import ezc3d

    if trial.frame != "lab":
        raise DataError(f"holds a trial in the {trial.frame!r} frame; C3D files store the lab frame", file=path)
    markers = trial.markers
    n = markers.n_frames
    rate = float(markers.rate)
    analog_rates = {float(a.rate) for a in trial.analogs}
    if len(analog_rates) > 1:
        raise DataError(f"analog channels at several rates {sorted(analog_rates)}: C3D has one analog rate", file=path)
    analog_rate = analog_rates.pop() if analog_rates else rate
    ratio = analog_rate / rate
    if abs(ratio - round(ratio)) > 1e-9 or round(ratio) < 1:
        raise DataError(f"the analog rate {analog_rate} Hz is not a whole multiple of the marker rate {rate} Hz",
                        file=path)
    ratio = int(round(ratio))
    c3d = ezc3d.c3d()
    P = c3d["parameters"]
    P["POINT"]["RATE"]["value"] = np.array([rate])
    P["POINT"]["LABELS"]["value"] = tuple(markers.names)
    P["POINT"]["UNITS"]["value"] = ("mm",)
    points = np.ones((4, len(markers.names), n))
    xyz = np.transpose(markers.positions, (2, 1, 0)) * 1000.0
    points[:3] = np.nan_to_num(xyz, nan=0.0)
    c3d["data"]["points"] = points
    residuals = np.where(np.isnan(xyz).any(axis=0), -1.0, 0.0)[None, :, :]
    c3d["data"]["meta_points"]["residuals"] = residuals
    channels, labels, descriptions, units = [], [], [], []
    for k, plate in enumerate(plates):
        data = plate.channels()
        if len(data) != n * ratio:
            raise DataError(f"plate {plate.name}: {len(data)} samples, expected {n * ratio}", file=path)
        for j, (axis, unit) in enumerate(zip(("Fx", "Fy", "Fz", "Mx", "My", "Mz"), ("N",) * 3 + ("Nmm",) * 3)):
            channels.append(data[:, j])
            labels.append(f"{axis}{k + 1}")
            descriptions.append(f"Force plate {k + 1} ({plate.name}) {axis}")
            units.append(unit)
    for a in trial.analogs:
        if len(a.data) != n * ratio:
            raise DataError(f"analog channel {a.name}: {len(a.data)} samples, expected {n * ratio}", file=path)
        channels.append(np.asarray(a.data, float))
        labels.append(a.name)
        descriptions.append(a.description or a.name)
        units.append(a.units)
    if channels:
        P["ANALOG"]["RATE"]["value"] = np.array([analog_rate])
        P["ANALOG"]["LABELS"]["value"] = tuple(labels)
        P["ANALOG"]["DESCRIPTIONS"]["value"] = tuple(descriptions)
        P["ANALOG"]["UNITS"]["value"] = tuple(units)
        P["ANALOG"]["SCALE"]["value"] = np.ones(len(channels))
        P["ANALOG"]["OFFSET"]["value"] = np.zeros(len(channels))
        P["ANALOG"]["GEN_SCALE"]["value"] = np.array([1.0])
        c3d["data"]["analogs"] = np.array(channels)[None, :, :]
    if plates:
        c3d.add_parameter("FORCE_PLATFORM", "USED", np.array([len(plates)], float))
        c3d.add_parameter("FORCE_PLATFORM", "TYPE", np.full(len(plates), 2.0))
        corners = np.stack([p.corners().T * 1000.0 for p in plates], axis=-1)       # (3, 4, plates) mm
        c3d.add_parameter("FORCE_PLATFORM", "CORNERS", corners)
        origins = np.array([[0.0, 0.0, -p.depth * 1000.0] for p in plates]).T      # (3, plates) mm
        c3d.add_parameter("FORCE_PLATFORM", "ORIGIN", origins)
        c3d.add_parameter("FORCE_PLATFORM", "CHANNEL", np.arange(1.0, 6 * len(plates) + 1).reshape(len(plates), 6).T)
        c3d.add_parameter("FORCE_PLATFORM", "ZERO", np.array([1.0, 0.0]))
    for e in trial.events:
        c3d.add_event(time=[0, float(e.time)], context=e.context, label=e.label)
    if description:
        c3d.add_parameter("SUBJECTS", "DESCRIPTION", (description,))
    for key, value in trial.subject.items():
        c3d.add_parameter("SUBJECTS", str(key).upper(), (str(value),))
    try:
        with atomic_path(path) as tmp:
            c3d.write(str(tmp))
    except (RuntimeError, ValueError, TypeError) as exc:
        raise DataError(f"ezc3d could not write it ({exc})", file=path) from None
