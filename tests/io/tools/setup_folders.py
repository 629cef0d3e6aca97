"""Folders where OpenSim's example setups run unchanged: the setups copied (OpenSim resolves their file names against
their own folder, and runs write beside them), the data they name linked from tests/data."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import DATA


def setup_folder(folder: Path, source: Path, setups, links=None, copy=False) -> Path:
    """``folder`` holding copies of ``setups`` (paths under ``source``, copied to the folder's top) and links to every
    other file of ``source`` (copies with ``copy``: OpenSim writes its outputs through a link, into the linked file);
    ``links`` maps further names to files (e.g. ``{'ik.mot': reference/ik.mot}``). HybridLab's writes replace a link,
    never the file it points to."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file() and path.name != "opensim.log":     # OpenSim appends to the log of its working folder
            if copy:
                shutil.copyfile(path, folder / path.name)
            else:
                (folder / path.name).symlink_to(path)
    for name, target in (links or {}).items():
        (folder / name).unlink(missing_ok=True)
        (folder / name).symlink_to(target)
    for setup in setups:
        (folder / Path(setup).name).unlink(missing_ok=True)
        shutil.copyfile(source / setup, folder / Path(setup).name)
    return folder


GAIT2354 = DATA / "opensim" / "gait2354"
GAIT10DOF = DATA / "opensim" / "gait10dof18musc"
