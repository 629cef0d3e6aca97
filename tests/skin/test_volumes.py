"""The residual limb's flesh: a tapered capsule from the knee centre to the amputation level, leaving the thigh
smoothly, with an exact signed distance."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import forward_kinematics
from engine.data import Data
from engine.display.shapes import Capsule
from engine.errors import ModelError
from skin.frames import body_frames
from skin.volumes import DENSITY, TaperedCapsule, body_volumes, signed_distance


def _round_cone(p, a, b, r1, r2):
    """Quilez's closed form of the round cone's signed distance (iquilezles.org, 'distance functions'), a
    derivation independent of ``skin.volumes``' (regions by the tangent points)."""
    ba = b - a
    l2 = ba @ ba
    rr = r1 - r2
    a2 = l2 - rr * rr
    pa = p - a
    y = pa @ ba
    z = y - l2
    x2 = np.sum((pa * l2 - np.outer(y, ba)) ** 2, axis=1)
    y2, z2 = y * y * l2, z * z * l2
    k = np.sign(rr) * rr * rr * x2
    return np.where(np.sign(z) * a2 * z2 > k, np.sqrt(x2 + z2) / l2 - r2,
                    np.where(np.sign(y) * a2 * y2 < k, np.sqrt(x2 + y2) / l2 - r1,
                             (np.sqrt(x2 * a2 / l2) + y * rr) / l2 - r1))


def test_tapered_capsule_distance_is_the_closed_form(rng):
    a, b = np.array([0.01, 0.02, -0.01]), np.array([0.03, -0.09, 0.02])
    shape = TaperedCapsule("limb", a, b, 0.05, 0.03)
    x = rng.uniform(-0.15, 0.15, (4000, 3)) + (a + b) / 2
    np.testing.assert_allclose(signed_distance(shape, x), _round_cone(x, a, b, 0.05, 0.03), rtol=0, atol=1e-12)
    # an untapered one is the capsule
    same = TaperedCapsule("limb", a, b, 0.04, 0.04)
    np.testing.assert_allclose(signed_distance(same, x), signed_distance(Capsule("limb", a, b, 0.04), x),
                               rtol=0, atol=1e-12)


def test_tapered_capsule_volume_counts_its_inside(rng):
    shape = TaperedCapsule("limb", np.zeros(3), np.array([0.0, -0.09, 0.0]), 0.05, 0.03)
    # Monte Carlo over the bounding box, by the signed distance's sign
    lo, hi = np.array([-0.05, -0.12, -0.05]), np.array([0.05, 0.05, 0.05])
    x = rng.uniform(lo, hi, (400_000, 3))
    inside = (signed_distance(shape, x) < 0).mean() * np.prod(hi - lo)
    assert shape.volume == pytest.approx(inside, rel=0.01)


def test_the_athletes_residual_limb_is_a_tapered_capsule_to_the_amputation_level(athlete, coarse_skin):
    volumes = body_volumes(athlete, bodies=coarse_skin.bodies)
    limb, thigh = volumes["tibia_r"], volumes["femur_r"]
    length = athlete.metadata["subject"]["residual_length_m"]
    assert isinstance(limb, TaperedCapsule) and isinstance(volumes["tibia_l"], Capsule)
    # from the knee centre (the thigh's capsule ends there with the same radius: no crease) to the stated level,
    # narrowing distally, with the body's volume beyond the thigh's flesh
    np.testing.assert_allclose(limb.start, 0.0, atol=1e-12)
    assert limb.radius == thigh.radius and 0 < limb.end_radius < limb.radius
    assert np.linalg.norm(limb.end - limb.start) + limb.end_radius == pytest.approx(length, rel=1e-9)
    assert limb.volume - 4 / 3 * np.pi * limb.radius ** 3 == pytest.approx(athlete.body("tibia_r").mass / DENSITY,
                                                                          rel=1e-9)
    # the skin's vertices on the stump below the thigh's sphere lie on the tapered capsule, to the contouring's
    # chord error (a grid cell's diagonal as a chord of the distal sphere)
    data = Data(athlete)
    forward_kinematics(athlete, data, coarse_skin.q_rest)
    R, p = body_frames(athlete, data, ["tibia_r"])
    j = coarse_skin.bodies.index("tibia_r")
    carried = np.where(coarse_skin.bone == j, coarse_skin.weight, 0.0).sum(axis=1) > 0.5
    local = (coarse_skin.mesh.vertices[carried] - p[0]) @ R[0]
    below = local[local[:, 1] < -0.08]      # where the smooth union with the thigh adds < 0.5 mm
    spacing = 0.03
    assert len(below) > 10
    assert np.abs(signed_distance(limb, below)).max() < 3 * spacing ** 2 / (8 * limb.end_radius)
    assert local[:, 1].min() == pytest.approx(-length, abs=3 * spacing ** 2 / (8 * limb.end_radius))


def test_a_residual_limb_that_cannot_taper_from_the_thigh_is_an_error(athlete):
    model = athlete.replace(metadata={**athlete.metadata,
                                      "subject": {**athlete.metadata["subject"], "residual_length_m": 0.05}})
    with pytest.raises(ModelError, match="residual limb 'tibia_r'.*cannot taper"):
        body_volumes(model)
