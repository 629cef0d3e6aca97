"""Which OpenSim tool a setup document holds, and what of it HybridLab does not use.

File names in a setup are relative to the setup's folder, as OpenSim resolves them (its tools change to the setup's
folder before they run); empty names and ``Unassigned`` mean "not given".
"""
from __future__ import annotations

from pathlib import Path

from ...errors import DataError, SettingsError
from .._xml import parse_xml, text_of

SUPPORTED = ("ScaleTool", "InverseKinematicsTool", "InverseDynamicsTool", "AnalyzeTool")
"""The tools ``hybrid run`` runs (AnalyzeTool with its StaticOptimization analysis)."""
KNOWN_UNSUPPORTED = ("CMCTool", "RRATool", "ForwardTool", "MocoStudy", "MocoTrack", "MocoInverse", "PerturbationTool",
                     "JointReaction", "InducedAccelerations")
NOT_GIVEN = ("", "unassigned")


def tool_element(path):
    """``(tool element, root)`` of a setup document: the first child of ``<OpenSimDocument>`` (or the root).

    SettingsError naming the element for a tool ``hybrid run`` does not run (CMC, RRA, forward simulation, Moco...);
    DataError for a document that holds no tool."""
    path = Path(path)
    root = parse_xml(path)
    tool = root if root.tag != "OpenSimDocument" else next(iter(root), None)
    if tool is None:
        raise DataError("the document holds no tool", element=f"<{root.tag}>", file=path)
    if tool.tag not in SUPPORTED:
        what = "an OpenSim tool" if tool.tag in KNOWN_UNSUPPORTED or tool.tag.endswith("Tool") else "not a tool setup"
        raise SettingsError(f"{tool.tag} is {what} that HybridLab does not run (it runs "
                            f"{', '.join(SUPPORTED[:-1])} and {SUPPORTED[-1]} with StaticOptimization)",
                            element=f"<{tool.tag} name={tool.get('name', '')!r}>", file=path)
    return tool, root


def file_name(tool, tag: str, path) -> str | None:
    """The file name ``tool``'s ``<tag>`` gives, or None when empty or ``Unassigned``."""
    text = text_of(tool, tag, path, "")
    return None if text.lower() in NOT_GIVEN else text


def given(element) -> bool:
    """Whether an element says anything: text other than empty/``Unassigned``/``false``, or children."""
    return len(element) > 0 or (element.text or "").strip().lower() not in NOT_GIVEN + ("false",)


def unused_elements(tool, handled, path) -> list:
    """Notes naming every child of ``tool`` outside ``handled`` that says something (HybridLab does not use it)."""
    return [f"{Path(path).name}: <{child.tag}> is not used by HybridLab ({(child.text or '').strip()[:40]!r})"
            for child in tool if child.tag not in handled and given(child)]
