"""Muscle paths: lengths, moment arms and polylines over via, conditional and moving points and wrap surfaces
(``geometry.MuscleGeometry``). The modules with a leading underscore are its numba kernels and their record
layouts, private to this package."""
