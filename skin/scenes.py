"""The seed's experiments as built-in scenes (section VI), on the default athlete (``engine.demo.athlete``).

The seed's Figs. 2-3 are not in its text, so the devices' shapes are ours, sized like the seed's (20k vertices on
the lift, 4k on the sling, 14k on the skin) and with Table I's parameters:

* ``robotic-lift-flat`` / ``robotic-lift-7deg``: the athlete lies on his back on the lift's support board (from
  the head to the feet); the lift raises the board 0.3 m and tilts it ``TILT`` = 25 degrees head-up (one translation
  and one rotation, section IV). The board's surface is flat on its link, or inclined 7 degrees against the tilt.
  The outcome is whether the body is still on the board at the end: with Coulomb's cone (``skin.contact``) the body
  slides when the slope's tangent exceeds mu = 0.4, i.e. beyond 21.8 degrees: the flat support (25) loses it, the
  inclined one (18) holds it.
* ``sling-lift``: the athlete lies on a sling sheet (a mass-spring sheet from the shoulders to the knees, on a bed)
  whose four corners hang from a spreader bar that rises 0.35 m; the sling lifts the body off the bed and carries it
  (contact as stiff as the sheet, Table I, implicit in the sheet's step and in the body's linearly implicit step);
  the outcome is the pressure on the skin (Fig. 5). The sheet starts on the bed, which holds it up (a rigid device
  under a sheet is a contact of the sheet's implicit step too) until it rises.
* ``back-pressure``: the athlete lies on a flat rigid bed; the outcome is the pressure map on the back.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from engine.algorithms import neutral
from engine.data import Data
from engine.errors import SettingsError
from engine.spatial import SE3, matrix_to_quat

from .contact import ContactParameters
from .device import LiftMotion, RigidDevice
from .mesh import grid_sheet
from .scene import Scene
from .sheet import MassSpringSheet
from .skinning import Skin
from .stiffness import table_one

SKIN_SPACING = 0.012       # m: ~14k vertices on the default athlete (the seed's skin)
TILT = 25.0                # degrees, the lift's head-up tilt
SLING_STIFFNESS = 2e4      # N/m per spring: "the sling sheet is not stretchable" (the seed); Table I's 1000 let the
                           # loaded sling stretch by tens of centimetres and drop the body through
SLING_EPS = 0.1            # m/s, Table I's eq. 7 threshold: below it friction is viscous, mu f_n / eps N s/m; the
                           # lifts' 0.01 makes that damping, explicit on the body, too stiff for the light forearm
                           # the rising sling presses against the trunk (the run diverged at the shoulder)
SLING_MARGIN = 0.6         # rad: the sling's rising sides press the arms across the chest, and the seed-size skin's
                           # many contacts swing them fast enough to pass 0.2 rad and reach the shoulder's lock
SLING_DT = 2e-3           # s: the body's step is linearly implicit in its contacts and joint springs (skin.simulation)
BED_GAP = 0.002            # m between the sling and the bed under it at the start
SLING_LIMIT = 300.0        # N m/rad end-range springs in the sling: its rising sides push the arms towards the
                           # shoulder's lock at 90 degrees adduction, which the default 50 does not stop


@lru_cache(maxsize=4)
def athlete_and_skin(spacing: float = SKIN_SPACING):
    """The default athlete (no muscles) and its skin (the prosthesis is not skin)."""
    from engine.demo.athlete import build_athlete
    model = build_athlete(with_muscles=False)
    return model, Skin.generate(model, spacing=spacing, bodies=[b.name for b in model.bodies if b.name != "socket_r"])


def _rotation_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def supine(model, skin, height: float = 0.0, gap: float = 0.002, incline: float = 0.0, centre=(0.0, 0.0, 0.0)):
    """The neutral pose turned onto the back (head towards -x, face up) on a plane through ``centre`` tilted by
    ``incline`` (rad, about z: the head end down for a positive angle), the nearest skin point ``gap`` m above it
    (``height`` m raises the plane)."""
    q = neutral(model)
    centre = np.asarray(centre, float) + np.array([0.0, height, 0.0])
    Rz = _rotation_z(incline)
    q[3:7] = matrix_to_quat(Rz @ _rotation_z(np.pi / 2))
    q[:3] = centre + Rz @ (q[:3] - centre)
    x = skin.vertices(model, Data(model), q)
    normal = Rz[:, 1]
    q[:3] += (gap - ((x - centre) @ normal).min()) * normal
    return q


def contact_for(spacing: float, stiffness: float = ContactParameters.stiffness,
                eps: float = ContactParameters.eps) -> ContactParameters:
    """The contact parameters for a skin sampled every ``spacing`` m: the reach 1.5 skin spacings (a device vertex
    under the skin must find a skin vertex however coarse the skin; the penetrations are millimetres), ``stiffness``
    k_contact N/m per device vertex (Table I's 1000 by default), ``eps`` eq. 7's velocity threshold (m/s)."""
    return ContactParameters(reach=1.5 * spacing, stiffness=stiffness, eps=eps)


def _body_landmarks(model, skin, q) -> dict:
    """Skin vertex groups watched by the outcomes, by their main bone (at ``q``)."""
    main = skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]
    names = {b: i for i, b in enumerate(skin.bodies)}
    x = skin.vertices(model, Data(model), q)
    knee_y = {}
    groups = {"upper back": main == names["torso"], "hip": main == names["pelvis"]}
    for side in ("l", "r"):
        tib, fem = names[f"tibia_{side}"], names[f"femur_{side}"]
        near_knee = np.zeros(skin.n_vertices, bool)
        for i in np.flatnonzero((main == tib) | (main == fem)):
            near_knee[i] = skin.weight[i][skin.bone[i] == tib].sum() > 0.2 and skin.weight[i][skin.bone[i] == fem].sum() > 0.2
        knee_y[side] = near_knee
    groups["knees"] = knee_y["l"] | knee_y["r"]
    upper = x[:, 0] < np.median(x[groups["upper back"], 0])          # the shoulder half of the torso
    groups["upper back"] &= upper
    groups["arms"] = np.isin(main, [names[f"{b}_{s}"] for b in ("humerus", "forearm", "hand") for s in "lr"
                                    if f"{b}_{s}" in names])
    return groups


def robotic_lift(incline_deg: float, spacing: float = SKIN_SPACING, board_vertices: int = 20000) -> Scene:
    model, skin = athlete_and_skin(spacing)
    length, width = 1.9, 0.8
    incline = np.radians(incline_deg)
    centre = np.array([0.08, 0.0, 0.0])             # from the head to the feet
    q = supine(model, skin, incline=incline, centre=centre)
    nx = int(round(np.sqrt(board_vertices * length / width)))
    nz = max(int(round(board_vertices / nx)), 2)
    board = RigidDevice("support", grid_sheet(length, width, nx, nz),
                        LiftMotion(height=0.3, angle=-np.radians(TILT), pivot=tuple(centre), start=0.3, end=1.3),
                        SE3(_rotation_z(incline), centre))
    return Scene(f"robotic-lift-{'flat' if incline_deg == 0 else f'{incline_deg:g}deg'}", model, skin, q,
                 table_one(model, q), devices=(board,), contact=contact_for(spacing), dt=2e-3, duration=3.5,
                 description=f"robotic lift, support inclined {incline_deg:g} degrees against the lift's {TILT:g} "
                             f"degree tilt",
                 watch={"board": np.array([centre[0] - length / 2, centre[0] + length / 2])})


def sling_lift(spacing: float = SKIN_SPACING, sheet_vertices: int = 4000, bed_spacing: float = 0.015) -> Scene:
    model, skin = athlete_and_skin(spacing)
    q = supine(model, skin, gap=0.004)
    length, width = 1.0, 0.7
    nx = int(round(np.sqrt(sheet_vertices * length / width)))
    nz = max(int(round(sheet_vertices / nx)), 2)
    mesh = grid_sheet(length, width, nx, nz)
    mesh = type(mesh)(mesh.vertices + np.array([0.05, 0.0, 0.0]), mesh.triangles)   # shoulders to knees
    corners = (0, nz - 1, nz * (nx - 1), nx * nz - 1)
    sheet = MassSpringSheet("sling", mesh, pinned=corners, stiffness=SLING_STIFFNESS,
                            motion=LiftMotion(height=0.35, start=0.2, end=1.7))
    # the bed's vertices closer than the contact's reach, so that the body lying on it cannot pass between them
    # the sling lies on the bed, BED_GAP below it
    bed = RigidDevice("bed", grid_sheet(2.2, 1.0, int(round(2.2 / bed_spacing)) + 1, int(round(1.0 / bed_spacing)) + 1),
                      placement0=SE3(np.eye(3), np.array([0.0, -BED_GAP, 0.0])))
    return Scene("sling-lift", model, skin, q, table_one(model, q, limit=SLING_LIMIT, margin=SLING_MARGIN), devices=(bed,), sheets=(sheet,),
                 contact=contact_for(spacing, SLING_STIFFNESS, SLING_EPS), dt=SLING_DT,
                 integrator="linearly-implicit-euler", duration=3.5, description="sling lift from a bed: the sling's corners hang from a rising bar",
                 watch=_body_landmarks(model, skin, q))


def back_pressure(spacing: float = SKIN_SPACING) -> Scene:
    model, skin = athlete_and_skin(spacing)
    q = supine(model, skin)
    bed = RigidDevice("bed", grid_sheet(2.2, 0.9, 221, 91))
    return Scene("back-pressure", model, skin, q, table_one(model, q), devices=(bed,), contact=contact_for(spacing),
                 dt=1e-3, duration=1.0,
                 description="lying on the back on a flat rigid bed", watch=_body_landmarks(model, skin, q))


SCENES = {"robotic-lift-flat": lambda **k: robotic_lift(0.0, **k),
          "robotic-lift-7deg": lambda **k: robotic_lift(7.0, **k),
          "sling-lift": sling_lift,
          "back-pressure": back_pressure}


def scene(name: str, **options) -> Scene:
    """A built-in scene by name (``SCENES``); ``options`` are the scene builder's (e.g. ``spacing``)."""
    if name not in SCENES:
        raise SettingsError(f"no scene named {name!r}; the scenes are {', '.join(SCENES)}")
    return SCENES[name](**options)
