"""OpenSim InverseDynamicsTool setups: the motion inputs, the forces excluded, the results file.

What HybridLab does not do is refused naming the element (body forces at joints) or listed in ``notes`` (elements
it does not use)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import SettingsError
from ..setup_xml import read_time_range
from .._xml import text_of
from .documents import file_name, given, tool_element, unused_elements
from .motion_inputs import MotionInputs, read_motion_inputs

_HANDLED = ("model_file", "results_directory", "input_directory", "time_range", "forces_to_exclude",
            "external_loads_file", "coordinates_file", "lowpass_cutoff_frequency_for_coordinates",
            "output_gen_force_file", "joints_to_report_body_forces", "output_body_forces_file")


@dataclass(frozen=True)
class IDSetup:
    """An InverseDynamicsTool setup: ``output_file`` is the generalized forces' .sto (in the results directory);
    ``forces_to_exclude`` as written (e.g. ``('Muscles',)``)."""

    name: str
    inputs: MotionInputs
    forces_to_exclude: tuple
    output_file: Path
    notes: tuple
    source: str


def read_id_setup(path) -> IDSetup:
    """Read an InverseDynamicsTool setup; SettingsError naming the element for what HybridLab does not do."""
    path = Path(path)
    tool, _ = tool_element(path)
    if tool.tag != "InverseDynamicsTool":
        raise SettingsError(f"is a {tool.tag}, not an InverseDynamicsTool", element=f"<{tool.tag}>", file=path)
    joints = tool.find("joints_to_report_body_forces")
    if joints is not None and given(joints):
        raise SettingsError("HybridLab does not report joint reaction forces; empty it", file=path,
                            element="<InverseDynamicsTool>/<joints_to_report_body_forces>")
    if file_name(tool, "input_directory", path):
        raise SettingsError("an input directory is not supported: give the files relative to the setup", file=path,
                            element="<InverseDynamicsTool>/<input_directory>")
    folder = path.absolute().parent
    results = folder / (file_name(tool, "results_directory", path) or ".")
    output = file_name(tool, "output_gen_force_file", path) or "inverse_dynamics.sto"
    return IDSetup(name=tool.get("name", "") or path.stem,
                   inputs=read_motion_inputs(tool, path, read_time_range(tool, path, "<InverseDynamicsTool>")),
                   forces_to_exclude=tuple(text_of(tool, "forces_to_exclude", path, "").split()),
                   output_file=results / output, notes=tuple(unused_elements(tool, _HANDLED, path)),
                   source=str(path))
