"""The seed's experiments as built-in scenes (section VI), on the default athlete (``engine.demo.athlete``).

The seed's Figs. 2-3 are not in its text, so the devices' shapes are ours, sized like the seed's (20k vertices on
the lift, 4k on the sling, 14k on the skin) and with Table I's parameters:

* ``robotic-lift-flat`` / ``robotic-lift-7deg``: the athlete lies on his back on the lift's support board (from
  the head to the feet); the lift raises the board 0.3 m and tilts it ``TILT`` = 25 degrees head-up (one translation
  and one rotation, section IV). The board's surface is flat on its link, or inclined 7 degrees against the tilt.
  The outcome is whether the body is still on the board at the end: with Coulomb's cone (``skin.contact``) the body
  slides when the slope's tangent exceeds mu = 0.4, i.e. beyond 21.8 degrees: the flat support (25) loses it, the
  inclined one (18) holds it.
* ``sling-lift``: the athlete, skinned in the A-pose (``skin.rest_pose``: arms and legs apart) and lying in it on a
  bed, on the seed's one sling sheet (a mass-spring sheet of 4k vertices, eqs. 4-5): a full-body sling from above the
  shoulders to ``SLING_BEHIND_KNEE`` behind the knees, the arms outside it, held at its four corners by the hooks'
  strap loops on a spreader bar that rises 0.6 m; the sling lifts the body off the bed and carries it (contact as
  stiff as the sheet, Table I, implicit in the sheet's step and in the body's linearly implicit step); the outcome is
  the pressure on the skin (Fig. 5) as a tactile sensor between skin and sling reads it over the hang. The sheet
  starts on the bed, which holds it up (a rigid device under a sheet is a contact of the sheet's implicit step too)
  until it rises.
* ``back-pressure``: the athlete lies on a flat rigid bed; the outcome is the pressure map on the back.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from engine.algorithms import forward_kinematics, frame_placement, neutral
from engine.data import Data
from engine.errors import ModelError, SettingsError
from engine.spatial import SE3, matrix_to_quat

from .contact import FRICTION, ContactParameters
from .device import LiftMotion, RigidDevice
from .mesh import TriangleMesh, grid_sheet
from .rest_pose import a_pose
from .scene import Scene
from .sheet import MassSpringSheet, PinRegion, patch_axes
from .skinning import Skin
from .socket_site import skinned_bodies
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
BACK_ABOVE_SHOULDER = 0.08  # m: the sling's head end beyond the shoulders' centres (over the shoulders' flesh)
ARM_CLEARANCE = 0.02       # m: the sling's sides stay this far inside the arms' skin (the arms outside it)
BACK_FLANK = 0.06          # m: its sides beyond the trunk's widest skin (up the flanks)
SLING_BEHIND_KNEE = 0.05   # m from the knees' centres to the sling's foot edge, along the body: where a patient
                           # sling's leg section ends ("the front of the sling legs should be about 2 inches behind the
                           # knee", Mackworth's Hazel sling fitting instructions); a full-body sling supports "from the
                           # shoulders to the knees" (patient lift sling guides: the hourglass and full-body slings,
                           # four-point hung), and the seed models its sling as one sheet
HOOK_LOOP = 0.05           # m: the sling is held at each corner over this much of both its edges, by the strap
                           # loop a hook takes (webbing some 2.5-5 cm wide sewn across the sheet's corner; assumed,
                           # not measured): a patch, not a vertex, so that its sag converges (docs/mass-spring-sheet.md);
                           # the foot corners' loops lie under the thighs' outer flanks, and 8 cm ones lift a thigh off
                           # the sheet and drop the body
SLING_RISE = 0.6           # m: the bar's rise: the body's limp shanks hang clear of the bed (0.45 m long)
KNEE_SITE = 0.1            # m: a knee's site, the leg's skin this close to its centre along the thigh (condyles, plateau)
SLING_LIMIT = 300.0        # N m/rad end-range springs in the sling: its rising sides push the arms towards the
                           # shoulder's lock at 90 degrees adduction, which the default 50 does not stop


@lru_cache(maxsize=1)
def athlete():
    """The default athlete without muscles (the scenes' model)."""
    from engine.demo.athlete import build_athlete
    return build_athlete(with_muscles=False)


@lru_cache(maxsize=4)
def athlete_and_skin(spacing: float = SKIN_SPACING, rest: str = "neutral"):
    """The default athlete (``athlete``) and its skin over ``skinned_bodies``, generated in the neutral pose or,
    ``rest="a-pose"``, in the A-pose (``skin.rest_pose``: the arms and legs apart, so that a device passes between)."""
    if rest not in ("neutral", "a-pose"):
        raise SettingsError(f"no rest pose {rest!r}; the rest poses are neutral, a-pose")
    model = athlete()
    q_rest = a_pose(model) if rest == "a-pose" else None
    return model, Skin.generate(model, q_rest=q_rest, spacing=spacing, bodies=skinned_bodies(model))


def _check_athletes_skin(model, skin: Skin) -> None:
    """Raise ModelError unless ``skin`` is one of the athlete's: it covers exactly the athlete's ``skinned_bodies``
    (a body it lacks, or one the athlete lacks, would leave the scene's sling and watched regions without their
    skin), in the model's order (as ``Skin.generate`` makes them), and its rest pose has the athlete's coordinates (a
    skin of another model with the same body names has not)."""
    wanted = skinned_bodies(model)
    missing = [b for b in wanted if b not in skin.bodies]
    foreign = [b for b in skin.bodies if b not in wanted]
    where = "sling_lift(skin=...)"
    if missing or foreign:
        problems = ([f"lacks the athlete's {', '.join(map(repr, missing))}"] if missing else []) + \
                   ([f"has {', '.join(map(repr, foreign))}, which the athlete has no skin on"] if foreign else [])
        raise ModelError(f"the skin {' and '.join(problems)}; a sling lift's skin covers the athlete's bodies "
                         f"{', '.join(wanted)}", where)
    if list(skin.bodies) != wanted:
        raise ModelError(f"the skin's bodies are in the order {', '.join(skin.bodies)}, not the athlete's "
                         f"{', '.join(wanted)}", where)
    if len(skin.q_rest) != model.nq:
        raise ModelError(f"the skin's rest pose has {len(skin.q_rest)} coordinates, the athlete {model.nq}: it is "
                         f"another model's skin", where)


def _skin_spacing(skin: Skin, spacing: float | None) -> float:
    """The spacing (m) the contact's reach follows for a sling lift on ``skin``: the skin's own (``Skin.spacing``);
    ``spacing`` must then be None or the same, and is needed for a skin whose spacing is not known. SettingsError
    otherwise: a reach sized for a finer skin lets the devices' vertices pass between the skin's."""
    if skin.spacing is None:
        if spacing is None:
            raise SettingsError("the skin's spacing is not known (a skin bound from a file): give sling_lift its "
                                "spacing=, the distance between its vertices (m), which sizes the contact's reach")
        return float(spacing)
    if spacing is not None and not np.isclose(spacing, skin.spacing, rtol=1e-9, atol=0.0):
        raise SettingsError(f"spacing={spacing!r} m contradicts the skin given, generated every {skin.spacing!r} m: "
                            f"the contact's reach follows the skin's spacing (leave spacing out)")
    return float(skin.spacing)


def _rotation_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def supine(model, skin, height: float = 0.0, gap: float = 0.002, incline: float = 0.0, centre=(0.0, 0.0, 0.0),
           pose=None):
    """``pose`` (default: the neutral pose) turned onto the back (head towards -x, face up) on a plane through
    ``centre`` tilted by ``incline`` (rad, about z: the head end down for a positive angle), the nearest skin point
    ``gap`` m above it (``height`` m raises the plane)."""
    q = neutral(model) if pose is None else np.array(pose, float)
    centre = np.asarray(centre, float) + np.array([0.0, height, 0.0])
    Rz = _rotation_z(incline)
    q[3:7] = matrix_to_quat(Rz @ _rotation_z(np.pi / 2))
    q[:3] = centre + Rz @ (q[:3] - centre)
    x = skin.vertices(model, Data(model), q)
    normal = Rz[:, 1]
    q[:3] += (gap - ((x - centre) @ normal).min()) * normal
    return q


def contact_for(spacing: float, stiffness: float = ContactParameters.stiffness,
                eps: float = ContactParameters.eps, friction: float = FRICTION) -> ContactParameters:
    """The contact parameters for a skin sampled every ``spacing`` m: the reach 1.5 skin spacings (a device vertex
    under the skin must find a skin vertex however coarse the skin; the penetrations are millimetres), ``stiffness``
    k_contact N/m per device vertex (Table I's 1000 by default), ``eps`` eq. 7's velocity threshold (m/s), ``friction``
    Coulomb's mu."""
    return ContactParameters(reach=1.5 * spacing, stiffness=stiffness, eps=eps, friction=friction)


def _body_landmarks(model, skin, q) -> dict:
    """Skin vertex groups watched by the outcomes (the seed's Fig. 5 regions), from the body's landmarks at ``q``:
    ``knees`` each leg's skin (main bone its femur or tibia) within ``KNEE_SITE`` of its knee's centre along the
    thigh's axis (a band across the leg from the distal thigh to below the tibial plateau); ``hip`` the pelvis's skin
    (its main bone: the buttocks and sacrum); ``upper back`` the torso's skin on the shoulders' side of the midpoint
    between the shoulder and hip centres (the thoracic half of the trunk); ``arms`` the arms' skin (main bone)."""
    main = skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]
    names = {b: i for i, b in enumerate(skin.bodies)}
    data = Data(model)
    x = skin.vertices(model, data, q)                    # forward kinematics at q, for the joint centres below
    centre = {b: frame_placement(model, data, b).p for b in ("humerus_l", "humerus_r", "femur_l", "femur_r",
                                                              "tibia_l", "tibia_r")}
    knees = np.zeros(skin.n_vertices, bool)
    for side in "lr":
        knee, hip = centre[f"tibia_{side}"], centre[f"femur_{side}"]
        axis = (knee - hip) / np.linalg.norm(knee - hip)
        leg = np.isin(main, [names[f"femur_{side}"], names[f"tibia_{side}"]])
        knees |= leg & (np.abs((x - knee) @ axis) < KNEE_SITE)
    shoulders = (centre["humerus_l"] + centre["humerus_r"]) / 2
    hips = (centre["femur_l"] + centre["femur_r"]) / 2
    axis = (shoulders - hips) / np.linalg.norm(shoulders - hips)
    thoracic = (x - (shoulders + hips) / 2) @ axis > 0
    return {"upper back": (main == names["torso"]) & thoracic, "hip": main == names["pelvis"], "knees": knees,
            "arms": np.isin(main, [names[f"{b}_{s}"] for b in ("humerus", "forearm", "hand") for s in "lr"
                                   if f"{b}_{s}" in names])}


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


def _strip(x0: float, x1: float, z0: float, z1: float, spacing: float, y: float = 0.0):
    """A flat rectangle ``[x0, x1] x [z0, z1]`` (m) at height ``y``, normals up, vertices about ``spacing`` m apart:
    its mesh and its vertices along x and along z (``grid_sheet``'s order, z fastest)."""
    nx, nz = (max(int(round((b - a) / spacing)) + 1, 2) for a, b in ((x0, x1), (z0, z1)))
    mesh = grid_sheet(x1 - x0, z1 - z0, nx, nz)
    return TriangleMesh(mesh.vertices + np.array([(x0 + x1) / 2, y, (z0 + z1) / 2]), mesh.triangles), nx, nz


def _inside_the_arms(mesh: TriangleMesh, arms: np.ndarray, spacing: float) -> TriangleMesh:
    """``mesh`` (a sheet centred on z = 0) narrowed where the arms lie: each vertex's z scaled so that the sheet's
    side stays ``ARM_CLEARANCE`` inside the arms' skin ``arms`` (k, 3) within ``spacing`` of its x, on either side
    (the arms outside the sling)."""
    v = mesh.vertices.copy()
    half = np.abs(v[:, 2]).max()
    for x in np.unique(v[:, 0]):
        row = v[:, 0] == x
        near = arms[np.abs(arms[:, 0] - x) <= spacing]
        limit = half
        for sign in (1.0, -1.0):
            side = near[sign * near[:, 2] > 0]
            if len(side):
                limit = min(limit, np.abs(side[:, 2]).min() - ARM_CLEARANCE)
        v[row, 2] *= limit / half
    return TriangleMesh(v, mesh.triangles)


def _hook_loops(mesh: TriangleMesh, corners, size: float) -> tuple[PinRegion, ...]:
    """Patches of ``mesh`` (a flat sheet in the x-z plane) held by its hooks' strap loops: at each of its ``corners``
    (vertex indices) the box reaching ``size`` m from that vertex into the sheet along x and along z (the sheet's
    own corners, which ``_inside_the_arms`` may have moved inside the rest mesh's bounding box). ModelError unless
    ``0 < size <`` half the sheet's shorter side (``sheet.patch_axes``)."""
    patch_axes(mesh, size, "hook loop", "sling_lift(hook_loop=...)")
    v = mesh.vertices
    centre = v.mean(axis=0)
    loops = []
    for c in corners:
        p = v[c]
        inward = np.sign(centre - p)
        far = p + size * inward
        lo, hi = np.minimum(p, far), np.maximum(p, far)
        lo[1], hi[1] = p[1] - size, p[1] + size                       # the sheet's thickness, whole
        loops.append(PinRegion(tuple(lo), tuple(hi)))
    return tuple(loops)


def sling_lift(spacing: float | None = None, sheet_vertices: int = 4000, bed_spacing: float = 0.015,
               hook_loop: float = HOOK_LOOP, skin: Skin | None = None, behind_knee: float = SLING_BEHIND_KNEE,
               stiffness: float = SLING_STIFFNESS, friction: float = FRICTION, rise: float = SLING_RISE) -> Scene:
    """The seed's sling lift (section VI-B, Fig. 5) on a skin with separate limbs (generated in the A-pose, lying in
    it): one sling sheet (the seed's, ``sheet_vertices`` of them, its 4k, Table I's 10 kg) from ``BACK_ABOVE_SHOULDER``
    beyond the shoulders to ``SLING_BEHIND_KNEE`` behind the knees, as wide as the trunk and its flanks, the arms
    outside it, hung by its four corners (each held over ``hook_loop`` m of both its edges, a hook's strap loop): a
    full-body sling (the seed does not draw its sling). Every hook rises with the spreader bar, ``SLING_RISE`` from 0.2
    to 1.7 s. The watched regions are the seed's Fig. 5 sites (``_body_landmarks``), read as its tactile sensor
    between skin and sling over the hang (``outcomes.hanging_window``, ``outcomes.sensor_window_summary``): the knees
    read highest, the upper back and the hip lower (docs/mass-spring-sheet.md). The A-pose skin holds together down
    to 5 cm spacing (its forearms come apart beyond). ``skin``: the athlete's skin to use instead
    (over ``skinned_bodies``, else ModelError; e.g. one generated in another rest pose,
    ``benchmarks/sling_skin_levers.py``; then only the model is built, not the A-pose skin); the body lies in the A-pose
    whatever the skin's rest pose. ``spacing`` (m, default ``SKIN_SPACING``) samples the A-pose skin and sizes the
    contact's reach (``contact_for``); with a skin given the reach follows the skin's own spacing, and a contradictory
    ``spacing`` is refused (``_skin_spacing``). The scene's assumed values, for measuring how much its outcome depends
    on them (``benchmarks/sling_pressure_order.py``): ``behind_knee`` (m, ``SLING_BEHIND_KNEE``), ``stiffness`` (N/m,
    the sheet's springs and the contact's, kept equal as Table I keeps them; ``SLING_STIFFNESS``), ``friction`` (mu
    between skin and sling, ``skin.contact.FRICTION``) and ``rise`` (m, the bar's, ``SLING_RISE``)."""
    if skin is None:
        spacing = SKIN_SPACING if spacing is None else spacing
        model, skin = athlete_and_skin(spacing, rest="a-pose")
    else:
        model = athlete()
        _check_athletes_skin(model, skin)
        spacing = _skin_spacing(skin, spacing)
    q = supine(model, skin, gap=0.004, pose=a_pose(model))
    data = Data(model)
    forward_kinematics(model, data, q)
    shoulder = min(frame_placement(model, data, f"humerus_{s}").p[0] for s in "lr")     # the head is towards -x
    knee = min(frame_placement(model, data, f"tibia_{s}").p[0] for s in "lr")
    x = skin.vertices(model, data, q)
    trunk = x[np.isin(skin.bone[:, 0], [skin.bodies.index(b) for b in ("torso", "pelvis")])]
    half = np.abs(trunk[:, 2]).max() + BACK_FLANK
    arms = x[np.isin(skin.bone[:, 0], [skin.bodies.index(f"{b}_{s}") for b in ("humerus", "forearm", "hand")
                                           for s in "lr"])]
    x0, x1 = shoulder - BACK_ABOVE_SHOULDER, knee - behind_knee
    h = float(np.sqrt((x1 - x0) * 2 * half / sheet_vertices))
    mesh, nx, nz = _strip(x0, x1, -half, half, h)
    mesh = _inside_the_arms(mesh, arms, h)
    sling = MassSpringSheet("sling", mesh, mass=10.0, regions=_hook_loops(mesh, (0, nz - 1, nz * (nx - 1), nx * nz - 1),
                                                                          hook_loop),
                            stiffness=stiffness, motion=LiftMotion(height=rise, start=0.2, end=1.7))
    # the bed's vertices closer than the contact's reach, so that the body lying on it cannot pass between them
    # the sling lies on the bed, BED_GAP below it
    bed = RigidDevice("bed", grid_sheet(2.2, 1.0, int(round(2.2 / bed_spacing)) + 1, int(round(1.0 / bed_spacing)) + 1),
                      placement0=SE3(np.eye(3), np.array([0.0, -BED_GAP, 0.0])))
    return Scene("sling-lift", model, skin, q, table_one(model, q, limit=SLING_LIMIT, margin=SLING_MARGIN),
                 devices=(bed,), sheets=(sling,), contact=contact_for(spacing, stiffness, SLING_EPS, friction),
                 dt=SLING_DT, integrator="linearly-implicit-euler", duration=3.5,
                 description="sling lift from a bed: a full-body sling sheet hangs from a rising bar",
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
