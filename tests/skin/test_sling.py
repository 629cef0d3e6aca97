"""The seed's sling lift (section VI-B, Fig. 5) on a coarse version of the built-in scene (3 cm skin, an 800-vertex
sling sheet from the shoulders to the knees, the bed every 3 cm): the rising sling lifts the body off the bed and
carries it, the sheet hangs from strap loops at its corners and stays outside the skin (its contact with the skin is
as stiff as the sheet, Table I, and implicit in the sheet's step), the arms lie outside the sling and its foot edge
under the thighs by the knees, and a sensor between skin and sling reads the load on the regions it carries. The
knees' reading highest (the seed's Fig. 5) is asserted at the seed's sizes (``seed_lifted``): on the coarse scene
that order flips with a nudge of 1e-9 rad to one start coordinate (docs/mass-spring-sheet.md)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from engine.algorithms import forward_kinematics, frame_placement
from engine.data import Data
from skin.outcomes import hanging_window, sensor_window_summary
from skin.scenes import ARM_CLEARANCE, HOOK_LOOP, SLING_BEHIND_KNEE, sling_lift
from skin.simulation import simulate

END = 3.0       # s: the bar stops rising at 1.7 s; the body hangs from 2.0 s (outcomes.hanging_window)


@pytest.fixture(scope="module")
def lifted():
    scene = sling_lift(spacing=0.03, sheet_vertices=800, bed_spacing=0.03)
    return scene, simulate(scene, duration=END, record_every=100)


@pytest.fixture(scope="module")
def seed_lifted():
    """The built-in scene at the seed's sizes (1.2 cm skin, 14k vertices; the 4k-vertex sling; the bed every 1.5 cm),
    recorded every 0.2 s: six records over the hang (2.0-3.0 s), the records its order was measured on (the test's
    docstring)."""
    scene = sling_lift(spacing=0.012, sheet_vertices=4000, bed_spacing=0.015)
    return scene, simulate(scene, duration=END, record_every=100)


def _carried(skin):
    """The skin vertices of the trunk, pelvis and thighs (by their main bone), which the sling carries."""
    main = skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]
    return np.isin(main, [skin.bodies.index(b) for b in ("pelvis", "torso", "femur_l", "femur_r")])


def _skin(scene, q):
    x = scene.skin.vertices(scene.model, Data(scene.model), q)
    normals, areas = scene.skin.mesh.normals_areas(x)
    return x, normals, areas


def test_the_sling_hangs_from_strap_loops_at_its_corners(lifted):
    """The sling is held by its hooks' strap loops, not at vertices: every vertex within HOOK_LOOP along x and
    along z of one of its corners (the first and last rows' outermost vertices, found here) and no other, more
    than one at each corner; over the run the held vertices keep their distances (carried by one bar)."""
    scene, result = lifted
    (sling,) = scene.sheets
    v = sling.mesh.vertices
    corners = []
    for x in (v[:, 0].min(), v[:, 0].max()):
        row = np.flatnonzero(np.abs(v[:, 0] - x) < 1e-9)
        corners += [row[np.argmin(v[row, 2])], row[np.argmax(v[row, 2])]]
    near = [np.flatnonzero(np.all(np.abs(v[:, [0, 2]] - v[c, [0, 2]]) <= HOOK_LOOP + 1e-9, axis=1)) for c in corners]
    assert all(len(n) > 1 for n in near)
    assert sorted(sling.held) == sorted(np.concatenate(near).tolist())
    held = result.sheets[sling.name][:, list(sling.held)].astype(float)
    gaps = np.linalg.norm(held[:, :, None] - held[:, None, :], axis=-1)
    assert np.abs(gaps - gaps[0]).max() < 1e-4                     # float32 records


def test_the_rising_sling_lifts_the_body_off_the_bed(lifted):
    scene, result = lifted
    assert not result.notes
    sheet = scene.sheets[0]
    assert all(s.motion is sheet.motion for s in scene.sheets)    # every hook on the one bar
    rise = sheet.motion.height                                     # the bar's rise, m
    start, bar_end = np.searchsorted(result.time, [sheet.motion.start, sheet.motion.end])
    pelvis = result.q[:, 1] - result.q[start, 1]                   # from where it lay on the bed as the bar rose
    assert pelvis[-1] > rise / 4                                   # lifted, though the sling sags under the load
    assert pelvis[-1] > 2 / 3 * pelvis[bar_end]                    # it bounces, but does not fall back
    x, _, _ = _skin(scene, result.q[-1])
    bed_top = scene.devices[0].placement0.p[1]
    assert x[_carried(scene.skin), 1].min() > bed_top + 0.02       # trunk and thighs off the bed (the heels may drag)


def _inside(points, x, triangles):
    """Whether each point lies inside the closed surface ``(x, triangles)``: an upward ray from it crosses the
    surface an odd number of times (each triangle's shadow on the x-z plane holding the point, above it)."""
    a, b, c = (x[triangles[:, k]] for k in range(3))
    e1, e2 = (b - a)[:, [0, 2]], (c - a)[:, [0, 2]]
    det = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    r = points[:, None, [0, 2]] - a[None, :, [0, 2]]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (r[..., 0] * e2[:, 1] - r[..., 1] * e2[:, 0]) / det
        v = (e1[:, 0] * r[..., 1] - e1[:, 1] * r[..., 0]) / det
    hit = (u >= 0) & (v >= 0) & (u + v < 1) & (det != 0)
    y = a[:, 1] + u * (b - a)[:, 1] + v * (c - a)[:, 1]
    return (hit & (y > points[:, None, 1])).sum(axis=1) % 2 == 1


def test_the_sheet_stays_outside_the_skin(lifted):
    """At every record no sheet vertex is deep inside the trunk, pelvis or thighs, which the sling carries: inside the
    closed skin (ray parity) and farther than the contact's reach from every skin vertex (a k-d tree, not the
    simulation's grid), where the contact no longer sees it and a sheet passing through the pelvis goes; the contact's
    own penetration (force over stiffness) is millimetres. (Where a forearm lies against the trunk the one closed skin
    merges them, and the sheet's side caught in the crease is inside it: the arms are not counted.)"""
    scene, result = lifted
    skin = scene.skin
    reach = scene.contact.reach
    carried = _carried(skin)
    inside_any = False
    for k, q in enumerate(result.q):
        x, _, _ = _skin(scene, q)
        p = np.concatenate([result.sheets[s.name][k] for s in scene.sheets]).astype(float)
        inside = _inside(p, x, skin.mesh.triangles)
        distance, nearest = cKDTree(x).query(p)
        assert not np.any(inside & (distance > reach) & carried[nearest])
        inside_any |= inside.any()
    assert inside_any                                              # the sheet did press into the skin


def test_the_bed_holds_the_sheet_up(lifted):
    """The sling lies on the bed until it rises: at every record no sheet vertex is below the bed's top surface by
    more than 8 mm, and before the bar rises the sheet rests on it (within 1 cm) instead of sagging through it (by 17
    cm before the bed held the sheet). Penalty contact lets a vertex in by its force over k_contact: this coarse sheet
    carries the landing body on a few dozen vertices, up to some 100 N each, 5 mm."""
    scene, result = lifted
    bed = scene.devices[0]
    top = bed.placement0.p[1]
    x0, x1 = bed.mesh.vertices[:, 0].min() + bed.placement0.p[0], bed.mesh.vertices[:, 0].max() + bed.placement0.p[0]
    sheets = np.concatenate([result.sheets[s.name] for s in scene.sheets], axis=1).astype(float)
    over = (sheets[..., 0] >= x0) & (sheets[..., 0] <= x1)
    assert over.all()                                              # the sheet lies over the bed throughout
    assert sheets[..., 1].min() > top - 0.008
    start = result.time < scene.sheets[0].motion.start
    assert np.abs(sheets[start][..., 1] - top).max() < 0.01


def test_the_pressure_lands_on_the_back(lifted):
    """At the end most of the sling's normal force acts on the skin facing down (the back, buttocks and thighs; its
    rising sides press the flanks and arms too), and its upward push over the last 0.2 s carries about the body's
    weight (the body swings: within 35%)."""
    scene, result = lifted
    x, normals, areas = _skin(scene, result.q[-1])
    force = result.pressure[-1] * areas
    assert force[normals[:, 1] < 0.0].sum() > 0.8 * force.sum()
    mass = sum(b.mass for b in scene.model.bodies)
    up = result.contact_force[result.time >= END - 0.2 - 1e-9, 1].mean()
    assert up == pytest.approx(mass * np.linalg.norm(scene.model.gravity), rel=0.35)


def _arm_skin(skin):
    main = skin.bone[np.arange(skin.n_vertices), np.argmax(skin.weight, axis=1)]
    return np.isin(main, [skin.bodies.index(f"{b}_{s}") for b in ("humerus", "forearm", "hand") for s in "lr"])


def test_the_arms_lie_outside_the_sling(lifted):
    """At the start no sling vertex lies under an arm (each is more than ARM_CLEARANCE / 2 from every arm skin vertex
    across the bed, x-z), and while the body hangs the sling presses the limp arms, hanging beside it, with less than a
    tenth of the body's weight (on the skin generated in the neutral pose its sides pressed them against the trunk and
    they read highest). The hanging hands reach the bed: the skin within 0.1 m of the bed's top is the bed's, not the
    sling's."""
    scene, result = lifted
    x, _, _ = _skin(scene, scene.q0)
    arms = x[_arm_skin(scene.skin)][:, [0, 2]]
    for sheet in scene.sheets:
        gap, _ = cKDTree(arms).query(sheet.mesh.vertices[:, [0, 2]])
        assert gap.min() > ARM_CLEARANCE / 2, sheet.name
    start, end = hanging_window(scene, result)
    bed_top = scene.devices[0].placement0.p[1]
    weight = sum(b.mass for b in scene.model.bodies) * np.linalg.norm(scene.model.gravity)
    on_arms = []
    for q, pressure in zip(result.q[result.time >= start - 1e-9], result.pressure[result.time >= start - 1e-9]):
        x, _, areas = _skin(scene, q)
        on_arms.append((pressure * areas)[_arm_skin(scene.skin) & (x[:, 1] > bed_top + 0.1)].sum())
    assert np.mean(on_arms) < 0.1 * weight


def test_the_slings_foot_edge_stays_under_the_thighs_by_the_knees(lifted):
    """The sling's foot edge (its rest mesh's last row, SLING_BEHIND_KNEE behind the knees) stays under the thighs by
    the knees: at every record of the hang some of its vertices touch the skin (within the contact's reach of a skin
    vertex), and every one that does lies between its nearer knee's centre and twice SLING_BEHIND_KNEE from it along
    that thigh's axis: a sling slid up the thighs (the body slipping out towards the feet) or past the knees would
    not. (At some records only the right thigh touches the sling's last rows.)"""
    scene, result = lifted
    model, data = scene.model, Data(scene.model)
    (sling,) = scene.sheets
    edge = np.flatnonzero(sling.mesh.vertices[:, 0] == sling.mesh.vertices[:, 0].max())
    start, _ = hanging_window(scene, result)
    for k in np.flatnonzero(result.time >= start - 1e-9):
        forward_kinematics(model, data, result.q[k])
        knees = np.array([frame_placement(model, data, f"tibia_{s}").p for s in "lr"])
        hips = np.array([frame_placement(model, data, f"femur_{s}").p for s in "lr"])
        axes = (knees - hips) / np.linalg.norm(knees - hips, axis=1)[:, None]
        x, _, _ = _skin(scene, result.q[k])
        p = result.sheets[sling.name][k][edge].astype(float)
        p = p[cKDTree(x).query(p)[0] < scene.contact.reach]
        assert len(p) > 0
        side = np.argmin(np.linalg.norm(p[:, None] - knees[None], axis=-1), axis=1)
        behind = np.einsum("ij,ij->i", knees[side] - p, axes[side])       # m up the thigh from the knee's centre
        assert behind.min() > 0 and behind.max() < 2 * SLING_BEHIND_KNEE


def test_the_sheets_share_of_the_pressure_is_the_slings(lifted):
    """``sheet_pressure`` is the sheets' share of the skin's pressure: at every record between zero and the whole
    (float32 records), and while the body hangs the rest (the bed's) lies only on skin within 0.1 m of the bed's top
    (the hands and heels), where the sling does not press."""
    scene, result = lifted
    P, S = result.pressure.astype(float), result.sheet_pressure.astype(float)
    assert (S >= 0).all() and (S <= P * (1 + 1e-6)).all()
    start, _ = hanging_window(scene, result)
    bed_top = scene.devices[0].placement0.p[1]
    for k in np.flatnonzero(result.time >= start - 1e-9):
        x, _, _ = _skin(scene, result.q[k])
        bed = P[k] - S[k] > 1e-6 * P[k].max()
        low = x[:, 1] < bed_top + 0.1
        assert bed.any() and (low | ~bed).all()
        assert (S[k][low] == 0).all()

def test_the_sensor_leaves_out_little_of_the_slings_load(lifted):
    """Over the hang the sensor (``outcomes.sensor_window_summary``) reads every region the sling carries (the upper
    back, hip and knees read above zero), and the cells it leaves out there (skin folded below ``FOLDED`` of its rest
    area, behind the knees and around the shoulders) carry under a tenth of each region's force from the sling: the
    reading is of the load, not of what is left of it."""
    scene, result = lifted
    read = sensor_window_summary(scene, result, hanging_window(scene, result))
    for name in ("upper back", "hip", "knees"):
        p95, _, force, _, left_force = read[name]
        assert p95 > 0 and force > 0, name
        assert left_force < 0.1 * force, name


def test_a_sling_on_a_skin_of_another_rest_pose_lies_in_the_a_pose():
    """``sling_lift(skin=...)`` (the skin's levers, benchmarks/sling_skin_levers.py): a skin generated with the knees
    bent 90 degrees is the scene's skin, watched vertex by vertex, and the body still lies in the A-pose, knees
    straight, its lowest skin 4 mm above the bed's top (lying in the skin's rest pose, it would kneel up)."""
    from engine.tree import compile_tree
    from skin.rest_pose import a_pose
    from skin.scenes import athlete, skinned_bodies
    from skin.skinning import Skin
    model = athlete()
    q_rest = a_pose(model)
    knees = [compile_tree(model).coordinates[f"knee_angle_{s}"].qi for s in "lr"]
    q_rest[knees] = np.radians(-90.0)
    bent = Skin.generate(model, q_rest=q_rest, spacing=0.04, bodies=skinned_bodies(model))
    scene = sling_lift(spacing=0.04, sheet_vertices=400, bed_spacing=0.04, skin=bent)
    assert scene.skin is bent
    assert all(len(mask) == bent.n_vertices for mask in scene.watch.values())
    np.testing.assert_array_equal(scene.q0[7:], a_pose(model)[7:])
    x, _, _ = _skin(scene, scene.q0)
    bed_top = scene.devices[0].placement0.p[1]
    assert x[:, 1].min() - bed_top == pytest.approx(0.004 + 0.002, abs=1e-9)


def test_a_sling_on_a_skin_missing_a_body_is_refused():
    """A skin without the athlete's left hand (or with a body the athlete has no skin on) is a ModelError naming the
    body, not a failed look-up of its index deep in the scene's making."""
    from engine.errors import ModelError
    from skin.scenes import athlete, skinned_bodies
    from skin.skinning import Skin
    model = athlete()
    handless = Skin.generate(model, spacing=0.06, bodies=[b for b in skinned_bodies(model) if b != "hand_l"])
    with pytest.raises(ModelError, match="lacks the athlete's 'hand_l'"):
        sling_lift(spacing=0.06, sheet_vertices=100, bed_spacing=0.06, skin=handless)
    socketed = Skin.generate(model, spacing=0.06, bodies=[b.name for b in model.bodies])
    with pytest.raises(ModelError, match="has 'socket_r', which the athlete has no skin on"):
        sling_lift(spacing=0.06, sheet_vertices=100, bed_spacing=0.06, skin=socketed)


def test_the_slings_assumed_values_reach_its_sheet_contact_and_bar():
    """``sling_lift``'s assumed values (benchmarks/sling_pressure_order.py varies them): the sheet's foot edge lies
    ``behind_knee`` short of the nearer knee's centre along the body (found here from the knees' frames), the sheet's
    springs and the contact share ``stiffness``, the contact's mu is ``friction`` and the bar rises ``rise``."""
    scene = sling_lift(spacing=0.04, sheet_vertices=400, bed_spacing=0.04, behind_knee=0.08, stiffness=1e4,
                       friction=0.6, rise=0.5)
    (sheet,) = scene.sheets
    data = Data(scene.model)
    forward_kinematics(scene.model, data, scene.q0)
    knee = min(frame_placement(scene.model, data, f"tibia_{s}").p[0] for s in "lr")
    assert sheet.mesh.vertices[:, 0].max() == pytest.approx(knee - 0.08, abs=1e-9)
    assert sheet.stiffness == scene.contact.stiffness == 1e4
    assert scene.contact.friction == 0.6
    assert sheet.motion.placement(sheet.motion.end)[1][1] - sheet.motion.placement(0.0)[1][1] == pytest.approx(0.5)


def test_the_knees_read_highest_the_upper_back_and_hip_lower(seed_lifted):
    """The seed's Fig. 5 at the seed's sizes: "highest pressure areas at the knees and slightly low pressures at the
    upper back and the hip". The sensor's reading over the hang (95th percentile of each region's loaded cells): the
    knees' exceeds the upper back's and the hip's by more than a tenth, and these two are not negligible (above a
    quarter of the knees': "slightly" lower). The legs hang on the sling's foot edge and its corners' loops, on a band
    of skin by the knees; the back and buttocks lie on the broad sheet. The run is chaotic (a contact made or missed
    a step earlier): read on these records, its start gives knees / max(upper back, hip) 1.74, and seven starts
    nudged by 1e-9 to 1e-6 rad in one coordinate of ``q0`` 1.29, 1.29, 1.38, 1.51, 1.23, 1.41, 1.26, the lowest (1.23)
    the margin of the 1.1 asserted; min(upper back, hip) / knees 0.55 to 0.81 over the eight, against the quarter
    asserted (docs/mass-spring-sheet.md). On the coarse scene the same nudges spread the ratio from 0.92 to 1.54:
    there the order is not asserted."""
    scene, result = seed_lifted
    read = sensor_window_summary(scene, result, hanging_window(scene, result))
    knees, back, hip = (read[name][0] for name in ("knees", "upper back", "hip"))
    assert knees > 1.1 * max(back, hip)
    assert min(back, hip) > 0.25 * knees
