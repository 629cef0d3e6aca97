"""What the .osim importer builds: joint semantics, functions, couplers, frames, muscles, warnings."""
from __future__ import annotations

import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.io.osim import read_osim
from engine.model import GeneralJoint, RevoluteJoint, SimmSpline
from engine.model.muscles import ConditionalPathPoint, MovingPathPoint, WrapCylinder, WrapEllipsoid
from engine.spatial import SE3, axis_angle, body_fixed_xyz
from engine.tree import compile_tree

X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
PARENT_OFFSET = SE3.from_translation_xyz((0.1, 0.2, -0.3), (0.4, -0.5, 0.6))
CHILD_OFFSET = SE3.from_translation_xyz((-0.05, 0.3, 0.02), (-0.2, 0.1, 0.3))


# ------------------------------------------------------------ synthetic files
def vec(v):
    return " ".join(repr(float(x)) for x in v)


def body(name, extra=""):
    return (f'<Body name="{name}"><mass>2.5</mass><mass_center>0.1 -0.2 0.05</mass_center>'
            f"<inertia>0.3 0.4 0.5 0.01 -0.02 0.03</inertia>{extra}</Body>")


def coordinate(name, lo=-3.0, hi=3.0):
    return (f'<Coordinate name="{name}"><default_value>0</default_value><range>{lo} {hi}</range>'
            "<clamped>false</clamped><locked>false</locked></Coordinate>")


def joint(tag, name, parent, child, coordinates=(), inner=""):
    """A joint between ``parent`` (a component path) and body ``child`` through two offset frames."""
    def offset(frame, owner, X):
        angles = np.array([0.4, -0.5, 0.6]) if X is PARENT_OFFSET else np.array([-0.2, 0.1, 0.3])
        return (f'<PhysicalOffsetFrame name="{frame}"><socket_parent>{owner}</socket_parent>'
                f"<translation>{vec(X.p)}</translation><orientation>{vec(angles)}</orientation></PhysicalOffsetFrame>")
    coords = "".join(coordinate(c) for c in coordinates)
    return (f'<{tag} name="{name}"><socket_parent_frame>{name}_in_parent</socket_parent_frame>'
            f"<socket_child_frame>{name}_in_child</socket_child_frame><coordinates>{coords}</coordinates>"
            f"<frames>{offset(f'{name}_in_parent', parent, PARENT_OFFSET)}"
            f"{offset(f'{name}_in_child', f'/bodyset/{child}', CHILD_OFFSET)}</frames>{inner}</{tag}>")


def document(bodies, joints, extra="", version="40000"):
    return (f'<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="{version}">'
            f'<Model name="synthetic"><Ground name="ground"/><gravity>0 -9.80665 0</gravity>'
            f'<BodySet name="bodyset"><objects>{bodies}</objects></BodySet>'
            f'<JointSet name="jointset"><objects>{joints}</objects></JointSet>{extra}</Model></OpenSimDocument>')


def load(tmp_path, text, name="model.osim"):
    path = tmp_path / name
    path.write_text(text)
    return read_osim(path)


def placement(model, q, name):
    data = Data(model)
    alg.forward_kinematics(model, data, q)
    return alg.frame_placement(model, data, name)


def assert_same(a: SE3, b: SE3, tol=1e-12):
    assert np.abs(a.R - b.R).max() <= tol and np.abs(a.p - b.p).max() <= tol, (a, b)


def expected_pose(joint_motion: SE3) -> SE3:
    """Ground -> body for a joint from ground: parent offset, joint motion, inverse child offset."""
    return PARENT_OFFSET @ joint_motion @ CHILD_OFFSET.inverse()


# ------------------------------------------------------------- joint meanings
OPENSIM_JOINTS = {   # OpenSim/Simbody meaning of each joint's coordinates
    "PinJoint": (1, lambda q: SE3(axis_angle(Z, q[0]))),
    "SliderJoint": (1, lambda q: SE3(np.eye(3), (q[0], 0.0, 0.0))),
    "UniversalJoint": (2, lambda q: SE3(axis_angle(X, q[0]) @ axis_angle(Y, q[1]))),
    "GimbalJoint": (3, lambda q: SE3(body_fixed_xyz(q))),
    "BallJoint": (3, lambda q: SE3(body_fixed_xyz(q))),
    "FreeJoint": (6, lambda q: SE3(body_fixed_xyz(q[:3]), q[3:])),
    "PlanarJoint": (3, lambda q: SE3(axis_angle(Z, q[0]), (q[1], q[2], 0.0))),
    "WeldJoint": (0, lambda q: SE3()),
}


@pytest.mark.parametrize("tag", list(OPENSIM_JOINTS))
def test_each_joint_type_moves_the_body_as_in_opensim(tmp_path, rng, tag):
    n, motion = OPENSIM_JOINTS[tag]
    names = [f"c{i}" for i in range(n)]
    model = load(tmp_path, document(body("b"), joint(tag, "j", "/ground", "b", names)))
    assert [c.name for c in model.joint("j").coordinates] == names
    for _ in range(3):
        values = rng.uniform(-1.0, 1.0, n)
        q = alg.neutral(model)
        for name, value in zip(names, values):
            q[compile_tree(model).coordinates[name].qi] = value
        assert_same(placement(model, q, "b"), expected_pose(motion(values)))
    if tag in ("BallJoint", "FreeJoint"):
        assert any("angular velocities" in w and "joint 'j'" in w for w in model.metadata["import_warnings"])
    if tag == "PinJoint":
        assert isinstance(model.joint("j"), RevoluteJoint)


SPATIAL_TRANSFORM = """
<SpatialTransform>
  <TransformAxis name="rotation1"><coordinates>c1</coordinates><axis>0 0 1</axis>
    <LinearFunction name="function"><coefficients>2 0.1</coefficients></LinearFunction></TransformAxis>
  <TransformAxis name="rotation2"><coordinates>c1</coordinates><axis>1 0 0</axis>
    <PolynomialFunction name="function"><coefficients>0.5 -1 0.2</coefficients></PolynomialFunction></TransformAxis>
  <TransformAxis name="rotation3"><coordinates></coordinates><axis>0 1 0</axis>
    <Constant name="function"><value>0.3</value></Constant></TransformAxis>
  <TransformAxis name="translation1"><coordinates>c2</coordinates><axis>1 0 0</axis>
    <SimmSpline name="function"><x>-2 -1 0 1.5 2</x><y>-4 1 0 0.375 4</y></SimmSpline></TransformAxis>
  <TransformAxis name="translation2"><coordinates>c2</coordinates><axis>0 1 0</axis>
    <MultiplierFunction name="function"><function><NaturalCubicSpline><x>0 1 3</x><y>0 1 9</y></NaturalCubicSpline>
    </function><scale>0.5</scale></MultiplierFunction></TransformAxis>
  <TransformAxis name="translation3"><coordinates>c1</coordinates><axis>0 0 1</axis>
    <PiecewiseLinearFunction name="function"><x>-1 0 2</x><y>0 1 0</y></PiecewiseLinearFunction></TransformAxis>
</SpatialTransform>"""


def test_custom_joint_follows_its_spatial_transform_with_every_function_type(tmp_path):
    """Rotations Rot(a0,f0) Rot(a1,f1) Rot(a2,f2) (body-fixed), then translations along the parent-side axes.

    The splines' knots lie on y = x^3 - 2x (SimmSpline, five knots) and y = x^2 (NaturalCubicSpline, three
    knots): OpenSim's fit reproduces a cubic through five knots and a parabola through three exactly.
    """
    model = load(tmp_path, document(body("b"), joint("CustomJoint", "j", "/ground", "b", ["c2", "c1"],
                                                     SPATIAL_TRANSFORM)))
    assert isinstance(model.joint("j"), GeneralJoint)
    assert [c.name for c in model.joint("j").coordinates] == ["c1", "c2"]   # OpenSim's order: first use
    for c1, c2 in ((0.3, 1.2), (-0.7, 0.4), (1.5, 1.9)):
        q = alg.neutral(model)
        q[compile_tree(model).coordinates["c1"].qi] = c1
        q[compile_tree(model).coordinates["c2"].qi] = c2
        R = axis_angle(Z, 2 * c1 + 0.1) @ axis_angle(X, 0.5 * c1 ** 2 - c1 + 0.2) @ axis_angle(Y, 0.3)
        hat = 1.0 + c1 if c1 < 0 else 1.0 - c1 / 2
        p = (c2 ** 3 - 2 * c2, 0.5 * c2 ** 2, hat)
        assert_same(placement(model, q, "b"), expected_pose(SE3(R, p)), 1e-11)


def test_custom_joint_coordinate_units_follow_opensims_motion_types(tmp_path):
    model = load(tmp_path, document(body("b"), joint("CustomJoint", "j", "/ground", "b", ["c1", "c2"],
                                                     SPATIAL_TRANSFORM)))
    # c1 drives rotations but never as exactly +-1 times itself: OpenSim calls it coupled.
    assert model.metadata["coordinate_motion_types"] == {"c1": "coupled", "c2": "coupled"}
    assert model.coordinate("c1").kind == "rotational"        # the kind of the first axis it drives
    assert model.coordinate("c2").kind == "translational"


def test_functions_extend_linearly_beyond_their_knots(tmp_path):
    model = load(tmp_path, document(body("b"), joint("CustomJoint", "j", "/ground", "b", ["c1", "c2"],
                                                     SPATIAL_TRANSFORM)))
    simm, natural, piecewise = (axis.function for axis in model.joint("j").translations)
    assert isinstance(simm, SimmSpline) and isinstance(natural.function, SimmSpline)   # OpenSim's fit
    for f, lo, hi in ((simm, -2.0, 2.0), (natural, 0.0, 3.0), (piecewise, -1.0, 2.0)):
        for end, step in ((lo, -0.5), (hi, 0.5)):
            slope = f.evaluate(end, 1)
            assert f.evaluate(end + step) == pytest.approx(f.evaluate(end) + step * slope, abs=1e-12)
            assert f.evaluate(end + step, 2) == 0.0
    assert simm.evaluate(-2.0, 1) == pytest.approx(10.0) and simm.evaluate(2.0, 1) == pytest.approx(10.0)
    assert natural.evaluate(3.0, 1) == pytest.approx(3.0) and natural.evaluate(0.0, 1) == pytest.approx(0.0)
    assert piecewise.evaluate(5.0) == pytest.approx(-1.5)


def test_coordinate_coupler_makes_a_dependent_coordinate(tmp_path):
    coupler = """<ConstraintSet name="constraintset"><objects>
      <CoordinateCouplerConstraint name="couple"><isEnforced>true</isEnforced>
        <coupled_coordinates_function><LinearFunction><coefficients>0.5 0.1</coefficients></LinearFunction>
        </coupled_coordinates_function>
        <independent_coordinate_names>ind</independent_coordinate_names>
        <dependent_coordinate_name>dep</dependent_coordinate_name><scale_factor>2</scale_factor>
      </CoordinateCouplerConstraint></objects></ConstraintSet>"""
    joints = joint("PinJoint", "j1", "/ground", "b1", ["ind"]) + joint("PinJoint", "j2", "/bodyset/b1", "b2", ["dep"])
    model = load(tmp_path, document(body("b1") + body("b2"), joints, coupler))
    dep = model.coordinate("dep")
    assert dep.is_dependent and dep.coupled_to == "ind"
    assert isinstance(model.joint("j2"), GeneralJoint) and model.nv == 1
    q = np.array([0.4])
    X1 = expected_pose(SE3(axis_angle(Z, 0.4)))
    X2 = X1 @ PARENT_OFFSET @ SE3(axis_angle(Z, 2 * (0.5 * 0.4 + 0.1))) @ CHILD_OFFSET.inverse()
    assert_same(placement(model, q, "b2"), X2)


def test_markers_on_nested_offset_frames_and_relative_socket_paths(tmp_path):
    frames = ('<components><PhysicalOffsetFrame name="f1"><socket_parent>..</socket_parent>'
              "<translation>0.01 0.02 0.03</translation><orientation>0.1 0.2 0.3</orientation></PhysicalOffsetFrame>"
              '<PhysicalOffsetFrame name="f2"><socket_parent>../f1</socket_parent>'
              "<translation>-0.1 0 0.2</translation><orientation>0 0.5 0</orientation></PhysicalOffsetFrame>"
              "</components>")
    markers = ('<MarkerSet name="markerset"><objects><Marker name="m"><socket_parent_frame>/bodyset/b/f2'
               "</socket_parent_frame><location>0.3 0.2 0.1</location><fixed>true</fixed></Marker></objects></MarkerSet>")
    model = load(tmp_path, document(body("b", frames), joint("PinJoint", "j", "/ground", "b", ["c"]), markers))
    assert {f.name for f in model.frames} >= {"b/f1", "b/f2", "j/j_in_parent", "j/j_in_child"}
    marker = model.markers[0]
    assert marker.parent == "b/f2" and marker.fixed
    q = np.array([0.7])
    f1 = SE3.from_translation_xyz((0.01, 0.02, 0.03), (0.1, 0.2, 0.3))
    f2 = SE3.from_translation_xyz((-0.1, 0.0, 0.2), (0.0, 0.5, 0.0))
    expected = (expected_pose(SE3(axis_angle(Z, 0.7))) @ f1 @ f2).act([0.3, 0.2, 0.1])
    data = Data(model)
    assert np.abs(alg.marker_positions(model, data, q)[0] - expected).max() <= 1e-12


# ------------------------------------------------------------ example models
@pytest.fixture(scope="module")
def arm26(test_data):
    return read_osim(test_data / "opensim" / "arm26" / "arm26.osim")


@pytest.fixture(scope="module")
def gait2354(test_data):
    return read_osim(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")


@pytest.fixture(scope="module")
def gait10dof(test_data):
    return read_osim(test_data / "opensim" / "gait10dof18musc" / "subject01.osim")


def test_metadata_names_the_source_version_and_credits(arm26, test_data):
    meta = arm26.metadata
    assert meta["source"] == str(test_data / "opensim" / "arm26" / "arm26.osim")
    assert meta["opensim_version"] == 40000
    assert "Holzbaur" in meta["credits"]
    assert np.allclose(arm26.gravity, (0.0, -9.8066, 0.0))


def test_zero_mass_base_is_massless_with_a_warning(arm26):
    base = arm26.body("base")
    assert base.massless and base.mass == 0.0
    assert any("body 'base'" in w and "massless" in w for w in arm26.metadata["import_warnings"])


def test_meshes_are_file_names_with_scale(arm26):
    meshes = arm26.body("r_humerus").meshes
    assert [m.file for m in meshes] == ["arm_r_humerus.vtp"]
    assert meshes[0].scale == (1.0, 1.0, 1.0) and meshes[0].color == (1.0, 1.0, 1.0)
    assert len(arm26.body("r_ulna_radius_hand").meshes) == 29


def test_wrap_objects_and_path_wraps(arm26):
    wraps = {w.name: w for w in arm26.wrap_objects}
    assert set(wraps) == {"TRIlongglen", "TRIlonghh", "BIClonghh", "TRI"}
    glen = wraps["TRIlongglen"]
    assert isinstance(glen, WrapCylinder) and glen.body == "base" and glen.quadrant == "+x"
    assert glen.radius == 0.003 and glen.length == 0.03
    expected = SE3.from_translation_xyz((-0.043905, -0.0039, 0.1478), (1.37532, -0.294612, 2.43596))
    assert_same(glen.placement, expected)
    hh = wraps["TRIlonghh"]
    assert isinstance(hh, WrapEllipsoid) and hh.dimensions == (0.035, 0.02, 0.02) and hh.quadrant == "+z"
    assert [w.wrap_object for w in arm26.muscle("TRIlong").path.wraps] == ["TRI", "TRIlonghh", "TRIlongglen"]
    assert arm26.muscle("TRIlong").path.wraps[0].method == "hybrid"


def test_thelen_parameters(arm26):
    m = arm26.muscle("TRIlong")
    assert m.model == "thelen2003"
    assert (m.max_isometric_force, m.optimal_fiber_length, m.tendon_slack_length) == (798.52, 0.134, 0.143)
    assert m.pennation_angle == pytest.approx(0.20943951)
    for key in ("FmaxTendonStrain", "FmaxMuscleStrain", "KshapeActive", "KshapePassive", "Af", "Flen"):
        assert isinstance(m.parameters[key], float)
    assert m.parameters["opensim_type"] == "Thelen2003Muscle"


def test_millard_parameters_keep_curves_as_nested_dicts(gait10dof):
    m = gait10dof.muscle("hamstrings_r")
    assert m.model == "millard2012"
    assert (m.activation_time_constant, m.deactivation_time_constant) == (0.01, 0.04)
    fv = m.parameters["ForceVelocityCurve"]
    assert fv["type"] == "ForceVelocityCurve" and fv["isometric_slope"] == 5.0
    assert fv["max_eccentric_velocity_force_multiplier"] == 1.4
    assert m.parameters["ActiveForceLengthCurve"]["minimum_value"] == 0.0
    assert m.parameters["TendonForceLengthCurve"] == {"type": "TendonForceLengthCurve",
                                                      "name": "hamstrings_r_TendonForceLengthCurve"}
    assert m.parameters["fiber_damping"] == 0.1 and "fiber_damping" in m.parameters["defaults_used"]


def test_conditional_and_moving_path_points(gait2354):
    points = {p.name: p for p in gait2354.muscle("rect_fem_r").path.points}
    cond = points["rect_fem_r-P2"]
    assert isinstance(cond, ConditionalPathPoint)
    assert cond.coordinate == "knee_angle_r" and cond.range == (-2.61799, -1.45997)
    moving = points["rect_fem_r-P3"]
    assert isinstance(moving, MovingPathPoint) and moving.parent == "tibia_r"
    assert moving.x[0] == moving.y[0] == moving.z[0] == "knee_angle_r"
    assert moving.x[1].evaluate(0.0) == pytest.approx(0.0617576 * 0.988523)


def test_the_example_models_warn_about_what_they_do_not_import(arm26, gait10dof, gait2354):
    for model in (arm26, gait10dof, gait2354):
        warnings = model.metadata["import_warnings"]
        assert any(w.startswith("<FrameGeometry>") for w in warnings)
        assert any(w.startswith("<default_speed_value>") for w in warnings)
    assert any("<groups> at /forceset" in w for w in gait2354.metadata["import_warnings"])


UNIMPORTED = {
    "<ControllerSet name=\"controllerset\">\n\t\t\t<objects />":
        '<ControllerSet name="controllerset"><objects><PrescribedController name="ctrl">'
        "<actuator_list>TRIlong</actuator_list></PrescribedController></objects>",
    "<ConstraintSet name=\"constraintset\">\n\t\t\t<objects />":
        '<ConstraintSet name="constraintset"><objects><WeldConstraint name="weldc">'
        "<socket_frame1>/ground</socket_frame1></WeldConstraint></objects>",
    "<ForceSet name=\"forceset\">\n\t\t\t<objects>":
        '<ForceSet name="forceset"><objects><CoordinateLimitForce name="limit"><coordinate>r_elbow_flex'
        '</coordinate></CoordinateLimitForce><DeGrooteFregly2016Muscle name="dgf"><max_isometric_force>100'
        "</max_isometric_force></DeGrooteFregly2016Muscle>",
    "<ProbeSet name=\"probeset\">\n\t\t\t<objects />":
        '<ProbeSet name="probeset"><objects><JointInternalPowerProbe name="power"><joint_names>r_elbow'
        "</joint_names></JointInternalPowerProbe></objects>",
    "<ContactGeometrySet name=\"contactgeometryset\">\n\t\t\t<objects />":
        '<ContactGeometrySet name="contactgeometryset"><objects><ContactSphere name="ball"><radius>0.1'
        "</radius></ContactSphere></objects>",
    "<attached_geometry>\n\t\t\t\t\t\t<Mesh name=\"r_humerus_geom_1\">":
        '<attached_geometry><Sphere name="knob"><radius>0.02</radius></Sphere><Mesh name="r_humerus_geom_1">',
    "<length_units>meters</length_units>":
        "<length_units>meters</length_units><mystery_setting>42</mystery_setting>",
}


def test_unimported_elements_are_listed_in_the_warnings(tmp_path, test_data):
    text = (test_data / "opensim" / "arm26" / "arm26.osim").read_text()
    for old, new in UNIMPORTED.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    model = load(tmp_path, text)
    warnings = "\n".join(model.metadata["import_warnings"])
    for name in ("controller /controllerset/ctrl (PrescribedController)", "constraint /constraintset/weldc",
                 "force /forceset/limit (CoordinateLimitForce)", "force /forceset/dgf (DeGrooteFregly2016Muscle)",
                 "probe /probeset/power", "contact geometry /contactgeometryset/ball",
                 "/bodyset/r_humerus/knob: <Sphere>", "<mystery_setting> at /: not imported"):
        assert name in warnings, f"{name!r} missing from:\n{warnings}"
    assert len(model.muscles) == 6


def test_synthetic_muscle_with_sphere_torus_and_a_moving_point(tmp_path):
    wraps = ('<WrapObjectSet name="wrapobjectset"><objects>'
             '<WrapSphere name="ball"><xyz_body_rotation>0.1 0.2 0.3</xyz_body_rotation>'
             "<translation>0.01 0.02 0.03</translation><quadrant>-y</quadrant><radius>0.04</radius></WrapSphere>"
             '<WrapTorus name="ring"><active>false</active><inner_radius>0.01</inner_radius>'
             "<outer_radius>0.05</outer_radius></WrapTorus>"
             '<WrapDoubleCylinderObst name="obst"><radiusUcyl>0.02</radiusUcyl></WrapDoubleCylinderObst>'
             "</objects></WrapObjectSet>")
    muscle = """<ForceSet name="forceset"><objects><Thelen2003Muscle name="mus">
      <GeometryPath name="geometrypath"><PathPointSet><objects>
        <PathPoint name="origin"><socket_parent_frame>/ground</socket_parent_frame><location>0 1 0</location></PathPoint>
        <MovingPathPoint name="moving"><socket_parent_frame>/bodyset/b</socket_parent_frame>
          <socket_x_coordinate>/jointset/j/c</socket_x_coordinate>
          <x_location><LinearFunction><coefficients>0.1 0.02</coefficients></LinearFunction></x_location>
          <y_location><Constant><value>-0.3</value></Constant></y_location></MovingPathPoint>
        <PathPoint name="insertion"><socket_parent_frame>/bodyset/b</socket_parent_frame><location>0 -0.5 0</location>
        </PathPoint></objects></PathPointSet>
      <PathWrapSet><objects>
        <PathWrap name="w1"><wrap_object>ball</wrap_object><method>midpoint</method><range>1 2</range></PathWrap>
        <PathWrap name="w2"><wrap_object>obst</wrap_object></PathWrap></objects></PathWrapSet></GeometryPath>
      <max_isometric_force>500</max_isometric_force><optimal_fiber_length>0.1</optimal_fiber_length>
      <tendon_slack_length>0.2</tendon_slack_length><Flen>1.8</Flen>
    </Thelen2003Muscle></objects></ForceSet>"""
    model = load(tmp_path, document(body("b", wraps), joint("PinJoint", "j", "/ground", "b", ["c"]), muscle))
    ball, ring = model.wrap_objects
    assert ball.radius == 0.04 and ball.quadrant == "-y" and ball.body == "b"
    assert_same(ball.placement, SE3.from_translation_xyz((0.01, 0.02, 0.03), (0.1, 0.2, 0.3)))
    assert (ring.inner_radius, ring.outer_radius, ring.active) == (0.01, 0.05, False)
    m = model.muscle("mus")
    moving = m.path.points[1]
    assert moving.x[0] == "c" and moving.y is None and moving.z is None
    assert tuple(moving.location) == (0.0, -0.3, 0.0)      # components without a coordinate: f(0)
    assert moving.x[1].evaluate(2.0) == pytest.approx(0.22)
    assert [(w.wrap_object, w.method, w.range) for w in m.path.wraps] == [("ball", "midpoint", (1, 2))]
    # File values, then OpenSim's Thelen2003Muscle defaults for what the file omits.
    assert m.max_isometric_force == 500.0 and m.parameters["Flen"] == 1.8
    assert (m.activation_time_constant, m.deactivation_time_constant, m.max_contraction_velocity) == (0.015, 0.05, 10.0)
    assert m.parameters["FmaxTendonStrain"] == 0.04 and "FmaxTendonStrain" in m.parameters["defaults_used"]
    assert "Flen" not in m.parameters["defaults_used"]
    warnings = "\n".join(model.metadata["import_warnings"])
    assert "/bodyset/b/obst: <WrapDoubleCylinderObst> not imported" in warnings
    assert "muscle 'mus': its wrap over 'obst' is not imported" in warnings
