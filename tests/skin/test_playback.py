"""A run shown frame by frame (``skin.playback``): the skin where the recorded pose puts it, the devices where their
motion puts them, the pressure in kPa; the step generator's progress."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import forward_kinematics, frame_placement, neutral
from engine.data import Data
from engine.progress import run
from skin.device import LiftMotion, RigidDevice
from skin.mesh import grid_sheet
from skin.playback import Playback
from skin.scene import Scene
from skin.simulation import simulation_steps
from skin.skinning import Skin
from skin.stiffness import table_one
from .test_dynamics import slab_model

RISE, RAMP = 0.05, 0.04      # m, s: the support rises 5 cm over the first 40 ms


@pytest.fixture(scope="module")
def lifted():
    """A slab dropped 1 mm above a support that rises, run 60 ms recorded every 10 steps of 2 ms."""
    model = slab_model()
    skin = Skin.generate(model, spacing=0.03)
    q = neutral(model)
    q[1] -= skin.vertices(model, Data(model), q)[:, 1].min() - 0.001
    support = RigidDevice("support", grid_sheet(1.6, 0.8, 41, 21), LiftMotion(height=RISE, start=0.0, end=RAMP))
    scene = Scene("lifted", model, skin, q, table_one(model, q), devices=(support,), dt=2e-3, duration=0.06)
    reports = []
    result = run(simulation_steps(scene, record_every=10), reports.append)
    return Playback(scene, result), reports


def test_the_progress_counts_the_steps_to_the_end(lifted):
    playback, reports = lifted
    fractions = [p.fraction for p in reports]
    assert len(reports) == playback.n_frames == 4                     # steps 0, 10, 20, 30
    assert fractions[-1] == 1.0 and np.all(np.diff(fractions) > 0)
    assert np.allclose(playback.time, [0.0, 0.02, 0.04, 0.06])


def test_the_skin_moves_with_its_bones_at_the_recorded_pose(lifted):
    """Vertices bound to the trunk alone move rigidly with the trunk's recorded placement."""
    playback, _ = lifted
    scene, skin = playback.scene, playback.scene.skin
    model, data = scene.model, Data(scene.model)
    trunk = skin.bodies.index("trunk")
    rigid = np.all((skin.bone == trunk) | (skin.weight == 0.0), axis=1)
    assert rigid.sum() > 50
    forward_kinematics(model, data, skin.q_rest)
    rest = frame_placement(model, data, "trunk")
    moved = False
    for frame in range(playback.n_frames):
        forward_kinematics(model, data, playback.result.q[frame])
        now = frame_placement(model, data, "trunk")
        expected = (skin.mesh.vertices[rigid] - rest.p) @ rest.R @ now.R.T + now.p
        x = playback.skin_vertices(frame)
        np.testing.assert_allclose(x[rigid], expected, atol=1e-12)
        moved |= np.abs(x - skin.mesh.vertices).max() > 1e-3
    assert moved                     # the support lifted the body


def test_devices_and_pressure_at_a_frame(lifted):
    playback, _ = lifted
    mesh = playback.scene.devices[0].mesh
    for frame, t in enumerate(playback.time):
        (name, x, triangles), = playback.device_surfaces(frame)
        rise = RISE * 0.5 * (1.0 - np.cos(np.pi * min(t, RAMP) / RAMP))       # the (1 - cos)/2 ramp, closed form
        assert name == "support" and triangles is mesh.triangles
        np.testing.assert_allclose(x, mesh.vertices + [0.0, rise, 0.0], atol=1e-12)
        np.testing.assert_allclose(playback.pressure_kpa(frame) * 1e3, playback.result.pressure[frame], rtol=1e-12)
    assert playback.peak_pressure_kpa() > 0.0
    assert playback.peak_pressure_kpa() == pytest.approx(1e-3 * playback.result.pressure.max(), rel=1e-6)


def test_the_colour_scale_leaves_the_share_asked_of_the_loaded_samples_above(lifted):
    playback, _ = lifted
    loaded = playback.result.pressure[playback.result.pressure > 0].astype(float)
    assert loaded.size > 20
    for share in (0.1, 0.25):
        top = playback.pressure_scale_kpa(share) * 1e3
        above = int((loaded > top * (1 + 1e-9)).sum())
        assert 0.0 < top < loaded.max() and abs(above - share * (loaded.size - 1)) <= 1     # quantile interpolated
