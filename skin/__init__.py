"""Forward dynamics of a skinned body against devices, and socket pressure (seed 002).

A skin (``Skin``: a closed triangle surface deformed by linear blend skinning, eq. 3) around a model of the
engine; its Jacobian (eqs. 8-11) maps contact forces on the skin to generalized forces (eq. 12). Devices are
rigid meshes with prescribed motion or mass-spring sheets (eqs. 4-5); skin and devices meet by penalty
contact with regularised Coulomb friction (eqs. 6-7). The engine never imports this package (only its
command line does).
"""
from .mesh import TriangleMesh, grid_sheet
from .skinning import Skin

__all__ = ["Skin", "TriangleMesh", "grid_sheet"]
