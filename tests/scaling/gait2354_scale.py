"""gait2354's ScaleTool setup run once for the scaling tests, and OpenSim 4.6's outputs for it."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

import numpy as np

from engine.io.osim.scale_setup import read_scale_setup
from engine.io.storage import read_storage
from engine.io.scale_files import scale_from_files
from tests.conftest import DATA

FOLDER = DATA / "opensim" / "gait2354" / "scale"
SETUP = FOLDER / "subject01_Setup_Scale.xml"
REFERENCE = FOLDER / "reference"


@lru_cache(maxsize=None)
def scaling():
    """``(setup, ScaleRun)``."""
    setup = read_scale_setup(SETUP)
    return setup, scale_from_files(setup)


def result():
    """``(setup, ScaleResult)``."""
    setup, run = scaling()
    return setup, run.result


def marker_locations(path) -> dict:
    """``{marker: location}`` of the markers of an .osim or a MarkerSet file."""
    return {m.get("name"): np.array(m.findtext("location").split(), float)
            for m in ET.parse(path).getroot().iter("Marker")}


def coordinates(path) -> dict:
    """``{coordinate: value (rad, m)}`` of a one-row .mot/.sto (OpenSim's state paths or bare names)."""
    table = read_storage(path)
    out = {}
    for label in table.labels:
        parts = label.split("/")
        if len(parts) == 1:
            out[label] = table.column(label)[0]
        elif parts[-1] == "value":
            out[parts[-2]] = table.column(label)[0]
    return out
