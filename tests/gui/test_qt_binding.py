"""The Qt binding in use keeps Python's reference counts straight when signals are emitted from Python
(PySide6 6.12.0 drops a reference to True at each emit, which crashes any application after a few hundred
emits; pyproject.toml excludes it)."""
import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    fired = Signal(object)


def test_emitting_signals_does_not_drop_references():
    emitter = _Emitter()
    received = []
    emitter.fired.connect(received.append)
    before = sys.getrefcount(True), sys.getrefcount(False)
    for i in range(2000):
        emitter.fired.emit(i)
    assert (sys.getrefcount(True), sys.getrefcount(False)) == before
    assert len(received) == 2000
