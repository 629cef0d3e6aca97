"""A real C3D file given the subject's parameters a lab's software writes (SUBJECT:HEIGHT, SUBJECT:WEIGHT)."""
from __future__ import annotations

from pathlib import Path


def subject_c3d(test_data: Path, path: Path, **subject) -> Path:
    """Qualisys's Sample26 Capture0002.c3d, which records no subject, written to ``path`` (its folder made) with a
    SUBJECT group of the parameters given (``HEIGHT=1.63``; a value None: left out); returns ``path``."""
    import ezc3d
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    c3d = ezc3d.c3d(str(test_data / "c3d" / "Sample26" / "Capture0002.c3d"))
    for name, value in subject.items():
        if value is not None:
            c3d.add_parameter("SUBJECT", name, [value])
    c3d.write(str(path))
    return path
