"""How coupled_knee_v3.osim, coupled_knee_v3_by_opensim.osim and reference/v3_poses.npz were made (run once).

Needs the ``opensim`` PyPI package (4.6; not a dependency of HybridLab or its tests). From this folder:
``python make_opensim3.py``.

``coupled_knee_v3.osim`` is the model of ``make_reference.py`` written by hand in the layout of OpenSim 3.x
documents (Version 30000, as OpenSim 3.3's gait2354_simbody.osim and arm26.osim are laid out): the ground a body
of the BodySet, each joint inside its child body with ``parent_body``, ``location_in_parent``,
``orientation_in_parent``, ``location``, ``orientation`` and a ``CoordinateSet``, inertias as ``inertia_xx``...,
functions inside ``<function>``, markers and path points with ``<body>``, a ConditionalPathPoint's
``<coordinate>``, a MovingPathPoint's ``<x_coordinate>``/``<x_location>``, ``isDisabled`` flags and a
VisibleObject. It adds a muscle (Thelen2003Muscle) over a wrap cylinder on the femur. OpenSim 4.6 reads it
(upgrading it as it upgrades any 3.x file) and prints it (``coupled_knee_v3_by_opensim.osim``); at five poses
it records every marker's position, every body's placement in ground and the muscle's length
(``reference/v3_poses.npz``).
"""
import numpy as np
import opensim as osim

from make_reference import BETA_X, KNEE_X, MARKERS, RAD, spline

COORDINATES = ("pelvis_tilt", "pelvis_tx", "pelvis_ty", "hip_flexion", "knee_angle", "knee_beta")
POSES = [(0.0, 0.0, 1.0, 0.0, 0.0), (0.1, 0.2, 0.95, 0.5, -1.0), (-0.2, -0.1, 1.05, -0.4, -0.3),
         (0.3, 0.5, 0.9, 1.2, -1.9), (0.0, 0.0, 1.0, 0.8, -1.4)]


def f(name, body):
    return f"<function><{name}>{body}</{name}></function>"


def axis(slot, coordinate, direction, function):
    return (f'<TransformAxis name="{slot}">{function}<coordinates>{coordinate}</coordinates>'
            f"<axis>{direction}</axis></TransformAxis>")


def fixed(slot, direction):
    return axis(slot, "", direction, f("Constant", "<value>0</value>"))


def coordinate(name, lo, hi, default=0.0):
    return (f'<Coordinate name="{name}"><motion_type>rotational</motion_type><default_value>{default}'
            f"</default_value><default_speed_value>0</default_speed_value><range>{lo} {hi}</range>"
            "<clamped>false</clamped><locked>false</locked><prescribed_function /></Coordinate>")


def simm(xs, ys):
    return spline(xs, ys, "").replace("<SimmSpline>", "").replace("</SimmSpline>", "")


def joint(tag, name, parent, location_in_parent, coordinates, transform=""):
    return (f'<Joint><{tag} name="{name}"><parent_body>{parent}</parent_body>'
            f"<location_in_parent>{location_in_parent}</location_in_parent>"
            "<orientation_in_parent>0 0 0</orientation_in_parent><location>0 0 0</location>"
            f"<orientation>0 0 0</orientation><CoordinateSet><objects>{coordinates}</objects><groups /></CoordinateSet>"
            f"<reverse>false</reverse>{transform}</{tag}></Joint>")


def knee_like(name, coord, xs, x_values, y_values):
    transform = ("<SpatialTransform>" + axis("rotation1", coord, "0 0 1", f("LinearFunction", "<coefficients> 1 0"
                                                                                               "</coefficients>"))
                 + fixed("rotation2", "0 1 0") + fixed("rotation3", "1 0 0")
                 + axis("translation1", coord, "1 0 0", f("SimmSpline", simm(xs, x_values)))
                 + axis("translation2", coord, "0 1 0", f("SimmSpline", simm(xs, y_values)))
                 + fixed("translation3", "0 0 1") + "</SpatialTransform>")
    return joint("CustomJoint", name, "femur", "0 0 0", coordinate(coord, RAD(-120), RAD(10)), transform)


def body(name, mass, com, inertia, joint_xml, extra=""):
    xx, yy, zz = inertia
    return (f'<Body name="{name}"><mass>{mass}</mass><mass_center>{com}</mass_center><inertia_xx>{xx}</inertia_xx>'
            f"<inertia_yy>{yy}</inertia_yy><inertia_zz>{zz}</inertia_zz><inertia_xy>0</inertia_xy>"
            f"<inertia_xz>0</inertia_xz><inertia_yz>0</inertia_yz>{joint_xml}{extra}</Body>")


def model_v3():
    pelvis = joint("PlanarJoint", "pelvis", "ground", "0 0 0",
                   coordinate("pelvis_tilt", -1.5, 1.5) + coordinate("pelvis_tx", -5, 5).replace(
                       "rotational", "translational") + coordinate("pelvis_ty", -1, 2, 1.0).replace(
                       "rotational", "translational"))
    hip = joint("PinJoint", "hip", "pelvis", "-0.07 -0.07 0.08", coordinate("hip_flexion", -1.2, 2.0))
    knee = knee_like("knee", "knee_angle", KNEE_X, [-0.0032, 0.00179, 0.00411, 0.0041, -0.0032, -0.0052],
                     [-0.4226, -0.4082, -0.399, -0.3976, -0.396, -0.3955])
    patella = knee_like("patellofemoral", "knee_beta", BETA_X, [0.0155, 0.0302, 0.0496, 0.0513],
                        [-0.4212, -0.4079, -0.3991, -0.3985])
    visible = ("<VisibleObject><GeometrySet><objects><DisplayGeometry><geometry_file>femur_r.vtp</geometry_file>"
               "<color> 1 1 1</color><transform> -0 0 -0 0 0 0</transform><scale_factors> 1 1 1</scale_factors>"
               "<display_preference>4</display_preference><opacity>1</opacity></DisplayGeometry></objects>"
               "<groups /></GeometrySet><scale_factors> 1 1 1</scale_factors><transform> -0 0 -0 0 0 0</transform>"
               "<show_axes>false</show_axes><display_preference>4</display_preference></VisibleObject>")
    wrap = ('<WrapObjectSet><objects><WrapCylinder name="femur_condyles"><xyz_body_rotation>0 0 0'
            "</xyz_body_rotation><translation>0.0 -0.40 0</translation><active>true</active><quadrant>x"
            "</quadrant><radius>0.03</radius><length>0.1</length></WrapCylinder></objects><groups />"
            "</WrapObjectSet>")
    bodies = (body("ground", 0, "0 0 0", (0, 0, 0), "<Joint />")
              + body("pelvis", 10, "0 0 0", (0.1, 0.1, 0.1), pelvis)
              + body("femur", 7, "0 -0.17 0", (0.1, 0.02, 0.1), hip, visible + wrap)
              + body("tibia", 3, "0 -0.18 0", (0.04, 0.005, 0.04), knee)
              + body("patella", 0.1, "0 0 0", (1e-4, 1e-4, 1e-4), patella))
    coupler = ('<CoordinateCouplerConstraint name="knee_beta_coupler"><isDisabled>false</isDisabled>'
               "<coupled_coordinates_function>" + spline(KNEE_X, RAD([-62, -50, -34, -17, 0, 5]), "")
               + "</coupled_coordinates_function><independent_coordinate_names>knee_angle"
               "</independent_coordinate_names><dependent_coordinate_name>knee_beta</dependent_coordinate_name>"
               "<scale_factor>1</scale_factor></CoordinateCouplerConstraint>")
    moving = "".join(f"<{a}_location>" + spline(KNEE_X, values, "") + f"</{a}_location><{a}_coordinate>knee_angle"
                     f"</{a}_coordinate>" for a, values in (("x", [0.04, 0.042, 0.045, 0.05, 0.055, 0.057]),
                                                           ("y", [-0.39, -0.395, -0.40, -0.405, -0.41, -0.41]),
                                                           ("z", [0.02, 0.02, 0.021, 0.022, 0.02, 0.02])))
    muscle = ('<Thelen2003Muscle name="vasti"><isDisabled>false</isDisabled><min_control>0.02</min_control>'
              "<max_control>1</max_control><GeometryPath><PathPointSet><objects>"
              '<PathPoint name="vasti-P1"><location>0.03 -0.2 0.02</location><body>femur</body></PathPoint>'
              '<ConditionalPathPoint name="vasti-P2"><location>0.04 -0.35 0.02</location><body>femur</body>'
              "<range>-2.0944 -1.0</range><coordinate>knee_angle</coordinate></ConditionalPathPoint>"
              '<PathPoint name="vasti-P3"><location>0.03 0.0 0</location><body>patella</body></PathPoint>'
              f'<MovingPathPoint name="vasti-P4"><location>0 0 0</location><body>tibia</body>{moving}'
              "</MovingPathPoint></objects><groups /></PathPointSet><PathWrapSet><objects>"
              '<PathWrap name="wrap1"><wrap_object>femur_condyles</wrap_object><method>hybrid</method>'
              "<range>-1 -1</range></PathWrap></objects><groups /></PathWrapSet></GeometryPath>"
              "<max_isometric_force>5000</max_isometric_force><optimal_fiber_length>0.09</optimal_fiber_length>"
              "<tendon_slack_length>0.2</tendon_slack_length><pennation_angle_at_optimal>0.05"
              "</pennation_angle_at_optimal><max_contraction_velocity>10</max_contraction_velocity>"
              "</Thelen2003Muscle>")
    markers = "".join(f'<Marker name="{n}"><body>{b}</body><location>{p}</location><fixed>false</fixed></Marker>'
                      for n, b, p in MARKERS)
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="30000"><Model name="coupled_knee">'
            "<credits>Written for HybridLab's tests in OpenSim 3's layout (see make_opensim3.py).</credits>"
            "<length_units>meters</length_units><force_units>N</force_units><gravity> 0 -9.80665 0</gravity>"
            f"<BodySet><objects>{bodies}</objects><groups /></BodySet><ConstraintSet><objects>{coupler}</objects>"
            f"<groups /></ConstraintSet><ForceSet><objects>{muscle}</objects><groups /></ForceSet>"
            f"<MarkerSet><objects>{markers}</objects><groups /></MarkerSet></Model></OpenSimDocument>\n")


def poses(model):
    state = model.initSystem()
    coupler = osim.CoordinateCouplerConstraint.safeDownCast(model.getConstraintSet().get("knee_beta_coupler"))
    muscle = model.getMuscles().get("vasti")
    bodies = [model.getBodySet().get(i) for i in range(model.getBodySet().getSize())]
    markers = [model.getMarkerSet().get(i) for i in range(model.getMarkerSet().getSize())]
    q, marker_positions, placements, lengths = [], [], [], []
    for pose in POSES:
        values = list(pose) + [coupler.getFunction().calcValue(osim.Vector(1, pose[4]))]
        for name, value in zip(COORDINATES, values):
            model.getCoordinateSet().get(name).setValue(state, value, False)
        model.realizeVelocity(state)
        q.append(values)
        marker_positions.append([[m.getLocationInGround(state)[k] for k in range(3)] for m in markers])
        frames = []
        for b in bodies:
            transform = b.getTransformInGround(state)
            rotation = transform.R().asMat33()
            frames.append([[rotation.get(i, j) for j in range(3)] + [transform.p()[i]] for i in range(3)])
        placements.append(frames)
        lengths.append(muscle.getLength(state))
    return dict(coordinates=np.array(COORDINATES), q=np.array(q), markers=np.array([m.getName() for m in markers]),
                marker_positions=np.array(marker_positions), bodies=np.array([b.getName() for b in bodies]),
                placements=np.array(placements), muscle_length=np.array(lengths))


def main():
    with open("coupled_knee_v3.osim", "w") as fh:
        fh.write(model_v3())
    model = osim.Model("coupled_knee_v3.osim")
    model.printToXML("coupled_knee_v3_by_opensim.osim")
    np.savez("reference/v3_poses.npz", **poses(osim.Model("coupled_knee_v3.osim")))


if __name__ == "__main__":
    main()
