"""The 3D viewport: a VTK scene of the model, the blade, the muscles, the markers, the ground reactions and the
lab (``scene`` and its layers), and the Qt widget that shows it (``widget``)."""
