"""Our IK beside OpenSim 4.6's InverseKinematicsTool run now, on the same model, markers, weights and frames.

For each OpenSim example trial in tests/data (gait2354 walk 1, gait10dof18musc walk), twice: with the trial's IK setup
(its weights, coordinate tasks and time range; ours with ``ik_settings_from_setup`` and the robust loss, as ``hybrid
analyze --ik-setup`` runs it) and with every marker at weight 1, the setup's coordinate tasks and range kept (the
weights a study without an IK setup uses). Prints each side's mean per-frame marker RMS and max error (OpenSim's
``_ik_marker_errors.sto``, ours ``IKResult.rms``/``max``: the same quantity when no marker is missing, which holds on
these trials), the largest per-frame differences, and the worst coordinate's RMS difference. No timing.
Needs ``pip install -e ".[bench]"`` (the opensim package).

Last line: RESULT ik_rms_mm_<case>=.. opensim_ik_rms_mm_<case>=.. ik_worst_coordinate_rms_deg_<case>=.. per case,
<case> = <trial>_setup or <trial>_uniform.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data"

from benchmarks.opensim_runs import _opensim, _quiet  # noqa: E402
from engine.analysis.ik import solve_ik  # noqa: E402
from engine.io.setup_xml import ik_settings_from_setup  # noqa: E402
from engine.io.storage import read_storage  # noqa: E402
from engine.tree import compile_tree  # noqa: E402
from tests.analysis.opensim_cases import CASES, load  # noqa: E402


def uniform(setup_xml: str) -> str:
    """The setup with every marker task applied at weight 1."""
    setup_xml = setup_xml.replace("<apply>false</apply>", "<apply>true</apply>")
    return re.sub(r"(<IKMarkerTask[^>]*>.*?<weight>)[^<]*(</weight>)", r"\g<1>1\g<2>", setup_xml, flags=re.S)


def opensim_ik(opensim, folder: str, weights_of_setup: bool):
    """OpenSim's marker errors and coordinates (Tables) on ``folder``'s trial, run in a scratch copy."""
    model_file, _, setup_file = CASES[folder]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for f in (DATA / "opensim" / folder).iterdir():
            if f.is_file():
                shutil.copy(f, work / f.name)
        if not weights_of_setup:
            (work / setup_file).write_text(uniform((work / setup_file).read_text()))
        here = os.getcwd()
        os.chdir(work)
        try:
            with _quiet():
                tool = opensim.InverseKinematicsTool(str(work / setup_file))
                model = opensim.Model(str(work / model_file))     # the tool holds no reference: keep one
                tool.setModel(model)
                tool.setResultsDir(str(work))
                tool.setOutputMotionFileName(str(work / "opensim_ik.mot"))
                tool.run()
        finally:
            os.chdir(here)
        errors = next(p for p in work.iterdir() if p.name.endswith("_ik_marker_errors.sto"))
        return read_storage(errors), read_storage(work / "opensim_ik.mot")


def compare(opensim, folder: str, weights_of_setup: bool) -> tuple[float, float, float]:
    """(our mean RMS, OpenSim's, the worst rotational coordinate's RMS difference in degrees), printed with more."""
    model, trial, setup = load(folder, str(DATA))
    settings = ik_settings_from_setup(model, setup)
    if not weights_of_setup:
        settings = dataclasses.replace(settings, marker_weights={})     # every marker at default_weight 1
    ours = solve_ik(model, trial.markers, settings)
    errors, coordinates = opensim_ik(opensim, folder, weights_of_setup)
    assert np.allclose(ours.time, errors.time, atol=1e-6), folder
    rms, their_rms = ours.rms, errors.column("marker_error_RMS")
    mx, their_max = ours.max, errors.column("marker_error_max")
    tree = compile_tree(model)
    worst = ("", 0.0)
    for label in coordinates.labels:
        slot = tree.coordinates[label]
        if slot.kind != "rotational":
            continue
        theirs = coordinates.column(label) * (np.pi / 180 if coordinates.in_degrees else 1.0)
        d = np.degrees(np.sqrt(np.mean((ours.q[:, slot.qi] - theirs) ** 2)))
        worst = max(worst, (label, d), key=lambda w: w[1])
    print(f"{folder} ({'setup weights' if weights_of_setup else 'weights 1'}), {len(rms)} frames, "
          f"{len(ours.marker_names)} markers: mean RMS {1e3 * np.mean(rms):.3f} mm (OpenSim {1e3 * np.mean(their_rms):.3f}, "
          f"per frame {1e3 * np.min(rms - their_rms):+.3f}..{1e3 * np.max(rms - their_rms):+.3f}); mean max "
          f"{1e3 * np.mean(mx):.3f} mm (OpenSim {1e3 * np.mean(their_max):.3f}, per frame "
          f"{1e3 * np.min(mx - their_max):+.3f}..{1e3 * np.max(mx - their_max):+.3f}); worst coordinate {worst[0]} "
          f"{worst[1]:.3f} deg RMS")
    return 1e3 * float(np.mean(rms)), 1e3 * float(np.mean(their_rms)), worst[1]


def main():
    opensim = _opensim()
    if opensim is None:
        sys.exit('the opensim package does not import: pip install -e ".[bench]"')
    fields = []
    for folder in CASES:
        for weights_of_setup in (True, False):
            ours, theirs, angle = compare(opensim, folder, weights_of_setup)
            case = f"{folder}_{'setup' if weights_of_setup else 'uniform'}"
            fields += [f"ik_rms_mm_{case}={ours:.3f}", f"opensim_ik_rms_mm_{case}={theirs:.3f}",
                       f"ik_worst_coordinate_rms_deg_{case}={angle:.3f}"]
    print("RESULT " + " ".join(fields))


if __name__ == "__main__":
    main()
