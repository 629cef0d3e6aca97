"""Musculotendon actuators: path geometry (``path``), force estimation (``forces``), EMG (``emg``) and the
muscle step of an analysis (``pipeline``). Their descriptions are part of the model (``engine.model.muscles``),
amputation edits are model edits (``engine.edits``). Import the modules themselves."""
