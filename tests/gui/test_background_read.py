"""A trial is read off the GUI thread: the window keeps processing events while ezc3d reads, and Cancel stops the
read (its process is killed) and leaves what was open alone (issue 18)."""
import os

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QProgressDialog, QPushButton

from tests.processes import readers, running, slow_c3d


def test_reading_a_c3d_can_be_cancelled(make_window, tmp_path):
    window = make_window()
    path = slow_c3d(tmp_path / "slow.c3d")
    before = window.document.trial
    seen = {"ticks": 0}

    def watch():                # runs on the GUI thread while the file is read
        seen["ticks"] += 1
        dialogs = [d for d in window.findChildren(QProgressDialog) if d.isVisible()]
        found = readers(os.getpid())
        if found and dialogs and "reader" not in seen and seen["ticks"] > 10:   # the window kept working meanwhile
            seen["reader"] = found[0]
            dialogs[0].findChild(QPushButton).click()

    timer = QTimer()
    timer.timeout.connect(watch)
    timer.start(20)
    window.open_trial_file(path)
    timer.stop()
    assert "reader" in seen           # the dialog was shown while the reader ran, and the window kept working
    assert "cancelled" in window.statusBar().currentMessage()
    assert window.document.trial is before and window.last_error is None
    assert not running(seen["reader"])
