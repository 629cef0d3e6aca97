"""Muscle forces: Hill-type models (``hill``), static optimisation and its warm-started QP, reserve actuators,
the check that muscles can balance the joint torques, and the result."""
