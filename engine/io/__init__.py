"""Reading and writing files: our model format, OpenSim files, C3D. Writes are atomic."""
