"""Error messages: a clear sentence (file, element, problem for HybridLab's own errors) with the details
(the traceback) expandable; shown window-modal without blocking, so nothing ever crashes the application."""
from __future__ import annotations

import traceback
from pathlib import Path

from psygnal import EmitLoopError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from engine.errors import HybridLabError


def original(exc: BaseException) -> BaseException:
    """``exc`` itself, or the error a document listener raised when ``exc`` is psygnal's wrapper of it (a
    document's signal re-raises its listener's error to whoever changed the document)."""
    while isinstance(exc, EmitLoopError) and exc.__cause__ is not None:
        exc = exc.__cause__
    return exc


def error_text(exc: BaseException) -> str:
    """The sentence shown for ``exc``: a HybridLab error as the command line prints it (file name, element,
    problem); anything else is a bug, said so."""
    exc = original(exc)
    if isinstance(exc, HybridLabError):
        parts = [Path(exc.file).name if exc.file else None, exc.element, exc.problem]
        return ": ".join(p for p in parts if p)
    return f"An unexpected error occurred ({type(exc).__name__}: {exc}). Your work is unchanged; the details can " \
           f"be sent to the developers."


def show_error(parent, title: str, exc: BaseException, details: str | None = None) -> QMessageBox:
    """Open (without blocking) a message box about ``exc`` and return it."""
    exc = original(exc)
    box = QMessageBox(QMessageBox.Icon.Critical if not isinstance(exc, HybridLabError) else QMessageBox.Icon.Warning,
                      title, error_text(exc), QMessageBox.StandardButton.Ok, parent)
    if isinstance(exc, HybridLabError) and exc.file:
        box.setInformativeText(f"File: {exc.file}")
    box.setDetailedText(details or "".join(traceback.format_exception(exc)))
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.open()
    return box
