"""The OpenSim example trials as used by the pipeline tests (model, markers, setup, references)."""
from __future__ import annotations

from functools import lru_cache


from engine.io.osim import read_osim
from engine.io.setup_xml import read_ik_setup
from engine.io.storage import read_storage
from engine.io.trc import read_trc

CASES = {
    "gait2354": ("subject01_simbody.osim", "subject01_walk1.trc", "subject01_Setup_IK.xml"),
    "gait10dof18musc": ("subject01.osim", "subject01_walk.trc", "ik_setup.xml"),
}


@lru_cache(maxsize=None)
def load(folder: str, root: str):
    d = f"{root}/opensim/{folder}/"
    model_file, trc_file, setup_file = CASES[folder]
    return read_osim(d + model_file), read_trc(d + trc_file), read_ik_setup(d + setup_file)


def reference(folder: str, root: str, name: str):
    return read_storage(f"{root}/opensim/{folder}/reference/{name}")
