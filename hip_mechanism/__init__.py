"""Seed 003's 2-UPR/URR hip prosthesis mechanism, analysed and driven by a patient's own gait.

Modules: ``parameters`` (the description, SI) and ``parameters_file`` (its YAML file); ``kinematics`` (eqs. 2-6,
forward kinematics); ``jacobians`` (section 4, eq. 36); ``maps`` (section 5); ``dynamics`` (section 6, virtual
work, forward dynamics); ``demands`` (what the actuators must do along a motion); ``cases`` (the seed's two gait
modes); ``trial`` (driven by an analysed trial's hip); ``tables`` (CSV); ``figures`` (matplotlib); ``display``
(what the application draws). Numba kernels in ``_geometry``, ``_jacobians``, ``_maps``.

The engine never imports this package: its command (``hip_mechanism/cli.py``) reaches ``hybrid`` by an entry point.
"""
