"""A blocking read (a C3D file parsed by ezc3d in a child process) run off the GUI thread, with a Cancel button.

:func:`call_with_cancel` runs ``function(..., cancel=event)`` in a worker thread and waits for it in a local event
loop, so the window keeps repainting and a progress dialog (shown after ``SHOW_AFTER_MS``) offers Cancel, which sets the
event: the engine kills its child process and raises :class:`~engine.child_process.Cancelled`. For the caller the
call stays an ordinary one: it returns the result or raises the function's exception.
"""
from __future__ import annotations

import threading

from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog


SHOW_AFTER_MS = 300


def call_with_cancel(parent, label: str, function, *args, **kwargs):
    """``function(*args, **kwargs, cancel=event)`` run in a worker thread behind a cancellable progress dialog."""
    cancel = threading.Event()
    outcome = {}

    def work():
        try:
            outcome["result"] = function(*args, **kwargs, cancel=cancel)
        except BaseException as exc:     # handed to the GUI thread, raised there
            outcome["error"] = exc

    dialog = QProgressDialog(label, "Cancel", 0, 0, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setAutoReset(False)
    dialog.canceled.connect(cancel.set)
    dialog.hide()                        # shown by the poll below once the read has taken SHOW_AFTER_MS
    started = QElapsedTimer()
    started.start()

    def check():
        if not worker.is_alive():
            loop.quit()
        elif not dialog.isVisible() and started.elapsed() >= SHOW_AFTER_MS:
            dialog.show()

    worker = threading.Thread(target=work, name="hybridgui-read", daemon=True)
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(20)
    poll.timeout.connect(check)
    worker.start()
    poll.start()
    loop.exec()
    poll.stop()
    dialog.canceled.disconnect(cancel.set)
    dialog.close()
    dialog.deleteLater()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
