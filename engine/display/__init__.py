"""What the application draws, computed from models and configurations (no Qt, no VTK).

``shapes``: generated display shapes of the bodies when no mesh files are found (bones between
joint centres, inertia-equivalent ellipsoids). ``rod_surface``: the swept surface of a rod
(the blade) at a configuration, cross-sections from the rod's sections.
"""
