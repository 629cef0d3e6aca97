"""The default model: a male athlete with a right transtibial amputation on a J-shaped running blade.

Built from published figures (the sources are written into ``model.metadata``):

* Segment masses, centres of mass and radii of gyration: de Leva (1996) (``anthropometry``),
  scaled to the subject's height (lengths) and mass (masses; inertias as mass x length^2).
* Residual limb: the right shank amputated 13 cm below the knee joint centre (seed section 3.1) at
  the default height, the same fraction of the shank at others;
  mass and centre of mass scaled by the residual/intact length ratio, inertia by its cube
  (LaPre et al. 2017). A rigid socket (0.8 kg, LaPre et al.'s generic model has 1.0 kg for socket
  and pylon; a J-shaped blade needs no pylon) is welded to the residual limb.
* The blade (``blade``): a 6-segment PCS rod clamped to the back of the socket (as sprint blades are,
  their upper end running up the socket's posterior wall); its mount height makes the unloaded
  affected leg 3 cm longer than the intact leg (athletes use 2-8 cm, Taboga et al. 2020). The
  blade and the socket's mass are the prosthesis's: they do not scale with the subject.
* Joints and coordinates follow OpenSim's gait models (X forward, Y up, Z to the right; knee
  flexion negative; left-side adduction and rotation axes mirrored) so that results read like
  OpenSim's. The pelvis is a free joint; 35 rigid degrees of freedom plus 18 blade strains.
* Markers: 30 on the body with Plug-in Gait names (the amputated side's shank and foot markers
  replaced by three socket markers) and 21 on the blade; contact candidates: 6 under the left
  foot and 4 under the blade (seed Figs. 8 and 11).
* Muscles: see ``engine.demo.muscles``.
"""
from __future__ import annotations

import numpy as np

from ..algorithms import neutral
from ..data import Data
from ..model import (Body, Coordinate, FreeJoint, GeneralJoint, Marker, Model, RevoluteJoint, TransformAxis,
                     UniversalJoint, WeldJoint, constant_axis)
from ..model.points import ContactPoint
from ..spatial import SE3
from . import blade as blade_design
from .anthropometry import DE_LEVA_MALE, REFERENCE_HEIGHT

HEIGHT = 1.75          # m, default subject
MASS = 70.0            # kg, default subject, prosthesis included
RESIDUAL_LENGTH = 0.13    # m, knee joint centre to the end of the residual tibia at the default height
SOCKET_MASS = 0.8      # kg
LEG_LENGTH_EXCESS = 0.03  # m, unloaded affected leg longer than the intact one
X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)

SOURCES = {
    "segments": "de Leva P (1996) J Biomech 29:1223-1230, male tables (reference 1.741 m)",
    "residual limb": "LaPre AK et al. (2017) marker-placement toolbox, residual limb scaled by length ratio",
    "socket": "LaPre AK et al. (2017) generic transtibial OpenSim model: socket and pylon 1.0 kg",
    "blade height": "Taboga P et al. (2020) Sci Rep 10:1763: affected leg 2-8 cm longer when unloaded",
    "blade stiffness": "Beck ON, Taboga P, Grabowski AM (2016) PLoS One 11:e0168298",
    "blade damping": "Noroozi S et al. (2018) Prosthet Orthot Int: damping ratio 1.5-2.0%",
    "blade mass": "Ottobock 1E91 Runner, 0.46-0.59 kg (manufacturer figures)",
    "amputation": "seed section 2.4.2: myodesis; anterior compartment transected, gastrocnemius and "
                  "soleus wrapped over the stump and secured anteriorly",
    "markers": "Plug-in Gait / Conventional Gait Model names",
}


class _Scaler:
    """de Leva segments at the subject's height and mass."""

    def __init__(self, height: float, body_mass: float):
        self.s = height / REFERENCE_HEIGHT
        self.M = body_mass

    def length(self, name: str) -> float:
        return DE_LEVA_MALE[name].length * self.s

    def body(self, body: str, segment: str, com, mass_factor: float = 1.0, inertia_factor: float = 1.0,
             length: float | None = None) -> Body:
        """A body with de Leva's mass and radii; ``com`` in the body frame (m)."""
        seg = DE_LEVA_MALE[segment]
        L = self.length(segment) if length is None else length
        m = seg.mass * self.M * mass_factor
        r_sag, r_trans, r_long = seg.radii
        # sagittal axis: antero-posterior (x); transverse: medio-lateral (z); longitudinal: y
        inertia = np.diag([m * (r_sag * L) ** 2, m * (r_long * L) ** 2, m * (r_trans * L) ** 2]) * inertia_factor
        return Body(body, m, com, inertia)


def _general(name, parent, child, offset, coords, axes):
    """An OpenSim-style joint with three named rotations about ``axes`` (body-fixed order)."""
    return GeneralJoint(name, parent, child, offset, coordinates=tuple(coords),
                        rotations=tuple(TransformAxis(a, c.name) for a, c in zip(axes, coords)),
                        translations=(constant_axis(X), constant_axis(Y), constant_axis(Z)))


def _rot(name, lo, hi):
    return Coordinate(name, "rotational", range=(np.radians(lo), np.radians(hi)), clamped=True)


def _leg(k: _Scaler, side: str, L: dict, hip_half_width: float, ankle_height: float):
    """Bodies, joints and markers of a whole leg (``side`` 'r' or 'l'), OpenSim-style."""
    s, sz = k.s, (1.0 if side == "r" else -1.0)
    S = side.upper()
    ax_add, ax_rot = (sz, 0.0, 0.0), (0.0, sz, 0.0)
    sole = -ankle_height
    bodies = [k.body(f"femur_{side}", "thigh", (0.0, -DE_LEVA_MALE["thigh"].com * L["thigh"], 0.0)),
              k.body(f"tibia_{side}", "shank", (0.0, -DE_LEVA_MALE["shank"].com * L["shank"], 0.0)),
              k.body(f"calcn_{side}", "foot", (0.064 * s, -0.035 * s, 0.0), mass_factor=0.8, inertia_factor=0.8),
              k.body(f"toes_{side}", "foot", (0.03 * s, -0.005 * s, 0.0), mass_factor=0.2, inertia_factor=0.05)]
    joints = [_general(f"hip_{side}", "pelvis", f"femur_{side}", SE3(np.eye(3), (0.0, 0.0, sz * hip_half_width)),
                       [_rot(f"hip_flexion_{side}", -40, 130), _rot(f"hip_adduction_{side}", -50, 30),
                        _rot(f"hip_rotation_{side}", -40, 40)], (Z, ax_add, ax_rot)),
              RevoluteJoint(f"knee_{side}", f"femur_{side}", f"tibia_{side}", SE3(np.eye(3), (0.0, -L["thigh"], 0.0)),
                            coordinates=(_rot(f"knee_angle_{side}", -150, 10),), axis=Z),
              UniversalJoint(f"ankle_{side}", f"tibia_{side}", f"calcn_{side}", SE3(np.eye(3), (0.0, -L["shank"], 0.0)),
                             coordinates=(_rot(f"ankle_angle_{side}", -50, 40), _rot(f"subtalar_angle_{side}", -25, 25)),
                             axis1=Z, axis2=ax_add),
              RevoluteJoint(f"mtp_{side}", f"calcn_{side}", f"toes_{side}", SE3(np.eye(3), (0.16 * s, sole + 0.02 * s, 0.0)),
                            coordinates=(_rot(f"mtp_angle_{side}", -30, 60),), axis=Z)]
    markers = [Marker(f"{S}THI", f"femur_{side}", (0.02 * s, -0.22 * s, sz * 0.075 * s)),
               Marker(f"{S}KNE", f"femur_{side}", (0.0, -L["thigh"], sz * 0.05 * s)),
               Marker(f"{S}ANK", f"tibia_{side}", (0.0, -L["shank"], sz * 0.045 * s)),
               Marker(f"{S}HEE", f"calcn_{side}", (-0.065 * s, sole + 0.03 * s, 0.0)),
               Marker(f"{S}MT5", f"calcn_{side}", (0.13 * s, sole + 0.015 * s, sz * 0.045 * s)),
               Marker(f"{S}TOE", f"toes_{side}", (0.04 * s, 0.0, 0.0))]
    return bodies, joints, markers


def _upper_body(k: _Scaler, L: dict, height: float):
    """Pelvis (free), trunk, head and arms."""
    s = k.s
    shoulder_half_width = 0.098 * height
    bodies = [
        k.body("pelvis", "lower_trunk", (0.0, L["lower_trunk"] * (1 - DE_LEVA_MALE["lower_trunk"].com), 0.0)),
        k.body("torso", "upper_middle_trunk",
               (0.0, L["upper_middle_trunk"] * (1 - DE_LEVA_MALE["upper_middle_trunk"].com), 0.0)),
        k.body("head", "head", (0.02 * s, 0.13 * s, 0.0)),
    ]
    joints = [
        FreeJoint("pelvis_free", "ground", "pelvis", SE3(np.eye(3), (0.0, 0.95 * height / HEIGHT, 0.0))),
        _general("lumbar", "pelvis", "torso", SE3(np.eye(3), (0.0, L["lower_trunk"], 0.0)),
                 [_rot("lumbar_extension", -90, 90), _rot("lumbar_bending", -90, 90), _rot("lumbar_rotation", -90, 90)],
                 (Z, X, Y)),
        _general("neck", "torso", "head", SE3(np.eye(3), (0.0, L["upper_middle_trunk"], 0.0)),
                 [_rot("neck_extension", -90, 90), _rot("neck_bending", -90, 90), _rot("neck_rotation", -90, 90)],
                 (Z, X, Y)),
    ]
    markers = [Marker("RASI", "pelvis", (0.06 * s, 0.09 * s, 0.12 * s)),
               Marker("LASI", "pelvis", (0.06 * s, 0.09 * s, -0.12 * s)),
               Marker("RPSI", "pelvis", (-0.10 * s, 0.11 * s, 0.045 * s)),
               Marker("LPSI", "pelvis", (-0.10 * s, 0.11 * s, -0.045 * s)),
               Marker("C7", "torso", (-0.08 * s, L["upper_middle_trunk"] + 0.02 * s, 0.0)),
               Marker("CLAV", "torso", (0.05 * s, L["upper_middle_trunk"] - 0.01 * s, 0.0)),
               Marker("STRN", "torso", (0.11 * s, 0.20 * s, 0.0)),
               Marker("LFHD", "head", (0.09 * s, 0.16 * s, -0.06 * s)),
               Marker("RFHD", "head", (0.09 * s, 0.16 * s, 0.06 * s)),
               Marker("LBHD", "head", (-0.08 * s, 0.16 * s, -0.06 * s)),
               Marker("RBHD", "head", (-0.08 * s, 0.16 * s, 0.06 * s))]
    for side, sz in (("r", 1.0), ("l", -1.0)):
        S = side.upper()
        ax_add, ax_rot = (sz, 0.0, 0.0), (0.0, sz, 0.0)
        bodies += [k.body(f"humerus_{side}", "upper_arm", (0.0, -DE_LEVA_MALE["upper_arm"].com * L["upper_arm"], 0.0)),
                   k.body(f"forearm_{side}", "forearm", (0.0, -DE_LEVA_MALE["forearm"].com * L["forearm"], 0.0)),
                   k.body(f"hand_{side}", "hand", (0.0, -DE_LEVA_MALE["hand"].com * L["hand"], 0.0))]
        joints += [
            _general(f"shoulder_{side}", "torso", f"humerus_{side}",
                     SE3(np.eye(3), (-0.02 * s, L["upper_middle_trunk"] - 0.03 * s, sz * shoulder_half_width)),
                     [_rot(f"shoulder_flexion_{side}", -90, 180), _rot(f"shoulder_adduction_{side}", -120, 90),
                      _rot(f"shoulder_rotation_{side}", -90, 90)], (Z, ax_add, ax_rot)),
            RevoluteJoint(f"elbow_{side}", f"humerus_{side}", f"forearm_{side}",
                          SE3(np.eye(3), (0.0, -L["upper_arm"], 0.0)),
                          coordinates=(_rot(f"elbow_flexion_{side}", 0, 150),), axis=Z),
            UniversalJoint(f"wrist_{side}", f"forearm_{side}", f"hand_{side}", SE3(np.eye(3), (0.0, -L["forearm"], 0.0)),
                           coordinates=(_rot(f"wrist_flexion_{side}", -70, 70), _rot(f"wrist_deviation_{side}", -25, 35)),
                           axis1=Z, axis2=ax_add),
        ]
        markers += [Marker(f"{S}SHO", "torso",
                           (-0.03 * s, L["upper_middle_trunk"] + 0.01 * s, sz * (shoulder_half_width + 0.02 * s))),
                    Marker(f"{S}ELB", f"humerus_{side}", (0.0, -L["upper_arm"], sz * 0.035 * s)),
                    Marker(f"{S}WRA", f"forearm_{side}", (0.02 * s, -L["forearm"], sz * 0.03 * s)),
                    Marker(f"{S}FIN", f"hand_{side}", (0.01 * s, -0.08 * s, 0.0))]
    return bodies, joints, markers


def build_athlete(height: float = HEIGHT, mass: float = MASS, with_muscles: bool = True,
                  amputated: bool = True) -> Model:
    """The default model scaled to ``height`` (m) and total ``mass`` (kg, prosthesis included).

    ``amputated=False`` gives the intact able-bodied variant (``hybridlab_athlete_intact``): the same
    segments and muscles with both legs whole, no socket or blade, Plug-in Gait markers on both legs.

    Built whole first (both legs intact, muscles fitted to the standing pose), then amputated:
    the seed's transtibial edits re-route the right leg's muscles (``engine.edits.transtibial``),
    the right shank is cut to the residual limb and the socket and blade are attached.
    """
    blade_mass = sum(sg.line_inertia()[0] * sg.length for sg in blade_design.segments())
    shank, foot = DE_LEVA_MALE["shank"], DE_LEVA_MALE["foot"]
    s = height / REFERENCE_HEIGHT
    residual = RESIDUAL_LENGTH * height / HEIGHT     # the same fraction of the shank at any height
    ratio = residual / (shank.length * s)
    # the intact-equivalent body mass whose segments, less the amputated shank and foot, plus socket
    # and blade, weigh ``mass``
    intact_mass = (mass - SOCKET_MASS - blade_mass) / (1.0 - shank.mass - foot.mass + ratio * shank.mass) \
        if amputated else mass
    k = _Scaler(height, intact_mass)
    L = {n: k.length(n) for n in DE_LEVA_MALE}
    hip_half_width = 0.0975 * height / 2      # inter-hip-centre distance ~ 9.75% of height
    ankle_height = 0.04 * height

    bodies, joints, markers = _upper_body(k, L, height)
    for side in ("r", "l"):
        b, j, m = _leg(k, side, L, hip_half_width, ankle_height)
        kept = m if side == "l" or not amputated else [mk for mk in m if mk.parent == "femur_r"]   # amputated
        bodies, joints, markers = bodies + b, joints + j, markers + kept
    metadata = {"description": "Default HybridLab athlete: male, right transtibial amputation 13 cm below the "
                               "knee, J-shaped running blade (6 PCS segments)",
                "subject": {"height_m": height, "mass_kg": mass, "amputation": "right transtibial",
                            "residual_length_m": residual},
                "sources": dict(SOURCES)}
    contacts = []
    if not amputated:
        contacts = _foot_contacts("r", k.s, ankle_height) + _foot_contacts("l", k.s, ankle_height)
        metadata["description"] = "Default HybridLab athlete, intact able-bodied variant: male, both legs whole"
        metadata["subject"] = {"height_m": height, "mass_kg": mass, "amputation": "none"}
    model = Model("hybridlab_athlete" if amputated else "hybridlab_athlete_intact", bodies, joints,
                  markers=markers, contacts=contacts, metadata=metadata)
    reattached = ()
    if with_muscles:
        from ..edits.muscles import apply_edits
        from ..edits.transtibial import stump_cylinder, transtibial_edits
        from .muscles import DELP_1990, LegGeometry, fit_lengths, leg_muscles
        leg = LegGeometry((0.0, 0.0, hip_half_width), L["thigh"], L["shank"], s)
        muscles, wraps = [], []
        for side in ("r", "l"):
            m, w = leg_muscles(leg, side)
            muscles, wraps = muscles + m, wraps + w
        model = fit_lengths(model.replace(muscles=muscles, wrap_objects=wraps,
                                          metadata={**metadata, "sources": {**metadata["sources"],
                                                                            "muscles": DELP_1990}}))
        if not amputated:
            return model
        stump = stump_cylinder("tibia_r", (0.0, -residual + 0.03 * s, 0.0), 0.025 * s, 0.08 * s)
        edits = transtibial_edits(model, "tibia_r", attachment=(0.03 * s, -residual + 0.045 * s, 0.0),
                                  wrap=stump)
        model, _ = apply_edits(model, edits)
        reattached = [e.name for e in edits if type(e).__name__ == "ReattachMuscle"]
    if not amputated:
        return model
    model = _amputate(model, k, L, ratio)
    if reattached:
        # myodesis: the surgeon sutures the re-attached muscles under tension, taken here as optimal
        # fibre length in the standing pose
        model = fit_lengths(model, reattached)
    return model


def _amputate(model: Model, k: _Scaler, L: dict, ratio: float) -> Model:
    """Cut the right shank to the residual limb, remove the foot, weld the socket and mount the blade."""
    s = k.s
    below = {"calcn_r", "toes_r"}
    length = ratio * L["shank"]
    residual = k.body("tibia_r", "shank", (0.0, -DE_LEVA_MALE["shank"].com * length, 0.0),
                      mass_factor=ratio, inertia_factor=ratio ** 2, length=L["shank"])
    socket = Body("socket_r", SOCKET_MASS, (0.0, -0.11 * s, 0.0), np.diag([0.0034, 0.0015, 0.0034]) * s ** 2)
    bodies = [residual if b.name == "tibia_r" else b for b in model.bodies if b.name not in below] + [socket]
    joints = [j for j in model.joints if j.child not in below] + [WeldJoint("socket_weld", "tibia_r", "socket_r")]
    markers = list(model.markers) + [Marker("RSCK1", "socket_r", (0.05 * s, -0.06 * s, 0.05 * s)),
                                     Marker("RSCK2", "socket_r", (-0.03 * s, -0.13 * s, 0.055 * s)),
                                     Marker("RSCK3", "socket_r", (0.045 * s, -0.17 * s, -0.045 * s))]
    # blade mount: behind the socket, at the height that makes the unloaded affected leg longer
    ankle_height = 0.04 * model.metadata["subject"]["height_m"]
    provisional = blade_design.rod("socket_r", (0.0, 0.0, 0.0))
    mount_y = -(L["shank"] + ankle_height + LEG_LENGTH_EXCESS - _blade_drop(provisional))
    blade_rod = blade_design.rod("socket_r", (-0.055 * s, mount_y, 0.0))
    markers += blade_design.markers()
    contacts = _foot_contacts("l", s, ankle_height) + blade_design.contacts()
    return model.replace(bodies=bodies, joints=joints, rods=[blade_rod], markers=markers, contacts=contacts)


def _foot_contacts(side: str, s: float, ankle_height: float) -> list:
    """Six contact candidates on the sole of the hindfoot and forefoot (the toes carry none: the metatarsal
    heads bear the push-off), medial to lateral mirrored between the sides."""
    sz = -1.0 if side == "l" else 1.0
    return [ContactPoint(f"{n}_{side}", f"calcn_{side}", (x * s, -ankle_height, -sz * z * s), group=f"foot_{side}")
            for n, x, z in (("heel_med", -0.04, 0.015), ("heel_lat", -0.04, -0.025), ("midfoot_lat", 0.05, -0.04),
                            ("meta1", 0.15, 0.03), ("meta5", 0.13, -0.045), ("meta_head", 0.17, -0.005))]


def _blade_drop(rod) -> float:
    """Vertical distance (m) from the blade's mount to its lowest point, unloaded."""
    from .. import algorithms as alg
    test = Model("blade", rods=[type(rod)(rod.name, "ground", rod.segments, offset=rod.offset)], gravity=(0, 0, 0))
    data = Data(test)
    alg.forward_kinematics(test, data, neutral(test))
    s = np.linspace(0.0, rod.length, 121)
    _, p = alg.rod_frames(test, data, rod.name, s)
    return float(-p[:, 1].min())
