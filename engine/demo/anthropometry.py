"""Segment inertial parameters of the default athlete: de Leva (1996), male.

de Leva P. (1996) Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters.
J Biomech 29(9):1223-1230, Tables 4 and 5 (reference subject 1.741 m, 73.0 kg).
Mass is a fraction of body mass; the centre of mass a fraction of the segment length from
its proximal end point; radii of gyration (sagittal, transverse, longitudinal) fractions of
the segment length. The trunk is split into de Leva's lower trunk (pelvis, 11.17%) and the
upper and middle trunk (32.29%), whose fractions add up to his whole trunk (43.46%).
"""
from __future__ import annotations

from dataclasses import dataclass

REFERENCE_HEIGHT = 1.741   # m, de Leva's male reference subject


@dataclass(frozen=True)
class Segment:
    """de Leva parameters of one segment (fractions; ``length`` in m at the reference height)."""

    mass: float
    com: float
    radii: tuple          # sagittal, transverse, longitudinal (fractions of length)
    length: float


DE_LEVA_MALE = {
    "head": Segment(0.0694, 0.5976, (0.362, 0.376, 0.312), 0.2033),        # vertex to mid-gonion
    "trunk": Segment(0.4346, 0.4486, (0.372, 0.347, 0.191), 0.5319),       # suprasternale to mid-hip
    "lower_trunk": Segment(0.1117, 0.6115, (0.615, 0.551, 0.587), 0.1457),  # omphalion to mid-hip
    "upper_middle_trunk": Segment(0.3229, 0.4613, (0.372, 0.347, 0.191), 0.3862),  # suprasternale to omphalion
    "upper_arm": Segment(0.0271, 0.5772, (0.285, 0.269, 0.158), 0.2817),
    "forearm": Segment(0.0162, 0.4574, (0.276, 0.265, 0.121), 0.2689),
    "hand": Segment(0.0061, 0.7900, (0.628, 0.513, 0.401), 0.0862),
    "thigh": Segment(0.1416, 0.4095, (0.329, 0.329, 0.149), 0.4222),
    "shank": Segment(0.0433, 0.4459, (0.255, 0.249, 0.103), 0.4340),       # knee to lateral malleolus
    "foot": Segment(0.0137, 0.4415, (0.257, 0.245, 0.124), 0.2581),        # heel to toe tip
}
"""The upper-and-middle trunk's centre of mass (46.1% from suprasternale) combines de Leva's
upper trunk (15.96%, 50.66% from suprasternale over 170.7 mm) and middle trunk (16.33%, 45.02%
from xiphoid over 215.5 mm); its radii reuse the whole trunk's fractions."""

SEGMENT_FRACTIONS_SUM = sum(DE_LEVA_MALE[k].mass for k in ("head", "trunk")) + 2 * sum(
    DE_LEVA_MALE[k].mass for k in ("upper_arm", "forearm", "hand", "thigh", "shank", "foot"))
