"""How ``so_passive_force.sto`` and ``so_passive_fiber_force.sto`` were made (OpenSim 4.6; run once, not by the tests).

OpenSim's StaticOptimization leaves the passive fibre force out: it overrides each muscle's whole tension with
``a * calcInextensibleTendonActiveFiberForce(s, 1)`` (StaticOptimizationTarget::computeAcceleration), so no
OpenSim tool computes static optimisation with passive force. This reference adds it to OpenSim's own problem,
with every quantity computed by OpenSim:

1. OpenSim's StaticOptimization (AnalyzeTool on ``so_setup.xml``, as ``so_force.sto`` was made): activations
   ``a`` and reserve controls ``u`` per frame, and each muscle's ``F_m = force / activation``
   (``calcInextensibleTendonActiveFiberForce(s, 1)``).
2. At the same frames, the coordinates prepared as AnalyzeTool prepares them (radians, padded, ``lowpassIIR`` at
   6 Hz, quintic GCV splines), OpenSim's moment arms ``r`` (``computeMomentArm``) and each Thelen2003Muscle's
   passive fibre force along the tendon with the tendon rigid: the fibre length set to the pennation model's
   ``calcFiberLength(muscle length, tendon slack length)``, then ``getPassiveFiberForceAlongTendon``.
3. OpenSim's solution ``x0 = (a, u)`` meets its constraints on the joint coordinates,
   ``sum_m r_cm a_m F_m + o_c u_c = tau_c`` (``o``: the reserves' optimal forces). With passive tension ``P_m``
   the same generalized forces need ``sum_m r_cm (a_m F_m + P_m) + o_c u_c = tau_c``: the same rows with
   right-hand side ``A x0 - r P``. The pelvis's residual actuators are untouched (muscle lengths do not depend on
   the pelvis's coordinates). OpenSim's objective ``sum a^2 + sum u^2`` is minimised within the actuators' control
   bounds under these constraints (qpsolvers, quadprog); ``force = a F + P`` for the muscles, ``o u`` for the
   reserves.

Run from this folder with a Python that has ``opensim==4.6``, numpy and qpsolvers:
``python make_so_passive.py`` (about two minutes).
"""
from __future__ import annotations

import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import opensim as osim
import qpsolvers

HERE = Path(__file__).resolve().parent
FOLDER = HERE.parent


def read_sto(path):
    """(time, labels, values) of an OpenSim storage file."""
    lines = Path(path).read_text().splitlines()
    head = next(i for i, line in enumerate(lines) if line.strip() == "endheader")
    labels = lines[head + 1].split("\t")
    values = np.array([[float(v) for v in line.split()] for line in lines[head + 2:] if line.strip()])
    return values[:, 0], labels[1:], values[:, 1:]


def run_static_optimization(work):
    """OpenSim's StaticOptimization on so_setup.xml (as so_force.sto was made), results into ``work``."""
    setup = ET.parse(HERE / "so_setup.xml")
    tool = setup.getroot().find("AnalyzeTool")
    tool.find("results_directory").text = str(work)
    for name in ("model_file", "force_set_files", "external_loads_file", "coordinates_file"):
        tool.find(name).text = str(FOLDER / tool.find(name).text.strip())
    setup.write(work / "setup.xml")
    osim.AnalyzeTool(str(work / "setup.xml"), True).run()


def coordinate_splines(model, cutoff):
    """The coordinates as AnalyzeTool prepares them: radians, padded, low-passed (IIR), quintic GCV splines."""
    storage = osim.Storage(str(FOLDER / "subject01_walk1_ik.mot"))
    model.getSimbodyEngine().convertDegreesToRadians(storage)
    storage.pad(storage.getSize() // 2)
    storage.lowpassIIR(cutoff)
    return osim.GCVSplineSet(5, storage)


def passive_and_arms(model, times, coordinates):
    """Per frame: each muscle's passive fibre force along a rigid tendon (N) and its moment arms (m) about
    ``coordinates``, from OpenSim's Thelen2003Muscle and geometry at the splined coordinates."""
    state = model.initSystem()
    splines = coordinate_splines(model, 6.0)
    muscles = model.getMuscles()
    passive = np.empty((len(times), muscles.getSize()))
    arms = np.empty((len(times), len(coordinates), muscles.getSize()))
    cs = model.getCoordinateSet()
    for k, t in enumerate(times):
        state.setTime(t)
        for i in range(cs.getSize()):
            c = cs.get(i)
            if not splines.contains(c.getName()):
                continue
            spline = splines.get(c.getName())
            c.setValue(state, spline.calcValue(osim.Vector(1, t)), False)
            c.setSpeedValue(state, spline.calcDerivative(osim.StdVectorInt([0]), osim.Vector(1, t)))
        model.assemble(state)
        model.realizeVelocity(state)
        for j in range(muscles.getSize()):
            mus = osim.Thelen2003Muscle.safeDownCast(muscles.get(j))
            rigid = mus.getPennationModel().calcFiberLength(mus.getLength(state), mus.getTendonSlackLength())
            mus.setFiberLength(state, rigid)
        model.realizeDynamics(state)
        for j in range(muscles.getSize()):
            mus = muscles.get(j)
            passive[k, j] = mus.getPassiveFiberForceAlongTendon(state)
            for i, c in enumerate(coordinates):
                arms[k, i, j] = mus.computeMomentArm(state, cs.get(c))
    return passive, arms


def main():
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        run_static_optimization(work)
        t, fnames, force = read_sto(work / "so_StaticOptimization_force.sto")
        _, names, activation = read_sto(work / "so_StaticOptimization_activation.sto")
    model = osim.Model(str(FOLDER / "subject01_simbody.osim"))
    actuators = osim.ForceSet(str(FOLDER / "gait2354_CMC_Actuators.xml"), True)
    muscles = [model.getMuscles().get(j).getName() for j in range(model.getMuscles().getSize())]
    m = len(muscles)
    assert names[:m] == muscles
    force = force[:, [fnames.index(n) for n in muscles]]
    reserves = {}
    for n in names[m:]:
        act = osim.CoordinateActuator.safeDownCast(actuators.get(n))
        if act is not None:
            reserves[n] = (act.get_coordinate(), act.getOptimalForce(), act.getMinControl(), act.getMaxControl())
    coordinates = sorted({c for c, _, _, _ in reserves.values()})
    passive, arms = passive_and_arms(model, t, coordinates)
    rnames = list(reserves)
    r = len(rnames)
    lo = np.array([model.getMuscles().get(n).getMinControl() for n in muscles] + [reserves[n][2] for n in rnames])
    hi = np.array([model.getMuscles().get(n).getMaxControl() for n in muscles] + [reserves[n][3] for n in rnames])
    out = np.empty((len(t), m + r))
    for k in range(len(t)):
        active_max = force[k, :m] / activation[k, :m]
        A = np.zeros((len(coordinates), m + r))
        A[:, :m] = arms[k] * active_max
        for j, n in enumerate(rnames):
            c, optimal, _, _ = reserves[n]
            A[coordinates.index(c), m + j] = optimal
        x0 = np.concatenate([activation[k, :m], [activation[k, names.index(n)] for n in rnames]])
        b = A @ x0 - arms[k] @ passive[k]
        x = qpsolvers.solve_qp(2 * np.eye(m + r), np.zeros(m + r), A=A, b=b, lb=lo, ub=hi, solver="quadprog")
        assert x is not None, f"frame {k} infeasible"
        out[k, :m] = x[:m] * active_max + passive[k]
        out[k, m:] = x[m:] * np.array([reserves[n][1] for n in rnames])
    write_sto(HERE / "so_passive_force.sto", t, muscles + rnames, out)
    write_sto(HERE / "so_passive_fiber_force.sto", t, muscles, passive)


def write_sto(path, t, labels, values):
    header = (f"{path.stem}\nversion=1\nnRows={len(t)}\nnColumns={len(labels) + 1}\ninDegrees=no\nendheader\n"
              + "\t".join(["time", *labels]) + "\n")
    path.write_text(header + "".join("\t".join(f"{v:.10g}" for v in (t[k], *values[k])) + "\n" for k in range(len(t))))


if __name__ == "__main__":
    main()
