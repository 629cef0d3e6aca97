"""HybridLab desktop application (PySide6, VTK, pyqtgraph): presentation only, numerics live in engine."""
