"""The motion-analysis pipeline: inverse kinematics, kinematic derivatives, inverse dynamics
(with the measured loads, and by QP with ground-reaction estimation), validation metrics, outputs.

Long steps are generators that yield :class:`~engine.progress.Progress` and return
their result, so the command line shows a bar and the application can cancel between chunks.
"""
