"""Lower-limb muscles of the default athlete, both legs whole (the amputation is applied afterwards).

Seventeen Thelen-2003 muscles per leg, named as in OpenSim's gait models so that the
transtibial edits (``engine.edits.transtibial``) and users recognise them.

* Hill model: Thelen (2003) with OpenSim's default curve constants (``hill.thelen.PARAMETERS``).
* Maximum isometric forces, and the ratio of optimal fibre length to musculotendon length,
  from Delp SL et al. (1990) IEEE Trans Biomed Eng 37:757-767, as revised in OpenSim's
  gait2392 model (values transcribed from the publication's table; heads of gluteus maximus,
  gluteus medius, the adductors, iliacus/psoas and the vasti lumped by summing forces).
* Attachments: anatomical landmarks written for this model in its own segment frames (X
  forward, Y up, Z to the right of the right leg; relative to the joint centres), at de Leva's
  reference height and scaled with the subject's height. They follow the landmark positions
  of Delp's lower-limb model; they are not a copy of any model file.
* Fibre and tendon lengths: each muscle's optimal fibre length and tendon slack length keep
  Delp's ratio to the musculotendon length in the neutral (standing) pose of *this* model,
  so they scale with the subject exactly as the paths do. Forces are not scaled with body
  mass (OpenSim's scale tool leaves them too).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import neutral
from ..model.muscles import GeometryPath, Muscle, PathPoint, PathWrap, WrapCylinder
from ..muscles.forces.hill.thelen import PARAMETERS as THELEN
from ..spatial import SE3

DELP_1990 = ("Delp SL, Loan JP, Hoy MG, Zajac FE, Topp EL, Rosen JM (1990) IEEE Trans Biomed Eng 37:757-767; "
             "forces as revised in OpenSim's gait2392 model")


@dataclass(frozen=True)
class MuscleData:
    """Delp's parameters of one (possibly lumped) muscle: force N, optimal fibre and tendon slack
    lengths m (their ratio is what the model uses), pennation degrees."""

    max_isometric_force: float
    optimal_fiber_length: float
    tendon_slack_length: float
    pennation_deg: float


PARAMETERS = {
    "glut_max": MuscleData(1944.0, 0.144, 0.132, 5.0),     # three heads
    "glut_med": MuscleData(2045.0, 0.068, 0.061, 8.0),     # three heads
    "add_mag": MuscleData(1916.0, 0.121, 0.072, 5.0),      # adductor magnus, longus and brevis
    "iliopsoas": MuscleData(2186.0, 0.103, 0.125, 7.0),    # iliacus and psoas
    "rect_fem": MuscleData(1169.0, 0.114, 0.310, 5.0),
    "vasti": MuscleData(4530.0, 0.087, 0.142, 4.0),        # medialis, intermedius, lateralis
    "semimem": MuscleData(1288.0, 0.080, 0.359, 15.0),
    "semiten": MuscleData(410.0, 0.201, 0.256, 5.0),
    "bifemlh": MuscleData(896.0, 0.109, 0.341, 0.0),
    "bifemsh": MuscleData(804.0, 0.173, 0.100, 23.0),
    "med_gas": MuscleData(1558.0, 0.060, 0.390, 17.0),
    "lat_gas": MuscleData(683.0, 0.064, 0.380, 8.0),
    "soleus": MuscleData(3549.0, 0.050, 0.250, 25.0),
    "tib_post": MuscleData(1588.0, 0.031, 0.310, 12.0),
    "per_long": MuscleData(943.0, 0.049, 0.345, 10.0),
    "tib_ant": MuscleData(905.0, 0.098, 0.223, 5.0),
    "ext_dig": MuscleData(512.0, 0.102, 0.345, 8.0),
}

# Path points of the right leg at de Leva's reference height (m): (body, anchor, offset), the
# offset from a joint centre in the body's frame: the hip centre (on the pelvis or the femur),
# the knee centre (femur or tibia), the ankle centre (tibia or calcn), the metatarsophalangeal
# joint (toes). The left leg mirrors z.
PATHS = {
    "glut_max": (("pelvis", "hip", (-0.065, 0.075, -0.035)), ("pelvis", "hip", (-0.070, 0.000, 0.000)),
                 ("femur", "hip", (-0.050, -0.065, 0.030)), ("femur", "hip", (-0.020, -0.115, 0.045))),
    "glut_med": (("pelvis", "hip", (-0.020, 0.110, 0.000)), ("femur", "hip", (-0.030, -0.010, 0.060))),
    "add_mag": (("pelvis", "hip", (-0.015, -0.055, -0.050)), ("femur", "hip", (0.000, -0.260, 0.025))),
    "iliopsoas": (("pelvis", "hip", (0.005, 0.155, -0.055)), ("pelvis", "hip", (0.045, 0.010, -0.005)),
                  ("femur", "hip", (0.000, -0.055, 0.005)), ("femur", "hip", (-0.020, -0.065, 0.012))),
    "rect_fem": (("pelvis", "hip", (0.040, 0.035, 0.015)), ("tibia", "knee", (0.035, -0.070, 0.000))),
    "vasti": (("femur", "hip", (0.030, -0.220, 0.030)), ("tibia", "knee", (0.035, -0.070, 0.000))),
    "semimem": (("pelvis", "hip", (-0.055, -0.040, -0.015)), ("tibia", "knee", (-0.025, -0.050, -0.025))),
    "semiten": (("pelvis", "hip", (-0.058, -0.042, -0.018)), ("tibia", "knee", (-0.025, -0.045, -0.035)),
                ("tibia", "knee", (0.010, -0.080, -0.020))),
    "bifemlh": (("pelvis", "hip", (-0.058, -0.039, -0.012)), ("tibia", "knee", (-0.030, -0.036, 0.030)),
                ("tibia", "knee", (-0.023, -0.056, 0.034))),
    "bifemsh": (("femur", "hip", (0.005, -0.240, 0.025)), ("tibia", "knee", (-0.030, -0.036, 0.030)),
                ("tibia", "knee", (-0.023, -0.056, 0.034))),
    "med_gas": (("femur", "knee", (-0.022, 0.020, -0.027)), ("calcn", "ankle", (-0.055, -0.030, 0.000))),
    "lat_gas": (("femur", "knee", (-0.022, 0.020, 0.027)), ("calcn", "ankle", (-0.055, -0.030, 0.000))),
    "soleus": (("tibia", "knee", (-0.030, -0.080, 0.005)), ("calcn", "ankle", (-0.055, -0.030, 0.000))),
    "tib_post": (("tibia", "knee", (-0.010, -0.090, 0.000)), ("tibia", "ankle", (-0.020, -0.015, -0.020)),
                 ("calcn", "ankle", (0.045, -0.030, -0.025))),
    "per_long": (("tibia", "knee", (-0.010, -0.050, 0.040)), ("tibia", "ankle", (-0.020, 0.020, 0.035)),
                 ("calcn", "ankle", (0.000, -0.040, 0.030)), ("calcn", "ankle", (0.100, -0.055, -0.020))),
    "tib_ant": (("tibia", "knee", (0.020, -0.160, 0.015)), ("tibia", "ankle", (0.030, 0.030, -0.010)),
                ("calcn", "ankle", (0.080, -0.035, -0.025))),
    "ext_dig": (("tibia", "knee", (0.010, -0.100, 0.030)), ("tibia", "ankle", (0.030, 0.030, 0.010)),
                ("toes", "mtp", (0.040, -0.005, 0.010))),
}
# muscles passing in front of the knee wrap over a cylinder at the femoral condyles (the patella)
OVER_PATELLA = ("rect_fem", "vasti")
PATELLA_RADIUS = 0.040   # m at the reference height: the quadriceps' knee extension moment arm


@dataclass(frozen=True)
class LegGeometry:
    """Where the leg's joints are (m, at the subject's size): the hip centres on the pelvis
    (right side, z > 0), the thigh and shank lengths, and the scale from the reference height."""

    hip: tuple
    thigh: float
    shank: float
    scale: float


def _location(body: str, anchor: str, offset, leg: LegGeometry, sz: float) -> np.ndarray:
    """A path point in its body's frame (m): the anchor joint's centre plus the scaled offset."""
    anchors = {("pelvis", "hip"): np.array(leg.hip) * (1.0, 1.0, sz), ("femur", "hip"): np.zeros(3),
               ("femur", "knee"): np.array([0.0, -leg.thigh, 0.0]), ("tibia", "knee"): np.zeros(3),
               ("tibia", "ankle"): np.array([0.0, -leg.shank, 0.0]), ("calcn", "ankle"): np.zeros(3),
               ("toes", "mtp"): np.zeros(3)}
    return anchors[body, anchor] + np.array(offset) * leg.scale * (1.0, 1.0, sz)


def leg_muscles(leg: LegGeometry, side: str) -> tuple[list, list]:
    """``(muscles, wrap_objects)`` of one leg (``side`` 'r' or 'l'), with placeholder lengths
    (set from the neutral pose by :func:`add_muscles`)."""
    sz = 1.0 if side == "r" else -1.0
    patella = WrapCylinder(f"patella_{side}", f"femur_{side}", SE3(np.eye(3), (0.0, -leg.thigh, 0.0)), "+x",
                           radius=PATELLA_RADIUS * leg.scale, length=0.08 * leg.scale)
    muscles = []
    for name, points in PATHS.items():
        path_points = []
        for i, (body, anchor, offset) in enumerate(points):
            frame = body if body == "pelvis" else f"{body}_{side}"
            path_points.append(PathPoint(f"{name}_{side}-P{i + 1}", frame, _location(body, anchor, offset, leg, sz)))
        wraps = (PathWrap(patella.name),) if name in OVER_PATELLA else ()
        d = PARAMETERS[name]
        muscles.append(Muscle(f"{name}_{side}", GeometryPath(tuple(path_points), wraps), "thelen2003",
                              d.max_isometric_force, d.optimal_fiber_length, d.tendon_slack_length,
                              np.radians(d.pennation_deg), parameters=dict(THELEN)))
    return muscles, [patella]


def fit_lengths(model, names=None):
    """``model`` with the optimal fibre and tendon slack lengths of the muscles ``names`` (default all)
    set so that, in the neutral pose, the fibre is at its optimal length and the two keep Delp's
    ratio: l_opt = r L, l_slack = L - l_opt cos(alpha), r = l_opt / (l_opt cos(alpha) + l_slack) of
    :data:`PARAMETERS`, L the musculotendon length (m) at ``neutral(model)``."""
    from ..muscles.path.geometry import MuscleGeometry
    names = set(m.name for m in model.muscles) if names is None else set(names)
    lengths, _, _ = MuscleGeometry(model).evaluate(neutral(model)[None, :])
    out = []
    for m, L in zip(model.muscles, lengths[0]):
        if m.name in names:
            d = PARAMETERS[m.name.rsplit("_", 1)[0]]
            cos = np.cos(np.radians(d.pennation_deg))
            r = d.optimal_fiber_length / (d.optimal_fiber_length * cos + d.tendon_slack_length)
            l_opt = r * L
            m = Muscle(m.name, m.path, m.model, m.max_isometric_force, l_opt, L - l_opt * cos, m.pennation_angle,
                       m.max_contraction_velocity, m.activation_time_constant, m.deactivation_time_constant,
                       m.parameters)
        out.append(m)
    return model.replace(muscles=out)
