"""Whole studies on Dask, beside the engine: a study description (``study.yaml``: subjects, their models and
scalings, their trials and the analysis settings), proposed from a lab's folder (``hybrid study init``) and run
as Dask tasks, one scaling per subject and one analysis per trial (``hybrid batch``), resumable, with the study
table of every trial and cycle. It imports the engine's public modules and never Qt (docs/batch.md)."""
