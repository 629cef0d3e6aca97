"""The built-in scenes' parts that need no run: the sling's hook loops, the skin a sling lift is given."""
from __future__ import annotations

import pytest

from engine.errors import ModelError
from skin.mesh import grid_sheet
from skin.scenes import _hook_loops


def test_hook_loops_refuse_a_size_that_holds_no_patch_naming_it():
    """A loop of no size (or a negative one, whose box turns outward) holds the corner vertex alone, whose sag does
    not converge; one of half the shorter side reaches the next corner's: each is refused naming the value. A loop
    inside those bounds holds a patch at each corner."""
    mesh = grid_sheet(1.2, 0.6, 25, 13)                          # 5 cm spacing, shorter side 0.6 m
    nx, nz = 25, 13
    corners = (0, nz - 1, nz * (nx - 1), nx * nz - 1)
    for size in (0.0, -0.05, 0.3, 0.5):
        with pytest.raises(ModelError, match=rf"hook_loop=...\): hook loop {size!r} m is not in \(0, half the sheet's shorter side "
                                             r"0.3 m\)"):
            _hook_loops(mesh, corners, size)
    for loop in _hook_loops(mesh, corners, 0.1):
        assert len(loop.vertices(mesh)) == 9                      # 3 x 3 vertices 5 cm apart within 10 cm
