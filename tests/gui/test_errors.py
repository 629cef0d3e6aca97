"""Corrupt or unknown files give a clear message (file, problem; details expandable), never a crash, and what
was open stays open."""
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox


def _drop(window, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)


def test_corrupt_files_show_a_message_and_keep_the_work(shown, tmp_path, qtbot):
    window = shown
    before = window.document.result
    cases = {"broken.c3d": b"\x02\x50" + bytes(300), "broken.osim": b"<OpenSimDocument Version='40000'><Model",
             "broken.hls": b"PK\x03\x04 truncated", "broken.hlr": b"not a zip at all",
             "broken.yaml": b"format: hybridlab-model\nversion: 1\nbodies: [unclosed"}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        window.last_error = None
        _drop(window, [path])
        box = window.last_error
        assert isinstance(box, QMessageBox) and box.isVisible(), name
        assert name in box.text(), (name, box.text())
        assert box.detailedText(), name
        box.close()
        assert window.document.result is before
    assert window.isVisible()


def test_a_missing_file_and_an_unknown_kind(shown, tmp_path):
    window = shown
    window.open_paths([tmp_path / "gone.c3d"])
    assert "no such file" in window.last_error.text().lower() and "gone.c3d" in window.last_error.text()
    window.last_error.close()
    (tmp_path / "notes.txt").write_text("hello")
    window.open_paths([tmp_path / "notes.txt"])
    assert "notes.txt" in window.statusBar().currentMessage()
