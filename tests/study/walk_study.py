"""The smallest study the study tests run: one gait2354 walk with OpenSim's subject01 model."""
from __future__ import annotations

from pathlib import Path


def walk_study(folder: Path, test_data: Path, extra: str = "") -> Path:
    """A study.yaml written in ``folder``: subject ``s`` (gait2354's subject01_simbody.osim) with one trial, ``walk1``
    (subject01_walk1.trc), then ``extra`` (more of the trial's lines: its loads, its settings)."""
    g = test_data / "opensim" / "gait2354"
    path = Path(folder) / "study.yaml"
    path.write_text(f"""format: hybridlab-study
version: 1
subjects:
  - id: s
    model: {g / 'subject01_simbody.osim'}
    trials:
      - id: walk1
        file: {g / 'subject01_walk1.trc'}
{extra}""")
    return path


def walk_loads(test_data: Path) -> str:
    """walk1's trial lines of its plates: the .mot and OpenSim's ExternalLoads file."""
    g = test_data / "opensim" / "gait2354"
    return f"        grf: {g / 'subject01_walk1_grf.mot'}\n        external_loads: {g / 'subject01_walk1_grf.xml'}\n"
