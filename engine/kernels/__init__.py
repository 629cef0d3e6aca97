"""Numba kernels on flat arrays. Private: call them through ``engine.algorithms``.

Each module holds one concern (rotations, joint motion, tree passes). Kernels
are compiled once (``cache=True``) and take the arrays of a compiled
``engine.tree.Tree``; they never allocate inside per-node loops.
"""
