"""Subject scaling with OpenSim ScaleTool's semantics: ``run_scale`` (``tool.py``) on a
:class:`~engine.scaling.setup.ScaleSetup` read by ``engine.io.osim.scale_setup.read_scale_setup`` or made by
``defaults.default_setup``; ``scale_model`` (``apply.py``) scales any model by per-body factors. The files
(inputs opened, outputs written) are ``engine.io.scale_files``'s."""
