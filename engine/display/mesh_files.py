"""Where a model's mesh files are, looked up as OpenSim looks them up (``ModelVisualizer::findGeometryFile``): a
path as written when it is absolute; else the model file's folder, its ``Geometry`` subfolder, the folders the
user added (the application's preferences, as OpenSim's GUI's geometry search path), and last an OpenSim
installation's ``Geometry`` folder (``$OPENSIM_HOME/Geometry``, or beside the installed ``opensim`` Python
package, located without importing it)."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

GEOMETRY = ("Geometry", "geometry")
"""Subfolders of a model's folder (and of an installation) holding its meshes."""


def opensim_geometry(environ=None) -> list[Path]:
    """The ``Geometry`` folders of the OpenSim installations found (``OPENSIM_HOME``, the ``opensim`` package)."""
    environ = os.environ if environ is None else environ
    roots = [Path(environ["OPENSIM_HOME"])] if environ.get("OPENSIM_HOME") else []
    spec = importlib.util.find_spec("opensim")
    if spec is not None and spec.submodule_search_locations:
        package = Path(list(spec.submodule_search_locations)[0])
        roots += [package, package.parent]
    return [root / sub for root in roots for sub in GEOMETRY if (root / sub).is_dir()]


def geometry_folders(model_files=(), user_folders=(), environ=None) -> list[Path]:
    """The folders searched for the meshes of a model read from ``model_files`` (its path, and where it was
    first read from; None entries are ignored), in OpenSim's order, each once."""
    folders = []
    for file in model_files:
        if file:
            folders += [Path(file).parent] + [Path(file).parent / sub for sub in GEOMETRY]
    folders += [Path(f) for f in user_folders if f] + opensim_geometry(environ)
    return list(dict.fromkeys(folders))


def find_mesh(file: str, folders) -> Path | None:
    """The mesh file ``file`` (as the model writes it): itself when absolute, else the first of ``folders``
    holding it; None when none does."""
    if Path(file).is_absolute():
        return Path(file) if Path(file).is_file() else None
    return next((Path(f) / file for f in folders if (Path(f) / file).is_file()), None)
