"""The window-modal progress dialog with Cancel that a long export (a report, a video) shows while it runs."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressDialog


def export_dialog(window, title: str, label: str, maximum: int, on_cancel) -> QProgressDialog:
    """A dialog over ``window`` counting to ``maximum``, shown at once, that stays open at its end (the caller
    closes it) and calls ``on_cancel`` when Cancel is pressed."""
    dialog = QProgressDialog(label, "Cancel", 0, maximum, window)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(0)
    dialog.setAutoReset(False)
    dialog.setAutoClose(False)
    dialog.canceled.connect(on_cancel)
    return dialog
