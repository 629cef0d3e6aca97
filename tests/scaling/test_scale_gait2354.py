"""Subject scaling of gait2354 against OpenSim 4.6's ScaleTool run on the same setup (tests/data README)."""
import xml.etree.ElementTree as ET

import numpy as np

from engine.algorithms import neutral
from engine.data import Data
from engine.io.osim import read_osim
from engine.scaling.tool import placement_settings
from engine.tree import compile_tree
from tests.scaling.gait2354_scale import REFERENCE, coordinates, marker_locations, result

TORSO = ("Sternum", "R.Acromium", "L.Acromium", "Top.Head")


def test_every_body_scale_factor_within_half_a_percent_of_opensim():
    _, res = result()
    reference = ET.parse(REFERENCE / "subject01_scaleSet_applied.xml").getroot()
    checked = 0
    for scale in reference.iter("Scale"):
        body = scale.findtext("segment")
        if body in res.scaled.factors:
            theirs = np.array(scale.findtext("scales").split(), float)
            assert np.allclose(res.scaled.factors[body], theirs, rtol=5e-3, atol=0), body
            checked += 1
    assert checked == len(res.model.bodies) == 12


def test_masses_inertias_frames_and_muscles_equal_opensims_scaled_model():
    _, res = result()
    theirs = read_osim(REFERENCE / "subject01_scaledOnly.osim")
    ours = res.scaled.model
    assert abs(ours.total_mass - 72.6) < 1e-9
    for b in theirs.bodies:
        mine = ours.body(b.name)
        assert abs(mine.mass / b.mass - 1) < 1e-3, b.name
        assert np.allclose(mine.com, b.com, atol=1e-9) and np.allclose(mine.inertia, b.inertia, rtol=1e-6, atol=0)
        assert all(np.allclose(x.scale, y.scale, rtol=1e-12) for x, y in zip(mine.meshes, b.meshes, strict=True))
    for f in theirs.frames:
        mine = next(x for x in ours.frames if x.name == f.name)
        assert np.allclose(mine.placement.p, f.placement.p, atol=1e-12), f.name
    q = neutral(ours)
    q[compile_tree(ours).coordinates["knee_angle_r"].qi] = -1.2    # the knee's translation functions, scaled
    from engine import algorithms as alg
    a, b = Data(ours), Data(theirs)
    alg.forward_kinematics(ours, a, q)
    alg.forward_kinematics(theirs, b, q)
    assert np.allclose(alg.frame_placement(ours, a, "tibia_r").p, alg.frame_placement(theirs, b, "tibia_r").p,
                       atol=1e-12)
    for m in theirs.muscles:
        mine = ours.muscle(m.name)
        assert abs(mine.optimal_fiber_length / m.optimal_fiber_length - 1) < 1e-9, m.name
        assert abs(mine.tendon_slack_length / m.tendon_slack_length - 1) < 1e-9, m.name
        for p, r in zip(mine.path.points, m.path.points):
            assert np.allclose(p.location, r.location, atol=1e-12), (m.name, p.name)


def test_placement_matches_opensims_placement_solved_to_convergence():
    """OpenSim's own placement, solved to accuracy 1e-9 (reference/tight/make_tight_reference.py): every
    marker within 0.01 mm (the issue asks 1 mm), every coordinate within 0.001 degree (0.5 asked) and the
    pelvis translations within 0.01 mm: the same objective (Simbody's weighted-mean marker goal) solved."""
    _, res = result()
    theirs = marker_locations(REFERENCE / "tight" / "placed_markers.xml")
    ours = {m.name: m.offset for m in res.model.markers}
    assert set(theirs) == set(ours)
    worst = max(np.linalg.norm(ours[n] - theirs[n]) for n in theirs)
    assert worst < 1e-5, worst
    pose = coordinates(REFERENCE / "tight" / "static_pose.sto")
    for name, value in pose.items():
        slot = compile_tree(res.model).coordinates[name]
        limit = np.radians(1e-3) if slot.kind == "rotational" else 1e-5
        assert abs(res.placement.q[slot.qi] - value) < limit, name


def test_placement_matches_scaletools_output_where_its_solver_converged():
    """ScaleTool's stored placement (IK to accuracy 1e-4): leg and pelvis markers within 1 mm. Its torso
    markers hang on lumbar bending and rotation, which only weight-1 markers see: there its pose is 0.6
    degrees short of the optimum of OpenSim's own objective, which ours reaches (a lower cost)."""
    setup, res = result()
    theirs = marker_locations(REFERENCE / "subject01_simbody.osim")
    ours = {m.name: m.offset for m in res.model.markers}
    for name in set(theirs) - set(TORSO):
        assert np.linalg.norm(ours[name] - theirs[name]) < 1e-3, name
    model = res.scaled.model
    q_theirs = res.placement.q.copy()
    for name, value in coordinates(REFERENCE / "subject01_static_output.mot").items():
        q_theirs[compile_tree(model).coordinates[name].qi] = value
    settings = placement_settings(model, setup)
    static = _static_frame(setup)
    assert _cost(model, static, settings, res.placement.q) < _cost(model, static, settings, q_theirs)


def _static_frame(setup):
    from engine.io.trc import read_trc
    from engine.scaling.placement import averaged_frame
    return averaged_frame(read_trc(setup.placer.static_file).markers, setup.placer.time_range)


def _cost(model, static, settings, q):
    """The IK objective: sum of w |marker error|^2 + sum of w (q - target)^2 (OpenSim's, up to a factor)."""
    from engine import algorithms as alg
    positions = alg.marker_positions(model, Data(model), q)
    cost = 0.0
    for marker, p in zip(model.markers, positions):
        cost += settings.marker_weights.get(marker.name, 1.0) * np.sum((p - static.trajectory(marker.name)[0]) ** 2)
    for name, (w, target) in settings.coordinate_tasks.items():
        slot = compile_tree(model).coordinates[name]
        cost += w * (q[slot.qi] - (slot.default if target is None else target)) ** 2
    return cost


def test_walk1_ik_with_our_scaled_model_fits_as_well_as_with_opensims(test_data):
    from engine.analysis.ik import solve_ik
    from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
    from engine.io.trc import read_trc
    _, res = result()
    folder = test_data / "opensim" / "gait2354"
    trial = read_trc(folder / "subject01_walk1.trc")
    setup = read_ik_setup(folder / "subject01_Setup_IK.xml")
    rms = []
    for model in (res.model, read_osim(REFERENCE / "subject01_simbody.osim")):
        ik = solve_ik(model, trial.markers, ik_settings_from_setup(model, setup))
        assert np.all(ik.status == 1)
        rms.append(np.sqrt(np.nanmean(ik.errors ** 2)))
    assert abs(rms[0] - rms[1]) < 0.5e-3, rms
