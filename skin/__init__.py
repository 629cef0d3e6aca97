"""Forward dynamics of a skinned body against devices, and socket pressure (seed 002).

A skin (``skin.skinning.Skin``: a closed triangle surface deformed by linear blend skinning, eq. 3) around a model
of the engine; its Jacobian (eqs. 8-11) maps contact forces on the skin to generalized forces (eq. 12). Devices are
rigid meshes with prescribed motion or mass-spring sheets (eqs. 4-5); skin and devices meet by penalty
contact with regularised Coulomb friction (eqs. 6-7). The engine never imports this package (only its
command line does). Importing the package imports none of its modules: its commands (``cli_simulate``,
``cli_socket_pressure``) are registered by the ``hybrid`` command without VTK (``_contour``) or the kernels.
"""
