"""A skin with separate limbs (``skin.rest_pose``): generated in the A-pose, the arms meet the trunk only at the
shoulders and the legs never meet; the surface is closed and, at the scenes' spacing, of the seed's size."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import forward_kinematics, frame_placement, neutral
from engine.data import Data
from engine.errors import ModelError
from skin.rest_pose import ARM_ABDUCTION, LEG_ABDUCTION, a_pose
from skin.scenes import SKIN_SPACING, skinned_bodies
from skin.skinning import Skin
from tests.engine.hybrid_models import cantilever

ARMS = ("humerus", "forearm", "hand")
LEGS = ("femur", "tibia", "calcn", "toes")
SHOULDER = 0.12     # m: flesh of the arm and the trunk may meet this close to the shoulder's centre (the joint)


def _main_bones(skin):
    return skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]


def _bridges(skin, first, second):
    """Triangles with a vertex whose main bone is in ``first`` and one whose main bone is in ``second``."""
    main = _main_bones(skin)[skin.mesh.triangles]
    ids = [[skin.bodies.index(b) for b in group if b in skin.bodies] for group in (first, second)]
    return np.flatnonzero(np.isin(main, ids[0]).any(axis=1) & np.isin(main, ids[1]).any(axis=1))


def _arm_trunk_far_from_shoulder(athlete, skin, side):
    """Triangles bridging the ``side`` arm and the trunk (torso, pelvis) farther than SHOULDER from its shoulder."""
    data = Data(athlete)
    forward_kinematics(athlete, data, skin.q_rest)
    shoulder = frame_placement(athlete, data, f"humerus_{side}").p
    tris = _bridges(skin, [f"{b}_{side}" for b in ARMS], ["torso", "pelvis"])
    centres = skin.mesh.vertices[skin.mesh.triangles[tris]].mean(axis=1)
    return tris[np.linalg.norm(centres - shoulder, axis=1) > SHOULDER]


def test_the_a_pose_abducts_the_arms_and_legs(athlete):
    """Only the shoulders' and hips' adduction coordinates move, each by minus its abduction, and each limb's hand or
    foot moves away from the midline (the pelvis's x-y plane)."""
    from engine.tree import compile_tree
    q, q0 = a_pose(athlete), neutral(athlete)
    coordinates = compile_tree(athlete).coordinates
    moved = {name for name, slot in coordinates.items() if slot.qi is not None and q[slot.qi] != q0[slot.qi]}
    assert moved == {f"{j}_adduction_{s}" for j in ("shoulder", "hip") for s in "lr"}
    for s in "lr":
        assert q[coordinates[f"shoulder_adduction_{s}"].qi] == -ARM_ABDUCTION
        assert q[coordinates[f"hip_adduction_{s}"].qi] == -LEG_ABDUCTION
    data = Data(athlete)
    lateral = {}
    for pose in (q0, q):
        forward_kinematics(athlete, data, pose)
        lateral[id(pose)] = [abs(frame_placement(athlete, data, b).p[2]) for b in ("hand_r", "hand_l", "tibia_r",
                                                                                  "tibia_l")]
    assert (np.array(lateral[id(q)]) > np.array(lateral[id(q0)]) + 0.05).all()


def test_a_model_without_shoulders_has_no_a_pose():
    with pytest.raises(ModelError, match="shoulder_adduction"):
        a_pose(cantilever(2))


def test_the_a_pose_skin_has_separate_limbs(athlete, coarse_skin, a_pose_skin):
    """No triangle joins an arm to the trunk farther than 12 cm from the shoulder's centre, nor the left leg to the
    right one; the skin generated in the neutral pose has both (the arms fused to the flanks, the thighs to each other),
    so the check can fail."""
    for side in "lr":
        assert len(_arm_trunk_far_from_shoulder(athlete, a_pose_skin, side)) == 0
        assert len(_arm_trunk_far_from_shoulder(athlete, coarse_skin, side)) > 20
    legs = [[f"{b}_{s}" for b in LEGS] for s in "lr"]
    assert len(_bridges(a_pose_skin, *legs)) == 0
    assert len(_bridges(coarse_skin, *legs)) > 20


def test_the_a_pose_skin_at_the_scenes_spacing_is_closed_and_of_the_seeds_size(athlete):
    """At the scenes' 12 mm: one closed manifold surface, normals outward, 5k-20k vertices (the seed's 14k), limbs
    apart, and weights blending bones near the joints only."""
    skin = Skin.generate(athlete, q_rest=a_pose(athlete), spacing=SKIN_SPACING,
                         bodies=skinned_bodies(athlete))
    assert 5000 <= skin.n_vertices <= 20000
    t = skin.mesh.triangles
    edges = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    assert (counts == 2).all()
    assert skin.mesh.enclosed_volume() > 0
    for side in "lr":
        assert len(_arm_trunk_far_from_shoulder(athlete, skin, side)) == 0
    blended = (skin.weight > 0.1).sum(axis=1) > 1
    assert 0.05 < blended.mean() < 0.7


def test_the_a_pose_skin_deforms_smoothly_into_the_neutral_pose(athlete, a_pose_skin):
    """Eq. 3 carries the A-pose skin to the neutral pose with its weights smooth across the joints: no edge stretches
    to 2.5 times its length (a weight jumping between bones across an edge would tear it open by the joint's turn;
    the armpits' and crotch's edges shorten, flesh folding as the limbs close, which linear blend skinning lets
    collapse), and the enclosed volume changes by less than 5%."""
    x = a_pose_skin.vertices(athlete, Data(athlete), neutral(athlete))
    e = a_pose_skin.mesh.edges()
    rest = np.linalg.norm(np.diff(a_pose_skin.mesh.vertices[e], axis=1)[:, 0], axis=1)
    now = np.linalg.norm(np.diff(x[e], axis=1)[:, 0], axis=1)
    ratio = now / rest
    assert ratio.max() < 2.5
    assert a_pose_skin.mesh.enclosed_volume(x) == pytest.approx(a_pose_skin.mesh.enclosed_volume(), rel=0.05)


def test_an_a_pose_skin_too_coarse_to_hold_together_names_the_spacing_the_pieces_and_the_limit(athlete):
    """Sampled every 6 cm the A-pose's hands and forearms come apart from the body: the error names the spacing, the
    pieces apart and their bodies (the volume nearest each vertex), and the coarsest spacing that holds together,
    ``A_POSE_SPACING``, at which the skin is one closed piece (it said only how many pieces)."""
    from skin.rest_pose import A_POSE_SPACING
    bodies = skinned_bodies(athlete)
    q = a_pose(athlete)
    with pytest.raises(ModelError) as error:
        Skin.generate(athlete, q_rest=q, spacing=0.06, bodies=bodies)
    text = str(error.value)
    assert "the bodies' volumes sampled every 0.06 m form" in text and "separate pieces" in text
    apart = text.split("apart from it: ")[1].split(")")[0]
    assert "hand_l" in apart and "hand_r" in apart and "torso" not in apart and "pelvis" not in apart
    assert f"holds together up to {A_POSE_SPACING:g} m" in text and A_POSE_SPACING == 0.05
    skin = Skin.generate(athlete, q_rest=q, spacing=A_POSE_SPACING, bodies=bodies)
    assert skin.mesh.enclosed_volume() > 0
