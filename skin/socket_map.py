"""The socket's pressure map over an analysed trial, for showing it (the application's 3D view, the clinical report):
the stump's skin per frame (world frame, at the poses shown), its pressure (Pa) and each frame's figures (peak, mean
over the loaded area, loaded area, regions above the threshold), computed by ``skin.socket`` as one step generator
(``engine.progress``) for a worker thread. ``skin.socket_site`` says whether a model has a socket at all and why a
result's map cannot be computed."""
from __future__ import annotations

import hashlib
import pickle
import threading
from dataclasses import dataclass

import numpy as np

from engine.data import Data
from engine.errors import SettingsError
from engine.progress import Progress, forward_progress

from .skinning import Skin
from .socket import ROTATION_LIMIT, STRAIN_LIMIT, Socket, pressure_steps
from .socket_defaults import LINER_MODULUS, LINER_THICKNESS, THRESHOLD, TISSUE_MODULUS
from .socket_load import socket_loads
from .socket_site import residual_limb, skinned_bodies, socket_site, unavailable

SPACING = 0.012
"""m: the skin's vertex spacing (``hybrid socket-pressure``'s default)."""
SCALE = 250e3
"""Pa: the top of the pressure colour scale wherever the map is drawn, fixed so that maps compare: the upper end of the
published transtibial stance peaks, 50-250 kPa (Mak, Zhang and Boone 2001; docs/socket-pressure.md)."""
LOADED = 200.0
"""N: a frame whose socket force exceeds this is loaded (the stances' frames, as docs/socket-pressure.md counts)."""


def loaded(load) -> np.ndarray:
    """(T,) bool: the frames whose socket force (``load`` (T, 6) ``[moment; force]``, N m, N) exceeds :data:`LOADED`."""
    return np.linalg.norm(np.asarray(load, float)[:, 3:], axis=1) > LOADED


KEPT = 4
"""The sockets :func:`socket_for` keeps (a skin of 13k vertices, about 2 MB, each)."""
_SOCKETS: dict[str, Socket] = {}
_LOCK = threading.Lock()


def socket_for(model, weld: str, limb: str, spacing: float = SPACING, thickness: float = LINER_THICKNESS,
               modulus: float = LINER_MODULUS, friction: float | None = None, tissue: float = 0.0,
               tissue_modulus: float = TISSUE_MODULUS, fit: float = 0.0) -> Socket:
    """The socket moulded on ``limb``'s skin (the model's skin every ``spacing`` m, the socket's own body, the child of
    ``weld``, left out: the prosthesis is not skin), with its liner (``thickness`` m, ``modulus`` Pa, bonded to the skin
    or slipping on it with Coulomb's ``friction``) on ``tissue`` m of soft tissue of ``tissue_modulus`` Pa, pre-compressed
    to the fit pressure ``fit`` Pa (``skin.socket.Socket``). Kept for the process by the content of the model and the
    arguments (the last ``KEPT``): the report's trials of one model and the application's map share one skin."""
    key = hashlib.sha256(pickle.dumps((model, weld, limb, spacing, thickness, modulus, friction, tissue,
                                       tissue_modulus, fit), protocol=5)).hexdigest()
    with _LOCK:
        if key in _SOCKETS:
            return _SOCKETS[key]
    skin = Skin.generate(model, spacing=spacing, bodies=skinned_bodies(model, weld))
    socket = Socket.from_stump(model, skin, limb, thickness, modulus, friction=friction, tissue=tissue,
                               tissue_modulus=tissue_modulus, fit=fit)
    with _LOCK:
        _SOCKETS[key] = socket
        while len(_SOCKETS) > KEPT:
            del _SOCKETS[next(iter(_SOCKETS))]
    return socket


@dataclass(frozen=True)
class SocketMap:
    """The map over the trial's frames ``time`` (T,) s: the stump's skin vertices ``vertices`` (k,) (indices into the
    skin) and its ``triangles`` (m, 3) (indices into ``vertices``), their ``positions`` (T, k, 3) m in the world frame
    at the poses shown (None when not asked for), the ``pressure`` (T, k) Pa on them, and per frame the ``peak`` and
    ``mean`` pressure (Pa, the mean over the loaded area), the loaded ``area`` (m^2), the number of ``regions`` above
    ``threshold`` Pa and their ``hot_area`` (m^2), the socket's ``load`` (T, 6) on the limb (limb axes, N m about its
    origin, N) and the ``force`` (T, 3) N the map carries (the load's when converged); ``computed`` (T,) bool: the
    frames whose pressure was computed (the others are zero); ``converged`` (T,) bool: False at the frames whose
    Newton solve did not carry the load to tolerance (``skin.socket.TOLERANCE``); ``in_range`` (T,) bool: False at the
    frames whose solution leaves the model's small displacements (``SocketPressure.in_range``), judged on the liner's
    largest ``compression`` (T,) m, the soft tissue's ``tissue_compression`` (T,) m and the socket's ``rotation`` (T,)
    rad. ``limb``: the residual limb's body; ``rest`` (k, 3) m: the stump's vertices at the skin's rest pose in the
    limb's frame; the liner's ``thickness`` m, ``modulus`` Pa and ``friction`` (None: bonded to the skin), the soft
    tissue's ``tissue`` m (0: none) and ``tissue_modulus`` Pa, the nominal ``fit`` pressure Pa (``skin.socket.Socket``'s)
    and, with a fit, the donned socket at zero load (``unloaded``: ``Socket.unloaded``'s, the fit's push through the
    open brim and the pressures it leaves; None without a fit)."""

    limb: str
    time: np.ndarray
    vertices: np.ndarray
    triangles: np.ndarray
    positions: np.ndarray | None
    pressure: np.ndarray
    peak: np.ndarray
    mean: np.ndarray
    area: np.ndarray
    regions: np.ndarray
    hot_area: np.ndarray
    load: np.ndarray
    force: np.ndarray
    computed: np.ndarray
    converged: np.ndarray
    in_range: np.ndarray
    compression: np.ndarray
    tissue_compression: np.ndarray
    rotation: np.ndarray
    rest: np.ndarray
    thickness: float
    modulus: float
    friction: float | None
    tissue: float
    tissue_modulus: float
    fit: float
    threshold: float = THRESHOLD
    unloaded: dict | None = None


def liner_words(socket) -> str:
    """The liner of ``socket`` (a ``skin.socket.Socket`` or a :class:`SocketMap`: their ``thickness``, ``modulus``,
    ``friction``, ``tissue``, ``tissue_modulus`` and ``fit``) in words, as ``hybrid socket-pressure``, the application
    and the report name it."""
    how = "bonded to the skin" if socket.friction is None else f"slipping on the skin at mu {socket.friction:g}"
    under = (f"on {socket.tissue * 1e3:g} mm of soft tissue at {socket.tissue_modulus * 1e-3:g} kPa" if socket.tissue > 0
             else "on a rigid limb")
    fit = f", pre-compressed to a nominal {socket.fit * 1e-3:g} kPa" if socket.fit > 0 else ""
    return f"liner {socket.thickness * 1e3:g} mm at {socket.modulus * 1e-6:g} MPa {how} {under}{fit}"


def fit_words(m) -> str | None:
    """What the fit of the map ``m`` (a SocketMap) does at zero load, in words (None without a fit): the nominal fit
    pressure pushes the limb out through the open brim, the liner's shear holds it, and the pressures are not the
    nominal one (docs/socket-pressure.md)."""
    u = m.unloaded
    if u is None:
        return None
    return (f"the fit (nominal {m.fit * 1e-3:g} kPa) pushes the limb out of the socket through its open brim with "
            f"{u['push']:.0f} N along the limb at zero load ({m.fit * 1e-3:g} kPa over the opening's "
            f"{u['opening'] * 1e4:.0f} cm^2); the limb settles {u['settled'] * 1e3:.2f} mm out, the liner's shear "
            f"holding {u['held']:.0f} N, and the zero-load pressures are {u['low'] * 1e-3:.1f}-{u['high'] * 1e-3:.1f} "
            f"kPa, not the nominal {m.fit * 1e-3:g}")


def frames_in_words(time, flagged) -> str:
    """The frames of ``time`` (T,) s where ``flagged`` (T,) bool, in words: how many and when (the first five, s)."""
    t = np.asarray(time)[np.asarray(flagged, bool)]
    return (f"{len(t)} frame{'' if len(t) == 1 else 's'} ({', '.join(f'{x:.3f}' for x in t[:5])}"
            f"{', ...' if len(t) > 5 else ''} s)")


def flag_notes(m) -> list[str]:
    """What the map ``m`` (a SocketMap) flags, in words naming the frames: those whose solve did not carry the load to
    tolerance, and those whose solution leaves the model's small displacements. The CLI, the report and the
    application's status bar say these."""
    notes = []
    if not m.converged.all():
        notes.append(f"the liner does not carry the socket's load to tolerance at {frames_in_words(m.time, ~m.converged)}"
                     "; their pressures are not the load's")
    if not m.in_range.all():
        tissue = f" or the tissue's {STRAIN_LIMIT * m.tissue * 1e3:g} mm" if m.tissue > 0 else ""
        notes.append(f"the liner's solution leaves the model's small displacements (a compression beyond "
                     f"{STRAIN_LIMIT:g} of a layer's thickness, the strain its linear law is assumed to hold to: the "
                     f"liner's {STRAIN_LIMIT * m.thickness * 1e3:g} mm{tissue}; or a socket rotation beyond "
                     f"{ROTATION_LIMIT:g} rad) at "
                     f"{frames_in_words(m.time, ~m.in_range)}; their pressures are not valid")
    return notes


def stump_triangles(triangles, vertices) -> np.ndarray:
    """The skin's ``triangles`` whose three corners are all among ``vertices``, as indices into ``vertices``."""
    index = np.full(int(max(triangles.max(), vertices.max())) + 1, -1)
    index[vertices] = np.arange(len(vertices))
    local = index[triangles]
    return local[(local >= 0).all(axis=1)]


def socket_map_steps(result, settings, shown=None, frames=None, spacing: float = SPACING,
                     threshold: float = THRESHOLD, with_positions: bool = True, thickness: float = LINER_THICKNESS,
                     modulus: float = LINER_MODULUS, friction: float | None = None, tissue: float = 0.0,
                     tissue_modulus: float = TISSUE_MODULUS, fit: float = 0.0, site: tuple[str, str] | None = None):
    """The socket's pressure map over the analysed trial ``result`` analysed with ``settings`` (the load from its
    inverse dynamics, ``skin.socket_load``), on a skin every ``spacing`` m, through the liner (``thickness`` m,
    ``modulus`` Pa, bonded to the skin or slipping on it with Coulomb's ``friction``) on ``tissue`` m of soft tissue of
    ``tissue_modulus`` Pa, pre-compressed to the ``fit`` pressure Pa (``skin.socket.Socket``); the
    socket's weld and the residual limb ``site`` ``(weld, limb)`` (any weld, ``socket_site``; default the model's
    socket, ``residual_limb``); the stump's
    positions at the poses ``shown`` (T, nq) (default the analysed motion's; ``with_positions`` False: not skinned, for
    a caller that does not draw them); ``frames`` (indices) the frames whose pressure is computed (default all; the
    load's low-pass runs over the whole trial either way). ``hybrid socket-pressure``, the application and the report
    all compute their maps here. A step generator: yields Progress, returns :class:`SocketMap`; closing it stops
    between frames. SettingsError (:func:`unavailable`) when there is no map."""
    why = unavailable(result, settings, site)
    if why is not None:
        raise SettingsError(f"no socket pressure: {why}")
    model, motion = result.model, result.motion
    weld, limb = residual_limb(model) if site is None else socket_site(model, *site)
    shown = motion.q if shown is None else np.asarray(shown, float)
    if shown.shape != motion.q.shape:
        raise SettingsError(f"the poses shown {shown.shape} must be the analysed motion's {motion.q.shape}")
    yield Progress("socket load", 0.0, "inverse dynamics with the socket's weld opened")
    time, loads, _ = socket_loads(result, settings, weld)
    yield Progress("skin", 0.05, f"the skin every {spacing * 100:g} cm and the socket moulded on the stump")
    socket = socket_for(model, weld, limb, spacing, thickness, modulus, friction, tissue, tissue_modulus, fit)
    skin = socket.skin
    if with_positions:
        data = Data(model)
        positions = np.empty((len(time), len(socket.vertices), 3))
        for f in range(len(time)):
            if f % 20 == 0:
                yield Progress("skin", 0.1 + 0.1 * f / len(time), f"the stump's skin at frame {f + 1} of {len(time)}")
            positions[f] = skin.vertices(model, data, shown[f])[socket.vertices]
    else:
        positions = None
    series = yield from forward_progress(pressure_steps(model, socket, motion.q, loads, threshold, frames), 0.2, 1.0)
    computed = np.zeros(len(time), bool)
    computed[slice(None) if frames is None else np.asarray(frames, int)] = True
    return SocketMap(limb, time, socket.vertices, stump_triangles(skin.mesh.triangles, socket.vertices), positions,
                     series["pressure"], series["peak"], series["mean"], series["area"], series["regions"],
                     series["hot_area"], loads, series["force"], computed, series["converged"], series["in_range"],
                     series["compression"], series["tissue_compression"], series["rotation"],
                     socket.stump, socket.thickness, socket.modulus,
                     socket.friction, socket.tissue, socket.tissue_modulus, socket.fit, threshold,
                     socket.unloaded(*socket.gaps(model, skin.q_rest)) if socket.fit > 0 else None)
