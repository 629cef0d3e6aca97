"""Generated bones are closed, outward-oriented surfaces: surfaces of revolution and tori against their
closed-form volumes, long bones spanning their joint centres, and the default athlete's pelvis, rib cage and
skull."""
import numpy as np

from engine.demo import demo_files
from engine.display.bones import RIBS, Surface, bone_surfaces, long_bone, revolution, torus
from engine.display.shapes import Capsule, body_shapes
from engine.io.open import open_model


def edges(s: Surface) -> np.ndarray:
    t = s.triangles
    return np.vstack([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])


def is_closed(s: Surface) -> bool:
    """Every edge is shared by exactly two triangles that run it in opposite directions."""
    directed = {tuple(e) for e in edges(s)}
    return len(directed) == len(edges(s)) and all((b, a) in directed for a, b in directed)


def volume(s: Surface) -> float:
    """Signed volume (positive when the triangles face outwards)."""
    p, t = s.points, s.triangles
    return float(np.einsum("ij,ij->i", p[t[:, 0]], np.cross(p[t[:, 1]], p[t[:, 2]])).sum() / 6.0)


def euler(s: Surface) -> int:
    return len(np.unique(s.triangles)) - len(edges(s)) // 2 + len(s.triangles)


def test_closed_surfaces_enclose_their_closed_form_volumes():
    theta = np.linspace(np.pi, 0.0, 200)
    sphere = revolution(np.cos(theta), np.sin(theta), sides=400)
    assert is_closed(sphere) and euler(sphere) == 2
    assert np.isclose(volume(sphere), 4.0 / 3.0 * np.pi, rtol=1e-3)
    ring = torus((2.0, 2.0), 0.5, sides=200, segments=400)
    assert is_closed(ring) and euler(ring) == 0
    assert np.isclose(volume(ring), 2.0 * np.pi ** 2 * 2.0 * 0.25, rtol=1e-3)
    mirrored = ring.mapped(np.diag([1.0, -1.0, 1.0]), [0.0, 0.0, 1.0])
    assert np.isclose(volume(mirrored), volume(ring))


def test_a_long_bone_spans_its_joint_centres():
    shape = Capsule("femur", np.array([0.1, 0.0, 0.0]), np.array([0.1, -0.4, 0.05]), 0.04)
    bone = long_bone(shape)
    assert is_closed(bone) and volume(bone) > 0
    axis = (shape.end - shape.start) / np.linalg.norm(shape.end - shape.start)
    along = (bone.points - shape.start) @ axis
    radial = np.linalg.norm(bone.points - shape.start - along[:, None] * axis, axis=1)
    assert np.isclose(along.min(), 0.0, atol=1e-12) and np.isclose(along.max(), np.linalg.norm(shape.end - shape.start))
    assert np.isclose(radial.max(), shape.radius) and radial[np.abs(along - along.mean()) < 0.05].max() < 0.6 * shape.radius


def test_the_default_athlete_has_bones():
    model = open_model(demo_files().model)
    bones = bone_surfaces(model)
    shapes = body_shapes(model)
    assert set(bones) == {name for name, s in shapes.items() if s}
    for name, bone in bones.items():
        assert is_closed(bone) and volume(bone) > 0, name
    assert euler(bones["pelvis"]) == 0                           # a ring
    assert euler(bones["torso"]) == 2 * 1 + 0 * RIBS             # the spine and RIBS rings
    assert euler(bones["head"]) == 2
    # the skull: narrower below its centre (the jaw) than above it
    head = bones["head"].points - shapes["head"][0].centre
    up = -np.asarray(model.gravity) / np.linalg.norm(model.gravity)      # the head's frame is upright at neutral
    h = head @ up
    width = np.linalg.norm(head - h[:, None] * up, axis=1)
    assert width[h < -0.5 * h.max()].max() < width[h > 0.5 * h.max()].max() * 1.5
