"""Curve panels (pyqtgraph): the analysis' time series against time or normalised to the gait cycle."""
