"""OpenSim InverseDynamicsTool setups: the motion inputs, the forces excluded, the results files (the generalized
forces and, for the joints ``joints_to_report_body_forces`` names, the equivalent body forces).

What HybridLab does not do is refused naming the element (an input directory) or listed in ``notes`` (elements it
does not use)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import SettingsError
from ..setup_xml import read_time_range
from .._xml import text_of
from .documents import file_name, tool_element, unused_elements
from .motion_inputs import MotionInputs, read_motion_inputs

_HANDLED = ("model_file", "results_directory", "input_directory", "time_range", "forces_to_exclude",
            "external_loads_file", "coordinates_file", "lowpass_cutoff_frequency_for_coordinates",
            "output_gen_force_file", "joints_to_report_body_forces", "output_body_forces_file")


@dataclass(frozen=True)
class IDSetup:
    """An InverseDynamicsTool setup: ``output_file`` is the generalized forces' .sto (in the results directory);
    ``forces_to_exclude`` as written (e.g. ``('Muscles',)``); ``body_force_joints`` the joints whose equivalent body
    forces go to ``body_forces_file``, as written (``ALL``, in any case, for every joint; none without body forces)."""

    name: str
    inputs: MotionInputs
    forces_to_exclude: tuple
    output_file: Path
    body_force_joints: tuple
    body_forces_file: Path
    notes: tuple
    source: str


def read_id_setup(path) -> IDSetup:
    """Read an InverseDynamicsTool setup; SettingsError naming the element for what HybridLab does not do."""
    path = Path(path)
    tool, _ = tool_element(path)
    if tool.tag != "InverseDynamicsTool":
        raise SettingsError(f"is a {tool.tag}, not an InverseDynamicsTool", element=f"<{tool.tag}>", file=path)
    if file_name(tool, "input_directory", path):
        raise SettingsError("an input directory is not supported: give the files relative to the setup", file=path,
                            element="<InverseDynamicsTool>/<input_directory>")
    folder = path.absolute().parent
    results = folder / (file_name(tool, "results_directory", path) or ".")
    output = file_name(tool, "output_gen_force_file", path) or "inverse_dynamics.sto"
    joints = tuple(text_of(tool, "joints_to_report_body_forces", path, "").split())
    return IDSetup(name=tool.get("name", "") or path.stem,
                   inputs=read_motion_inputs(tool, path, read_time_range(tool, path, "<InverseDynamicsTool>")),
                   forces_to_exclude=tuple(text_of(tool, "forces_to_exclude", path, "").split()),
                   output_file=results / output, body_force_joints=joints,
                   body_forces_file=results / (file_name(tool, "output_body_forces_file", path) or
                                               "body_forces_at_joints.sto"),
                   notes=tuple(unused_elements(tool, _HANDLED, path)),
                   source=str(path))
