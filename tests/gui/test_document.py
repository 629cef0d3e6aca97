"""The application's document is plain Python: it imports no Qt and tells plain callbacks what changed."""
import subprocess
import sys

import numpy as np

from hybridgui.document import Document


def test_the_document_imports_no_qt():
    code = ("import sys, hybridgui.document; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'vtk')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_plain_callbacks_hear_the_content_and_the_frame(work):
    result, settings = work
    doc, heard = Document(), []
    doc.changed.connect(lambda: heard.append("changed"))
    doc.events_changed.connect(lambda: heard.append("events"))
    doc.frame_changed.connect(lambda frame: heard.append(frame))
    doc.set_inputs(result.model, result.trial)
    doc.set_result(result, settings)
    assert heard[-3:] == ["changed", "events", 0]
    assert doc.n_frames == len(result.ik.time) and doc.Q is result.ik.q
    heard.clear()
    doc.set_time(result.ik.time[-1] + 1.0)              # past the end: the last frame, said once
    doc.set_frame(doc.n_frames + 5)
    assert heard == [doc.n_frames - 1] and doc.frame == doc.n_frames - 1
    heard.clear()
    doc.set_events(list(reversed(result.trial.events)))
    assert heard == ["events"]
    assert [e.time for e in doc.events] == sorted(e.time for e in result.trial.events)
    assert np.isclose(doc.current_time, result.ik.time[-1])


def test_a_listeners_error_reaches_the_user_as_itself(work):
    """psygnal re-raises a listener's error wrapped in its EmitLoopError; the error dialog shows the listener's
    own error (a HybridLab error names its file), not the wrapper's text or "an unexpected error"."""
    from hybridgui.error_dialog import error_text
    from engine.errors import DataError

    result, _ = work
    doc = Document()

    def listener():
        raise DataError("the marker file is unreadable", file="/lab/walk.trc", element="frame 12")

    doc.changed.connect(listener)
    try:
        doc.set_inputs(result.model, result.trial)
    except Exception as exc:                                # noqa: BLE001 - the wrapper psygnal raises
        text = error_text(exc)
    else:
        raise AssertionError("the listener's error was swallowed")
    assert text == "walk.trc: frame 12: the marker file is unreadable"


def test_a_listeners_error_does_not_stop_the_others(work):
    """As with Qt's signals, every listener hears the change even when one before it raises; the first error still
    reaches whoever changed the document (the error dialog shows it as itself), the later ones are noted on it."""
    from hybridgui.error_dialog import error_text
    from engine.errors import DataError

    result, settings = work
    doc, heard = Document(), []
    doc.set_inputs(result.model, result.trial)
    doc.set_result(result, settings)

    def failing(frame):
        raise DataError("cannot draw the frame", element=f"frame {frame}")

    def also_failing(frame):
        raise ValueError("second listener")

    doc.frame_changed.connect(failing)
    doc.frame_changed.connect(heard.append)
    doc.frame_changed.connect(also_failing)
    doc.frame_changed.connect(lambda frame: heard.append(-frame))
    try:
        doc.set_frame(3)
    except Exception as exc:                                # noqa: BLE001 - the wrapper psygnal raises
        text, notes = error_text(exc), "".join(getattr(exc.__cause__, "__notes__", []))
    else:
        raise AssertionError("the listener's error was swallowed")
    assert heard == [3, -3] and doc.frame == 3
    assert text == "frame 3: cannot draw the frame"
    assert "ValueError: second listener" in notes
