"""Musculotendon actuators: path geometry, Hill-type models, force estimation, EMG, amputation edits (their
descriptions are part of the model: ``engine.model.muscles``). Import the modules themselves."""
