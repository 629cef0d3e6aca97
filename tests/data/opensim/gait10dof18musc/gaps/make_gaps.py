"""How reference/ik_gaps.mot and reference/ik_gaps_marker_errors.sto were made (once, with OpenSim 4.6).

OpenSim 4.6's InverseKinematicsTool with ../ik_setup.xml (its weights and time range, on ../subject01.osim) on
../subject01_walk.trc with two markers missing: R.Heel and L.Toe.Tip blanked (NaN, written as empty fields by
OpenSim's TRCFileAdapter) in rows GAP (frames 21-40, 0.333-0.650 s). The blanked trial (gaps.trc) is not kept: the
tests blank the same samples of ../subject01_walk.trc in memory. What it shows: OpenSim's ``marker_error_RMS`` is
``sqrt(total_squared_error / n)`` with ``n`` every marker in use (31), a missing marker counted as an error of 0, so
in the gap rows it is lower than the RMS over the 29 markers present.

Run in a scratch folder holding copies of ../ (model, trial, setup) and this script: ``python make_gaps.py``.
"""
import opensim as osim

MISSING = ("R.Heel", "L.Toe.Tip")
GAP = range(20, 40)

table = osim.TimeSeriesTableVec3("subject01_walk.trc")
nan = osim.Vec3(float("nan"), float("nan"), float("nan"))
for name in MISSING:
    column = table.updDependentColumn(name)
    for row in GAP:
        column[row] = nan
osim.TRCFileAdapter.write(table, "gaps.trc")
tool = osim.InverseKinematicsTool("ik_setup.xml")
tool.setMarkerDataFileName("gaps.trc")
tool.setOutputMotionFileName("ik_gaps.mot")
tool.run()          # writes ik_gaps.mot and _ik_marker_errors.sto (renamed ik_gaps_marker_errors.sto)
