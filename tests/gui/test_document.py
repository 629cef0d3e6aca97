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
