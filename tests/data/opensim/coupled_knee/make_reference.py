"""How coupled_knee.osim, coupled_knee.trc, ik_setup.xml and reference/ik.mot were made (run once, by hand).

Needs the ``opensim`` PyPI package (``pip install opensim==4.6`` into a separate environment; it is not a
dependency of HybridLab or of its tests). From this folder: ``python make_reference.py``.

1. A planar leg is written as OpenSim 4 XML (pelvis on a PlanarJoint, hip PinJoint, a knee CustomJoint whose
   translations are splines of the knee angle, and a patella on a CustomJoint driven by its own coordinate
   ``knee_beta``), with a CoordinateCouplerConstraint making ``knee_beta`` a spline of ``knee_angle``; OpenSim
   loads it and prints it (``coupled_knee.osim``, OpenSim's own layout).
2. OpenSim poses the model along a known motion (``knee_beta`` set by the coupler's function), reads the eleven
   markers' positions, adds Gaussian noise (0.5 mm, seed 15) and writes them with its TRCFileAdapter (mm).
3. OpenSim 4.6's InverseKinematicsTool (all marker weights 1, accuracy 1e-8) writes ``reference/ik.mot``
   (and ``reference/ik_marker_errors.sto``).
"""
import os

import numpy as np
import opensim as osim

RAD = np.radians
KNEE_X = RAD([-120, -90, -60, -30, 0, 10])
BETA_X = RAD([-120, -60, 0, 10])
LINEAR = '<LinearFunction name="function"><coefficients>1 0</coefficients></LinearFunction>'
MARKERS = [("PEL1", "pelvis", "0.1 0.02 0.12"), ("PEL2", "pelvis", "0.1 0.02 -0.12"),
           ("PEL3", "pelvis", "-0.12 0.05 0"), ("THI1", "femur", "0.05 -0.2 0.06"),
           ("THI2", "femur", "-0.03 -0.3 0.07"), ("KNEL", "femur", "0 -0.40 0.06"),
           ("SHN1", "tibia", "0.05 -0.15 0.04"), ("SHN2", "tibia", "0 -0.25 0.05"), ("ANK", "tibia", "0 -0.40 0.05"),
           ("PAT1", "patella", "0.03 0.02 0"), ("PAT2", "patella", "0.03 -0.03 0.02")]


def spline(xs, ys, name=' name="function"'):
    return (f"<SimmSpline{name}><x>" + " ".join(repr(float(x)) for x in xs) + "</x><y>"
            + " ".join(repr(float(y)) for y in ys) + "</y></SimmSpline>")


def axis(slot, coordinate, direction, function):
    return (f'<TransformAxis name="{slot}"><coordinates>{coordinate}</coordinates><axis>{direction}</axis>'
            f"{function}</TransformAxis>")


def fixed_axis(slot, direction):
    return axis(slot, "", direction, '<Constant name="function"><value>0</value></Constant>')


def body(name, mass, com, inertia):
    return f'<Body name="{name}"><mass>{mass}</mass><mass_center>{com}</mass_center><inertia>{inertia}</inertia></Body>'


def offset(name, parent, translation="0 0 0"):
    return (f'<PhysicalOffsetFrame name="{name}"><socket_parent>{parent}</socket_parent>'
            f"<translation>{translation}</translation><orientation>0 0 0</orientation></PhysicalOffsetFrame>")


def coordinate(name, lo, hi, default=0.0):
    return (f'<Coordinate name="{name}"><default_value>{default}</default_value><range>{lo} {hi}</range>'
            "<clamped>false</clamped><locked>false</locked></Coordinate>")


def custom_joint(name, child, coord, x_values, y_values, knots):
    return (f'<CustomJoint name="{name}"><socket_parent_frame>femur_offset</socket_parent_frame>'
            f"<socket_child_frame>{child}_offset</socket_child_frame>"
            f"<coordinates>{coordinate(coord, RAD(-120), RAD(10))}</coordinates>"
            f"<frames>{offset('femur_offset', '/bodyset/femur')}{offset(f'{child}_offset', f'/bodyset/{child}')}"
            "</frames><SpatialTransform>" + axis("rotation1", coord, "0 0 1", LINEAR)
            + fixed_axis("rotation2", "0 1 0") + fixed_axis("rotation3", "1 0 0")
            + axis("translation1", coord, "1 0 0", spline(knots, x_values))
            + axis("translation2", coord, "0 1 0", spline(knots, y_values))
            + fixed_axis("translation3", "0 0 1") + "</SpatialTransform></CustomJoint>")


def model_xml():
    pelvis = ('<PlanarJoint name="pelvis"><socket_parent_frame>ground_offset</socket_parent_frame>'
              "<socket_child_frame>pelvis_offset</socket_child_frame><coordinates>"
              + coordinate("pelvis_tilt", -1.5, 1.5) + coordinate("pelvis_tx", -5, 5)
              + coordinate("pelvis_ty", -1, 2, 1.0) + "</coordinates><frames>" + offset("ground_offset", "/ground")
              + offset("pelvis_offset", "/bodyset/pelvis") + "</frames></PlanarJoint>")
    hip = ('<PinJoint name="hip"><socket_parent_frame>pelvis_offset</socket_parent_frame>'
           "<socket_child_frame>femur_offset</socket_child_frame><coordinates>" + coordinate("hip_flexion", -1.2, 2.0)
           + "</coordinates><frames>" + offset("pelvis_offset", "/bodyset/pelvis", "-0.07 -0.07 0.08")
           + offset("femur_offset", "/bodyset/femur") + "</frames></PinJoint>")
    knee = custom_joint("knee", "tibia", "knee_angle", [-0.0032, 0.00179, 0.00411, 0.0041, -0.0032, -0.0052],
                        [-0.4226, -0.4082, -0.399, -0.3976, -0.396, -0.3955], KNEE_X)
    patella = custom_joint("patellofemoral", "patella", "knee_beta", [0.0155, 0.0302, 0.0496, 0.0513],
                           [-0.4212, -0.4079, -0.3991, -0.3985], BETA_X)
    coupler = ('<CoordinateCouplerConstraint name="knee_beta_coupler"><isEnforced>true</isEnforced>'
               "<coupled_coordinates_function>" + spline(KNEE_X, RAD([-62, -50, -34, -17, 0, 5]), "")
               + "</coupled_coordinates_function><independent_coordinate_names>knee_angle"
               "</independent_coordinate_names><dependent_coordinate_name>knee_beta</dependent_coordinate_name>"
               "<scale_factor>1</scale_factor></CoordinateCouplerConstraint>")
    markers = "".join(f'<Marker name="{n}"><socket_parent_frame>/bodyset/{b}</socket_parent_frame>'
                      f"<location>{p}</location><fixed>false</fixed></Marker>" for n, b, p in MARKERS)
    return ('<?xml version="1.0" encoding="UTF-8" ?><OpenSimDocument Version="40000"><Model name="coupled_knee">'
            "<credits>Written for HybridLab's tests: a planar leg whose patella coordinate knee_beta follows the "
            "knee angle through a CoordinateCouplerConstraint.</credits><gravity>0 -9.80665 0</gravity>"
            '<Ground name="ground"/><BodySet name="bodyset"><objects>'
            + body("pelvis", 10, "0 0 0", "0.1 0.1 0.1 0 0 0") + body("femur", 7, "0 -0.17 0", "0.1 0.02 0.1 0 0 0")
            + body("tibia", 3, "0 -0.18 0", "0.04 0.005 0.04 0 0 0")
            + body("patella", 0.1, "0 0 0", "1e-4 1e-4 1e-4 0 0 0")
            + '</objects></BodySet><JointSet name="jointset"><objects>' + pelvis + hip + knee + patella
            + '</objects></JointSet><ConstraintSet name="constraintset"><objects>' + coupler
            + '</objects></ConstraintSet><MarkerSet name="markerset"><objects>' + markers
            + "</objects></MarkerSet></Model></OpenSimDocument>")


def write_trial(model, path, rate=100.0, frames=41):
    state = model.initSystem()
    coordinates = model.getCoordinateSet()
    coupler = osim.CoordinateCouplerConstraint.safeDownCast(model.getConstraintSet().get("knee_beta_coupler"))
    names = [model.getMarkerSet().get(i).getName() for i in range(model.getMarkerSet().getSize())]
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(osim.StdVectorString(names))
    rng = np.random.default_rng(15)
    for t in np.arange(frames) / rate:
        w = 2 * np.pi * t / 0.4
        q = dict(pelvis_tilt=0.1 * np.sin(w), pelvis_tx=0.8 * t, pelvis_ty=0.95 + 0.02 * np.cos(w),
                 hip_flexion=0.5 * np.sin(w), knee_angle=-1.0 + 0.9 * np.sin(w))
        q["knee_beta"] = coupler.getFunction().calcValue(osim.Vector(1, q["knee_angle"]))
        for name, value in q.items():
            coordinates.get(name).setValue(state, value, False)
        model.realizePosition(state)
        row = osim.RowVectorVec3(len(names))
        for i, name in enumerate(names):
            p = model.getMarkerSet().get(name).getLocationInGround(state)
            noise = rng.normal(0.0, 0.5e-3, 3)
            row[i] = osim.Vec3(*(1000.0 * (p[k] + noise[k]) for k in range(3)))
        table.appendRow(float(t), row)
    table.addTableMetaDataString("DataRate", repr(rate))
    table.addTableMetaDataString("Units", "mm")
    osim.TRCFileAdapter.write(table, path)
    return names, (frames - 1) / rate


def main():
    with open("handwritten.osim", "w") as f:
        f.write(model_xml())
    osim.Model("handwritten.osim").printToXML("coupled_knee.osim")
    model = osim.Model("coupled_knee.osim")
    names, end = write_trial(model, "coupled_knee.trc")
    tool = osim.InverseKinematicsTool()
    tool.setModel(model)
    tool.set_model_file("coupled_knee.osim")
    tool.setMarkerDataFileName("coupled_knee.trc")
    tool.setStartTime(0.0)
    tool.setEndTime(end)
    tool.set_accuracy(1e-8)
    tool.setOutputMotionFileName("reference/ik.mot")
    for name in names:
        task = osim.IKMarkerTask()
        task.setName(name)
        task.setWeight(1.0)
        task.setApply(True)
        tool.getIKTaskSet().cloneAndAppend(task)
    tool.printToXML("ik_setup.xml")
    tool.run()
    os.replace("_ik_marker_errors.sto", "reference/ik_marker_errors.sto")
    for name in ("handwritten.osim", "opensim.log"):
        os.remove(name)


if __name__ == "__main__":
    main()
