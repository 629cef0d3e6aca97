"""gait2354's walk1 (OpenSim's subject01 on a treadmill, 60 Hz) analysed as a lab usually does: an OpenSim model
without contact candidates, the force plates applied to the calcanei by the ExternalLoads file, no ground-reaction
estimate, over the whole trial (0-2.5 s: the IK setup's 0.4-1.6 s holds no complete gait cycle)."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from engine.analysis.pipeline import AnalysisSettings, analysis_steps
from engine.io.external_loads import load_external_loads
from engine.io.open import open_model
from engine.io.open_trial import open_trial
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.progress import run


def folder(root) -> Path:
    return Path(root) / "opensim" / "gait2354"


@lru_cache(maxsize=None)
def lab_case(root: str):
    """``(result, settings)`` of walk1 with the plates' loads only."""
    d = folder(root)
    model = open_model(d / "subject01_simbody.osim")
    grf, xml = d / "subject01_walk1_grf.mot", d / "subject01_walk1_grf.xml"
    trial = open_trial(d / "subject01_walk1.trc", grf=grf, external_loads=xml)
    settings = AnalysisSettings()
    settings.ik = replace(ik_settings_from_setup(model, read_ik_setup(d / "subject01_Setup_IK.xml")), start=None,
                          end=None)
    settings.plate_bodies = {load.name: load.body for load in load_external_loads(xml, grf).loads}
    return run(analysis_steps(model, trial, settings)), settings
