"""gait2354 walk1 analysed as ``hybrid analyze --estimate-grf --muscles`` does (for tests of what uses results)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from engine.analysis.pipeline import AnalysisSettings, analysis_steps
from engine.progress import run
from engine.io.setup_xml import ik_settings_from_setup
from engine.io.contacts_file import load_contacts
from engine.io.external_loads import load_external_loads
from engine.io.open import open_model
from engine.io.open_trial import open_trial
from engine.io.setup_xml import read_ik_setup

CONTACTS = Path(__file__).parent / "data" / "gait2354_contacts.yaml"


def inputs(root: str, muscles: bool = True):
    """``(model, trial, settings)`` of gait2354 walk1 as ``hybrid analyze --estimate-grf --muscles`` reads them."""
    d = Path(root) / "opensim" / "gait2354"
    model = load_contacts(CONTACTS, open_model(d / "subject01_simbody.osim"))
    grf, xml = d / "subject01_walk1_grf.mot", d / "subject01_walk1_grf.xml"
    trial = open_trial(d / "subject01_walk1.trc", grf=grf, external_loads=xml)
    settings = AnalysisSettings(estimate_grf=True, muscles=muscles)
    settings.ik = ik_settings_from_setup(model, read_ik_setup(d / "subject01_Setup_IK.xml"))
    settings.plate_bodies = {load.name: load.body for load in load_external_loads(xml, grf).loads}
    return model, trial, settings


@lru_cache(maxsize=None)
def analysed(root: str, muscles: bool = True):
    """``(result, settings)`` of the whole pipeline on gait2354 walk1 (with plates, QP and muscles)."""
    model, trial, settings = inputs(root, muscles)
    return run(analysis_steps(model, trial, settings)), settings
