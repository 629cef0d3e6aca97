"""OpenSim 4.6's marker placement for subject01_Setup_Scale.xml solved to accuracy 1e-9 (run once, by hand).

ScaleTool's MarkerPlacer assembles the static pose with the IK solver's default accuracy (1e-4), which
leaves the coordinates seen only by the weight-1 torso markers (lumbar bending and rotation) short of the
optimum by about 0.5 degrees. This script repeats MarkerPlacer's steps (frames 1.00-1.01 s averaged, the
setup's marker weights and coordinate tasks, markers moved into their bodies) on OpenSim's own
``../subject01_scaledOnly.osim`` with accuracy 1e-9, and writes ``static_pose.sto`` (coordinates, rad) and
``placed_markers.xml`` (OpenSim's MarkerSet). Run from this folder with ``opensim`` (4.6) installed.
"""
import math

import opensim as osim

HERE = "."
SETUP = "../../subject01_Setup_Scale.xml"

tool = osim.ScaleTool(SETUP)
placer = tool.getMarkerPlacer()
tasks = placer.getIKTaskSet()
model = osim.Model("../subject01_scaledOnly.osim")
state = model.initSystem()
data = osim.MarkerData("../../subject01_static.trc")
data.averageFrames(-1.0, placer.getTimeRange().get(0), placer.getTimeRange().get(1))
data.convertToUnits(model.getLengthUnits())
names = data.getMarkerNames()
labels = osim.StdVectorString([names.get(i) for i in range(names.getSize())])
row = osim.RowVectorVec3(names.getSize())
frame = data.getFrame(0)
for i in range(names.getSize()):
    row[i] = frame.getMarker(i)
table = osim.TimeSeriesTableVec3()
table.setColumnLabels(labels)
table.appendRow(placer.getTimeRange().get(0), row)
weights = osim.SetMarkerWeights()
tasks.createMarkerWeightSet(weights)
markers = osim.MarkersReference(table, weights)
coordinates = osim.SimTKArrayCoordinateReference()
for i in range(tasks.getSize()):
    task = osim.IKCoordinateTask.safeDownCast(tasks.get(i))
    if task and task.getApply():
        value = (task.getValue() if task.getValueType() == osim.IKCoordinateTask.ManualValue
                 else model.getCoordinateSet().get(task.getName()).getValue(state))
        reference = osim.CoordinateReference(task.getName(), osim.Constant(value))
        reference.setWeight(task.getWeight())
        coordinates.push_back(reference)
solver = osim.InverseKinematicsSolver(model, markers, coordinates, math.inf)
solver.setAccuracy(1e-9)
state.setTime(placer.getTimeRange().get(0))
solver.assemble(state)
model.realizePosition(state)
ground = model.getGround()
for marker in model.getMarkerSet():
    index = data.getMarkerIndex(marker.getName())
    point = frame.getMarker(index)
    marker.set_location(ground.findStationLocationInAnotherFrame(state, point, marker.getParentFrame()))
model.getMarkerSet().printToXML("placed_markers.xml")
coordinate_set = model.getCoordinateSet()
with open("static_pose.sto", "w") as out:
    out.write("static pose, OpenSim 4.6 IK to accuracy 1e-9\nversion=1\nnRows=1\n"
              f"nColumns={coordinate_set.getSize() + 1}\ninDegrees=no\nendheader\n")
    out.write("time\t" + "\t".join(c.getName() for c in coordinate_set) + "\n")
    out.write(f"{state.getTime():.17g}\t" + "\t".join(f"{c.getValue(state):.17g}" for c in coordinate_set) + "\n")
