"""Error types raised by HybridLab for invalid input.

Every error names where the problem is (the file, when there is one, and the
element inside it) and what is wrong, so a user can fix the input without
reading a traceback. Non-convergence and infeasibility are *results* (fields
such as ``success`` and ``status`` on result objects), never exceptions.
"""
from __future__ import annotations


class HybridLabError(Exception):
    """Base class of HybridLab's own errors.

    Parameters
    ----------
    problem : str
        What is wrong, in words a user understands.
    element : str, optional
        The element concerned, e.g. ``"body 'femur_r'"`` or ``"line 12"``.
    file : str, optional
        The file the element comes from.
    """

    def __init__(self, problem: str, element: str | None = None, file: str | None = None):
        self.problem = problem
        self.element = element
        self.file = str(file) if file is not None else None
        super().__init__(self._compose())

    def _compose(self) -> str:
        parts = [p for p in (self.file, self.element) if p]
        return ": ".join(parts + [self.problem])

    def in_file(self, file) -> "HybridLabError":
        """Return the same error with ``file`` set (used when a loader knows the file)."""
        err = type(self)(self.problem, self.element, file)
        err.__cause__ = self.__cause__
        return err


class ModelError(HybridLabError):
    """An invalid model description (structure, inertia, units, references)."""


class DataError(HybridLabError):
    """An unreadable or inconsistent data file (C3D, TRC, MOT/STO, XML, CSV)."""


class SettingsError(HybridLabError):
    """Invalid analysis settings (weights, cut-offs, time ranges)."""
