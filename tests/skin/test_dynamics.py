"""Forward dynamics of a skinned body (seed eq. 1): energy without contact, equilibrium on a flat support."""
from __future__ import annotations

import numpy as np
import pytest

from engine.algorithms import frame_jacobian, kinetic_energy, potential_energy, neutral
from engine.data import Data
from engine.model import Body, Coordinate, FreeJoint, Model, RevoluteJoint
from engine.spatial import SE3
from engine.tree import compile_tree
from skin.device import RigidDevice
from skin.mesh import grid_sheet
from skin.scene import Scene
from skin.simulation import Simulator, simulate
from skin.skinning import Skin
from skin.stiffness import table_one
from .conftest import random_pose


def _ellipsoid_body(name, mass, radii, com):
    a, b, c = radii
    return Body(name, mass, np.asarray(com, float), mass / 5 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b]))


def slab_model():
    """A flat trunk on a free joint and a leg hinged to it (both lying in the x-z plane)."""
    trunk = _ellipsoid_body("trunk", 30.0, (0.35, 0.08, 0.2), (0, 0, 0))
    leg = _ellipsoid_body("leg", 8.0, (0.25, 0.06, 0.08), (0.25, 0, 0))
    joints = [FreeJoint("root", "ground", "trunk"),
              RevoluteJoint("knee", "trunk", "leg", parent_offset=SE3(np.eye(3), np.array([0.36, 0.0, 0.0])),
                            coordinates=(Coordinate("knee_angle"),))]
    return Model("slab", [trunk, leg], joints)


def test_energy_is_conserved_without_contact_to_fourth_order(athlete, rng):
    """No device, no damping (PD springs only, rods held): the energy drift falls as dt^4."""
    q0 = random_pose(athlete, rng, 0.2)
    v0 = 0.5 * rng.standard_normal(athlete.nv)
    v0[[i for i, n in enumerate(compile_tree(athlete).v_names) if n.startswith("blade")]] = 0.0
    skin = Skin.generate(athlete, spacing=0.06, bodies=["pelvis", "torso"])
    stiffness = table_one(athlete, neutral(athlete), damping=0.0, limit=0.0)
    data = Data(athlete)

    def energy(q, v):
        return kinetic_energy(athlete, data, q, v) + potential_energy(athlete, data, q) + stiffness.energy(q)

    drifts = []
    for dt in (2e-3, 1e-3):
        scene = Scene("free", athlete, skin, q0, stiffness, dt=dt, duration=0.1, v0=v0)
        sim = Simulator(scene)
        e0 = energy(sim.q, sim.v)
        for _ in range(int(round(0.1 / dt))):
            sim.step()
        drifts.append(abs(energy(sim.q, sim.v) - e0))
    assert drifts[0] / max(drifts[1], 1e-300) > 10.0       # 16 for 4th order
    assert drifts[1] < 1e-4 * abs(e0)


@pytest.fixture(scope="module")
def slab():
    model = slab_model()
    return model, Skin.generate(model, spacing=0.02)


def _resting_scene(model, skin, duration=0.02, **options):
    """The slab in the neutral pose, its lowest skin point 2 mm above a flat rigid support."""
    q = neutral(model)
    q[1] -= skin.vertices(model, Data(model), q)[:, 1].min() - 0.002
    support = RigidDevice("support", grid_sheet(1.6, 0.8, 81, 41))
    return Scene("rest", model, skin, q, table_one(model, q), devices=(support,), dt=2e-3, duration=duration, **options)


def test_body_resting_on_a_flat_support_carries_its_weight(slab):
    model, skin = slab
    data = Data(model)
    scene = _resting_scene(model, skin, duration=1.0)
    result = simulate(scene, record_every=25)
    weight = -sum(b.mass for b in model.bodies) * model.gravity[1]
    late = result.time >= 0.7             # it lands, bounces and settles within about half a second
    assert late.sum() >= 6
    np.testing.assert_array_less(np.abs(result.contact_force[late, 1] - weight), 0.005 * weight)
    # it rocks slowly about its long axis (rolling without slip is not damped by eq. 7) but no longer moves
    np.testing.assert_array_less(np.abs(result.v[late][:, 3:6]), 0.05)
    # the pressure is where the skin is lowest, zero on top
    x = skin.vertices(model, data, result.q[-1])
    loaded = result.pressure[-1] > 0
    assert loaded.sum() > 20
    assert x[loaded, 1].max() < x[:, 1].min() + 0.02


def test_a_skin_come_apart_is_a_divergence_not_an_allocation():
    """The contact grid refuses points a body cannot span (the simulation then stops with a note)."""
    from skin._kernels_contact import candidate_lists, grid_layout
    with pytest.raises(FloatingPointError, match="more than 10 m"):
        grid_layout(np.array([[0.0, 0.0, 0.0], [20.0, 0.0, 0.0]]), 0.02)
    with pytest.raises(FloatingPointError, match="more grid cells"):
        grid_layout(np.array([[0.0, 0.0, 0.0], [9.0, 9.0, 9.0]]), 0.018)
    x = np.array([[0.0, 0.0, 0.0], [0.5, 1.8, 0.4]])
    near, candidates = candidate_lists(x, np.array([[0.5, 1.79, 0.4]]), 0.018)
    assert list(candidates[near[0]:near[1]]) == [1]


def test_a_skin_gone_nan_stops_the_run_naming_the_time_and_the_vertex(slab):
    """A diverged body (here its knee's angle NaN after five steps; its velocity NaN from the start) puts NaN in the
    skin: the step is refused naming a skin vertex the knee moves (the leg's), and ``simulate`` stops with a note
    giving the time, instead of the contact passing over those vertices."""
    model, skin = slab
    knee = compile_tree(model).coordinates["knee_angle"]
    leg = skin.bodies.index("leg")
    for integrator in ("rk4", "linearly-implicit-euler"):
        sim = Simulator(_resting_scene(model, skin, integrator=integrator))
        for _ in range(5):
            sim.step()
        sim.q[knee.qi] = np.nan
        with pytest.raises(FloatingPointError, match=r"skin vertex \d+ is not finite") as caught:
            sim.step()
        vertex = int(str(caught.value).split()[2].rstrip(":"))
        assert leg in skin.bone[vertex][skin.weight[vertex] > 0]
    v0 = np.zeros(model.nv)
    v0[knee.vi] = np.nan
    result = simulate(_resting_scene(model, skin, v0=v0), record_every=1)
    assert len(result.notes) == 1 and "diverged at 0.0000 s (skin vertex" in result.notes[0], result.notes
    assert result.time[-1] == 0.0


def test_contact_stiffness_rows_are_the_normals_through_the_skin_jacobian(athlete, coarse_skin, rng):
    """The implicit step's contact stiffness ``rows^T rows`` is ``sum_i k_i J_i^T n_i n_i^T J_i`` and its devices' term
    ``rows^T rates`` is ``sum_i k_i J_i^T n_i (n_i . u_i)``, with ``J_i`` eq. 11's Jacobian of the skin (itself checked against finite differences in test_skinning), over the vertices with a
    stiffness, restricted to the chosen coordinates."""
    from skin import _kernels_contact as kc
    skin = coarse_skin
    q = random_pose(athlete, rng)
    data = Data(athlete)
    J = skin.jacobian(athlete, data, q)
    R, _ = skin.bone_frames(athlete, data)
    JB = np.stack([frame_jacobian(athlete, data, q, b) for b in skin.bodies])
    normals = rng.standard_normal((skin.n_vertices, 3))
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    k = np.where(rng.random(skin.n_vertices) < 0.3, rng.uniform(1e3, 4e4, skin.n_vertices), 0.0)
    u = rng.standard_normal((skin.n_vertices, 3))                  # the devices' velocities at the contacts
    k_skin = np.stack([k, k * np.einsum("ic,ic->i", normals, u)], axis=1)
    vi = np.sort(rng.choice(athlete.nv, athlete.nv - 5, replace=False))
    rows, rates = np.empty((skin.n_vertices, len(vi))), np.empty(skin.n_vertices)
    m = kc.normal_rows(R, skin.bone, skin.weight, skin.local, JB, normals, k_skin, vi, rows, rates)
    assert m == (k > 0).sum()
    nJ = np.einsum("ic,icd->id", normals, J)[:, vi]
    expected = nJ.T @ (k[:, None] * nJ)
    np.testing.assert_allclose(rows[:m].T @ rows[:m], expected, rtol=1e-10, atol=1e-10 * np.abs(expected).max())
    rate = nJ.T @ k_skin[:, 1]                                     # J^T sum k n (n . u)
    np.testing.assert_allclose(rows[:m].T @ rates[:m], rate, rtol=1e-10, atol=1e-10 * np.abs(rate).max())


def test_implicit_step_converges_at_first_order_to_rk4(athlete, rng):
    """Without contact, the linearly implicit Euler step (joint springs and dampers implicit) approaches a fine RK4
    solution at first order: halving the step halves the error."""
    q0 = random_pose(athlete, rng, 0.2)
    v0 = 0.5 * rng.standard_normal(athlete.nv)
    v0[[i for i, n in enumerate(compile_tree(athlete).v_names) if n.startswith("blade")]] = 0.0
    skin = Skin.generate(athlete, spacing=0.06, bodies=["pelvis", "torso"])
    stiffness = table_one(athlete, neutral(athlete), limit=0.0)

    def final(dt, integrator):
        sim = Simulator(Scene("free", athlete, skin, q0, stiffness, dt=dt, duration=0.05, v0=v0,
                              integrator=integrator))
        for _ in range(int(round(0.05 / dt))):
            sim.step()
        return sim.v

    reference = final(2.5e-4, "rk4")
    errors = [np.abs(final(dt, "linearly-implicit-euler") - reference).max() for dt in (2e-3, 1e-3)]
    assert 1.6 < errors[0] / errors[1] < 2.5


def test_elastic_rods_take_the_engine_s_forward_dynamics_with_the_rods_passive_forces(athlete, rng):
    """With ``elastic_rods`` (no device) the body's acceleration is the engine's ``forward_dynamics`` with the rods'
    elastic and viscous forces (seed eq. 26) and the joint springs as ``tau``; without, the blade's strains are held
    (zero acceleration) and the rest is the same equations with those columns removed."""
    from engine.algorithms import crba, forward_dynamics, rnea, rod_forces
    q = random_pose(athlete, rng, 0.2)
    v = 0.5 * rng.standard_normal(athlete.nv)
    blade = np.array([i for i, n in enumerate(compile_tree(athlete).v_names) if n.startswith("blade")])
    assert blade.size and np.abs(rod_forces(athlete, q, v)[blade]).max() > 1.0        # the pose strains the blade
    skin = Skin.generate(athlete, spacing=0.06, bodies=["pelvis", "torso"])
    stiffness = table_one(athlete, neutral(athlete))
    data = Data(athlete)
    tau = stiffness.torque(q, v)
    elastic = Simulator(Scene("elastic", athlete, skin, q, stiffness, elastic_rods=True, v0=v))
    expected = forward_dynamics(athlete, data, q, v, tau, passive=True)
    np.testing.assert_allclose(elastic.acceleration(0.0, q, v), expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    held = Simulator(Scene("held", athlete, skin, q, stiffness, v0=v)).acceleration(0.0, q, v)
    assert not held[blade].any()
    free = np.setdiff1d(np.arange(athlete.nv), blade)
    M, rhs = crba(athlete, data, q), tau - rnea(athlete, data, q, v, np.zeros(athlete.nv))
    np.testing.assert_allclose(held[free], np.linalg.solve(M[np.ix_(free, free)], rhs[free]), rtol=1e-9,
                               atol=1e-9 * np.abs(held).max())


def test_a_state_gone_nan_without_raising_is_noted_when_recorded(slab, monkeypatch):
    """A step can leave a NaN state without raising (RK4's final sum, the implicit solve): recording it (every step
    here) refuses the NaN skin, and ``simulate`` stops with the divergence note at that time, not a traceback."""
    model, skin = slab
    knee = compile_tree(model).coordinates["knee_angle"]
    step = Simulator.step

    def step_then_nan(sim):
        step(sim)
        if sim.t > 2.5 * sim.scene.dt:           # after the third step
            sim.q[knee.qi] = np.nan

    monkeypatch.setattr(Simulator, "step", step_then_nan)
    scene = _resting_scene(model, skin)
    result = simulate(scene, record_every=1)
    assert len(result.notes) == 1 and "diverged at 0.0060 s (skin vertex" in result.notes[0], result.notes
    np.testing.assert_allclose(result.time, [0.0, 0.002, 0.004])
    assert np.isfinite(result.q).all()


def test_record_reads_pressure_over_the_vertex_areas_without_computing_the_normals_again(slab, monkeypatch):
    """``record`` divides the normal force by each vertex's area (a third of its triangles', from the cross products
    here) and takes the normals ``forces`` computed: no kernel of normals runs a second time."""
    import skin.simulation as simulation
    from skin._kernels_mesh import vertex_areas

    def refused(*args):
        raise AssertionError("record computed the vertex normals a second time")

    monkeypatch.setattr(simulation, "vertex_normals_areas", refused, raising=False)
    model, skin = slab
    sim = Simulator(_resting_scene(model, skin))
    sim.q[1] -= 0.005                           # 3 mm into the support
    pressure, _, _, _ = sim.record()
    x, tris = sim.x, skin.mesh.triangles
    a, b, c = (x[tris[:, k]] for k in range(3))
    third = np.linalg.norm(np.cross(b - a, c - a), axis=1) / 6.0
    areas = np.zeros(len(x))
    for k in range(3):
        np.add.at(areas, tris[:, k], third)
    assert (sim.f_normal > 0).sum() > 20
    np.testing.assert_allclose(pressure, sim.f_normal / areas, rtol=1e-12)
    mine = np.empty(len(x))
    vertex_areas(x, tris, mine)
    np.testing.assert_allclose(mine, areas, rtol=1e-12)
