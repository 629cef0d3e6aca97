"""What a clinician takes away from an analysis: gait events from the kinematics, per-side cycles,
spatio-temporal parameters, symmetry, prosthesis metrics, normalisation and clinical sign conventions."""
