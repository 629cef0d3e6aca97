"""The built-in scenes' parts that need no run: the sling's hook loops, the skin a sling lift is given."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import ModelError, SettingsError
from skin.mesh import grid_sheet
from skin.scenes import _hook_loops, athlete, skinned_bodies, sling_lift
from skin.skinning import Skin


def test_hook_loops_refuse_a_size_that_holds_no_patch_naming_it():
    """A loop of no size (or a negative one, whose box turns outward) holds the corner vertex alone, whose sag does
    not converge; one of half the shorter side reaches the next corner's: each is refused naming the value. A loop
    inside those bounds holds a patch at each corner."""
    mesh = grid_sheet(1.2, 0.6, 25, 13)                          # 5 cm spacing, shorter side 0.6 m
    nx, nz = 25, 13
    corners = (0, nz - 1, nz * (nx - 1), nx * nz - 1)
    for size in (0.0, -0.05, 0.3, 0.5):
        with pytest.raises(ModelError, match=rf"hook_loop=...\): hook loop {size!r} m is not in \(0, half the sheet's shorter side "
                                             r"0.3 m\)"):
            _hook_loops(mesh, corners, size)
    for loop in _hook_loops(mesh, corners, 0.1):
        assert len(loop.vertices(mesh)) == 9                      # 3 x 3 vertices 5 cm apart within 10 cm


@pytest.fixture(scope="module")
def coarse_skin_6cm():
    model = athlete()
    return Skin.generate(model, spacing=0.06, bodies=skinned_bodies(model))


def test_a_sling_lift_s_reach_follows_the_skin_given(coarse_skin_6cm):
    """A 6 cm skin given without its spacing gets the reach of a 6 cm skin (1.5 of its spacing: a device vertex under
    it finds a skin vertex), not the default 12 mm skin's 18 mm, through which the devices' vertices would pass; a
    contradictory spacing is refused naming both; a skin whose spacing is not known needs one."""
    skin = coarse_skin_6cm
    assert skin.spacing == 0.06
    scene = sling_lift(sheet_vertices=100, bed_spacing=0.06, skin=skin)
    assert scene.contact.reach == pytest.approx(1.5 * 0.06)
    assert sling_lift(0.06, sheet_vertices=100, bed_spacing=0.06, skin=skin).contact.reach == scene.contact.reach
    with pytest.raises(SettingsError, match=r"spacing=0.012 m contradicts the skin given, generated every 0.06 m"):
        sling_lift(0.012, sheet_vertices=100, bed_spacing=0.06, skin=skin)
    bound = Skin(skin.mesh, skin.bodies, skin.bone, skin.weight, skin.local, skin.q_rest)
    with pytest.raises(SettingsError, match="the skin's spacing is not known"):
        sling_lift(sheet_vertices=100, bed_spacing=0.06, skin=bound)
    assert sling_lift(0.06, sheet_vertices=100, bed_spacing=0.06, skin=bound).contact.reach == scene.contact.reach


def test_a_sling_lift_refuses_a_skin_of_another_order_or_model(coarse_skin_6cm):
    """The athlete's bodies in another order, or a rest pose of another model's coordinates (the same body names),
    are not the athlete's skin: ModelError saying which."""
    skin = coarse_skin_6cm
    order = np.array([1, 0] + list(range(2, len(skin.bodies))))
    swapped = Skin(skin.mesh, tuple(skin.bodies[i] for i in order), np.argsort(order)[skin.bone], skin.weight,
                   skin.local, skin.q_rest, skin.spacing)
    with pytest.raises(ModelError, match=rf"the skin's bodies are in the order {skin.bodies[1]}, {skin.bodies[0]}, "):
        sling_lift(sheet_vertices=100, bed_spacing=0.06, skin=swapped)
    other = Skin(skin.mesh, skin.bodies, skin.bone, skin.weight, skin.local, skin.q_rest[:-1], skin.spacing)
    with pytest.raises(ModelError, match=rf"rest pose has {len(skin.q_rest) - 1} coordinates, the athlete "
                                         rf"{len(skin.q_rest)}: it is another model's skin"):
        sling_lift(sheet_vertices=100, bed_spacing=0.06, skin=other)
